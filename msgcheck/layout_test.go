package msgcheck_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// layoutMessages are a valid DELEGATE and HANDBACK of the layout fixtures
// (testdata/layouts), and one broken copy of each with the error it gets.
var layoutMessages = []struct {
	name, kind, msg string
	wantErr         string // "" for a valid message
}{
	{"delegate valid", "delegate", `{"task_id": "fix-login", "handoff_type": "DELEGATE", "agent": "engineer",
		"scope": "Fix the login form so that a wrong password shows an error and never a blank page again",
		"plan": ["reproduce the blank page", "write the failing test", "fix the handler"]}`, ""},
	{"delegate short scope", "delegate", `{"task_id": "fix-login", "handoff_type": "DELEGATE", "agent": "engineer",
		"scope": "Fix the login", "plan": ["reproduce the blank page", "fix the handler"]}`, "scope: must be >=15 words"},
	{"handback valid", "handback", `{"task_id": "fix-login", "handoff_type": "HANDBACK", "status": "success",
		"usage": {"quality": 0.9, "tokens": 1200}}`, ""},
	{"handback bad status", "handback", `{"task_id": "fix-login", "handoff_type": "HANDBACK", "status": "done",
		"usage": {"quality": 0.9, "tokens": 1200}}`, "status: "},
}

// TestSpecLayouts loads a spec in each layout real repositories keep and
// checks a passing and a failing message of each kind against it.
func TestSpecLayouts(t *testing.T) {
	layouts := []struct {
		name  string
		paths []string
	}{
		{"protoscan's own layout", []string{"testdata/layouts/own/protocol-core-v1.0.yaml"}},
		{"draft-07 spec", []string{"testdata/layouts/draft07/protocol-core-v1.0.yaml"}},
		{"core_fields in a draft-07 document", []string{"testdata/layouts/mixed/protocol-core-v1.0.yaml"}},
		{"2020-12 spec with $defs", []string{"testdata/layouts/2020-12/protocol-core.yaml"}},
		{"per-kind files by name", []string{"testdata/layouts/perkind/delegate.schema.json", "testdata/layouts/perkind/handback-schema.yaml"}},
		{"per-kind files by x-protoscan-kind", []string{"testdata/layouts/xkind/outbound.json", "testdata/layouts/xkind/result.yaml"}},
		{"a directory of per-kind files", []string{"testdata/layouts/perkind"}},
	}
	for _, l := range layouts {
		t.Run(l.name, func(t *testing.T) {
			spec, err := msgcheck.LoadSpecs(l.paths...)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(spec.Kinds(), ","); got != "delegate,handback" {
				t.Errorf("kinds = %s", got)
			}
			if w := spec.Warnings(); len(w) != 0 {
				t.Errorf("warnings: %v", w)
			}
			v, err := msgcheck.New(msgcheck.Options{}, spec)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range layoutMessages {
				var msg any
				if err := json.Unmarshal([]byte(m.msg), &msg); err != nil {
					t.Fatal(err)
				}
				res := v.Validate(m.kind, msg)
				// the kind is told from the message too: by the spec's
				// signature, else by one inferred from required fields
				if told := v.Validate("", msg); told.Kind != m.kind || told.Valid != res.Valid {
					t.Errorf("%s: told as %q (valid %v)", m.name, told.Kind, told.Valid)
				}
				if res.SpecVersion != "1.0" {
					t.Errorf("%s: spec version %q", m.name, res.SpecVersion)
				}
				if m.wantErr == "" {
					if !res.Valid || len(res.Warnings) != 0 {
						t.Errorf("%s: %+v", m.name, res)
					}
					continue
				}
				if res.Valid || len(res.Errors) != 1 || !strings.HasPrefix(res.Errors[0].Message, m.wantErr) {
					t.Errorf("%s: want one error %q..., got %+v", m.name, m.wantErr, res.Errors)
				}
			}
		})
	}
}

// TestSpecUnenforcedKeywordsWarn: a JSON Schema keyword protoscan does not
// enforce loads, with a warning at its file:line:col; annotations and x-
// keys load silently, anywhere.
func TestSpecUnenforcedKeywordsWarn(t *testing.T) {
	src := `$schema: "https://json-schema.org/draft/2020-12/schema"
version: "1"
x-team: core
minProperties: 1
msg:
  type: object
  x-owner: me
  required: [v]
  properties:
    v:
      type: integer
      multipleOf: 5
      x-note: {any: [thing]}
      examples: [5, 10]
    w:
      type: array
      prefixItems: [{type: string}]
      items: [{}, {}]
    x:
      if: {type: string}
      then: {minLength: 2}
      dependentRequired: {a: [b]}
      contentMediaType: text/plain
      $anchor: here
  dependentRequired: {v: [w]}
  additionalProperties: {type: string}
`
	sp, err := msgcheck.ParseSpec("w.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range sp.Warnings() {
		got = append(got, w.String())
	}
	want := []string{
		`w.yaml:4:1: JSON Schema keyword "minProperties" at the top level of a spec (message kinds are top-level blocks) is not enforced by protoscan (ignored)`,
		`w.yaml:25:3: JSON Schema keyword "dependentRequired" on message kind "msg" is not enforced by protoscan (ignored)`,
		`w.yaml:26:3: JSON Schema keyword "additionalProperties" on message kind "msg" (unknown fields are warnings) is not enforced by protoscan (ignored)`,
		`w.yaml:12:7: JSON Schema keyword "multipleOf" is not enforced by protoscan (ignored)`,
		`w.yaml:17:7: JSON Schema keyword "prefixItems" is not enforced by protoscan (ignored)`,
		`w.yaml:18:7: items as a list (draft-07 tuple validation) is not enforced by protoscan (ignored)`,
		`w.yaml:20:7: JSON Schema keyword "if" is not enforced by protoscan (ignored)`,
		`w.yaml:21:7: JSON Schema keyword "then" is not enforced by protoscan (ignored)`,
		`w.yaml:22:7: JSON Schema keyword "dependentRequired" is not enforced by protoscan (ignored)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// the keywords it enforces still hold
	v, _ := msgcheck.New(msgcheck.Options{}, sp)
	if res := v.Validate("msg", map[string]any{"v": "five"}); res.Valid {
		t.Errorf("v: want a type error, got %+v", res)
	}
	if w := sp.Warnings()[0]; w.File != "w.yaml" || w.Line != 4 || w.Col != 1 {
		t.Errorf("warning = %+v", w)
	}
}

// TestSpecTypos: a key that is neither protoscan's nor JSON Schema's is an
// error, with the key it is most likely a misspelling of.
func TestSpecTypos(t *testing.T) {
	rows := []struct{ src, want string }{
		{"version: \"1\"\nmsg:\n  core_feilds: {v: {}}\n",
			`t.yaml:3:3: unknown key "core_feilds" in message kind "msg" (did you mean "core_fields"?)`},
		{"version: \"1\"\nmsg:\n  properties: {v: {}}\n  additionalProperty: false\n",
			`t.yaml:4:3: unknown key "additionalProperty" in message kind "msg" (did you mean "additionalProperties"?)`},
		{"version: \"1\"\ndefinition: {}\nmsg:\n  properties: {v: {}}\n",
			`t.yaml:2:1: unknown top-level key "definition" (did you mean "definitions"?)`},
		{"version: \"1\"\nmsg:\n  properties: {v: {minlength: 1}}\n",
			`t.yaml:3:20: unknown keyword "minlength" (did you mean "minLength"?)`},
		{"version: \"1\"\nmsg:\n  properties: {v: {$deff: {}}}\n",
			`t.yaml:3:20: unknown keyword "$deff" (did you mean "$defs"?)`},
		{"version: \"1\"\nmsg:\n  properties: {v: {frobnicate: 1}}\n",
			`t.yaml:3:20: unknown keyword "frobnicate"`},
		{"version: \"1\"\nmsg:\n  type: string\n  properties: {v: {}}\n",
			`t.yaml:3:9: msg: a message kind is an object (type "string")`},
		{"version: \"1\"\n$id: https://x.org/p.json\nmsg:\n  properties: {v: {$ref: \"https://x.org/q.json#/$defs/a\"}}\n$defs: {a: {}}\n",
			`t.yaml:4:26: unresolvable $ref "https://x.org/q.json#/$defs/a" (only #/definitions/NAME and #/$defs/NAME are supported)`},
		{"version: \"1\"\nmsg:\n  properties: {v: {$ref: \"#/$defs/nope\"}}\n",
			`t.yaml:3:26: unresolvable $ref "#/$defs/nope" (only #/definitions/NAME and #/$defs/NAME are supported)`},
	}
	for _, r := range rows {
		_, err := msgcheck.ParseSpec("t.yaml", []byte(r.src))
		if err == nil || err.Error() != r.want {
			t.Errorf("%q:\n got  %v\n want %s", r.src, err, r.want)
		}
	}
}

// TestSpecRefByID: a $ref may spell out the spec's own $id.
func TestSpecRefByID(t *testing.T) {
	src := "version: \"1\"\n$id: https://x.org/p.json\nmsg:\n  properties: {v: {$ref: \"https://x.org/p.json#/$defs/a\"}}\n$defs: {a: {type: string}}\n"
	sp, err := msgcheck.ParseSpec("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := msgcheck.New(msgcheck.Options{}, sp)
	// v is not required, so an extension: its findings are warnings
	if res := v.Validate("msg", map[string]any{"v": 1.0}); len(res.Warnings) != 1 {
		t.Errorf("the $ref does not check: %+v", res)
	}
}

// TestLoadSpecsErrors: what cannot make one spec of several files.
func TestLoadSpecsErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	d1 := write("delegate.yaml", "version: \"1\"\nproperties: {v: {}}\n")
	d2 := write("other.yaml", "x-protoscan-kind: delegate\nversion: \"1\"\nproperties: {v: {}}\n")
	h2 := write("handback.yaml", "version: \"2\"\nproperties: {v: {}}\n")
	noName := write("my.schema.v1.yaml", "properties: {v: {}}\n")
	for _, c := range []struct {
		paths []string
		want  string
	}{
		{[]string{d1, d2}, `other.yaml: message kind "delegate" is defined in ` + d1 + ` too`},
		{[]string{d1, h2}, `handback.yaml: version "2" differs from version "1" of ` + d1},
		{[]string{noName}, `my.schema.v1.yaml:1:1: cannot tell the message kind of this schema from its file name; add x-protoscan-kind: KIND`},
		{[]string{t.TempDir()}, `: no spec files (*.yaml, *.yml, *.json) in the directory`},
	} {
		_, err := msgcheck.LoadSpecs(c.paths...)
		if err == nil || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("LoadSpecs(%v) = %v, want ...%s", c.paths, err, c.want)
		}
	}
	// a directory the tree names must lie in the tree
	if _, err := msgcheck.LoadSpecsIn(t.TempDir(), dir); err == nil || !strings.HasSuffix(err.Error(), "directory outside the tree") {
		t.Errorf("LoadSpecsIn out of the tree = %v", err)
	}
	if sp, err := msgcheck.LoadSpecsIn("testdata", "testdata/layouts/perkind"); err != nil || len(sp.Kinds()) != 2 {
		t.Errorf("LoadSpecsIn in the tree = %v", err)
	}
	// files are merged in the order given
	sp, err := msgcheck.LoadSpecs(write("handback.yaml", "properties: {v: {}}\n"), d1)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(sp.Kinds(), ","); got != "handback,delegate" || sp.Version != "1" || len(sp.Sources()) != 2 {
		t.Errorf("merged: kinds %s, version %q, sources %v", got, sp.Version, sp.Sources())
	}
}

// TestEmbeddedSpecsWarnNothing: the embedded specs use no keyword protoscan
// would ignore.
func TestEmbeddedSpecsWarnNothing(t *testing.T) {
	for _, name := range []string{msgcheck.DefaultSpecName, "nexus-handoff-v2.yaml", "phase-verdict-v1.yaml"} {
		sp, err := msgcheck.EmbeddedSpec(name)
		if err != nil {
			t.Fatal(err)
		}
		if w := sp.Warnings(); len(w) > 0 {
			t.Errorf("%s: %v", name, w)
		}
		if got := sp.Sources(); len(got) != 1 || got[0] != "embedded:"+name {
			t.Errorf("%s: sources %v", name, got)
		}
	}
}
