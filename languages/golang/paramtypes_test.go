package golang

import (
	"slices"
	"testing"
)

// TestParamTypes: the last name of each parameter's type, through
// pointers, slices, variadics, qualifiers and type arguments; a map or
// func type has none.
func TestParamTypes(t *testing.T) {
	src := "package p\n\nfunc F(h *protocol.Handback, a, b int, xs []Item, m map[string]int, g List[Item], rest ...*Note) {}\n\nfunc G() {}\n"
	f, err := Extract("p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Functions[0].ParamTypes, []string{"Handback", "int", "int", "Item", "List", "Note"}; !slices.Equal(got, want) {
		t.Errorf("F: %q, want %q", got, want)
	}
	if got := f.Functions[1].ParamTypes; got != nil {
		t.Errorf("G: %q, want none", got)
	}
}
