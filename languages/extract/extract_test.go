package extract

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/markdown"
)

func TestLanguage(t *testing.T) {
	for name, want := range map[string]string{
		"a/b.go": "go", "x.PY": "python", "f.yml": "yaml", "f.yaml": "yaml", "d.json": "json",
		"q.jsonl": "jsonl", "README.md": "markdown", "docs/intro.MDX": "markdown", "img.png": "", "Makefile": "",
		"a.ts": "typescript", "a.d.ts": "typescript", "a.mts": "typescript", "a.cts": "typescript", "App.TSX": "typescript",
		"a.js": "javascript", "a.jsx": "javascript", "a.mjs": "javascript", "a.cjs": "javascript",
		"App.vue": "", "App.svelte": "",
	} {
		if got := Language(name); got != want {
			t.Errorf("Language(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestFences: TypeScript and JavaScript blocks are read by their label,
// with the grammar it names (JSX in tsx and jsx blocks).
func TestFences(t *testing.T) {
	for label, want := range map[string]string{
		"ts": "typescript", "typescript": "typescript", "tsx": "typescript",
		"js": "javascript", "javascript": "javascript", "jsx": "javascript", "node": "javascript",
	} {
		l := ForFence(markdown.Normalize(label))
		if l == nil || l.Name != want {
			t.Errorf("fence %s: %v, want %s", label, l, want)
			continue
		}
		body := []byte("const B = ({ hb }) => <i>{hb.status === \"done\"}</i>;\n")
		if label == "ts" || label == "typescript" {
			body = []byte("if (hb.status === \"done\") f();\n")
		}
		f, _ := l.Block("README.md", body)
		if f == nil || len(f.Strings) != 1 || f.Strings[0].Key != "status" {
			t.Errorf("fence %s: %+v", label, f)
		}
	}
}

// TestMarkdownBlocks: facts from fenced blocks carry Markdown line numbers,
// Go fragments without a package clause are read, a broken block is
// skipped without an error, and the ends of literals are exact.
func TestMarkdownBlocks(t *testing.T) {
	src := "# Doc\n\n```yaml\ntask_id: a-1\nstatus: done\n```\n\n```go\nif h.Status == \"failed\" {\n}\n```\n\n```json\n{broken\n```\n"
	f, err := File("doc.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]int{}
	for _, s := range f.Strings {
		found[s.Value] = s.Pos.Line
		checkSpan(t, src, s)
	}
	if found["done"] != 5 || found["failed"] != 9 {
		t.Errorf("lines: done %d (want 5), failed %d (want 9)", found["done"], found["failed"])
	}
	for _, s := range f.Strings {
		if s.Mapping >= len(f.Mappings) || s.Group >= len(f.Groups) {
			t.Errorf("%q has a dangling index", s.Value)
		}
	}
}

// checkSpan checks that a literal's position is its place in the Markdown
// source src: the line and column agree with the offset, and, when the
// end is known, src[Pos.Offset:End.Offset] is the literal as written.
func checkSpan(t *testing.T, src string, s facts.String) {
	t.Helper()
	if s.Pos.Offset < 0 || s.Pos.Offset > len(src) {
		t.Errorf("%q: offset %d out of range", s.Value, s.Pos.Offset)
		return
	}
	line := 1 + strings.Count(src[:s.Pos.Offset], "\n")
	col := s.Pos.Offset - (strings.LastIndexByte(src[:s.Pos.Offset], '\n') + 1) + 1
	if s.Pos.Line != line || s.Pos.Col != col {
		t.Errorf("%q at %d:%d, but its offset %d is at %d:%d", s.Value, s.Pos.Line, s.Pos.Col, s.Pos.Offset, line, col)
	}
	if s.End.Line == 0 {
		return
	}
	text := src[s.Pos.Offset:min(max(s.End.Offset, s.Pos.Offset), len(src))]
	if text != s.Value && text != `"`+s.Value+`"` && text != "'"+s.Value+"'" {
		t.Errorf("%q spans %q in the source", s.Value, text)
	}
	if s.End.Line != s.Pos.Line || s.End.Col != s.Pos.Col+len(text) {
		t.Errorf("%q ends at %d:%d, want %d:%d", s.Value, s.End.Line, s.End.Col, s.Pos.Line, s.Pos.Col+len(text))
	}
}

// TestMarkdownContainers: inside a list item, a block quote, an indented
// fence and front matter, literals are found at their line, column and
// offset of the Markdown file, with exact ends.
func TestMarkdownContainers(t *testing.T) {
	for name, tc := range map[string]struct {
		src  string
		want map[string][2]int // value -> line, column
	}{
		"list item": {"# Doc\n\n- A fixture:\n\n  ```yaml\n  task_id: t-1\n  status: SUCCESS\n  ```\n",
			map[string][2]int{"t-1": {6, 12}, "SUCCESS": {7, 11}}},
		"nested list": {"1. one\n   - two\n\n     ```json\n     {\"task_id\": \"t-1\", \"status\": \"failed\"}\n     ```\n",
			map[string][2]int{"t-1": {5, 18}, "failed": {5, 35}}},
		"block quote": {"> Example:\n>\n> ```yaml\n> status: 'Failed'\n>task_id: t-2\n> ```\n",
			map[string][2]int{"Failed": {4, 11}, "t-2": {5, 11}}},
		"quote in list": {"- > ```python\n  > h = {\"status\": \"done\"}\n  > ```\n",
			map[string][2]int{"done": {2, 20}}},
		"indented fence": {"  ```go\n  const S = \"failed\"\n ```\n",
			map[string][2]int{"failed": {2, 13}}},
		"front matter": {"---\nstatus: escalated\n---\n# Doc\n",
			map[string][2]int{"escalated": {2, 9}}},
		"crlf": {"- x\r\n\r\n  ```yaml\r\n  status: failed\r\n  ```\r\n",
			map[string][2]int{"failed": {4, 11}}},
	} {
		t.Run(name, func(t *testing.T) {
			f, err := File("doc.md", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]facts.String{}
			for _, s := range f.Strings {
				got[s.Value] = s
				if strings.Contains(tc.src, "\r") {
					continue // lines count "\r\n" once, but Count("\n") is right too
				}
				checkSpan(t, tc.src, s)
			}
			for v, lc := range tc.want {
				s, ok := got[v]
				if !ok {
					t.Errorf("%q not found", v)
					continue
				}
				if s.Pos.Line != lc[0] || s.Pos.Col != lc[1] {
					t.Errorf("%q at %d:%d, want %d:%d", v, s.Pos.Line, s.Pos.Col, lc[0], lc[1])
				}
				if s.End.Line == 0 {
					t.Errorf("%q has no end: no fix could be offered", v)
				} else if text := tc.src[s.Pos.Offset:s.End.Offset]; strings.Trim(text, `"'`) != v {
					t.Errorf("%q spans %q", v, text)
				}
			}
		})
	}
}

// TestMarkdownUnlabelled: a fence without a language that holds YAML or
// JSON mappings gives facts at their exact place in the Markdown (or MDX)
// file; one that holds anything else gives none, and never an error.
func TestMarkdownUnlabelled(t *testing.T) {
	for _, tc := range []struct {
		name, file, src string
		want            map[string][2]int // value -> line, column; nil: no facts at all
	}{
		{"yaml", "doc.md", "# Doc\n\n```\ntask_id: t-1\nstatus: done\n```\n",
			map[string][2]int{"t-1": {4, 10}, "done": {5, 9}}},
		{"json", "doc.md", "Text.\n\n~~~\n{\"task_id\": \"t-1\",\n \"status\": \"failed\"}\n~~~\n",
			map[string][2]int{"t-1": {4, 13}, "failed": {5, 12}}},
		{"yaml flow mapping", "doc.md", "```\n{task_id: t-1, status: done}\n```\n",
			map[string][2]int{"t-1": {2, 11}, "done": {2, 24}}},
		{"list of mappings in a list item", "doc.md", "1. Two:\n\n   ```\n   - status: done\n   - status: failed\n   ```\n",
			map[string][2]int{"done": {4, 14}, "failed": {5, 14}}},
		{"mdx in a component", "docs/page.mdx", "import X from 'x'\n\n<Tabs>\n  <Tab>\n      ```\n      status: done\n      ```\n  </Tab>\n</Tabs>\n",
			map[string][2]int{"done": {6, 15}}},
		{"prose", "doc.md", "```\nThe agent replies with its status: done.\n```\n", nil},
		{"shell", "doc.md", "```\n$ protoscan --format json .\n```\n", nil},
		{"ascii art", "doc.md", "```\n[planner] ---> [worker]\n    |              |\n```\n", nil},
		{"not json, not yaml", "doc.md", "```\n{\"status\": \"done\",\n```\n", nil},
		{"a scalar", "doc.md", "```\nstatus: done\n---\njust text\n```\n", nil},
		{"json list of numbers", "doc.md", "```\n[1, 2, 3]\n```\n", nil},
		{"field outline", "doc.md", "```\ntask_id: str\nstatus: Literal[\"success\", \"failure\"]\noutput: dict | None\nmetrics: Optional[Metrics]\n```\n", nil},
		{"json placeholders", "doc.md", "```\n[{\"task_id\": \"string\", \"status\": \"string\", \"output\": {}}]\n```\n", nil},
		{"nulls are values", "doc.md", "```\ntask_id: t-1\nstatus: failure\noutput: null\nerror: null\n```\n",
			map[string][2]int{"failure": {3, 9}}},
		{"unknown language", "doc.md", "```text\nstatus: done\n```\n\n```console\ntask_id: t-1\n```\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := File(tc.file, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if len(f.Strings) != 0 || len(f.Mappings) != 0 {
					t.Fatalf("facts from a block that is not data: %+v", f.Strings)
				}
				return
			}
			got := map[string]facts.String{}
			for _, s := range f.Strings {
				got[s.Value] = s
				checkSpan(t, tc.src, s)
			}
			for v, lc := range tc.want {
				s, ok := got[v]
				switch {
				case !ok:
					t.Errorf("%q not found", v)
				case s.Pos.Line != lc[0] || s.Pos.Col != lc[1]:
					t.Errorf("%q at %d:%d, want %d:%d", v, s.Pos.Line, s.Pos.Col, lc[0], lc[1])
				case s.End.Line == 0:
					t.Errorf("%q has no end: no fix could be offered", v)
				}
			}
		})
	}
}

// TestMarkdownPartialTab: a tab partly consumed by a list item's
// indentation becomes spaces in the block's body, which are not bytes of
// the Markdown file; the literal after them is still mapped exactly. A
// literal that spans lines (whose body may have lost container prefixes
// in between) gets no end.
func TestMarkdownPartialTab(t *testing.T) {
	// The item's content starts at column 3; the tab on line 5 spans
	// columns 1-4, so two columns of it are left to the body as spaces.
	src := "- x\n\n  ```json\n  {\"a\": \"failed\",\n\t\"b\": \"failed\"}\n  ```\n\n" +
		"- y\n\n  ```python\n  h = {\"status\": \"\"\"fail\n  ed\"\"\", \"task_id\": \"t\"}\n  ```\n"
	f, err := File("doc.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, s := range f.Strings {
		checkSpan(t, src, s)
		switch s.Value {
		case "failed":
			lines = append(lines, s.Pos.Line)
			if s.End.Line == 0 {
				t.Errorf("failed at line %d has no end", s.Pos.Line)
			}
		case "fail\n  ed", "fail\ned":
			if s.Pos.Line != 11 || s.End.Line != 0 {
				t.Errorf("multi-line literal at %+v..%+v: want line 11 and no end", s.Pos, s.End)
			}
		}
	}
	if len(lines) != 2 || lines[0] != 4 || lines[1] != 5 {
		t.Errorf("failed found at lines %v, want [4 5]", lines)
	}
}

// FuzzExtract feeds any bytes to every extractor through File: no panic,
// no index out of range between the facts.
func FuzzExtract(f *testing.F) {
	for _, name := range []string{"x.go", "x.py", "x.yaml", "x.json", "x.md", "x.mdx"} {
		f.Add(name, []byte("status: done\n"))
	}
	f.Add("x.md", []byte("```\ntask_id: t-1\n```\n~~~\n{\"status\": [\"done\"]}\n~~~\n```\n$ ls\n```\n"))
	f.Add("x.mdx", []byte("<Tabs>\n    ```\n    - status: done\n    ```\n</Tabs>\n"))
	f.Add("x.md", []byte("```go\nswitch h.Status { case \"x\": }\n```\n```yaml\na: &a [*a]\n```\n"))
	f.Add("x.yaml", []byte("a: [\n---\nstatus: done\n---\nb: \"\n"))
	f.Add("x.jsonl", []byte("{\"status\": \"done\"}\n{oops\n[[1]]\n"))
	f.Add("x.json", []byte("[[[1]]] {\"status\": \"done\"} {"))
	f.Add("x.md", []byte("> ```yaml\n> a: [\n> ---\n> status: done\n> ```\n"))
	if data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "polyglot", "docs", "PROTOCOL.md")); err == nil {
		f.Add("PROTOCOL.md", data)
	}
	f.Fuzz(func(t *testing.T, name string, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		facts, broken := Parse(name, src)
		// YAML also breaks lines at a lone "\r", U+0085, U+2028 and
		// U+2029, and may name the line after the last
		lines := bytes.Count(src, []byte("\n")) + bytes.Count(src, []byte("\r")) +
			bytes.Count(src, []byte("\u0085")) + bytes.Count(src, []byte("\u2028")) + bytes.Count(src, []byte("\u2029")) + 2
		md := Language(name) == "markdown"
		for i, b := range broken {
			if b.Err == nil || b.Part == "" || b.Line < 0 || b.Line > lines || b.Block != md {
				t.Fatalf("broken part %d: %+v (of %d lines)", i, b, lines)
			}
			if i > 0 && !md && b.Line < broken[i-1].Line && broken[i-1].Line != 0 {
				t.Fatalf("broken part %d at line %d after one at line %d", i, b.Line, broken[i-1].Line)
			}
		}
		for _, s := range facts.Strings {
			if s.Mapping >= len(facts.Mappings) || s.Group >= len(facts.Groups) {
				t.Fatalf("%q has a dangling index", s.Value)
			}
			if Language(name) == "markdown" {
				checkMarkdownSpan(t, src, s)
			}
		}
		for _, g := range facts.Groups {
			for _, m := range g.Members {
				if m < 0 || m >= len(facts.Strings) {
					t.Fatalf("group %s has a dangling member", g.Name)
				}
			}
		}
	})
}

// checkMarkdownSpan checks what holds for any literal of a Markdown file,
// whatever its block's parser made of it: a known end is on the
// literal's line, within the text of that line, as wide in columns as in
// bytes; and in a file with "\n" endings only, the line and column are
// those of the offset.
func checkMarkdownSpan(t *testing.T, src []byte, s facts.String) {
	t.Helper()
	if s.Pos.Offset < 0 || s.Pos.Offset > len(src) {
		t.Fatalf("%q: offset %d out of range", s.Value, s.Pos.Offset)
	}
	if s.End.Line != 0 {
		if s.End.Line != s.Pos.Line || s.End.Offset < s.Pos.Offset || s.End.Offset > len(src) ||
			s.End.Col-s.Pos.Col != s.End.Offset-s.Pos.Offset || bytes.ContainsAny(src[s.Pos.Offset:s.End.Offset], "\r\n") {
			t.Fatalf("%q spans %+v..%+v", s.Value, s.Pos, s.End)
		}
	}
	if bytes.IndexByte(src, '\r') < 0 {
		line := 1 + bytes.Count(src[:s.Pos.Offset], []byte("\n"))
		col := s.Pos.Offset - (bytes.LastIndexByte(src[:s.Pos.Offset], '\n') + 1) + 1
		if s.Pos.Line != line || s.Pos.Col != col {
			t.Fatalf("%q at %d:%d, but its offset %d is at %d:%d", s.Value, s.Pos.Line, s.Pos.Col, s.Pos.Offset, line, col)
		}
	}
}

// TestMarkdownFunctions: functions of fenced Python and Go blocks are
// facts of the Markdown file, at the lines of the Markdown file, and the
// offsets of two blocks do not overlap (divergence relates strings to
// functions by offset).
func TestMarkdownFunctions(t *testing.T) {
	src := "# Escalation\n\n```python\ndef should_escalate(h):\n    return h[\"metrics\"][\"quality\"] < 0.5\n```\n\nAnd in Go:\n\n```go\nfunc ShouldEscalate(h Handback) bool {\n\treturn h.Metrics.Quality < 0.7\n}\n```\n"
	f, err := File("docs/escalation.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Functions) != 2 {
		t.Fatalf("%d functions, want 2: %+v", len(f.Functions), f.Functions)
	}
	py, gofn := f.Functions[0], f.Functions[1]
	if py.Name != "should_escalate" || py.Pos.Line != 4 || len(py.Consts) != 1 || py.Consts[0].Pos.Line != 5 {
		t.Errorf("python block function: %+v", py)
	}
	if gofn.Name != "ShouldEscalate" || gofn.Pos.Line != 11 || len(gofn.Consts) != 1 || gofn.Consts[0].Pos.Line != 12 {
		t.Errorf("go block function: %+v", gofn)
	}
	if py.End.Offset > gofn.Pos.Offset {
		t.Errorf("block offsets overlap: python ends at %d, go starts at %d", py.End.Offset, gofn.Pos.Offset)
	}
}

func TestIsTypeName(t *testing.T) {
	for v, want := range map[string]bool{
		"str": true, "String": true, "int?": true, "string[]": true, "List[str]": true,
		`Literal["success", "failure"]`: true, "map[string]any": true, "str | None": true,
		"success | failure": true, "null": false, "success": false, "t-1": false,
		"[a, b]": false, "a | b c": false, "fix the flaky test": false,
	} {
		if got := isTypeName(v); got != want {
			t.Errorf("isTypeName(%q) = %v, want %v", v, got, want)
		}
	}
}

// aliasBomb is a YAML document whose aliases expand to 9^7 nodes.
const aliasBomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" +
	"b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n" +
	"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
	"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n" +
	"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n" +
	"f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n" +
	"g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n"

// TestBrokenParts: each YAML document, JSON value, JSON Lines line and
// Markdown block is read on its own; a broken one is listed at its line
// with its text, and the others give their facts.
func TestBrokenParts(t *testing.T) {
	deep := strings.Repeat("[", 1001) + strings.Repeat("]", 1001)
	for _, tc := range []struct {
		name, file, src string
		statuses        []string // the status values found, in order
		broken          []string // "part line:col why | raw" (raw cut at 40 bytes)
	}{
		{"yaml: first document broken", "x.yaml",
			"status: [oops\n---\nstatus: done\n---\nstatus: ok\n",
			[]string{"done", "ok"},
			[]string{"YAML document 1:0 did not find expected ',' or ']' | \"status: [oops\\n\""}},
		{"yaml: a deep document among good ones", "x.yaml",
			"status: a\n---\nx: " + deep + "\n---\nstatus: b\n",
			[]string{"a", "b"},
			[]string{"YAML document 3:1003 nesting deeper than 1000 | \"---\\nx: [[[…"}},
		{"yaml: an alias bomb among good ones", "x.yaml",
			"status: a\n---\n" + aliasBomb + "---\nstatus: b\n",
			[]string{"a", "b"},
			[]string{"YAML document 9:12 aliases expand the document by more than 1000000 nodes (alias bomb?) | \"a: &a [x, x, x, x, x, x, x, x, x]\\nb: &b…"}},
		{"jsonl: second line broken", "x.jsonl",
			"{\"status\": \"a\"}\n{\"status\": oops}\n{\"status\": \"b\"}\n",
			[]string{"a", "b"},
			[]string{"JSON Lines line 2:12 invalid character 'o' looking for beginning of value | \"{\\\"status\\\": oops}\\n\""}},
		{"json: a message, then a deep value", "x.json",
			"{\"status\": \"a\"}\n" + deep + "\n{\"status\": \"b\"}",
			[]string{"a", "b"},
			[]string{"JSON value 2:1001 nesting deeper than 1000 | \"[[[…"}},
		{"markdown: a deep fence, then a good one", "x.md",
			"# t\n\n```yaml\nstatus: a\nx: " + deep + "\n```\n\n```json\n{\"status\": \"b\"}\n```\n",
			[]string{"b"},
			[]string{"YAML document of a yaml block 5:1003 nesting deeper than 1000 | \"status: a\\nx: [[[…"}},
		{"markdown: a broken document in a fence", "x.md",
			"> ```yaml\n> status: [\n> ---\n> status: b\n> ```\n",
			[]string{"b"},
			[]string{"YAML document of a yaml block 2:0 did not find expected node content | \"status: [\\n\""}},
		{"markdown: a broken unlabelled fence is nothing", "x.md",
			"```\n{\"handoff_type\": \"HANDBACK\", oops: [}\n```\n",
			nil, nil},
		{"markdown: prose is nothing", "x.md",
			"```\n$ ls -la\n```\n",
			nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, broken := Parse(tc.file, []byte(tc.src))
			var statuses []string
			for _, s := range f.Strings {
				if s.Key == "status" {
					statuses = append(statuses, s.Value)
				}
			}
			if strings.Join(statuses, ",") != strings.Join(tc.statuses, ",") {
				t.Errorf("statuses %q, want %q", statuses, tc.statuses)
			}
			var got []string
			for _, b := range broken {
				raw := string(b.Raw)
				if len(raw) > 40 {
					raw = raw[:40]
				}
				got = append(got, fmt.Sprintf("%s %d:%d %s | %q", b.Part, b.Line, b.Col, b.Why(), raw))
			}
			if len(got) != len(tc.broken) {
				t.Fatalf("broken parts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.broken, "\n"))
			}
			for i := range got {
				want, prefix := strings.CutSuffix(tc.broken[i], "…")
				if prefix && !strings.HasPrefix(got[i], want) || !prefix && got[i] != want {
					t.Errorf("broken part %d:\n%s\nwant:\n%s", i, got[i], tc.broken[i])
				}
			}
		})
	}
}

// TestBrokenPartsLinear: a file of many broken parts costs each part its
// own bytes, a bounded number of times: twice the parts, twice the bytes
// allocated, not four times (an index of the whole block or file rebuilt
// for each part, or a stream re-read from its start after each error,
// would be quadratic).
func TestBrokenPartsLinear(t *testing.T) {
	for _, tc := range []struct {
		file, head, unit, tail string
	}{
		{"x.yaml", "", "status: [\n---\nstatus: ok\n---\n", ""},
		{"x.jsonl", "", "{\"status\": oops}\n{\"status\": \"ok\"}\n", ""},
		{"x.json", "", strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + "\n{\"status\": \"ok\"}\n", ""},
		{"x.md", "# doc\n\n```yaml\n", "status: [\n---\nstatus: ok\n---\n", "```\n"},
	} {
		cost := func(n int) (uint64, int, int) {
			src := []byte(tc.head + strings.Repeat(tc.unit, n) + tc.tail)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			f, broken := Parse(tc.file, src)
			runtime.ReadMemStats(&after)
			return after.TotalAlloc - before.TotalAlloc, len(f.Strings), len(broken)
		}
		small, good1, bad1 := cost(200)
		large, good2, bad2 := cost(400)
		if bad1 != 200 || bad2 != 400 || good1 != 2*200 || good2 != 2*400 { // a key and a value each
			t.Errorf("%s: %d and %d broken parts, %d and %d strings; want 200 and 400, 400 and 800", tc.file, bad1, bad2, good1, good2)
		}
		if large > small*5/2 {
			t.Errorf("%s: 400 broken parts allocated %d bytes, 200 allocated %d: more than linear", tc.file, large, small)
		}
	}
}
