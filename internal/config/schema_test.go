package config

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"github.com/protoscan-dev/protoscan/languages/yamldoc"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema()))
	if err != nil {
		t.Fatalf("Schema() is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	if err := c.AddResource("protoscan.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("protoscan.schema.json")
	if err != nil {
		t.Fatalf("Schema() does not compile: %v", err)
	}
	return sch
}

// schemaValidate validates YAML source against the schema as an editor
// would: the YAML turned into its JSON value. ok is false when the YAML
// has no JSON value (a syntax error, duplicate keys).
func schemaValidate(t *testing.T, sch *jsonschema.Schema, src string) (err error, ok bool) {
	t.Helper()
	docs, perr := yamldoc.Parse("c.yaml", []byte(src), yamldoc.Limits{})
	if perr != nil || len(docs) > 1 {
		return nil, false
	}
	var v any
	if len(docs) == 1 {
		if v, perr = yamlnode.ToValue(docs[0], yamlnode.Limits{}); perr != nil {
			return nil, false
		}
	}
	data, jerr := json.Marshal(v)
	if jerr != nil {
		return nil, false
	}
	inst, jerr := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if jerr != nil {
		t.Fatal(jerr)
	}
	return sch.Validate(inst), true
}

func TestSchemaIsJSON(t *testing.T) {
	var s struct {
		Schema     string                     `json:"$schema"`
		Properties map[string]json.RawMessage `json:"properties"`
		Defs       struct {
			RuleSetting struct {
				OneOf []struct {
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"oneOf"`
			} `json:"ruleSetting"`
			Severity struct {
				Enum []string `json:"enum"`
			} `json:"severity"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(Schema(), &s); err != nil {
		t.Fatal(err)
	}
	if s.Schema != "http://json-schema.org/draft-07/schema#" {
		t.Errorf("$schema = %q", s.Schema)
	}
	// the schema and Load know the same keys
	var keys []string
	for k := range s.Properties {
		keys = append(keys, k)
	}
	if want := slices.Sorted(slices.Values(topKeys)); !reflect.DeepEqual(slices.Sorted(slices.Values(keys)), want) {
		t.Errorf("schema properties %v, Load's keys %v", slices.Sorted(slices.Values(keys)), want)
	}
	var ruleProps []string
	for _, o := range s.Defs.RuleSetting.OneOf {
		for k := range o.Properties {
			ruleProps = append(ruleProps, k)
		}
	}
	if !reflect.DeepEqual(slices.Sorted(slices.Values(ruleProps)), ruleKeys) {
		t.Errorf("schema rule keys %v, Load's %v", ruleProps, ruleKeys)
	}
	if !reflect.DeepEqual(s.Defs.Severity.Enum, []string{"error", "warning", "note"}) {
		t.Errorf("schema severities %v", s.Defs.Severity.Enum)
	}
	// a copy: callers cannot change it
	Schema()[0] = 'x'
	if Schema()[0] != '{' {
		t.Error("Schema() shares its bytes")
	}
	compileSchema(t)
}

// TestSchemaAgrees: the schema accepts what Load accepts and rejects what
// Load rejects, but for what JSON Schema cannot say (errorCases marks
// those schemaAccepts).
func TestSchemaAgrees(t *testing.T) {
	sch := compileSchema(t)
	good := []string{
		goodConfig, "", "# nothing\n", "~\n",
		"rules: {a/b: false, c/d: true, e/f: on, g/h: {}}\n",
		"max-file-size: -1\n", "max-file-size: 1e6\n", "fail-on: none\n",
		"canonical: [\"a/**:Cls.method\", \"b.py\"]\n",
		"spec: [specs/delegate.schema.json, specs/handback.schema.json]\n",
		"include: [., ../x, \"./src\"]\n",
	}
	for _, src := range good {
		if _, err := Parse("c.yaml", []byte(src)); err != nil {
			t.Errorf("Load rejects %q: %v", src, err)
		}
		err, ok := schemaValidate(t, sch, src)
		if !ok || err != nil {
			t.Errorf("schema rejects %q: %v", src, err)
		}
	}
	for _, tt := range errorCases {
		if tt.schema == schemaSkip {
			if _, ok := schemaValidate(t, sch, tt.src); ok {
				t.Errorf("%s: marked schemaSkip, but the schema can judge it", tt.name)
			}
			continue
		}
		err, ok := schemaValidate(t, sch, tt.src)
		switch {
		case !ok:
			t.Errorf("%s: no JSON value", tt.name)
		case tt.schema == schemaRejects && err == nil:
			t.Errorf("%s: the schema accepts %q", tt.name, tt.src)
		case tt.schema == schemaAccepts && err != nil:
			t.Errorf("%s: the schema rejects %q (mark it schemaRejects): %v", tt.name, tt.src, err)
		}
	}
}

// TestStarter: the file protoscan init writes loads, fits the schema,
// sets nothing a scan would notice, and shows every key of the format.
func TestStarter(t *testing.T) {
	src := Starter()
	c, err := Parse(".protoscan.yaml", src)
	if err != nil {
		t.Fatalf("the starter does not load: %v", err)
	}
	if err, ok := schemaValidate(t, compileSchema(t), string(src)); !ok || err != nil {
		t.Errorf("the schema rejects the starter: %v", err)
	}
	if len(c.Include)+len(c.Exclude)+len(c.Synonyms)+len(c.Canonical) > 0 || c.Spec != "" || c.FailOn != "error" || c.MaxFileSize != 0 {
		t.Errorf("the starter sets something: %+v", c)
	}
	for _, r := range c.Rules {
		if !r.Enabled || r.HasSeverity {
			t.Errorf("the starter changes rule %s", r.Pattern)
		}
	}
	for _, k := range topKeys {
		if k != "max-file-size" && !bytes.Contains(src, []byte(k+":")) {
			t.Errorf("the starter does not show %s", k)
		}
	}
}
