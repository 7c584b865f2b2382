package phase

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseHandoffFences(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		blocks   int
		texts    []string
	}{
		{"unfenced", "Built the handler.\nTests pass.\n", 0, []string{"Built the handler.", "Tests pass."}},
		{"fenced", "Phase: 3\nHANDOFF:\n---HANDOFF---\nBuilt it.\n---\nafter\n", 1, []string{"Built it."}},
		{"fence never closed", "---HANDOFF---\nBuilt it.\nmore\n", 1, []string{"Built it.", "more"}},
		{"fence case and spaces", "  ---handoff---  \nBuilt it.\n---\n", 1, []string{"Built it."}},
		{"two blocks, first judged", "---HANDOFF---\nfirst\n---\n---HANDOFF---\nsecond\n---\n", 2, []string{"first"}},
		{"CRLF", "---HANDOFF---\r\nBuilt it.\r\n---\r\n", 1, []string{"Built it."}},
		{"empty block", "---HANDOFF---\n\n   \n---\n", 1, nil},
		{"empty", "", 0, nil},
		{"invalid UTF-8", "Built \xff it.\n", 0, []string{"Built \uFFFD it."}},
		{"BOM", "\uFEFFBuilt it.\n", 0, []string{"Built it."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := ParseHandoff([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			for _, l := range h.lines {
				texts = append(texts, l.text)
			}
			if h.Blocks != tc.blocks || !reflect.DeepEqual(texts, tc.texts) {
				t.Errorf("blocks %d, lines %q; want %d, %q", h.Blocks, texts, tc.blocks, tc.texts)
			}
			if h.Empty() != (len(tc.texts) == 0) {
				t.Errorf("Empty() = %v", h.Empty())
			}
		})
	}
	if _, err := ParseHandoff(make([]byte, MaxHandoffBytes+1)); err == nil || err.Error() != "HANDOFF is 4194305 bytes, more than the limit of 4194304" {
		t.Errorf("oversized HANDOFF: %v", err)
	}
	var nilHandoff *Handoff
	if !nilHandoff.Empty() {
		t.Error("a nil HANDOFF is not empty")
	}
}

func TestParseHandoffSections(t *testing.T) {
	in := strings.Join([]string{
		"## Summary",
		"Implemented the handler.",
		"## Files changed",
		"- `src/a.ts` (new)",
		"",
		"* src/b.ts",
		"  continued note",
		"1. src/c.ts",
		"- [x] src/d.ts",
		"**Built:** src/e.ts, src/f.ts",
		"Verification: typecheck: 0 errors; tests: 12 passed",
		"  - lint clean",
		"Some prose.",
		"files_changed:",
		"  - src/g.ts",
		"Files changed",
		"- src/h.ts",
		"```",
		"- src/i.ts",
		"```",
	}, "\n")
	h, err := ParseHandoff([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		text, section string
		files, item   bool
	}
	var got []row
	for _, l := range h.lines {
		got = append(got, row{l.text, l.section, l.files, l.item})
	}
	want := []row{
		{"Summary", "Summary", false, false},
		{"Implemented the handler.", "Summary", false, true},
		{"`src/a.ts` (new)", "Files changed", true, true},
		{"src/b.ts", "Files changed", true, true},
		{"continued note", "Files changed", true, true},
		{"src/c.ts", "Files changed", true, true},
		{"src/d.ts", "Files changed", true, true},
		{"src/e.ts, src/f.ts", "Built", true, true},
		{"Verification: typecheck: 0 errors; tests: 12 passed", "Verification", false, false},
		{"lint clean", "Verification", false, true},
		{"Some prose.", "", false, false},
		{"src/g.ts", "files_changed", true, true},
		{"src/h.ts", "Files changed", true, true},
		{"src/i.ts", "Files changed", true, true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("lines\n got %+v\nwant %+v", got, want)
	}
	if c := h.lines[8].clauses; !reflect.DeepEqual(c, []string{"Verification: typecheck: 0 errors", "tests: 12 passed"}) {
		t.Errorf("clauses = %q", c)
	}
}
