package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// sample is a report with every part a renderer shows: findings of all
// severities, with and without columns and ends, a file-level notice,
// related locations, fixes (one over two files, one a pure insertion at
// offset 0), fingerprints, a divergence cluster, a rule without docs,
// text that needs escaping, a path that needs percent-encoding, message
// summaries, the drift matrix and the suppressed/baselined/stale counts.
func sample() *Report {
	fs := []finding.Finding{
		{Rule: "enumdrift/legacy-status", Severity: finding.Error,
			Location: finding.Location{Path: "router/router.go", Line: 11, Col: 26, EndLine: 11, EndCol: 37},
			Message:  `legacy status "escalated": the protocol spells it "escalate" (in const Status)`,
			Literal:  "escalated", Canonical: "escalate",
			Fix: &finding.Fix{Message: `Replace "escalated" with "escalate"`,
				Edits: []finding.Edit{{Path: "router/router.go", Offset: 212, End: 221, New: "escalate"}}},
			Fingerprint: "5f2b9c1e0a7d4e36"},
		{Rule: "enumdrift/missing-status", Severity: finding.Warning,
			Location: finding.Location{Path: "router/router.go", Line: 6, Col: 1},
			Message:  "const Status defines HANDBACK statuses but lacks escalate",
			Related:  []finding.Location{{Path: "worker.py", Line: 3, Col: 5, Message: "the other definition"}},
			Fix: &finding.Fix{Message: "Add escalate to both definitions",
				Edits: []finding.Edit{
					{Path: "router/router.go", Offset: 0, End: 0, New: "// statuses\n"},
					{Path: "worker.py", Offset: 40, End: 40, New: ", \"escalate\""},
					{Path: "router/router.go", Offset: 130, End: 131, New: ""},
				}}},
		{Rule: "protoscan/too-large", Severity: finding.Warning,
			Location: finding.Location{Path: "big.yaml"}, Message: "file is 3.0 MiB, over the 2 MiB limit"},
		{Rule: "divergence/duplicate-escalation", Severity: finding.Warning,
			Location: finding.Location{Path: "legacy/helpers.py", Line: 4, Col: 1},
			Message: "escalation decision implemented 3 times (should_escalate, ShouldEscalate and escalate_handback) in 2 languages; " +
				"escalate_handback (skills/protocol_validator/escalation.py:6) is the canonical one",
			Related: []finding.Location{
				{Path: "legacy/helpers.py", Line: 4, Col: 1, Message: "should_escalate (python): metrics.quality < 0.6, retry_count >= 3"},
				{Path: "router/escalate.go", Line: 19, Col: 1, Message: "ShouldEscalate (go): metrics.quality < 0.7, retry_count >= 3"},
				{Path: "skills/protocol_validator/escalation.py", Line: 6, Col: 1, Message: "escalate_handback (python) [canonical]: metrics.quality < 0.5, retry_count >= 3"},
			},
			Fingerprint: "0c1d2e3f40516273"},
		{Rule: "divergence/conflicting-threshold", Severity: finding.Error,
			Location: finding.Location{Path: "legacy/helpers.py", Line: 6, Col: 12},
			Message:  "metrics.quality is compared with different values in copies of one escalation decision: 0.6 in should_escalate; 0.7 in ShouldEscalate; 0.5 in escalate_handback (canonical)",
			Related: []finding.Location{
				{Path: "legacy/helpers.py", Line: 6, Col: 12, Message: "metrics.quality < 0.6 in should_escalate"},
				{Path: "router/escalate.go", Line: 21, Col: 15, Message: "metrics.quality < 0.7 in ShouldEscalate"},
			}},
		{Rule: "msgcheck/delegate-task-id-format", Severity: finding.Error,
			Location: finding.Location{Path: "docs/Agent Guide.md", Line: 14, Col: 10, EndLine: 16, EndCol: 3},
			Message:  "task_id: must be kebab-case, 3-50 chars (got 'Task|ID`001')", Fingerprint: "9a8b7c6d5e4f3021"},
		{Rule: "msgcheck/delegate-unknown-field", Severity: finding.Note,
			Location: finding.Location{Path: "queue/DELEGATE-1.yaml", Line: 12},
			Message:  "Unknown field 'foo_bar' in DELEGATE (will be ignored)"},
		{Rule: "protoscan/symlink-outside", Severity: finding.Note,
			Location: finding.Location{Path: "vendor-link"}, Message: "symlink to a place outside the scan root, not followed"},
	}
	finding.Sort(fs)
	return &Report{Tool: "protoscan", Version: "v0.0.0-test", Files: 12, Parsed: 9, Candidates: 4, Findings: fs,
		Rules: []rules.Doc{
			{ID: "divergence/duplicate-escalation", Name: "DuplicateEscalation", Title: "An escalation decision implemented more than once",
				Severity: finding.Warning, What: "Two or more functions decide whether a HANDBACK escalates.",
				Why: "Copies drift: one threshold changes, the others do not.", Example: "def should_escalate(h):\n    return h[\"metrics\"][\"quality\"] < 0.6\n",
				Fix: "Call the canonical implementation instead of repeating it."},
			{ID: "enumdrift/legacy-status", Name: "LegacyStatus", Title: "A legacy alias of a HANDBACK status",
				Severity: finding.Error, What: "A status spelled with a legacy alias of the spec (`failed` for `failure`).",
				Why: "Consumers that compare with the canonical value miss it.", Example: "status: ```failed```",
				Fix: "Write the canonical value; `protoscan --fix` offers the edit."},
			{ID: "enumdrift/missing-status", Name: "MissingStatus", Title: "A status enum lacking canonical values",
				Severity: finding.Warning, What: "A const block, enum or Literal of statuses lacks canonical values."},
			{ID: "msgcheck/delegate-unknown-field", Title: "An unknown DELEGATE field", Severity: finding.Note},
			{ID: "protoscan/too-large", Name: "TooLarge", Title: "A file over --max-file-size", Severity: finding.Warning,
				What: "A file was not scanned because it is larger than the limit.", Fix: "Raise --max-file-size."},
			{ID: "protoscan/too-large", Name: "TooLargeAgain", Title: "a duplicate entry, dropped"},
		},
		Messages: []KindSummary{
			{Kind: "delegate", Found: 10, Valid: 8, Invalid: 2, WithWarnings: 3,
				TopErrors:     []Count{{"msgcheck/delegate-task-id-format", 2}, {"msgcheck/delegate-scope-words", 1}},
				UnknownFields: []Count{{"foo_bar", 2}}, DeprecatedFields: []Count{{"context", 1}}},
			{Kind: "handback", Found: 3, Valid: 2, Invalid: 1, TopErrors: []Count{{"msgcheck/handback-metrics-quality-range", 1}}},
			{Kind: "nexus_handoff_v2"},
		},
		Statuses: []StatusSpelling{
			{Value: "success", Canonical: "success", Count: 5, Locations: []finding.Location{
				{Path: "fixtures/handback-2.yaml", Line: 2, Col: 9}, {Path: "router/router.go", Line: 7, Col: 20},
				{Path: "worker.py", Line: 9, Col: 12}, {Path: "worker.py", Line: 30, Col: 12}, {Path: "worker.py", Line: 41, Col: 16}}},
			{Value: "SUCCESS", Canonical: "success", Count: 2, Locations: []finding.Location{
				{Path: "fixtures/handback-1.yaml", Line: 2, Col: 9}, {Path: "fixtures/handback-3.yaml", Line: 2, Col: 9}}},
			{Value: "escalated", Canonical: "escalate", Count: 1, Locations: []finding.Location{{Path: "router/router.go", Line: 11, Col: 26}}},
			{Value: "done|ok", Count: 1, Locations: []finding.Location{{Path: "worker.py", Line: 3, Col: 43}}},
		},
		Suppressed: 2, Baselined: 1, StaleBaseline: 1,
		Gate: &Gate{
			Specs: []GateSpec{
				{Protocol: "protocol-core", Version: "1.0", Files: []string{"docs/specs/protocol-core-v99.yaml"}, Why: SpecDiscovered},
				{Protocol: "nexus-handoff", Version: "2.0", Files: []string{"embedded:nexus-handoff-v2.yaml"}, Why: SpecFallback},
				{Protocol: "phase-verdict", Version: "1.0", Files: []string{"embedded:phase-verdict-v1.yaml"}, Why: SpecDefault},
			},
			Config: ".protoscan.yaml", ConfigFound: true,
			Lowered: []Lowered{
				{Location: finding.Location{Path: ".protoscan.yaml", Line: 2, Col: 3}, Setting: "rules",
					Message: `rules "*/*": off turns off 40 rules`},
				{Location: finding.Location{Path: ".protoscan.yaml", Line: 4, Col: 3}, Setting: "synonyms",
					Message: "synonyms \"done\n::error::x @team #12\" -> \"success\" makes it a legacy spelling of \"success\""},
				{Location: finding.Location{Path: ".protoscan.yaml", Line: 5, Col: 10}, Setting: "fail-on",
					Message: "fail-on: never lets every finding pass"},
			},
		},
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test ./report -update rewrites it):\n--- got\n%s--- want\n%s", name, got, want)
	}
}

// renderers are every format, with the same signature.
var renderers = map[string]func(io *bytes.Buffer, r *Report) error{
	"text":     func(b *bytes.Buffer, r *Report) error { return Text(b, r, false) },
	"color":    func(b *bytes.Buffer, r *Report) error { return Text(b, r, true) },
	"json":     func(b *bytes.Buffer, r *Report) error { return JSON(b, r) },
	"sarif":    func(b *bytes.Buffer, r *Report) error { return SARIF(b, r) },
	"markdown": func(b *bytes.Buffer, r *Report) error { return Markdown(b, r) },
}

func render(t *testing.T, format string, r *Report) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := renderers[format](&b, r); err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return b.Bytes()
}

func TestText(t *testing.T) {
	plain := render(t, "text", sample())
	golden(t, "report.txt", plain)
	golden(t, "report.color.txt", render(t, "color", sample()))
	if bytes.Contains(plain, []byte("\x1b[")) {
		t.Error("colour codes without a terminal")
	}
	// The finding lines keep their contract format (the CLI's testscripts
	// match them), and an empty report is just the summary line.
	for _, want := range []string{
		"router/router.go:11:26: error: legacy status \"escalated\": the protocol spells it \"escalate\" (in const Status) [enumdrift/legacy-status]\n",
		"big.yaml: warning: file is 3.0 MiB, over the 2 MiB limit [protoscan/too-large]\n",
		"\tworker.py:3:5: the other definition\n",
		"queue/DELEGATE-1.yaml:12: note: ",
	} {
		if !bytes.Contains(plain, []byte(want)) {
			t.Errorf("text report lacks %q", want)
		}
	}
	empty := render(t, "text", &Report{Tool: "protoscan", Version: "v0", Files: 4})
	if want := "0 findings (0 errors, 0 warnings, 0 notes) in 4 files scanned\n"; string(empty) != want {
		t.Errorf("empty report:\n%q\nwant\n%q", empty, want)
	}
}

func TestJSON(t *testing.T) {
	golden(t, "report.json", render(t, "json", sample()))
	empty := render(t, "json", &Report{Tool: "protoscan", Version: "v0"})
	for _, want := range []string{`"findings": []`, `"messages": []`, `"statuses": []`, `"suppressed": 0`, `"stale_baseline": 0`} {
		if !bytes.Contains(empty, []byte(want)) {
			t.Errorf("an empty report must have %s:\n%s", want, empty)
		}
	}
	var out struct {
		Findings []struct {
			Fingerprint string `json:"fingerprint"`
		} `json:"findings"`
		Messages []struct {
			Kind       string  `json:"kind"`
			Compliance float64 `json:"compliance"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(render(t, "json", sample()), &out); err != nil {
		t.Fatal(err)
	}
	fps := 0
	for _, f := range out.Findings {
		if f.Fingerprint != "" {
			fps++
		}
	}
	if fps != 3 {
		t.Errorf("%d findings with a fingerprint, want 3", fps)
	}
	// Compliance is rounded down: 2 of 3 is 66.6, none found is 100.
	want := map[string]float64{"delegate": 80, "handback": 66.6, "nexus_handoff_v2": 100}
	for _, k := range out.Messages {
		if k.Compliance != want[k.Kind] {
			t.Errorf("%s: compliance %v, want %v", k.Kind, k.Compliance, want[k.Kind])
		}
	}
}

func TestCompliance(t *testing.T) {
	for _, c := range []struct {
		found, valid int
		want         string
	}{{0, 0, "-"}, {1, 1, "100.0%"}, {2000, 1999, "99.9%"}, {3, 1, "33.3%"}, {3, 2, "66.6%"}, {7, 0, "0.0%"}} {
		if got := complianceText(KindSummary{Found: c.found, Valid: c.valid}); got != c.want {
			t.Errorf("%d of %d valid: %s, want %s", c.valid, c.found, got, c.want)
		}
	}
}

func loadSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	abs, err := filepath.Abs("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat() // uri and uri-reference values must be valid too
	sch, err := c.Compile(abs)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validateSARIF(t *testing.T, sch *jsonschema.Schema, doc []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("SARIF does not validate against the 2.1.0 schema: %v\n%s", err, doc)
	}
}

// sarifOut is the part of a SARIF log the tests look into.
type sarifOut struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID   string `json:"id"`
					Help struct {
						Text     string `json:"text"`
						Markdown string `json:"markdown"`
					} `json:"help"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex *int   `json:"ruleIndex"`
			Level     string `json:"level"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region *map[string]int `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			RelatedLocations    []struct {
				ID *int `json:"id"`
			} `json:"relatedLocations"`
			Fixes []struct {
				ArtifactChanges []struct {
					Replacements []struct {
						DeletedRegion map[string]int `json:"deletedRegion"`
					} `json:"replacements"`
				} `json:"artifactChanges"`
			} `json:"fixes"`
		} `json:"results"`
	} `json:"runs"`
}

func TestSARIF(t *testing.T) {
	sch := loadSARIFSchema(t)
	rep := sample()
	doc := render(t, "sarif", rep)
	golden(t, "report.sarif", doc)
	validateSARIF(t, sch, doc)
	validateSARIF(t, sch, render(t, "sarif", &Report{Tool: "protoscan"}))
	// The schema does reject: a level SARIF does not know, a URI that is
	// not one.
	for _, bad := range []string{`"level": "error"`, `"uri": "big.yaml"`} {
		broken := bytes.Replace(doc, []byte(bad), []byte(strings.NewReplacer("error", "fatal", "big.yaml", "big%zz.yaml").Replace(bad)), 1)
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(broken))
		if err != nil {
			t.Fatal(err)
		}
		if sch.Validate(v) == nil {
			t.Errorf("the schema accepts SARIF with %s changed", bad)
		}
	}

	var out sarifOut
	if err := json.Unmarshal(doc, &out); err != nil {
		t.Fatal(err)
	}
	run := out.Runs[0]
	rules := run.Tool.Driver.Rules
	if len(rules) != 5 {
		t.Errorf("%d rules, want the 5 distinct ones", len(rules))
	}
	if len(run.Results) != len(rep.Findings) {
		t.Fatalf("%d results for %d findings", len(run.Results), len(rep.Findings))
	}
	for i, res := range run.Results {
		f := rep.Findings[i]
		if res.RuleID != f.Rule || res.Level != f.Severity.String() {
			t.Errorf("result %d: %s %s, want %s %s", i, res.RuleID, res.Level, f.Rule, f.Severity)
		}
		if res.RuleIndex != nil && rules[*res.RuleIndex].ID != f.Rule {
			t.Errorf("result %d: ruleIndex %d is %s, not %s", i, *res.RuleIndex, rules[*res.RuleIndex].ID, f.Rule)
		}
		documented := false
		for _, d := range rules {
			documented = documented || d.ID == f.Rule
		}
		if documented != (res.RuleIndex != nil) {
			t.Errorf("result %d (%s): ruleIndex %v, documented %v", i, f.Rule, res.RuleIndex, documented)
		}
		if got := res.PartialFingerprints[FingerprintKey]; got != f.Fingerprint {
			t.Errorf("result %d: fingerprint %q, want %q", i, got, f.Fingerprint)
		}
		region := res.Locations[0].PhysicalLocation.Region
		if (region != nil) != (f.Line > 0) {
			t.Errorf("result %d (line %d): region %v", i, f.Line, region)
		}
		if region != nil {
			for k, v := range *region {
				if v <= 0 {
					t.Errorf("result %d: region.%s = %d", i, k, v)
				}
			}
		}
		if len(res.RelatedLocations) != len(f.Related) {
			t.Errorf("result %d: %d related locations, want %d", i, len(res.RelatedLocations), len(f.Related))
		}
		for j, rel := range res.RelatedLocations {
			if rel.ID == nil || *rel.ID != j {
				t.Errorf("result %d: related location %d has id %v", i, j, rel.ID)
			}
		}
		if (len(res.Fixes) > 0) != (f.Fix != nil) {
			t.Errorf("result %d: %d fixes", i, len(res.Fixes))
		}
		if f.Path == "docs/Agent Guide.md" {
			if uri := res.Locations[0].PhysicalLocation.ArtifactLocation.URI; uri != "docs/Agent%20Guide.md" {
				t.Errorf("uri %q, want it percent-encoded", uri)
			}
		}
	}
	// A fix at offset 0 deleting nothing keeps both offsets: 0 is not unknown.
	if !bytes.Contains(doc, []byte(`"charOffset": 0,`)) || !bytes.Contains(doc, []byte(`"charLength": 0`)) {
		t.Error("a zero charOffset or charLength was dropped")
	}
	if !strings.Contains(rules[1].Help.Markdown, "````\nstatus: ```failed```\n````") {
		t.Errorf("an example with backticks needs a longer fence:\n%s", rules[1].Help.Markdown)
	}
}

// TestSARIFRegions checks the regions of partly known locations against
// the schema and GitHub's expectations.
func TestSARIFRegions(t *testing.T) {
	sch := loadSARIFSchema(t)
	for _, c := range []struct {
		loc  finding.Location
		want string
	}{
		{finding.Location{Path: "a.go"}, `{"uri":"a.go","uriBaseId":"%SRCROOT%"}}`},
		{finding.Location{Path: "a.go", Col: 3}, `{"uri":"a.go","uriBaseId":"%SRCROOT%"}}`},
		{finding.Location{Path: "a.go", Line: 2}, `"region":{"startLine":2}}`},
		{finding.Location{Path: "a.go", Line: 2, Col: 3}, `"region":{"startLine":2,"startColumn":3}}`},
		{finding.Location{Path: "a.go", Line: 2, Col: 3, EndCol: 9}, `"region":{"startLine":2,"startColumn":3,"endColumn":9}}`},
		{finding.Location{Path: "a.go", Line: 2, Col: 3, EndLine: 4}, `"region":{"startLine":2,"startColumn":3,"endLine":4}}`},
		{finding.Location{Path: "a.go", Line: 2, Col: 3, EndLine: 4, EndCol: 1}, `"region":{"startLine":2,"startColumn":3,"endLine":4,"endColumn":1}}`},
		{finding.Location{Path: "a.go", Line: 5, Col: 3, EndLine: 4, EndCol: 9}, `"region":{"startLine":5,"startColumn":3}}`},
		{finding.Location{Path: "a.go", Line: 5, Col: 9, EndLine: 5, EndCol: 9}, `"region":{"startLine":5,"startColumn":9,"endLine":5}}`},
		{finding.Location{Path: "c:d/#1 ü.py", Line: 1}, `{"uri":"./c:d/%231%20%C3%BC.py","uriBaseId":"%SRCROOT%"}`},
	} {
		var b bytes.Buffer
		if err := SARIF(&b, &Report{Findings: []finding.Finding{{Rule: "x/y", Location: c.loc, Message: "m"}}}); err != nil {
			t.Fatal(err)
		}
		validateSARIF(t, sch, b.Bytes())
		var compact bytes.Buffer
		json.Compact(&compact, b.Bytes())
		if !strings.Contains(compact.String(), c.want) {
			t.Errorf("%+v: want %s in\n%s", c.loc, c.want, compact.String())
		}
	}
}

func TestMarkdown(t *testing.T) {
	md := render(t, "markdown", sample())
	golden(t, "report.md", md)
	for _, want := range []string{
		// a | is escaped inside a code span in a table, a backtick gets a longer fence
		"| `docs/Agent Guide.md:14:10` |",
		"must be kebab-case, 3-50 chars (got 'Task\\|ID\\`001')",
		"| `done\\|ok` | none | 1 | `worker.py:3:43` |",
		"| `success` | canonical | 5 | `fixtures/handback-2.yaml:2:9`, `router/router.go:7:20`, `worker.py:9:12` and 2 more |",
		"| handback | 3 | 2 | 1 | 0 | 66.6% |",
		"| nexus\\_handoff\\_v2 | 0 | 0 | 0 | 0 | - |",
		"   - `router/escalate.go:19:1` ShouldEscalate (go): metrics.quality \\< 0.7, retry\\_count \\>= 3\n",
	} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("markdown lacks %q", want)
		}
	}

	var many []finding.Finding
	for i := range 60 {
		many = append(many, finding.Finding{Rule: "divergence/duplicate-validation", Severity: finding.Warning,
			Location: finding.Location{Path: fmt.Sprintf("f%02d.py", i), Line: 1}, Message: "m",
			Related: make([]finding.Location, 12)})
	}
	md = render(t, "markdown", &Report{Tool: "protoscan", Files: 60, Findings: many})
	if n := bytes.Count(md, []byte("\n| warning |")); n != 50 {
		t.Errorf("%d finding rows, want 50", n)
	}
	for _, want := range []string{"… and 10 more findings (", "… and 10 more clusters.", "   - … and 2 more members\n", "## protoscan: 60 findings (0 errors, 60 warnings, 0 notes) in 60 files\n"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("capped markdown lacks %q:\n%s", want, md)
		}
	}
	empty := render(t, "markdown", &Report{Tool: "protoscan", Files: 3, Parsed: 1})
	if want := "## protoscan: no findings in 3 files\n\nParsed 1 of 3 files.\n"; string(empty) != want {
		t.Errorf("empty markdown:\n%q\nwant\n%q", empty, want)
	}
}

func TestMarkdownEscaping(t *testing.T) {
	for _, c := range []struct{ in, text, code string }{
		{"plain", "plain", "`plain`"},
		{"a|b", "a|b", "`a|b`"},
		{"x`y", "x\\`y", "``x`y``"},
		{"`y``", "\\`y\\`\\`", "``` `y`` ```"},
		{" padded ", " padded ", "`  padded  `"},
		{"   ", "   ", "`   `"},
		{"*a* _b_ [c](d) <e> &amp; ~f~ \\", "\\*a\\* \\_b\\_ \\[c\\](d) \\<e\\> \\&amp; \\~f\\~ \\\\", "`*a* _b_ [c](d) <e> &amp; ~f~ \\`"},
		{"# not a heading", "\\# not a heading", "`# not a heading`"},
		{"- not a list", "\\- not a list", "`- not a list`"},
		{"12. not a list", "12\\. not a list", "`12. not a list`"},
		{"two\nlines\r\nhere", "two lines here", "`two lines here`"},
		{"", "", ""},
	} {
		if got := mdText(c.in); got != c.text {
			t.Errorf("mdText(%q) = %q, want %q", c.in, got, c.text)
		}
		if got := mdCode(c.in); got != c.code {
			t.Errorf("mdCode(%q) = %q, want %q", c.in, got, c.code)
		}
	}
	if got := mdCell(mdCode("a|b")); got != "`a\\|b`" {
		t.Errorf("mdCell: %q", got)
	}
}

// TestDeterministic renders every format twice from separately built
// reports: the bytes must be the same.
func TestDeterministic(t *testing.T) {
	for format := range renderers {
		a, b := render(t, format, sample()), render(t, format, sample())
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two renderings of one report differ", format)
		}
	}
}

// TestSARIFRoot: with the repository root known, the run declares
// %SRCROOT% as its file URI, paths under it stay relative to it, and a
// path outside it (absolute, or up with "..") is an absolute file URI of
// its own, without a base; without a root nothing is declared.
func TestSARIFRoot(t *testing.T) {
	sch := loadSARIFSchema(t)
	for _, c := range []struct {
		root, path string
		want       []string
	}{
		{"file:///work/repo/", "agents/worker.py", []string{
			`"originalUriBaseIds":{"%SRCROOT%":{"uri":"file:///work/repo/"}}`,
			`"artifactLocation":{"uri":"agents/worker.py","uriBaseId":"%SRCROOT%"}`}},
		{"file:///work/repo/", "../other/x.yaml", []string{
			`"artifactLocation":{"uri":"file:///work/other/x.yaml"}`}},
		{"file:///work/repo/", "/etc/app/x.yaml", []string{
			`"artifactLocation":{"uri":"file:///etc/app/x.yaml"}`}},
		{"file:///work/my%20repo/", "a b.go", []string{
			`"originalUriBaseIds":{"%SRCROOT%":{"uri":"file:///work/my%20repo/"}}`,
			`"artifactLocation":{"uri":"a%20b.go","uriBaseId":"%SRCROOT%"}`}},
		{"", "a.go", []string{`"artifactLocation":{"uri":"a.go","uriBaseId":"%SRCROOT%"}`}},
	} {
		r := &Report{SrcRoot: c.root, Findings: []finding.Finding{{Rule: "x/y", Message: "m",
			Location: finding.Location{Path: c.path, Line: 1},
			Related:  []finding.Location{{Path: c.path, Line: 2}},
			Fix:      &finding.Fix{Message: "f", Edits: []finding.Edit{{Path: c.path, Offset: 1, End: 2, New: "z"}}}}}}
		var b bytes.Buffer
		if err := SARIF(&b, r); err != nil {
			t.Fatal(err)
		}
		validateSARIF(t, sch, b.Bytes())
		var compact bytes.Buffer
		json.Compact(&compact, b.Bytes())
		for _, w := range c.want {
			// the result's location, its related location and its fix
			if n := strings.Count(compact.String(), w); n == 0 || strings.Contains(w, "artifactLocation") && n != 3 {
				t.Errorf("root %q, path %q: %s %d times in\n%s", c.root, c.path, w, n, compact.String())
			}
		}
		if c.root == "" && strings.Contains(compact.String(), "originalUriBaseIds") {
			t.Errorf("no root, yet originalUriBaseIds:\n%s", compact.String())
		}
	}
}
