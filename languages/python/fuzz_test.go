package python

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzExtract checks that any input extracts without panicking, that the
// result satisfies checkInvariants, and that extraction is deterministic.
// Crashers found by the fuzzer stay in testdata/fuzz/FuzzExtract.
func FuzzExtract(f *testing.F) {
	seeds := []string{
		"",
		`h = {"task_id": t, "status": "done", "n": [1, -2.5, None, True], **x}`,
		`r = Handback(task_id="t-1", status=f"fail", extra={"a": ("b",)})`,
		"def f(msg):\n    s = msg.get(\"status\", 'p')\n    if s in (\"a\", \"b\"): return 'c'\n    msg.status = \"d\" if x else \"e\"\n",
		"class S(str, Enum):\n    A = \"a\"\n    B = 'b'\nT = frozenset({\"x\", \"y\"})\nL = Literal[\"q\"]\n",
		"match m.status:\n    case \"a\" | (\"b\" as c):\n        pass\n    case {\"status\": \"d\"}:\n        pass\n    case H(status=\"e\"):\n        pass\n",
		"x: Optional[Literal['a', 'b']] = 'a'\ndef f(s: Literal['k'] = 'k') -> Literal['y']: ...\ntype T = Literal['z']\n",
		`s = "\x41\101\u00e9\U0001F600\N{BULLET}\q" r"\n" rb"x" "a" "b" f"{{}}" f"{x}"`,
		"def f(h):\n    if h.status in TERMINAL: return ROUTES[h.status]\n    done = ('a', 'b')\n    T = dict(k=1)\n    return T.get(h['status'], d), done\n",
		"x = (((((\"unclosed\"",
		"def broken(:\n    x = = \"lost\"\n",
		"\x00\xff\xfe\"'\"\"\"",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	if b, err := os.ReadFile(filepath.Join("testdata", "handback.py")); err == nil {
		f.Add(b)
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
		if ra, rb := render(a), render(b); ra != rb {
			t.Fatalf("not deterministic:\n%s\n---\n%s", ra, rb)
		}
	})
}
