package nodefacts

import (
	"reflect"
	"testing"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/jsondoc"
	"github.com/protoscan-dev/protoscan/languages/yamldoc"
)

func extractYAML(t *testing.T, src string) *facts.File {
	t.Helper()
	docs, err := yamldoc.Parse("t.yaml", []byte(src), yamldoc.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	f := &facts.File{Path: "t.yaml", Lang: "yaml"}
	Extract(f, []byte(src), docs, 0, 0)
	return f
}

func TestYAMLFacts(t *testing.T) {
	src := "task_id: t-1\nstatus: \"done\"\nmetrics: {quality: 0.5}\nterminal: [success, failed]\nroutes:\n  é: x\n  failed: retry\n"
	f := extractYAML(t, src)
	type got struct {
		Value string
		Role  facts.Role
		Key   string
		Line  int
		Col   int
	}
	var gs []got
	for _, s := range f.Strings {
		gs = append(gs, got{s.Value, s.Role, s.Key, s.Pos.Line, s.Pos.Col})
	}
	want := []got{
		{"task_id", facts.RoleKey, "", 1, 1},
		{"t-1", facts.RoleValue, "task_id", 1, 10},
		{"status", facts.RoleKey, "", 2, 1},
		{"done", facts.RoleValue, "status", 2, 9},
		{"metrics", facts.RoleKey, "", 3, 1},
		{"quality", facts.RoleKey, "", 3, 11},
		{"terminal", facts.RoleKey, "", 4, 1},
		{"success", facts.RoleMember, "terminal", 4, 12},
		{"failed", facts.RoleMember, "terminal", 4, 21},
		{"routes", facts.RoleKey, "", 5, 1},
		{"é", facts.RoleKey, "", 6, 3},
		{"x", facts.RoleValue, "é", 6, 7}, // byte column: é is two bytes
		{"failed", facts.RoleKey, "", 7, 3},
		{"retry", facts.RoleValue, "failed", 7, 11},
	}
	if !reflect.DeepEqual(gs, want) {
		t.Errorf("strings:\n got %v\nwant %v", gs, want)
	}
	done := f.Strings[3]
	if done.End.Col != 15 || done.Pos.Offset != 21 || done.End.Offset != 27 || src[done.Pos.Offset:done.End.Offset] != `"done"` {
		t.Errorf("done spans %+v..%+v", done.Pos, done.End)
	}
	if len(f.Groups) != 1 || f.Groups[0].Name != "terminal" || !reflect.DeepEqual(f.Groups[0].Members, []int{7, 8}) {
		t.Errorf("groups: %+v", f.Groups)
	}
	if len(f.Mappings) != 3 {
		t.Fatalf("want 3 mappings, got %d", len(f.Mappings))
	}
	top := f.Mappings[0]
	if !reflect.DeepEqual(top.Keys(), []string{"task_id", "status", "metrics", "terminal", "routes"}) {
		t.Errorf("keys %v", top.Keys())
	}
	if m := top.Entries[2].Value.(map[string]any); m["quality"] != 0.5 {
		t.Errorf("metrics value %v", m)
	}
	if e := top.Entries[1]; e.KeyPos.Line != 2 || e.ValPos.Col != 9 || e.Value != "done" {
		t.Errorf("status entry %+v", e)
	}
}

func TestJSONAndOffsets(t *testing.T) {
	src := "{\n\t\"status\": \"failed\",\n\t\"n\": 3\n}\n"
	docs, err := jsondoc.Parse("t.json", []byte(src), jsondoc.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	f := &facts.File{}
	Extract(f, []byte(src), docs, 10, 2)
	s := f.Strings[1]
	if s.Value != "failed" || s.Key != "status" || s.Pos.Line != 12 || s.Pos.Col != 14 {
		t.Errorf("got %+v", s)
	}
	if f.Mappings[0].Entries[1].Value != int64(3) {
		t.Errorf("n = %#v", f.Mappings[0].Entries[1].Value)
	}
}

func TestAliasBombStaysSmall(t *testing.T) {
	src := "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
	f := extractYAML(t, src)
	if len(f.Strings) > 30 {
		t.Errorf("aliases were expanded into facts: %d strings", len(f.Strings))
	}
	g := f.Mappings[0].Entries[6].Value.([]any)
	if len(g) != 9 {
		t.Errorf("g has %d items", len(g))
	}
}

// TestEndOnlyWhereTheSourceSpellsTheValue: a literal whose source text
// differs from its value (an escape) has no End, so no fix edits it.
func TestEndOnlyWhereTheSourceSpellsTheValue(t *testing.T) {
	for src, wantEnd := range map[string]bool{
		"status: \"FAILED\"\n":       true,
		"status: FAILED\n":           true,
		"status: \"FAIL\\u0045D\"\n": false,
		"status: 'it''s'\n":          false,
	} {
		f := extractYAML(t, src)
		var got bool
		for _, s := range f.Strings {
			if s.Key == "status" {
				got = s.End.Line > 0
			}
		}
		if got != wantEnd {
			t.Errorf("%q: has End = %v, want %v", src, got, wantEnd)
		}
	}
}
