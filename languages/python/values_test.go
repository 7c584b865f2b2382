package python

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/treesitter"
)

// extractWith extracts src with extractor x, as Extract does with one
// from the pool, and checks the invariants of the result.
func extractWith(t testing.TB, x *extractor, src []byte) *facts.File {
	t.Helper()
	err := parserPool().Parse(context.Background(), src, func(tr *treesitter.Tree) error {
		x.nodes = tr.Flatten(x.nodes)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f := &facts.File{Path: "t.py", Lang: "python"}
	x.extract(f, src)
	checkInvariants(t, src, f)
	return f
}

// handbackAround is a HANDBACK whose output is inner, assigned to x: the
// shape of the hostile files, a message with a drifted status around
// nested literals. It holds 2 values besides inner.
func handbackAround(inner string) string {
	return `x = {"task_id": "t", "status": "FAILED", "output": ` + inner + "}\n"
}

// chain is n dicts, each the value of the one around it: n+1 values.
func chain(n int) string {
	return strings.Repeat(`{"a": `, n) + "1" + strings.Repeat("}", n)
}

// dictsInLists is n dicts, each in a list that is the value of the one
// around it: 2n+1 values.
func dictsInLists(n int) string {
	return strings.Repeat(`{"a": [`, n) + "1" + strings.Repeat("]}", n)
}

// tree is a dict of depth d, two dicts under each one and a string and
// a negative number beside them, and the number of values in it (itself
// included).
func tree(d int) (string, int) {
	if d == 0 {
		return `"leaf"`, 1
	}
	sub, n := tree(d - 1)
	// -1 is two values: the unary minus and its operand
	return fmt.Sprintf(`{"l": %s, "r": %s, "s": "x", "n": -1}`, sub, sub), 1 + 2*n + 1 + 2
}

// comb is n dicts, each the value of the one around it beside a string
// and a list: 5n+1 values.
func comb(n int) string {
	return strings.Repeat(`{"s": "x", "n": [1, None], "a": `, n) + "1" + strings.Repeat("}", n)
}

// TestValuesBuiltOnce: every value of a literal is built once at most,
// however deeply the mappings that hold it nest (building it again for
// each of the up to 32 mappings around it would allocate 3.6 GB for a 2
// MiB file of nested dicts), and every mapping still has its own
// entries' values. A value the first mapping to ask found too deep is
// built when its own entry asks; a dict in a list too deep is not (the
// list is no mapping): values counts each value node once.
func TestValuesBuiltOnce(t *testing.T) {
	wide, wideN := tree(8)
	cases := []struct {
		name, src string
		values    int
	}{
		{"chain", handbackAround(chain(1000)), 2 + 1001},
		{"dicts in lists", handbackAround(dictsInLists(1000)), 2 + 2001},
		{"comb", handbackAround(comb(1000)), 2 + 5001},
		{"wide and deep", handbackAround(wide), 2 + wideN},
		{"keyword arguments", "h = make_handback(task_id=\"t\", status=\"FAILED\", output=" + chain(1000) + ")\n", 2 + 1001},
		{"parentheses", "x = " + strings.Repeat(`{"a": (`, 200) + "1" + strings.Repeat(")}", 200) + "\n", 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := new(extractor)
			f := extractWith(t, x, []byte(c.src))
			if x.vs.built() > c.values {
				t.Errorf("built %d values, want %d at most (each once)", x.vs.built(), c.values)
			}
			for _, m := range f.Mappings {
				for _, e := range m.Entries {
					if _, unknown := e.Value.(facts.Unknown); unknown {
						t.Fatalf("mapping at %d:%d: %s is computed", m.Pos.Line, m.Pos.Col, e.Key)
					}
				}
			}
		})
	}
}

// TestValueDepth: the outermost mapping sees maxDepth levels of its
// values; deeper ones are computed there.
func TestValueDepth(t *testing.T) {
	f, err := Extract("t.py", []byte(handbackAround(chain(100))))
	if err != nil {
		t.Fatal(err)
	}
	v := f.Mappings[0].Entries[2].Value
	levels := 0
	for {
		m, ok := v.(map[string]any)
		if !ok {
			break
		}
		levels++
		v = m["a"]
	}
	if _, unknown := v.(facts.Unknown); !unknown || levels != maxDepth+1 {
		t.Errorf("output holds %d levels of dicts, then %s; want %d, then computed", levels, renderValue(v), maxDepth+1)
	}
}

// TestValueBudget: past the budget of values a file may build, values are
// computed, and the facts of the rest of the file are all there.
func TestValueBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString(`first = {"task_id": "t-1", "status": "done"}` + "\n")
	b.WriteString("x = {\"items\": [")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "%d, ", i)
	}
	b.WriteString("]}\n")
	b.WriteString(`last = {"task_id": "t-2", "status": "FAILED", "n": [1, 2]}` + "\n")
	src := []byte(b.String())

	x := new(extractor)
	x.vs.max = 1000
	f := extractWith(t, x, src)
	if x.vs.built() > 1000 {
		t.Errorf("built %d values, over the budget of 1000", x.vs.built())
	}
	if got := renderValue(f.Mappings[0].Entries[1].Value); got != `"done"` {
		t.Errorf("first mapping's status = %s, want \"done\" (built before the budget ran out)", got)
	}
	// the list being built when the budget ran out keeps what it has
	items, _ := f.Mappings[1].Entries[0].Value.([]any)
	if len(items) != 5000 || items[0] != int64(0) {
		t.Fatalf("items = %.40s..., want 5000 items from 0", renderValue(f.Mappings[1].Entries[0].Value))
	}
	if _, ok := items[4999].(facts.Unknown); !ok {
		t.Errorf("items[4999] = %s, want computed (over the budget)", renderValue(items[4999]))
	}
	last := f.Mappings[2]
	if len(last.Entries) != 3 || last.Name != "last" {
		t.Fatalf("last mapping = %+v", last)
	}
	for _, e := range last.Entries {
		if _, ok := e.Value.(facts.Unknown); !ok {
			t.Errorf("last.%s = %s, want computed (over the budget)", e.Key, renderValue(e.Value))
		}
	}
	// the strings are facts whatever the budget: drift is still found
	found := false
	for _, s := range f.Strings {
		found = found || (s.Value == "FAILED" && s.Key == "status" && s.Mapping == 2)
	}
	if !found {
		t.Errorf("the status of the last mapping is not a fact:\n%s", render(f))
	}

	// the default budget is that of YAML and JSON documents
	if x := new(extractor); x.vs.budget() != 1_000_000 {
		t.Errorf("default budget %d", x.vs.budget())
	}
}

// TestNestedValuesAllocs bounds what extracting nested literals
// allocates, in bytes per byte of source. A dict of one entry nested in
// the next costs a Mapping, its Entry, its key's String, its value's map
// and the tree's nodes: about 1.5 KB, some 220 bytes per byte of
// `{"a": `. Building each value again for every mapping around it would
// cost 1,750 bytes per byte.
func TestNestedValuesAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates too")
	}
	for name, src := range map[string]string{
		"chain":          handbackAround(chain(5000)),
		"dicts in lists": handbackAround(dictsInLists(5000)),
		"comb":           handbackAround(comb(2000)),
	} {
		t.Run(name, func(t *testing.T) {
			b := []byte(src)
			// the least of three runs: a run after a GC finds the pool
			// of extractors empty and allocates its buffers again
			least := uint64(1 << 63)
			for range 3 {
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				if _, err := Extract("t.py", b); err != nil {
					t.Fatal(err)
				}
				runtime.ReadMemStats(&m1)
				least = min(least, m1.TotalAlloc-m0.TotalAlloc)
			}
			perByte := float64(least) / float64(len(b))
			t.Logf("%d bytes of source: %.0f bytes allocated per byte", len(b), perByte)
			if perByte > maxAllocPerByte {
				t.Errorf("%.0f bytes allocated per byte of source, want at most %d", perByte, maxAllocPerByte)
			}
		})
	}
}

const maxAllocPerByte = 300
