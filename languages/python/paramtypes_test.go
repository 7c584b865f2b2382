package python

import (
	"slices"
	"testing"
)

// TestParamTypes: the annotations of the parameters that have one, as
// written, self and the unannotated ones left out.
func TestParamTypes(t *testing.T) {
	src := "class Gate:\n    def check(self, hb: Handback, n: int = 3, *args, flag=False, **kw: Any):\n        pass\n\ndef plain(a, b):\n    pass\n"
	f, err := Extract("gate.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Functions[0].ParamTypes, []string{"Handback", "int", "Any"}; !slices.Equal(got, want) {
		t.Errorf("check: %q, want %q", got, want)
	}
	if got := f.Functions[1].ParamTypes; got != nil {
		t.Errorf("plain: %q, want none", got)
	}
}
