package python

import (
	"reflect"
	"slices"
	"testing"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/shape"
)

// FuzzFunctions checks that any input extracts its Functions without
// panicking, that they satisfy checkFunctions (through checkInvariants:
// positions within the file, Shape sorted and unique, known Const
// operators...), that Shape and Size agree with the tokens, and that
// extraction is deterministic, also with a reused extractor. Crashers stay
// in testdata/fuzz/FuzzFunctions.
func FuzzFunctions(f *testing.F) {
	seeds := []string{
		shouldEscalate,
		"MIN = 0.6\nimport os\ndef f(h, *a, **k):\n    q = h.get('m', {}).get('q', 0)\n    return 0.5 > q or q < MIN or len(h['s'].split()) < 15 or os.sep in ('a', -1)\n",
		"class C:\n    def m(self, x):\n        match x['s']:\n            case 'a' | -1 | True: pass\n            case _: return [y for y in x if y.k not in {'b'}]\n",
		"def f(x):\n    try:\n        with a as (b, c): del d[e]\n    except* E as g: raise\n    finally: assert x, 'm'\n    while x: x += 1\n    else: pass\n",
		"def f():\n    def g(a=lambda: (b := c.d)): yield from e\n    return g if h else -i ** ~j, k[1:2, ::3], {**l}, [*m]\n",
		"def f(x):\n    return 0 < x.a <= 1 < x.b is not None == x.c\n",
		"def f(x):\n    return 0<(0<(0<(0<(0<(0<(0<(0<(x)<0)<0)<0)<0)<0)<0)<0)<0\n",
		"def (broken:\n    if x.a < :\n        return\n",
		"class :\n    def m(self\n",
		"R = ['a', 'b']\n@dataclass\nclass H:\n    a: int\n    b: str = ''\ndef validate(m):\n    for f in R:\n        if f not in m or m.get(f) is None: raise E\n    x = [k for k in {'c'} if k not in m]\n    return H(**m), S.model_validate(m), validate(m, R)\n",
		"@d\nasync def f(self, /, *, k: int = 1):\n    \"\"\"doc\"\"\"\n    print >>f, 'x'\n    exec 'y' in z\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		a, err := Extract("f.py", src)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, src, a)
		b, err := Extract("f.py", src)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.Functions, b.Functions) {
			t.Fatalf("not deterministic:\n%+v\n---\n%+v", a.Functions, b.Functions)
		}
		c, toks := extractTokensRaw(t, src)
		if !reflect.DeepEqual(a.Functions, c.Functions) {
			t.Fatalf("fresh extractor differs:\n%+v\n---\n%+v", a.Functions, c.Functions)
		}
		if len(toks) != len(c.Functions) {
			t.Fatalf("%d token sequences for %d functions", len(toks), len(c.Functions))
		}
		for k := range c.Functions {
			checkShape(t, &c.Functions[k], toks[k])
		}
	})
}

// checkShape checks that fn's Shape and Size are those of its tokens.
func checkShape(t *testing.T, fn *facts.Function, toks []shape.Token) {
	t.Helper()
	if fn.Size != len(toks) || !slices.Equal(fn.Shape, shape.Fingerprint(toks)) {
		t.Fatalf("%s: Shape %v is not the fingerprint of %s", fn.Name, fn.Shape, tokString(toks))
	}
	for _, tk := range toks {
		if tk.String() == "Token?" {
			t.Fatalf("%s: unknown token %d", fn.Name, tk)
		}
	}
}
