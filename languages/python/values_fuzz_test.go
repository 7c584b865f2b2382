package python

import (
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// FuzzValues checks the values of literals nested n deep: open repeated
// n times, then inner, then close n times, as the output of a HANDBACK
// dict or as a keyword argument of a call, under a budget of values the
// fuzzer picks. It must not panic, every value must be of the documented
// types and at most maxDepth+1 containers deep, the budget must hold,
// and extraction must be deterministic. The literal is kept under 4 KiB:
// tree-sitter's error recovery is slow on large broken input, and depth,
// not size, is the point. Crashers stay in testdata/fuzz/FuzzValues.
func FuzzValues(f *testing.F) {
	seeds := []struct {
		open, inner, close string
		n, budget          uint16
		call               bool
	}{
		{`{"a": `, `1`, `}`, 40, 0, false},
		{`{"a": `, `1`, `}`, 500, 300, true},
		{`{"a": [`, `"s"`, `]}`, 100, 0, false},
		{`{"s": "x", "n": [1, None], "a": `, `-1.5`, `}`, 200, 300, false},
		{`{"a": (`, `(("s"))`, `)}`, 50, 0, false},
		{`[`, `{**rest}`, `]`, 40, 0, false},
		{`{"a": {"b": `, `True`, `}, "c": f(x=1), "d": -(-(2))}`, 30, 0, false},
		{`dict(k=`, `{"status": "FAILED"}`, `)`, 40, 7, false},
		{`{"a": -`, `9223372036854775808`, `}`, 5, 0, false},
		{`{'a' 'b': `, `r"\n" "x"`, `,}`, 20, 0, false},
		{`{"a": `, `b"x"`, `, "a": {*s}}`, 10, 0, false},
		{`{1: `, `"k"`, `}`, 10, 0, false},
		{`{"k": {"k": # c` + "\n", `f"{x}"`, `}}`, 10, 2, false},
		{`{"a": [`, ``, `}`, 10, 0, false}, // unbalanced: syntax errors
	}
	for _, s := range seeds {
		f.Add(s.open, s.inner, s.close, s.n, s.budget, s.call)
	}
	f.Fuzz(func(t *testing.T, open, inner, close string, n, budget uint16, call bool) {
		if len(inner) > 1<<10 {
			return
		}
		if unit := len(open) + len(close); unit > 0 {
			n = min(n, uint16((4<<10-len(inner))/unit))
		}
		lit := strings.Repeat(open, int(n)) + inner + strings.Repeat(close, int(n))
		src := []byte(handbackAround(lit))
		if call {
			src = []byte("r = make_handback(task_id=\"t\", status=\"FAILED\", output=" + lit + ")\n")
		}

		x := new(extractor)
		x.vs.max = int(budget)
		a := extractWith(t, x, src) // checks the invariants
		if limit := x.vs.budget(); x.vs.built() > limit {
			t.Fatalf("built %d values, over the budget of %d", x.vs.built(), limit)
		}
		if x.vs.built() > len(x.nodes) {
			t.Fatalf("built %d values from %d nodes: some twice", x.vs.built(), len(x.nodes))
		}
		for _, m := range a.Mappings {
			for _, e := range m.Entries {
				if d, ok := checkValue(e.Value); !ok {
					t.Fatalf("mapping at %d:%d: %s = %s: not a value of the documented types", m.Pos.Line, m.Pos.Col, e.Key, renderValue(e.Value))
				} else if d > maxDepth+1 {
					t.Fatalf("mapping at %d:%d: %s holds %d levels of containers, over %d", m.Pos.Line, m.Pos.Col, e.Key, d, maxDepth+1)
				}
			}
		}

		y := new(extractor)
		y.vs.max = int(budget)
		if ra, rb := render(a), render(extractWith(t, y, src)); ra != rb {
			t.Fatalf("not deterministic:\n%s\n---\n%s", ra, rb)
		}
	})
}

// checkValue reports whether v is a value of the types facts.Entry
// documents, and how many levels of containers it holds. Containers
// deeper than any value may be are not followed.
func checkValue(v any) (depth int, ok bool) {
	switch v := v.(type) {
	case string, int64, float64, bool, nil, facts.Unknown:
		return 0, true
	case []any:
		for _, e := range v {
			d, ok := checkValue(e)
			if !ok {
				return 0, false
			}
			depth = max(depth, d)
			if depth > maxDepth+1 {
				break
			}
		}
		return depth + 1, true
	case map[string]any:
		for _, e := range v {
			d, ok := checkValue(e)
			if !ok {
				return 0, false
			}
			depth = max(depth, d)
			if depth > maxDepth+1 {
				break
			}
		}
		return depth + 1, true
	}
	return 0, false
}
