package evidence_test

import (
	"fmt"
	"testing"

	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/msgcheck"
	"github.com/protoscan-dev/protoscan/msgcheck/evidence"
)

// TestInParamTypes: a parameter declared with a kind's type shows the
// kind inside a function, whatever the parameter is called; a type of
// something else, or the everyday Delegate, does not.
func TestInParamTypes(t *testing.T) {
	sp := msgcheck.DefaultSpec()
	for _, c := range []struct{ name, path, src, want string }{
		{"Go: a pointer to a qualified HANDBACK type", "gate/gate.go",
			"package gate\n\nfunc Gate(h *protocol.Handback) bool {\n\treturn h.Score < 70\n}\n", "[handback]"},
		{"Go: a ticket", "gate/gate.go",
			"package gate\n\nfunc Gate(t *Ticket) bool {\n\treturn t.Score < 70\n}\n", "[]"},
		{"Python: an annotation", "gate.py", "def gate(hb: Optional[Handback]):\n    return hb.score < 70\n", "[handback]"},
		{"Python: no annotation", "gate.py", "def gate(hb):\n    return hb.score < 70\n", "[]"},
		{"Python: the everyday Delegate", "gate.py", "def gate(d: Delegate):\n    return d.score < 70\n", "[]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := extract.File(c.path, []byte(c.src))
			if err != nil || len(f.Functions) != 1 {
				t.Fatalf("extract: %v, %d functions", err, len(f.Functions))
			}
			if got := fmt.Sprint(evidence.In(f, sp, &f.Functions[0])); got != c.want {
				t.Errorf("In = %s, want %s (param types %q)", got, c.want, f.Functions[0].ParamTypes)
			}
		})
	}
}
