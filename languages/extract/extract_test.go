package extract

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLanguage(t *testing.T) {
	for name, want := range map[string]string{
		"a/b.go": "go", "x.PY": "python", "f.yml": "yaml", "f.yaml": "yaml", "d.json": "json",
		"q.jsonl": "jsonl", "README.md": "markdown", "img.png": "", "Makefile": "",
	} {
		if got := Language(name); got != want {
			t.Errorf("Language(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestMarkdownBlocks: facts from fenced blocks carry Markdown line numbers,
// Go fragments without a package clause are read, and a broken block is
// skipped without an error.
func TestMarkdownBlocks(t *testing.T) {
	src := "# Doc\n\n```yaml\ntask_id: a-1\nstatus: done\n```\n\n```go\nif h.Status == \"failed\" {\n}\n```\n\n```json\n{broken\n```\n"
	f, err := File("doc.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]int{}
	for _, s := range f.Strings {
		found[s.Value] = s.Pos.Line
		if s.End.Line != 0 {
			t.Errorf("%q has an end inside Markdown: no fix may be offered there", s.Value)
		}
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

// FuzzExtract feeds any bytes to every extractor through File: no panic,
// no index out of range between the facts.
func FuzzExtract(f *testing.F) {
	for _, name := range []string{"x.go", "x.py", "x.yaml", "x.json", "x.md"} {
		f.Add(name, []byte("status: done\n"))
	}
	f.Add("x.md", []byte("```go\nswitch h.Status { case \"x\": }\n```\n```yaml\na: &a [*a]\n```\n"))
	if data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "polyglot", "docs", "PROTOCOL.md")); err == nil {
		f.Add("PROTOCOL.md", data)
	}
	f.Fuzz(func(t *testing.T, name string, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		facts, _ := File(name, src)
		for _, s := range facts.Strings {
			if s.Mapping >= len(facts.Mappings) || s.Group >= len(facts.Groups) {
				t.Fatalf("%q has a dangling index", s.Value)
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
