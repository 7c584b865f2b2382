package suppress

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/glob"
	"github.com/protoscan-dev/protoscan/languages/facts"
)

// short is a directive reduced to what the parse tests compare.
type short struct {
	Rules         string // joined with ","
	Reason        string
	File          bool
	Line, EndLine int
	PosLine, Col  int
}

func (s short) String() string {
	return fmt.Sprintf("{%s %q file=%v lines=%d-%d at %d:%d}", s.Rules, s.Reason, s.File, s.Line, s.EndLine, s.PosLine, s.Col)
}

func shorten(ds []Directive) []short {
	var out []short
	for _, d := range ds {
		out = append(out, short{strings.Join(d.Rules, ","), d.Reason, d.File, d.Line, d.EndLine, d.Pos.Line, d.Pos.Col})
	}
	return out
}

func line(rules, reason string, l, posLine, col int) short {
	return short{rules, reason, false, l, l, posLine, col}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, lang, src string
		want            []short
	}{
		{"go trailing", "go", "package p\n\nvar s = \"failed\" // protoscan:ignore enumdrift/legacy-status -- kept for v1 clients\n",
			[]short{line("enumdrift/legacy-status", "kept for v1 clients", 3, 3, 21)}},
		{"go above", "go", "package p\n\n// protoscan:ignore enumdrift/* -- legacy\nvar s = \"failed\"\n",
			[]short{line("enumdrift/*", "legacy", 4, 3, 4)}},
		{"go above skips blanks and comments", "go",
			"package p\n// protoscan:ignore a/b -- one\n\n// protoscan:ignore c/d -- two\n// ordinary comment\n/* and another */\n\tx := 1\n",
			[]short{line("a/b", "one", 7, 2, 4), line("c/d", "two", 7, 4, 4)}},
		{"go several rules", "go", "x := 1 //protoscan:ignore a/b, c/d,e/f  g/h -- r\n",
			[]short{line("a/b,c/d,e/f,g/h", "r", 1, 1, 10)}},
		{"go glob with braces", "go", "x := 1 // protoscan:ignore msgcheck/{delegate,handback}-*, c/d -- r\n",
			[]short{line("msgcheck/{delegate,handback}-*,c/d", "r", 1, 1, 11)}},
		{"go block comment trailing", "go", "x := 1 /* protoscan:ignore a/b -- r */\n",
			[]short{line("a/b", "r", 1, 1, 11)}},
		{"go block comment before code", "go", "/* protoscan:ignore a/b -- r */ x := 1\n",
			[]short{line("a/b", "r", 1, 1, 4)}},
		{"go multi-line block comment", "go", "/*\n * protoscan:ignore a/b -- r\n */\nx := 1\n",
			[]short{line("a/b", "r", 4, 2, 4)}},
		{"go marker in string", "go", "s := \"// protoscan:ignore a/b -- r\"\nt := '\"' // protoscan:ignore c/d -- r\n",
			[]short{line("c/d", "r", 2, 2, 13)}},
		{"go escaped quote in string", "go", "s := \"a\\\"// protoscan:ignore a/b -- r\"\n", nil},
		{"go raw string", "go", "s := `\n// protoscan:ignore a/b -- r\n`\n", nil},
		{"go raw string then comment", "go", "s := `x\ny` // protoscan:ignore a/b -- r\n",
			[]short{line("a/b", "r", 2, 2, 7)}},
		{"go file-ignore", "go", "package p\n\n// protoscan:file-ignore divergence/* -- generated\n",
			[]short{{"divergence/*", "generated", true, 0, 0, 3, 4}}},
		{"go no reason", "go", "x := 1 // protoscan:ignore a/b\n", []short{line("a/b", "", 1, 1, 11)}},
		{"go empty reason", "go", "x := 1 // protoscan:ignore a/b --   \n", []short{line("a/b", "", 1, 1, 11)}},
		{"go reason keeps dashes", "go", "x := 1 // protoscan:ignore a/b-c -- see x--y\n", []short{line("a/b-c", "see x--y", 1, 1, 11)}},
		{"go reason glued", "go", "x := 1 // protoscan:ignore a/b --why\n", []short{line("a/b", "why", 1, 1, 11)}},
		{"go no rules", "go", "x := 1 // protoscan:ignore -- why\n", []short{line("", "why", 1, 1, 11)}},
		{"go nothing follows", "go", "x := 1\n// protoscan:ignore a/b -- r\n\n", []short{{"a/b", "r", false, 0, 0, 2, 4}}},
		{"go prose mention", "go", "// Use protoscan:ignore a/b -- r to silence it.\n// see protoscan:ignored\n// protoscan:ignorex a/b -- r\nx := 1\n", nil},
		{"go doc quoting the syntax", "go", "// Write:\n//\n//\tprotoscan:ignore RULE[,RULE...] -- reason\n//\n// protoscan:ignore applies to the line it is written on\n// protoscan:ignore ...\"), so that\nx := 1\n", nil},
		{"go rule without analyzer", "go", "x := 1 // protoscan:ignore status-case -- r\n", []short{line("status-case", "r", 1, 1, 11)}},
		{"go words without reason", "go", "x := 1 // protoscan:ignore status case\n", nil},
		{"go chained comment", "go", "x := 1 // nolint // protoscan:ignore a/b -- r\n", []short{line("a/b", "r", 1, 1, 21)}},
		{"go only first directive per comment", "go", "x := 1 // protoscan:ignore a/b -- see protoscan:ignore c/d -- r\n",
			[]short{line("a/b", "see protoscan:ignore c/d -- r", 1, 1, 11)}},
		{"go CRLF", "go", "x := 1 // protoscan:ignore a/b -- r\r\ny := 2\r\n", []short{line("a/b", "r", 1, 1, 11)}},
		{"go unterminated block comment", "go", "/* protoscan:ignore a/b -- r\nx := 1\n", []short{{"a/b", "r", false, 0, 0, 1, 4}}},

		{"python trailing", "python", "STATUS = \"failed\"  # protoscan:ignore enumdrift/legacy-status -- v1\n",
			[]short{line("enumdrift/legacy-status", "v1", 1, 1, 22)}},
		{"python hash in string", "python", "x = \"#\"  # protoscan:ignore a/b -- r\n", []short{line("a/b", "r", 1, 1, 12)}},
		{"python hash in single-quoted string", "python", "x = '# protoscan:ignore a/b -- r'\n", nil},
		{"python above", "python", "def f():\n    # protoscan:ignore a/b -- r\n    return x\n", []short{line("a/b", "r", 3, 2, 7)}},
		{"python docstring", "python", "def f():\n    \"\"\"Docs.\n    # protoscan:ignore a/b -- r\n    \"\"\"\n    return 1 # protoscan:ignore c/d -- r\n",
			[]short{line("c/d", "r", 5, 5, 16)}},
		{"python single-line triple string", "python", "x = '''#''' # protoscan:ignore a/b -- r\n", []short{line("a/b", "r", 1, 1, 15)}},
		{"python escaped quote", "python", "x = 'it\\'s #' # protoscan:ignore a/b -- r\n", []short{line("a/b", "r", 1, 1, 17)}},
		{"python chained with noqa", "python", "x = 1  # noqa: E501 # protoscan:ignore a/b -- r\n", []short{line("a/b", "r", 1, 1, 23)}},
		{"python hash comment decoration", "python", "##  protoscan:file-ignore a/b -- r\n", []short{{"a/b", "r", true, 0, 0, 1, 5}}},

		{"yaml trailing", "yaml", "status: failed # protoscan:ignore enumdrift/legacy-status -- fixture\n",
			[]short{line("enumdrift/legacy-status", "fixture", 1, 1, 18)}},
		{"yaml above", "yaml", "handback:\n  # protoscan:ignore a/b -- r\n  status: failed\n", []short{line("a/b", "r", 3, 2, 5)}},
		{"yaml hash without blank", "yaml", "url: http://x/#protoscan:ignore a/b -- r\n", nil},
		{"yaml double-quoted", "yaml", "a: \"x # protoscan:ignore a/b -- r\"\n", nil},
		{"yaml single-quoted", "yaml", "a: 'it''s # protoscan:ignore a/b -- r'\n", nil},
		{"yaml apostrophe in plain scalar", "yaml", "a: don't # protoscan:ignore a/b -- r\n", []short{line("a/b", "r", 1, 1, 12)}},
		{"yaml flow sequence", "yaml", "a: [\"#\", 'x'] # protoscan:ignore a/b -- r\n", []short{line("a/b", "r", 1, 1, 17)}},
		{"yaml list item", "yaml", "- \"#\" # protoscan:ignore a/b -- r\n", []short{line("a/b", "r", 1, 1, 9)}},
		{"yaml block scalar", "yaml", "script: |\n  echo # protoscan:ignore a/b -- r\n\n  more\n# protoscan:ignore c/d -- r\nstatus: failed\n",
			[]short{line("c/d", "r", 6, 5, 3)}},
		{"yaml folded block scalar with indicators", "yaml", "- text: >-\n    # protoscan:ignore a/b -- r\n- x # protoscan:ignore c/d -- r\n",
			[]short{line("c/d", "r", 3, 3, 7)}},
		{"yaml pipe in plain scalar", "yaml", "a: x|y # protoscan:ignore a/b -- r\nb: 1\n", []short{line("a/b", "r", 1, 1, 10)}},

		{"json has no comments but jsonc is read", "json", "{\n  // protoscan:ignore a/b -- r\n  \"status\": \"failed\" /* protoscan:ignore c/d -- r */\n}\n",
			[]short{line("a/b", "r", 3, 2, 6), line("c/d", "r", 3, 3, 25)}},
		{"json string", "json", "{\"note\": \"// protoscan:ignore a/b -- r\"}\n", nil},
		{"jsonl", "jsonl", "{\"a\": 1} // protoscan:ignore a/b -- r\n", []short{line("a/b", "r", 1, 1, 13)}},

		{"markdown prose mention", "markdown", "<!-- example: protoscan:ignore a/b -- r -->\nSee protoscan:ignore a/b -- r.\n", nil},
		{"unknown language", "toml", "a = 1 # protoscan:ignore a/b -- r\n", nil},
		{"no marker", "go", "x := 1 // nothing\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := shorten(parse(tt.lang, []byte(tt.src)))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(%s, %q)\n got %v\nwant %v", tt.lang, tt.src, got, tt.want)
			}
		})
	}
}

func TestParseMarkdown(t *testing.T) {
	src := `---
title: x # protoscan:ignore fm/rule -- front matter
---
# Heading protoscan:ignore not/a-directive -- heading

Inline ` + "`<!-- protoscan:ignore a/inline -- code span -->`" + ` is prose.

<!-- protoscan:ignore msgcheck/* -- example of an invalid message -->
` + "```json" + `
{"status": "failed"}
` + "```" + `

` + "```yaml" + `
# protoscan:ignore enumdrift/legacy-status -- yaml in a block
status: failed
other: x # protoscan:ignore y/z -- trailing
` + "```" + `

- item

  ` + "```python" + `
  x = "#" # protoscan:ignore py/rule -- in a list item
  ` + "```" + `

<!--
protoscan:file-ignore divergence/* -- docs
-->
<!-- protoscan:ignore prose/rule -- on prose --> text after

` + "```sh" + `
# protoscan:ignore sh/rule -- not a language protoscan reads
` + "```" + `
`
	got := shorten(parse("markdown", []byte(src)))
	want := []short{
		line("fm/rule", "front matter", 2, 2, 12),
		{"msgcheck/*", "example of an invalid message", false, 9, 11, 8, 6},
		line("enumdrift/legacy-status", "yaml in a block", 15, 14, 3),
		line("y/z", "trailing", 16, 16, 12),
		line("py/rule", "in a list item", 22, 22, 13),
		{"divergence/*", "docs", true, 0, 0, 26, 1},
		line("prose/rule", "on prose", 28, 28, 6),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%v\nwant\n%v", got, want)
	}
}

// TestParseMarkdownUnlabelled: a plain fence that the scan reads as data
// takes YAML comments; one of shell or prose does not.
func TestParseMarkdownUnlabelled(t *testing.T) {
	src := "```\ntask_id: t-1\nstatus: done # protoscan:ignore enumdrift/* -- an old example\n```\n\n" +
		"```\n$ make # protoscan:ignore a/b -- not data\n```\n"
	got := shorten(parse("markdown", []byte(src)))
	want := []short{line("enumdrift/*", "an old example", 3, 3, 16)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v want %v", got, want)
	}
}

// TestParseMDX: MDX comments are directives, and one alone before a fence
// nested deep in a component covers the whole block, as in Markdown.
func TestParseMDX(t *testing.T) {
	src := "<Tabs>\n    {/* protoscan:ignore msgcheck/* -- an invalid example */}\n    ```\n    status: done\n    ```\n</Tabs>\n" +
		"{/*\nprotoscan:file-ignore divergence/* -- docs\n*/}\n"
	got := shorten(parse("mdx", []byte(src)))
	want := []short{
		{"msgcheck/*", "an invalid example", false, 3, 5, 2, 9},
		{"divergence/*", "docs", true, 0, 0, 8, 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%v\nwant\n%v", got, want)
	}
}

func TestParseMarkdownLoneCR(t *testing.T) {
	src := "a\r<!-- protoscan:ignore a/b -- r -->\r```yaml\rx: 1 # protoscan:ignore c/d -- r\r```\r"
	got := shorten(parse("markdown", []byte(src)))
	want := []short{{"a/b", "r", false, 3, 5, 2, 6}, line("c/d", "r", 4, 4, 8)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v want %v", got, want)
	}
}

func TestParsePosEnd(t *testing.T) {
	ds := parse("go", []byte("x := 1 // protoscan:ignore a/b -- why  \n"))
	if len(ds) != 1 {
		t.Fatalf("got %d directives", len(ds))
	}
	p := ds[0].Pos
	if p.Path != "" || p.Line != 1 || p.Col != 11 || p.EndLine != 1 || p.EndCol != 38 {
		t.Errorf("Pos = %+v", p)
	}
}

func fnd(path, rule string, line int) finding.Finding {
	return finding.Finding{Rule: rule, Severity: finding.Error, Location: finding.Location{Path: path, Line: line, Col: 1}, Message: rule + " here"}
}

func rulesOf(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s:%d %s", f.Path, f.Line, f.Rule))
	}
	return out
}

func TestApply(t *testing.T) {
	goSrc := `package p

var a = "failed" // protoscan:ignore enumdrift/legacy-status -- v1 clients

// protoscan:ignore enumdrift/* -- whole family
var b = "done"

var c = "x" // protoscan:ignore divergence/dup -- nothing here

var d = "y" // protoscan:ignore enumdrift/legacy-status

// protoscan:file-ignore msgcheck/delegate-scope-words -- fixture file
var e = "z" // protoscan:ignore enumdrift/a, enumdrift/b -- only a fires
`
	pySrc := "x = 'failed'  # protoscan:ignore enumdrift/legacy-status -- py\n"
	ds := map[string][]Directive{
		"a.go":     parse("go", []byte(goSrc)),
		"b/c.py":   parse("python", []byte(pySrc)),
		"quiet.go": nil,
	}
	findings := []finding.Finding{
		fnd("a.go", "enumdrift/legacy-status", 3),  // trailing: suppressed
		fnd("a.go", "enumdrift/noncanonical", 3),   // other rule: kept
		fnd("a.go", "enumdrift/noncanonical", 6),   // glob above: suppressed
		fnd("a.go", "enumdrift/legacy-status", 6),  // same glob: suppressed
		fnd("a.go", "enumdrift/legacy-status", 7),  // not the directive's line: kept
		fnd("a.go", "enumdrift/legacy-status", 10), // directive without reason: kept
		fnd("a.go", "msgcheck/delegate-scope-words", 1),
		fnd("a.go", "msgcheck/delegate-scope-words", 0), // file-level: file-ignore applies
		fnd("a.go", "enumdrift/a", 13),
		fnd("a.go", "enumdrift/legacy-status", 0), // file-level: line directives never apply
		fnd("b/c.py", "enumdrift/legacy-status", 1),
		fnd("c.go", "enumdrift/legacy-status", 3), // no directives for the file
	}
	// related locations play no part
	findings[0].Related = []finding.Location{{Path: "elsewhere.go", Line: 99}}
	kept, n, problems := Apply(findings, ds)
	wantKept := []string{
		"a.go:3 enumdrift/noncanonical",
		"a.go:7 enumdrift/legacy-status",
		"a.go:10 enumdrift/legacy-status",
		"a.go:0 enumdrift/legacy-status",
		"c.go:3 enumdrift/legacy-status",
	}
	if !reflect.DeepEqual(rulesOf(kept), wantKept) {
		t.Errorf("kept\n%v\nwant\n%v", rulesOf(kept), wantKept)
	}
	if n != 7 {
		t.Errorf("suppressed = %d, want 7", n)
	}
	var got []string
	for _, p := range problems {
		if p.Severity != finding.Warning {
			t.Errorf("%v: severity %v", p, p.Severity)
		}
		got = append(got, fmt.Sprintf("%s:%d:%d %s: %s", p.Path, p.Line, p.Col, p.Rule, p.Message))
	}
	want := []string{
		"a.go:8:16 protoscan/unused-suppression: unused suppression: no divergence/dup finding on line 8; remove it",
		`a.go:10:16 protoscan/suppression-without-reason: protoscan:ignore enumdrift/legacy-status has no reason, so it suppresses nothing: write "protoscan:ignore enumdrift/legacy-status -- why"`,
		"a.go:13:16 protoscan/unused-suppression: unused rule in suppression: no enumdrift/b finding on line 13; remove it",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestApplyProblems(t *testing.T) {
	ds := map[string][]Directive{
		"z.go":   parse("go", []byte("x := 1 // protoscan:ignore -- why\n// protoscan:file-ignore a/[ -- bad glob\n// protoscan:file-ignore b/c\n")),
		"a.yaml": parse("yaml", []byte("a: 1 # protoscan:file-ignore x/y -- r\n# protoscan:ignore p/q, r/s -- r\n")),
		"d.md":   parse("markdown", []byte("<!-- protoscan:ignore m/n -- r -->\n```json\n{}\n```\n")),
	}
	_, n, problems := Apply(nil, ds)
	if n != 0 {
		t.Errorf("suppressed %d", n)
	}
	var got []string
	for _, p := range problems {
		got = append(got, fmt.Sprintf("%s:%d:%d-%d:%d %s: %s", p.Path, p.Line, p.Col, p.EndLine, p.EndCol, p.Rule, p.Message))
	}
	want := []string{
		"a.yaml:1:8-1:38 protoscan/unused-suppression: unused suppression: no x/y finding in this file; remove it",
		"a.yaml:2:3-2:33 protoscan/unused-suppression: unused suppression: no p/q, r/s finding after it: no line of code follows it; remove it",
		"d.md:1:6-1:31 protoscan/unused-suppression: unused suppression: no m/n finding on lines 2-4; remove it",
		`z.go:1:11-1:34 protoscan/unused-suppression: protoscan:ignore names no rule, so it suppresses nothing: write "protoscan:ignore RULE -- why"`,
		"z.go:2:4-2:41 protoscan/unused-suppression: unused suppression: no a/[ finding in this file (a/[ is not a valid rule pattern); remove it",
		`z.go:3:4-3:29 protoscan/suppression-without-reason: protoscan:file-ignore b/c has no reason, so it suppresses nothing: write "protoscan:file-ignore b/c -- why"`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestApplyMarkdownBlock(t *testing.T) {
	src := "# Doc\n\n<!-- protoscan:ignore msgcheck/* -- invalid on purpose -->\n```json\n{\n  \"status\": \"nope\"\n}\n```\n\nafter\n"
	ds := map[string][]Directive{"doc.md": parse("markdown", []byte(src))}
	fs := []finding.Finding{
		fnd("doc.md", "msgcheck/handback-status-enum", 6),
		fnd("doc.md", "msgcheck/handback-status-enum", 10),
	}
	kept, n, problems := Apply(fs, ds)
	if n != 1 || len(kept) != 1 || kept[0].Line != 10 || len(problems) != 0 {
		t.Errorf("kept %v, suppressed %d, problems %v", rulesOf(kept), n, problems)
	}
}

func TestApplyGlobs(t *testing.T) {
	tests := []struct {
		pattern, rule string
		want          bool
	}{
		{"enumdrift/legacy-status", "enumdrift/legacy-status", true},
		{"enumdrift/legacy-status", "enumdrift/legacy-statuses", false},
		{"enumdrift/*", "enumdrift/legacy-status", true},
		{"enumdrift/*", "divergence/x", false},
		{"*/legacy-status", "enumdrift/legacy-status", true},
		{"msgcheck/delegate-*", "msgcheck/delegate-scope-words", true},
		{"msgcheck/{delegate,handback}-*", "msgcheck/handback-x", true},
		{"*", "enumdrift/x", true},
		{"**", "enumdrift/x", true},
		{"enumdrift", "enumdrift/x", false},
		{"enumdrift/[", "enumdrift/[", true}, // an exact id always matches itself
	}
	for _, tt := range tests {
		src := "x := 1 // protoscan:ignore " + tt.pattern + " -- r\n"
		kept, _, _ := Apply([]finding.Finding{fnd("f.go", tt.rule, 1)}, map[string][]Directive{"f.go": parse("go", []byte(src))})
		if got := len(kept) == 0; got != tt.want {
			t.Errorf("%s suppresses %s: %v, want %v", tt.pattern, tt.rule, got, tt.want)
		}
	}
}

// TestApplyGlobCaps: a rule glob over the caps of internal/glob suppresses
// nothing and is a finding at its comment; the comment's other rules
// still apply. The first glob is the report's shape: 311 bytes of brace pairs,
// which doublestar expanded to 2^60 patterns; the second is under the
// length cap but 2^14 patterns.
func TestApplyGlobCaps(t *testing.T) {
	long := "enumdrift/" + strings.Repeat("{*,*}{*,*}", 30) + "x"
	many := "enumdrift/" + strings.Repeat("{*,*}{*,*}", 7) + "x"
	src := "# protoscan:file-ignore " + long + " -- hostile\n" +
		"x = 1  # protoscan:ignore " + many + ", divergence/* -- hostile\n"
	fs := []finding.Finding{fnd("f.py", "enumdrift/legacy-x", 2), fnd("f.py", "divergence/duplicate", 2)}
	kept, n, problems := Apply(fs, map[string][]Directive{"f.py": parse("python", []byte(src))})
	if n != 1 || len(kept) != 1 || kept[0].Rule != "enumdrift/legacy-x" {
		t.Errorf("kept %v, suppressed %d", rulesOf(kept), n)
	}
	var got []string
	for _, p := range problems {
		got = append(got, fmt.Sprintf("%s:%d:%d %s: %s", p.Path, p.Line, p.Col, p.Rule, p.Message))
	}
	want := []string{
		`f.py:1:3 protoscan/suppression-bad-glob: protoscan:file-ignore: rule glob "enumdrift/{*,*}{*,*}{*,*}{*,*}{*,*}{*,*}"... is 311 bytes, over the limit of 256, so it suppresses nothing`,
		`f.py:2:10 protoscan/suppression-bad-glob: protoscan:ignore: rule glob "enumdrift/{*,*}{*,*}{*,*}{*,*}{*,*}{*,*}"... expands to more than 64 patterns (braces), the limit, so it suppresses nothing`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMatcherCompiledOnce: a rule glob just under the brace cap is
// compiled once per directive into at most glob.MaxAlternatives patterns.
func TestMatcherCompiledOnce(t *testing.T) {
	d := &Directive{Rules: []string{"enumdrift/" + strings.Repeat("{a,b}", 6) + "*"}, Reason: "r", File: true}
	m := newMatcher(d)
	if m.globs[0] == nil || m.globs[0].Alternatives() != 64 {
		t.Fatalf("compiled %v", m.globs[0])
	}
	if !m.match("enumdrift/abababx") || m.match("enumdrift/abcbabx") {
		t.Error("the compiled glob does not match as doublestar")
	}
}

// A finding matched by a file-ignore and a line directive uses both.
func TestApplyOverlapping(t *testing.T) {
	src := "// protoscan:file-ignore a/* -- all\nx := 1 // protoscan:ignore a/b -- this one\n"
	kept, n, problems := Apply([]finding.Finding{fnd("f.go", "a/b", 2)}, map[string][]Directive{"f.go": parse("go", []byte(src))})
	if len(kept) != 0 || n != 1 || len(problems) != 0 {
		t.Errorf("kept %v, suppressed %d, problems %v", kept, n, problems)
	}
}

// Two identical findings on a line are both suppressed and counted.
func TestApplyCountsEach(t *testing.T) {
	src := "x := 1 // protoscan:ignore a/b -- r\n"
	kept, n, _ := Apply([]finding.Finding{fnd("f.go", "a/b", 1), fnd("f.go", "a/b", 1)}, map[string][]Directive{"f.go": parse("go", []byte(src))})
	if len(kept) != 0 || n != 2 {
		t.Errorf("kept %v, suppressed %d", kept, n)
	}
}

func TestApplyDeterministic(t *testing.T) {
	ds := map[string][]Directive{}
	for i := range 20 {
		ds[fmt.Sprintf("f%02d.go", i)] = parse("go", []byte("x := 1 // protoscan:ignore a/b -- r\n"))
	}
	_, _, first := Apply(nil, ds)
	for range 10 {
		_, _, again := Apply(nil, ds)
		if !reflect.DeepEqual(first, again) {
			t.Fatal("problems differ between runs")
		}
	}
	if len(first) != 20 || first[0].Path != "f00.go" || first[19].Path != "f19.go" {
		t.Errorf("problems not sorted: %v", first)
	}
}

// Many directives and many findings in one file stay fast: no work is
// quadratic in the size of a file.
func TestScale(t *testing.T) {
	const n = 100000
	var b strings.Builder
	for i := range n {
		// comment-only lines with no code after them: every directive
		// looks ahead to the end of the file
		fmt.Fprintf(&b, "// protoscan:ignore a/r%d, a/* -- r\n", i%50)
	}
	b.WriteString("x := 1\n")
	ds := parse("go", []byte(b.String()))
	if len(ds) != n || ds[0].Line != n+1 || ds[n-1].Line != n+1 {
		t.Fatalf("%d directives, first on line %d", len(ds), ds[0].Line)
	}
	fs := make([]finding.Finding, 0, n)
	for i := range n {
		fs = append(fs, fnd("f.go", fmt.Sprintf("a/r%d", i%70), n+1))
	}
	kept, suppressed, problems := Apply(fs, map[string][]Directive{"f.go": ds})
	if len(kept) != 0 || suppressed != n || len(problems) != 0 {
		t.Errorf("kept %d, suppressed %d, problems %d", len(kept), suppressed, len(problems))
	}

	// Markdown: many blocks, each with a directive above it
	b.Reset()
	for range n / 10 {
		b.WriteString("<!-- protoscan:ignore m/x -- r -->\n```json\n{}\n```\n")
	}
	ds = parse("markdown", []byte(b.String()))
	if len(ds) != n/10 || ds[1].Line != 6 || ds[1].EndLine != 8 {
		t.Fatalf("%d directives; second %+v", len(ds), ds[1])
	}
	fs = fs[:0]
	for i := range n / 10 {
		fs = append(fs, fnd("d.md", "m/x", 4*i+3))
	}
	kept, suppressed, problems = Apply(fs, map[string][]Directive{"d.md": ds})
	if len(kept) != 0 || suppressed != n/10 || len(problems) != 0 {
		t.Errorf("markdown: kept %d, suppressed %d, problems %d", len(kept), suppressed, len(problems))
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"x := 1 // protoscan:ignore a/b -- r\n",
		"/* protoscan:ignore a/b -- r */ x\n`raw\n",
		"x = '''\n# protoscan:ignore a -- b\n''' # protoscan:file-ignore c -- d\n",
		"a: |\n  # protoscan:ignore a -- b\n# protoscan:ignore\n",
		"<!-- protoscan:ignore a -- b -->\n```yaml\n# protoscan:ignore c -- d\nx: 1\n```\n",
		"---\nx: 1 # protoscan:ignore a -- b\n---\n",
	} {
		for _, lang := range []string{"go", "python", "yaml", "json", "markdown"} {
			f.Add(lang, []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, lang string, src []byte) {
		ds := parse(lang, src)
		lines := strings.Count(string(src), "\n") + strings.Count(string(src), "\r") + 1
		fs := make([]finding.Finding, 0, len(ds))
		for _, d := range ds {
			if d.Pos.Line < 1 || d.Pos.Line > lines || d.Pos.Col < 1 || d.Pos.EndCol < d.Pos.Col {
				t.Fatalf("bad position %+v", d.Pos)
			}
			if d.File && (d.Line != 0 || d.EndLine != 0) || d.EndLine < d.Line || d.Line < 0 || d.Line > lines {
				t.Fatalf("bad lines %+v", d)
			}
			if d.Line > 0 {
				fs = append(fs, fnd("f", "a/b", d.Line))
			}
		}
		kept, n, _ := Apply(fs, map[string][]Directive{"f": ds})
		if len(kept)+n != len(fs) {
			t.Fatalf("kept %d + suppressed %d != %d", len(kept), n, len(fs))
		}
	})
}

// FuzzApplyGlobs: directives whose rules are globs of any shape, the
// brace bombs and classes of hostile trees among the seeds, are applied
// to findings of a few rules: Apply ends, every finding is kept or
// suppressed, and every glob over the caps of a directive with a reason
// is reported once.
func FuzzApplyGlobs(f *testing.F) {
	for _, s := range []string{
		"enumdrift/*", "msgcheck/{delegate,handback}-*", "*/legacy-status", "enumdrift/[a-z]*",
		"enumdrift/" + strings.Repeat("{*,*}{*,*}", 30) + "x", "enumdrift/" + strings.Repeat("{*,*}", 7) + "x",
		"{" + strings.Repeat("{a,b}", 7) + ",c}/*", "a/**/b", `enumdrift/\*`, "enumdrift/[",
	} {
		f.Add(s, "enumdrift/legacy-status")
	}
	f.Fuzz(func(t *testing.T, rules, rule string) {
		src := "x = 1  # protoscan:ignore " + rules + " -- r\n# protoscan:file-ignore " + rules + " -- r\n"
		ds := parse("python", []byte(src))
		fs := []finding.Finding{fnd("f", rule, 1), fnd("f", "enumdrift/legacy-status", 1), fnd("f", "divergence/x", 0)}
		kept, n, problems := Apply(fs, map[string][]Directive{"f": ds})
		if len(kept)+n != len(fs) {
			t.Fatalf("kept %d + suppressed %d != %d", len(kept), n, len(fs))
		}
		bad := 0 // a directive without a reason is reported for that alone
		for _, d := range ds {
			for _, r := range d.Rules {
				if d.Reason == "" {
					break
				}
				if _, err := glob.Compile(r); err != nil && !errors.Is(err, glob.ErrBadPattern) {
					bad++
				}
			}
		}
		for _, p := range problems {
			if p.Rule == RuleBadGlob {
				bad--
			}
		}
		if bad != 0 {
			t.Fatalf("%d globs over the caps not reported once", bad)
		}
	})
}

// Counter counts what each directive alone would suppress, as Apply
// decides: its rules (and the rules findings stand for), its lines, a
// Markdown block, the whole file for file-ignore.
func TestCounterHides(t *testing.T) {
	goSrc := `package p

var a = "failed" // protoscan:ignore enumdrift/legacy-status -- v1 clients

// protoscan:ignore enumdrift/* -- whole family
var b = "done"

var d = "y" // protoscan:ignore enumdrift/legacy-status

// protoscan:file-ignore msgcheck/* -- fixture file
`
	ds := parse("go", []byte(goSrc))
	alias := fnd("a.go", "enumdrift/other", 3)
	alias.StandsFor = "enumdrift/legacy-status"
	fs := []finding.Finding{
		fnd("a.go", "enumdrift/legacy-status", 3),
		alias,
		fnd("a.go", "enumdrift/noncanonical", 6),
		fnd("a.go", "enumdrift/legacy-status", 6),
		fnd("a.go", "enumdrift/legacy-status", 7),
		fnd("a.go", "enumdrift/legacy-status", 8),
		fnd("a.go", "msgcheck/delegate-scope-words", 0),
		fnd("a.go", "msgcheck/handback-status", 2),
	}
	c := NewCounter(fs)
	var got []int
	for i := range ds {
		got = append(got, c.Hides(&ds[i]))
	}
	// the third has no reason: it hides nothing
	if want := []int{2, 2, 0, 2}; !slices.Equal(got, want) {
		t.Errorf("Hides = %v, want %v", got, want)
	}
	// each alone suppresses what Apply suppresses with it alone
	for i := range ds {
		_, n, _ := Apply(fs, map[string][]Directive{"a.go": {ds[i]}})
		if n != got[i] {
			t.Errorf("directive %d: Apply suppresses %d, Hides says %d", i, n, got[i])
		}
	}
	md := parse("markdown", []byte("<!-- protoscan:ignore msgcheck/* -- example -->\n```yaml\na: 1\nb: 2\n```\nc\n"))
	mc := NewCounter([]finding.Finding{fnd("d.md", "msgcheck/x", 3), fnd("d.md", "msgcheck/y", 4), fnd("d.md", "msgcheck/x", 6)})
	if n := mc.Hides(&md[0]); n != 2 {
		t.Errorf("a comment above a Markdown block hides %d, want the block's 2", n)
	}
}

// syntaxOf is the comment syntax of each language the tests write in, as
// the language registry (languages/extract) gives it to the scan.
var syntaxOf = map[string]facts.CommentSyntax{
	"go": facts.CComments, "json": facts.JSONComments, "jsonl": facts.JSONComments,
	"jsonc": facts.JSONComments, "json5": facts.JSONComments,
	"python": facts.PythonComments, "yaml": facts.YAMLComments, "nexus_handoff": facts.YAMLComments,
	"markdown": facts.MarkdownComments, "mdx": facts.MDXComments,
	"typescript": facts.JSComments, "tsx": facts.JSComments,
}

// parse is Parse for a language by its name, its Markdown blocks by the
// same table.
func parse(lang string, src []byte) []Directive {
	return Parse(syntaxOf[lang], src, func(label string) facts.CommentSyntax { return syntaxOf[label] })
}

// TestParseJS: TypeScript and JavaScript take "//", "/* */" and JSX's
// {/* */}, which alone on its line applies to the next one (the braces
// are no code); a template string spanning lines hides what looks like a
// comment, and a JSX comment after code is a trailing one.
func TestParseJS(t *testing.T) {
	src := "// protoscan:ignore a/b -- one\nif (h.status === \"done\") f();\n" +
		"/* protoscan:ignore c/d -- two */\nx = 1;\n" +
		"  {/* protoscan:ignore e/f -- three */}\n  {h.status === \"done\" && <i />}\n" +
		"const t = `\n// protoscan:ignore g/h -- in a template\n`;\n" +
		"<i>{x}</i>; {/* protoscan:ignore i/j -- trailing */}\n" +
		"{ /* protoscan:ignore k/l -- spaced */ }\ny;\n"
	got := shorten(parse("tsx", []byte(src)))
	want := []short{
		line("a/b", "one", 2, 1, 4),
		line("c/d", "two", 4, 3, 4),
		line("e/f", "three", 6, 5, 7),
		line("i/j", "trailing", 10, 10, 17),
		line("k/l", "spaced", 12, 11, 6),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%v\nwant\n%v", got, want)
	}
}
