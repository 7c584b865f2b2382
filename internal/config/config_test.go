package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
)

// schemaVerdict is what the JSON Schema makes of an error case.
type schemaVerdict int

const (
	schemaSkip    schemaVerdict = iota // not comparable: not YAML, or no JSON value (duplicate keys, two documents)
	schemaRejects                      // the schema rejects it too
	schemaAccepts                      // beyond the schema (glob syntax, int64 range...): only Load rejects it
)

// hostileGlob is the glob of the report "Hostile pull requests": 30
// pairs of brace groups, 311 bytes, which doublestar expands to 2^60
// patterns as it matches. braceGlob is 7 pairs, under the length cap
// but 2^14 patterns.
var (
	hostileGlob = "enumdrift/" + strings.Repeat("{*,*}{*,*}", 30) + "x"
	braceGlob   = "enumdrift/" + strings.Repeat("{*,*}{*,*}", 7) + "x"
)

// errorCases are configurations Load rejects, with every error it gives,
// exactly, in order. The file is named c.yaml.
var errorCases = []struct {
	name   string
	src    string
	want   []string
	schema schemaVerdict
}{
	// the file as a whole
	{"yaml syntax", "include: [a\nexclude: b\n", []string{
		"c.yaml:1: did not find expected ',' or ']'"}, schemaSkip},
	{"tab indentation", "rules:\n\tenumdrift/x: off\n", []string{
		"c.yaml:2: found character that cannot start any token"}, schemaSkip},
	{"not a mapping", "- include\n- exclude\n", []string{
		"c.yaml:1:1: the configuration must be a mapping of settings (got a list)"}, schemaRejects},
	{"scalar", "include\n", []string{
		`c.yaml:1:1: the configuration must be a mapping of settings (got "include")`}, schemaRejects},
	{"two documents", "fail-on: note\n---\nfail-on: error\n", []string{
		"c.yaml:3:1: a configuration file holds one YAML document (found another here)"}, schemaSkip},
	{"invalid utf-8", "spec: \xff\n", []string{
		"c.yaml:1:7: invalid UTF-8"}, schemaSkip},
	{"nesting", "rules: " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "\n", []string{
		"c.yaml:1:39: nesting deeper than 32"}, schemaRejects},

	// keys
	{"unknown key near miss", "exlude: [vendor/**]\n", []string{
		`c.yaml:1:1: unknown key "exlude" (did you mean "exclude"?)`}, schemaRejects},
	{"unknown key spelt with underscore", "fail_on: warning\nmax_file_size: 10\n", []string{
		`c.yaml:1:1: unknown key "fail_on" (did you mean "fail-on"?)`,
		`c.yaml:2:1: unknown key "max_file_size" (did you mean "max-file-size"?)`}, schemaRejects},
	{"unknown key plural", "synonym: {done: success}\n", []string{
		`c.yaml:1:1: unknown key "synonym" (did you mean "synonyms"?)`}, schemaRejects},
	{"unknown key far off", "paths: [src]\n", []string{
		`c.yaml:1:1: unknown key "paths" (want include, exclude, spec, rules, synonyms, renamed, canonical, fail-on, max-file-size)`}, schemaRejects},
	{"duplicate key", "fail-on: note\nspec: a.yaml\nfail-on: error\n", []string{
		`c.yaml:3:1: duplicate key "fail-on" (first at line 1)`}, schemaSkip},
	{"key not a string", "1: x\n", []string{
		"c.yaml:1:1: keys must be strings (got 1)"}, schemaRejects},
	{"merge key", "base: &b {fail-on: note}\n<<: *b\n", []string{
		`c.yaml:1:1: unknown key "base" (want include, exclude, spec, rules, synonyms, renamed, canonical, fail-on, max-file-size)`,
		"c.yaml:2:1: merge keys (<<) are not supported"}, schemaRejects},

	// include, exclude
	{"include not a list", "include: \"**/*.py\"\n", []string{
		`c.yaml:1:10: include: must be a list of globs (got "**/*.py")`}, schemaRejects},
	{"include item not a string", "include:\n  - src/**\n  - 42\n  - {a: b}\n", []string{
		"c.yaml:3:5: include[1]: must be a string (got 42)",
		"c.yaml:4:5: include[2]: must be a string (got a mapping)"}, schemaRejects},
	{"invalid glob", "exclude: [\"build/**\", \"src/[a-\"]\n", []string{
		`c.yaml:1:23: exclude[1]: invalid glob "src/[a-"`}, schemaAccepts},
	{"globs over the caps", "include: [\"" + braceGlob + "\"]\nexclude: [\"" + hostileGlob + "\"]\ncanonical: [\"" + braceGlob + ":f\"]\n", []string{
		`c.yaml:1:11: include[0]: glob "enumdrift/{*,*}{*,*}{*,*}{*,*}{*,*}{*,*}"...: its braces expand to more than 64 patterns, the most a glob may`,
		`c.yaml:2:11: exclude[0]: glob "enumdrift/{*,*}{*,*}{*,*}{*,*}{*,*}{*,*}"...: longer than 256 bytes, the most a glob may be`,
		`c.yaml:3:13: canonical[0]: glob "enumdrift/{*,*}{*,*}{*,*}{*,*}{*,*}{*,*}"...: its braces expand to more than 64 patterns, the most a glob may`}, schemaAccepts},
	{"glob matching nothing", "exclude: [\"./\"]\n", []string{
		`c.yaml:1:11: exclude[0]: glob "./" matches nothing`}, schemaRejects},
	{"empty glob", "include: [\"\"]\n", []string{
		`c.yaml:1:11: include[0]: glob "" matches nothing`}, schemaRejects},
	{"include null", "include:\n", []string{
		"c.yaml:1:9: include: must be a list of globs (got null)"}, schemaRejects},

	// spec
	{"spec not a string", "spec: {a: b}\n", []string{
		"c.yaml:1:7: spec: must be a string (got a mapping)"}, schemaRejects},
	{"spec list of non-strings", "spec: [a.yaml, [b]]\n", []string{
		"c.yaml:1:16: spec[1]: must be a string (got a list)"}, schemaRejects},
	{"spec empty list", "spec: []\n", []string{
		"c.yaml:1:7: spec: empty list"}, schemaRejects},
	{"spec empty", "spec: \"\"\n", []string{
		"c.yaml:1:7: spec: empty path"}, schemaRejects},

	// rules
	{"rules not a mapping", "rules: [enumdrift/*]\n", []string{
		"c.yaml:1:8: rules: must be a mapping from rule ids or globs to settings (got a list)"}, schemaRejects},
	{"bad severity", "rules:\n  enumdrift/unknown-status: {severity: warn}\n", []string{
		`c.yaml:2:40: rule "enumdrift/unknown-status": bad severity "warn" (want error, warning or note; did you mean "warning"?)`}, schemaRejects},
	{"severity not a string", "rules:\n  enumdrift/*: {severity: 1}\n", []string{
		`c.yaml:2:27: rule "enumdrift/*": severity must be error, warning or note (got 1)`}, schemaRejects},
	{"bad shorthand", "rules:\n  enumdrift/*: disabled\n", []string{
		`c.yaml:2:16: rule "enumdrift/*": unknown setting "disabled" (want off, on, error, warning, note or a mapping with enabled and severity)`}, schemaRejects},
	{"shorthand in capitals", "rules:\n  enumdrift/*: Off\n", []string{
		`c.yaml:2:16: rule "enumdrift/*": unknown setting "Off" (want off, on, error, warning, note or a mapping with enabled and severity; did you mean "off"?)`}, schemaRejects},
	{"null setting", "rules:\n  enumdrift/*:\n", []string{
		`c.yaml:2:15: rule "enumdrift/*": want off, on, error, warning, note or a mapping with enabled and severity (got null)`}, schemaRejects},
	{"list setting", "rules:\n  enumdrift/*: [off]\n", []string{
		`c.yaml:2:16: rule "enumdrift/*": want off, on, error, warning, note or a mapping with enabled and severity (got a list)`}, schemaRejects},
	{"enabled not a boolean", "rules:\n  divergence/*: {enabled: no}\n", []string{
		`c.yaml:2:27: rule "divergence/*": enabled must be true or false (got "no")`}, schemaRejects},
	{"unknown rule key", "rules:\n  divergence/*: {enable: false, level: note}\n", []string{
		`c.yaml:2:18: rule "divergence/*": unknown key "enable" (did you mean "enabled"?)`,
		`c.yaml:2:33: rule "divergence/*": unknown key "level" (want enabled or severity)`}, schemaRejects},
	{"family without a slash", "rules:\n  enumdrift: off\n", []string{
		`c.yaml:2:3: rule "enumdrift": want a rule id family/name, or a glob such as "enumdrift/*"`}, schemaRejects},
	{"two slashes", "rules:\n  \"msgcheck/a/b\": off\n", []string{
		`c.yaml:2:3: rule "msgcheck/a/b": want a rule id family/name, or a glob such as "msgcheck/*"`}, schemaRejects},
	{"invalid rule glob", "rules:\n  \"msgcheck/[a\": off\n", []string{
		`c.yaml:2:3: rule "msgcheck/[a": invalid glob`}, schemaAccepts},
	// the report's suppression glob as a key: 311 bytes
	{"rule glob too long", "rules:\n  \"" + hostileGlob + "\": off\n", []string{
		`c.yaml:2:3: rule "enumdrift/{*,*}{*,*}{*,*}{*,*}{*,*}{*,*}"...: longer than 256 bytes, the most a glob may be`}, schemaAccepts},
	{"rule glob too many alternatives", "rules:\n  \"" + braceGlob + "\": off\n", []string{
		`c.yaml:2:3: rule "enumdrift/{*,*}{*,*}{*,*}{*,*}{*,*}{*,*}"...: its braces expand to more than 64 patterns, the most a glob may`}, schemaAccepts},
	{"duplicate rule", "rules:\n  enumdrift/*: off\n  divergence/*: note\n  enumdrift/*: warning\n", []string{
		`c.yaml:4:3: rules: duplicate key "enumdrift/*" (first at line 2)`}, schemaSkip},
	{"several rule problems", "rules:\n  msgcheck/*-words: {severity: high}\n  enumdrift: off\n", []string{
		`c.yaml:2:32: rule "msgcheck/*-words": bad severity "high" (want error, warning or note)`,
		`c.yaml:3:3: rule "enumdrift": want a rule id family/name, or a glob such as "enumdrift/*"`}, schemaRejects},

	// synonyms
	{"synonyms not a mapping", "synonyms: [done]\n", []string{
		"c.yaml:1:11: synonyms: must be a mapping from legacy spellings to canonical statuses (got a list)"}, schemaRejects},
	{"synonym to a number", "synonyms:\n  done: success\n  ok: 1\n", []string{
		`c.yaml:3:7: synonym "ok": must map to a canonical status given as a string (got 1)`}, schemaRejects},
	{"synonym to a boolean", "synonyms: {passed: true}\n", []string{
		`c.yaml:1:20: synonym "passed": must map to a canonical status given as a string (got true)`}, schemaRejects},
	{"synonym to null", "synonyms:\n  finished:\n", []string{
		`c.yaml:2:12: synonym "finished": must map to a canonical status given as a string (got null)`}, schemaRejects},
	{"synonym to a list", "synonyms: {done: [success]}\n", []string{
		`c.yaml:1:18: synonym "done": must map to a canonical status given as a string (got a list)`}, schemaRejects},
	{"synonym to empty", "synonyms: {done: \"\"}\n", []string{
		`c.yaml:1:18: synonym "done": maps to an empty status`}, schemaRejects},
	{"synonym to itself", "synonyms: {success: success}\n", []string{
		`c.yaml:1:21: synonym "success": maps to itself`}, schemaAccepts},
	{"synonym of a number", "synonyms: {200: success}\n", []string{
		"c.yaml:1:12: synonyms: keys must be strings (got 200)"}, schemaAccepts},
	{"empty synonym", "synonyms: {\"\": success}\n", []string{
		"c.yaml:1:12: synonyms: empty legacy spelling"}, schemaRejects},
	{"duplicate synonym", "synonyms:\n  done: success\n  done: failure\n", []string{
		`c.yaml:3:3: synonyms: duplicate key "done" (first at line 2)`}, schemaSkip},

	// canonical
	{"canonical not a list", "canonical: agents/escalation.py\n", []string{
		`c.yaml:1:12: canonical: must be a list of GLOB or GLOB:NAME strings (got "agents/escalation.py")`}, schemaRejects},
	{"canonical without name", "canonical: [\"agents/escalation.py:\"]\n", []string{
		`c.yaml:1:13: canonical[0]: "agents/escalation.py:" has no function name after the colon (want GLOB or GLOB:NAME)`}, schemaRejects},
	{"canonical without glob", "canonical: [\":should_escalate\"]\n", []string{
		`c.yaml:1:13: canonical[0]: ":should_escalate" has no glob (want GLOB or GLOB:NAME)`}, schemaRejects},
	{"canonical invalid glob", "canonical:\n  - skills/**\n  - \"agents/{a,b:f\"\n", []string{
		`c.yaml:3:5: canonical[1]: invalid glob "agents/{a,b"`}, schemaAccepts},

	// fail-on, max-file-size
	{"fail-on unknown", "fail-on: warn\n", []string{
		`c.yaml:1:10: fail-on: "warn" is not error, warning, note or never (did you mean "warning"?)`}, schemaRejects},
	{"fail-on far off", "fail-on: always\n", []string{
		`c.yaml:1:10: fail-on: "always" is not error, warning, note or never`}, schemaRejects},
	{"fail-on not a string", "fail-on: [error]\n", []string{
		"c.yaml:1:10: fail-on: must be a string (got a list)"}, schemaRejects},
	{"max-file-size with a unit", "max-file-size: 2MB\n", []string{
		`c.yaml:1:16: max-file-size: must be a positive number of bytes, or -1 for no limit (got "2MB")`}, schemaRejects},
	{"max-file-size zero", "max-file-size: 0\n", []string{
		"c.yaml:1:16: max-file-size: must be a positive number of bytes, or -1 for no limit (got 0)"}, schemaRejects},
	{"max-file-size negative", "max-file-size: -2\n", []string{
		"c.yaml:1:16: max-file-size: must be a positive number of bytes, or -1 for no limit (got -2)"}, schemaRejects},
	{"max-file-size fraction", "max-file-size: 1.5\n", []string{
		"c.yaml:1:16: max-file-size: must be a positive number of bytes, or -1 for no limit (got 1.5)"}, schemaRejects},
	{"max-file-size overflow", "max-file-size: 99999999999999999999\n", []string{
		"c.yaml:1:16: max-file-size: must be a positive number of bytes, or -1 for no limit (got 99999999999999999999)"}, schemaAccepts},

	// everything at once: sorted by position, whatever the order found
	{"sorted", "rules:\n  a: off\nfail-on: x\ninclude: [1]\nexclud: []\n", []string{
		`c.yaml:2:3: rule "a": want a rule id family/name, or a glob such as "a/*"`,
		`c.yaml:3:10: fail-on: "x" is not error, warning, note or never`,
		"c.yaml:4:11: include[0]: must be a string (got 1)",
		`c.yaml:5:1: unknown key "exclud" (did you mean "exclude"?)`}, schemaRejects},
}

func TestParseErrors(t *testing.T) {
	for _, tt := range errorCases {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse("c.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error; config %+v", c)
			}
			if c != nil {
				t.Errorf("a config with the error")
			}
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("error %T %v is not Errors", err, err)
			}
			got := strings.Split(err.Error(), "\n")
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if len(es) != len(got) {
				t.Errorf("%d errors in %d lines", len(es), len(got))
			}
			var one *Error
			if !errors.As(err, &one) || one != es[0] {
				t.Errorf("errors.As does not find the first *Error")
			}
		})
	}
}

// goodConfig sets every key; the comments are what a user would write.
const goodConfig = `# protoscan configuration
include: ["**/*.py", "**/*.go", "docs/**/*.md"]
exclude:
  - "**/testdata/**"
  - ./build/
spec: specs/protocol-core-v1.1.yaml
rules:
  enumdrift/unknown-status: {severity: warning}
  divergence/duplicate-normalization: off
  msgcheck/*-words: note
  "enumdrift/*": {enabled: true, severity: error}
  divergence/*: {enabled: false}
  msgcheck/delegate-scope-words: on
synonyms: {done: success, finished: success}
canonical: ["skills/protocol_validator/**", "agents/escalation.py:should_escalate"]
fail-on: warning
max-file-size: 1_048_576
`

func TestLoadGood(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ".protoscan.yaml")
	if err := os.WriteFile(path, []byte(goodConfig), 0o666); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		File:    path,
		Include: []string{"**/*.py", "**/*.go", "docs/**/*.md"},
		Exclude: []string{"**/testdata/**", "./build/"},
		Spec:    "specs/protocol-core-v1.1.yaml",
		Specs:   []string{"specs/protocol-core-v1.1.yaml"},
		Rules: []Rule{
			{Pattern: "enumdrift/unknown-status", Enabled: true, Severity: finding.Warning, HasSeverity: true, Pos: Pos{8, 3}},
			{Pattern: "divergence/duplicate-normalization", Enabled: false, Pos: Pos{9, 3}},
			{Pattern: "msgcheck/*-words", Enabled: true, Severity: finding.Note, HasSeverity: true, Pos: Pos{10, 3}},
			{Pattern: "enumdrift/*", Enabled: true, Severity: finding.Error, HasSeverity: true, Pos: Pos{11, 3}},
			{Pattern: "divergence/*", Enabled: false, Pos: Pos{12, 3}},
			{Pattern: "msgcheck/delegate-scope-words", Enabled: true, Pos: Pos{13, 3}},
		},
		Synonyms: []Synonym{
			{Legacy: "done", Canonical: "success", Pos: Pos{14, 12}, CanonicalPos: Pos{14, 18}},
			{Legacy: "finished", Canonical: "success", Pos: Pos{14, 27}, CanonicalPos: Pos{14, 37}},
		},
		Canonical:   []string{"skills/protocol_validator/**", "agents/escalation.py:should_escalate"},
		FailOn:      "warning",
		MaxFileSize: 1 << 20,
		pos: map[string]Pos{
			"include": {2, 10}, "exclude": {4, 3}, "spec": {6, 7}, "rules": {8, 3},
			"synonyms": {14, 11}, "canonical": {15, 12}, "fail-on": {16, 10}, "max-file-size": {17, 16},
		},
		items: map[string][]Pos{"include": {{2, 11}, {2, 22}, {2, 33}}, "exclude": {{4, 5}, {5, 5}}},
	}
	for i := range c.Rules { // compiled patterns, compared by their text
		if g := c.Rules[i].glob; g != nil && g.String() != c.Rules[i].Pattern {
			t.Errorf("rule %q compiled from %q", c.Rules[i].Pattern, g)
		}
		c.Rules[i].glob = nil
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got\n%+v\nwant\n%+v", c, want)
	}
	if got, want := c.SpecPath(), filepath.Join(dir, "specs", "protocol-core-v1.1.yaml"); got != want {
		t.Errorf("SpecPath() = %q, want %q", got, want)
	}
	if got, want := c.SynonymMap(), map[string]string{"done": "success", "finished": "success"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SynonymMap() = %v, want %v", got, want)
	}
	if got := c.Pos("fail-on"); got != (Pos{16, 10}) {
		t.Errorf(`Pos("fail-on") = %v`, got)
	}
	e := c.Errorf(c.Synonyms[0].CanonicalPos, "%q is not a HANDBACK status", "success")
	if got, want := e.Error(), path+`:14:18: "success" is not a HANDBACK status`; got != want {
		t.Errorf("Errorf: %q, want %q", got, want)
	}
}

// TestParseSameAsJSON: the flow and block styles, JSON syntax, quoting,
// YAML's other integer spellings and aliases all load alike.
func TestParseEquivalents(t *testing.T) {
	tests := []struct {
		name, src string
		check     func(c *Config) bool
	}{
		{"json", `{"include": ["a/**"], "rules": {"enumdrift/*": "off"}, "max-file-size": -1}`,
			func(c *Config) bool {
				return reflect.DeepEqual(c.Include, []string{"a/**"}) && len(c.Rules) == 1 && !c.Rules[0].Enabled && c.MaxFileSize == -1
			}},
		{"booleans", "rules:\n  a/b: false\n  c/d: true\n  e/f: {enabled: False}\n",
			func(c *Config) bool { return !c.Rules[0].Enabled && c.Rules[1].Enabled && !c.Rules[2].Enabled }},
		{"empty rule mapping", "rules: {a/b: {}}\n",
			func(c *Config) bool { return c.Rules[0].Enabled && !c.Rules[0].HasSeverity }},
		{"hex size", "max-file-size: 0x100\n", func(c *Config) bool { return c.MaxFileSize == 256 }},
		{"float size", "max-file-size: 1e6\n", func(c *Config) bool { return c.MaxFileSize == 1_000_000 }},
		{"aliases", "include: &g [\"gen/**\"]\nexclude: *g\nrules: {a/b: &s {severity: note}, c/d: *s}\n",
			func(c *Config) bool {
				return reflect.DeepEqual(c.Exclude, []string{"gen/**"}) && c.Rules[1].HasSeverity && c.Rules[1].Severity == finding.Note
			}},
		{"absolute spec", "spec: /etc/protocol.yaml\n", func(c *Config) bool {
			return filepath.ToSlash(c.SpecPath()) == "/etc/protocol.yaml" || filepath.IsAbs(c.SpecPath())
		}},
		{"spec list", "spec: [specs/delegate.yaml, /etc/handback.yaml]\n", func(c *Config) bool {
			p := c.SpecPaths()
			return c.Spec == "specs/delegate.yaml" && len(p) == 2 && filepath.ToSlash(p[0]) == "specs/delegate.yaml" && filepath.IsAbs(p[1])
		}},
		{"null document", "~\n", func(c *Config) bool {
			return reflect.DeepEqual(c, &Config{File: "c.yaml", pos: map[string]Pos{}, items: map[string][]Pos{}})
		}},
		{"comments only", "# nothing yet\n", func(c *Config) bool { return c.Rules == nil && c.FailOn == "" && c.SynonymMap() == nil }},
		{"empty", "", func(c *Config) bool { return c.SpecPath() == "" && c.Pos("spec") == (Pos{}) }},
		{"trailing separator", "fail-on: none\n---\n", func(c *Config) bool { return c.FailOn == "none" }},
		{"fail-on never, as the flag spells it", "fail-on: never\n", func(c *Config) bool { return c.FailOn == "never" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse("c.yaml", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(c) {
				t.Errorf("unexpected config %+v", c)
			}
		})
	}
}

func TestRuleSetting(t *testing.T) {
	const src = `rules:
  "*/*": {severity: note}
  enumdrift/*: off
  enumdrift/legacy-status: {severity: warning}
  enumdrift/status-case: on
  msgcheck/*: {severity: warning}
  msgcheck/*-words: error
  msgcheck/delegate-*: {enabled: false}
  "msgcheck/delegate-?lan-words": on
  divergence/duplicate-*: off
  "*/duplicate-escalation": warning
  divergence/*-validation: {enabled: true}
`
	c, err := Parse("c.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id         string
		enabled    bool
		sev        finding.Severity
		overridden bool
	}{
		// only "*/*" applies
		{"protoscan/too-large", true, finding.Note, true},
		// the family glob turns it off; the severity comes from "*/*"
		{"enumdrift/unknown-status", false, finding.Note, true},
		// the exact id wins over the family glob, and sets a severity
		{"enumdrift/legacy-status", true, finding.Warning, true},
		// the exact id turns it back on; the severity falls to "*/*"
		{"enumdrift/status-case", true, finding.Note, true},
		// "msgcheck/delegate-*" (18 literal characters) turns it off; the
		// severity is that of "msgcheck/*-words" (15), the most specific
		// entry with one
		{"msgcheck/delegate-scope-words", false, finding.Error, true},
		// "msgcheck/delegate-?lan-words" (27) outranks "msgcheck/delegate-*"
		{"msgcheck/delegate-plan-words", true, finding.Error, true},
		{"msgcheck/handback-output-words", true, finding.Error, true},
		{"msgcheck/handback-status-enum", true, finding.Warning, true},
		// "divergence/duplicate-*" and "*/duplicate-escalation" have 21
		// literal characters each: the later one wins
		{"divergence/duplicate-escalation", true, finding.Warning, true},
		// "divergence/*-validation" (22) outranks "divergence/duplicate-*"
		{"divergence/duplicate-validation", true, finding.Note, true},
		{"divergence/duplicate-normalization", false, finding.Note, true},
		{"divergence/conflicting-threshold", true, finding.Note, true},
	}
	for _, tt := range tests {
		enabled, sev, overridden := c.RuleSetting(tt.id)
		if enabled != tt.enabled || sev != tt.sev || overridden != tt.overridden {
			t.Errorf("RuleSetting(%q) = %v, %v, %v; want %v, %v, %v", tt.id, enabled, sev, overridden, tt.enabled, tt.sev, tt.overridden)
		}
	}

	// the tie the other way round: the later entry still wins
	swapped, err := Parse("c.yaml", []byte("rules:\n  \"*/duplicate-escalation\": warning\n  divergence/duplicate-*: off\n"))
	if err != nil {
		t.Fatal(err)
	}
	if enabled, sev, overridden := swapped.RuleSetting("divergence/duplicate-escalation"); enabled || sev != finding.Warning || !overridden {
		t.Errorf("swapped: RuleSetting = %v, %v, %v; want false, warning, true", enabled, sev, overridden)
	}

	empty, err := Parse("c.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if enabled, sev, overridden := empty.RuleSetting("enumdrift/unknown-status"); !enabled || sev != 0 || overridden {
		t.Errorf("no rules: RuleSetting = %v, %v, %v; want true, error, false", enabled, sev, overridden)
	}
	off, err := Parse("c.yaml", []byte("rules: {enumdrift/unknown-status: off}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if enabled, _, overridden := off.RuleSetting("enumdrift/unknown-status"); enabled || overridden {
		t.Errorf("off: RuleSetting = %v, _, %v; want false, _, false", enabled, overridden)
	}
	if enabled, _, _ := off.RuleSetting("enumdrift/legacy-status"); !enabled {
		t.Errorf("off applies to another rule")
	}
}

// TestRuleGlobCompiledOnce: a rule glob just under the brace cap loads,
// compiled once into at most glob.MaxAlternatives patterns.
func TestRuleGlobCompiledOnce(t *testing.T) {
	key := "enumdrift/" + strings.Repeat("{a,b}", 6) + "*"
	c, err := Parse("c.yaml", []byte("rules:\n  \""+key+"\": off\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Rules[0]
	if r.glob == nil || r.glob.Alternatives() != 64 {
		t.Fatalf("glob %v not compiled to 64 patterns at load", r.glob)
	}
	if on, _, _ := c.RuleSetting("enumdrift/abababx"); on {
		t.Error("enumdrift/abababx is not turned off")
	}
	if on, _, _ := c.RuleSetting("enumdrift/abcbabx"); !on {
		t.Error("enumdrift/abcbabx is turned off")
	}
}

func TestLiteralLen(t *testing.T) {
	for p, want := range map[string]int{
		"enumdrift/*":             10,
		"*/*":                     1,
		"msgcheck/*-words":        15,
		"msgcheck/delegate-?lan":  21,
		"a/[abc]d":                3,
		"a/{x,yy}z":               3,
		`a/\*b`:                   4,
		"divergence/duplicate-*":  21,
		"divergence/*-validation": 22,
	} {
		if got := literalLen(p); got != want {
			t.Errorf("literalLen(%q) = %d, want %d", p, got, want)
		}
	}
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	if _, ok := Find(dir); ok {
		t.Errorf("found a config in an empty directory")
	}
	// a directory of that name is not a config
	if err := os.Mkdir(filepath.Join(dir, ".protoscan.yaml"), 0o777); err != nil {
		t.Fatal(err)
	}
	if _, ok := Find(dir); ok {
		t.Errorf("found a directory")
	}
	yml := filepath.Join(dir, ".protoscan.yml")
	if err := os.WriteFile(yml, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if p, ok := Find(dir); !ok || p != yml {
		t.Errorf("Find = %q, %v; want %q", p, ok, yml)
	}
	if err := os.Remove(filepath.Join(dir, ".protoscan.yaml")); err != nil {
		t.Fatal(err)
	}
	yaml := filepath.Join(dir, ".protoscan.yaml")
	if err := os.WriteFile(yaml, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if p, ok := Find(dir); !ok || p != yaml {
		t.Errorf("Find = %q, %v; want %q (.yaml before .yml)", p, ok, yaml)
	}
}

func TestLoadFileErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(filepath.Join(dir, "nope.yaml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Load(dir); err == nil || err.Error() != dir+": a directory, not a file" {
		t.Errorf("directory: %v", err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", MaxBytes)+"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); err == nil || err.Error() != big+": larger than 1 MiB" {
		t.Errorf("big file: %v", err)
	}
	empty := filepath.Join(dir, "empty.yaml")
	if err := os.WriteFile(empty, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if c, err := Load(empty); err != nil || c.File != empty {
		t.Errorf("empty file: %+v, %v", c, err)
	}
}

// TestAliasBomb: aliases that make every rule setting a mapping of
// thousands of keys, each an error, are stopped once maxFound errors are
// found: the walk ends in the first mapping, having visited its 1,500
// keys and a few values more (1,525), not the 31,500 the aliases make.
func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("rules:\n  a/a: &m {")
	for i := range 1500 {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "k%d: 1", i)
	}
	b.WriteString("}\n")
	for i := range 20 {
		fmt.Fprintf(&b, "  b/b%d: *m\n", i)
	}
	_, visited, err := parseVisited("bomb.yaml", []byte(b.String()), MaxValues)
	if visited > 1500+100 {
		t.Errorf("%d values visited, want at most the first mapping's 1500 and a few", visited)
	}
	var es Errors
	if !errors.As(err, &es) || len(es) != MaxErrors+1 {
		t.Fatalf("error %v", err)
	}
	if got, want := es[len(es)-1].Msg, "too many errors (950 more found before giving up)"; got != want {
		t.Errorf("last error %q, want %q", got, want)
	}

	// valid values, but too many of them through an alias
	big := "include: &g [" + strings.Repeat("a, ", 600) + "a]\nexclude: *g\n"
	_, err = parse("big.yaml", []byte(big), 1000)
	if err == nil || err.Error() != "big.yaml:1:1196: the file expands to more than 1000 values (through aliases?)" {
		t.Errorf("error %v", err)
	}
}

func TestTooManyErrors(t *testing.T) {
	src := "include: [" + strings.Repeat("1, ", 59) + "1]\n"
	_, err := Parse("c.yaml", []byte(src))
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("error %v", err)
	}
	if len(es) != MaxErrors+1 {
		t.Fatalf("%d errors, want %d", len(es), MaxErrors+1)
	}
	if got := es[MaxErrors].Error(); got != "c.yaml: too many errors (10 more)" {
		t.Errorf("last error %q", got)
	}
	if got := es[0].Error(); got != "c.yaml:1:11: include[0]: must be a string (got 1)" {
		t.Errorf("first error %q", got)
	}
}

func TestNearest(t *testing.T) {
	for s, want := range map[string]string{
		"exclud": "exclude", "excludes": "exclude", "Include": "include", "failOn": "fail-on",
		"FAIL_ON": "fail-on", "syn": "synonyms", "rule": "rules", "sepc": "spec", "canonicals": "canonical",
		"xyz": "", "": "", "s": "", "maxfilesize": "max-file-size", "specs": "spec",
	} {
		got, ok := nearest(s, topKeys)
		if got != want || ok != (want != "") {
			t.Errorf("nearest(%q) = %q, %v; want %q", s, got, ok, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(goodConfig))
	for _, tt := range errorCases {
		f.Add([]byte(tt.src))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz.yaml", data)
		if err == nil {
			if c == nil {
				t.Fatal("no config and no error")
			}
			for _, r := range c.Rules {
				c.RuleSetting(r.Pattern)
			}
			return
		}
		if c != nil {
			t.Fatal("a config with an error")
		}
		es, ok := err.(Errors)
		if !ok || len(es) == 0 {
			t.Fatalf("error %T %v", err, err)
		}
		for i, e := range es {
			if e.File != "fuzz.yaml" || e.Msg == "" {
				t.Fatalf("error %+v", e)
			}
			if i > 0 && compareErrors(es[i-1], e) > 0 && i != MaxErrors {
				t.Fatalf("errors out of order: %v then %v", es[i-1], e)
			}
		}
	})
}

func TestLoadInRefusesLinkOutOfRoot(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.yaml")
	if err := os.WriteFile(outside, []byte("fail-on: hunter2\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	link := filepath.Join(root, ".protoscan.yaml")
	if err := os.Symlink(outside, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	p, ok := Find(root)
	if !ok || p != link {
		t.Fatalf("Find = %q, %v", p, ok)
	}
	_, err := LoadIn(root, p)
	var list Errors
	if !errors.As(err, &list) || len(list) != 1 || list[0].File != link {
		t.Fatalf("LoadIn = %v, want one error naming %s", err, link)
	}
	if msg := err.Error(); strings.Contains(msg, "hunter2") || strings.Contains(msg, outside) {
		t.Errorf("the error %q quotes the file out of the root", msg)
	}
	// named on the command line, the same file is read (and its content
	// reported: the user chose it)
	if _, err := Load(link); err == nil || !strings.Contains(err.Error(), "hunter2") {
		t.Errorf("Load = %v, want the bad fail-on reported", err)
	}
}

// TestChecks: a caller's checks run on the settings the file got right,
// even when others are wrong, and their problems join the file's own,
// sorted by position; a file that does not parse is not checked.
func TestChecks(t *testing.T) {
	var seen []string
	check := func(c *Config) Errors {
		var errs Errors
		for _, r := range c.Rules {
			seen = append(seen, r.Pattern)
			if r.Pattern == "enumdrift/no-such-rule" {
				errs = append(errs, c.Errorf(r.Pos, "unknown rule %q", r.Pattern))
			}
		}
		for _, s := range c.Synonyms {
			errs = append(errs, c.Errorf(s.CanonicalPos, "synonym %q: no status %q", s.Legacy, s.Canonical))
		}
		return errs
	}
	src := "exclud: []\nrules:\n  enumdrift/no-such-rule: off\n  msgcheck/*-words: warn\nsynonyms: {done: sucess}\nfail-on: warn\n"
	_, err := Parse("c.yaml", []byte(src), check)
	want := []string{
		`c.yaml:1:1: unknown key "exclud" (did you mean "exclude"?)`,
		`c.yaml:3:3: unknown rule "enumdrift/no-such-rule"`,
		`c.yaml:4:21: rule "msgcheck/*-words": unknown setting "warn" (want off, on, error, warning, note or a mapping with enabled and severity; did you mean "warning"?)`,
		`c.yaml:5:18: synonym "done": no status "sucess"`,
		`c.yaml:6:10: fail-on: "warn" is not error, warning, note or never (did you mean "warning"?)`,
	}
	if err == nil || !reflect.DeepEqual(strings.Split(err.Error(), "\n"), want) {
		t.Errorf("got\n%v\nwant\n%s", err, strings.Join(want, "\n"))
	}
	if !reflect.DeepEqual(seen, []string{"enumdrift/no-such-rule"}) {
		t.Errorf("the check saw rules %q, want the one the file got right", seen)
	}
	// a good file with a check that finds nothing loads
	if c, err := Parse("c.yaml", []byte("rules: {enumdrift/*: off}\n"), check); err != nil || c == nil {
		t.Errorf("Parse = %v, %v", c, err)
	}
	seen = nil
	if _, err := Parse("c.yaml", []byte("rules:\n  enumdrift/*: off\n fail-on: note\n"), check); err == nil || seen != nil {
		t.Errorf("a file that does not parse: %v, checked %q", err, seen)
	}
}

// TestGlobCount: a config gives at most MaxGlobs patterns across
// include, exclude, canonical and rules (the walk matches each path
// against every one); the first past it is the error, and the file's
// other errors are still reported.
func TestGlobCount(t *testing.T) {
	build := func(n int) string {
		var b strings.Builder
		b.WriteString("fail-on: bogus\ninclude:\n")
		for i := range n / 2 {
			fmt.Fprintf(&b, "  - \"dir%d/**\"\n", i)
		}
		b.WriteString("rules:\n")
		for i := range n - n/2 {
			fmt.Fprintf(&b, "  enumdrift/r%d: off\n", i)
		}
		return b.String()
	}
	if _, err := Parse("c.yaml", []byte(build(MaxGlobs))); err == nil || strings.Contains(err.Error(), "globs") {
		t.Errorf("%d globs: %v, want only the fail-on error", MaxGlobs, err)
	}
	_, err := Parse("c.yaml", []byte(build(MaxGlobs+50)))
	var es Errors
	if !errors.As(err, &es) || len(es) != 2 {
		t.Fatalf("%d globs: %v, want the fail-on error and one glob count error", MaxGlobs+50, err)
	}
	want := fmt.Sprintf("c.yaml:%d:3: more than %d globs", 1+1+MaxGlobs/2+1+(MaxGlobs/2)+1, MaxGlobs)
	if got := es[1].Error(); !strings.HasPrefix(got, want) {
		t.Errorf("error %q, want it to start %q", got, want)
	}
}
