package python

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/shape"
	"github.com/protoscan-dev/protoscan/languages/treesitter"
)

// extractTokens extracts src (a leading newline trimmed) and returns its
// facts with the shape tokens of every Function, by name.
func extractTokens(t testing.TB, src string) (*facts.File, map[string][]shape.Token) {
	t.Helper()
	f, seq := extractTokensRaw(t, []byte(strings.TrimPrefix(src, "\n")))
	byName := map[string][]shape.Token{}
	for k, fn := range f.Functions {
		byName[fn.Name] = seq[k]
	}
	return f, byName
}

// extractTokensRaw extracts src as it is, with a fresh extractor, and
// returns its facts with the tokens of each Function, in order.
func extractTokensRaw(t testing.TB, b []byte) (*facts.File, [][]shape.Token) {
	t.Helper()
	x := new(extractor)
	var toks [][]shape.Token
	x.fs.hook = func(fn *facts.Function, tk []shape.Token) { toks = append(toks, slices.Clone(tk)) }
	err := parserPool().Parse(context.Background(), b, func(tr *treesitter.Tree) error {
		x.nodes = tr.Flatten(x.nodes)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f := &facts.File{Path: "t.py", Lang: "python"}
	x.extract(f, b)
	checkInvariants(t, b, f)
	return f, toks
}

func tokString(toks []shape.Token) string {
	s := make([]string, len(toks))
	for i, t := range toks {
		s[i] = t.String()
	}
	return strings.Join(s, " ")
}

// checkFunctions verifies what every Function must satisfy: positions
// within the file and the function, fingerprints sorted and unique, known
// operators and measures, values of the documented types, sorted unique
// Fields and Calls, Consts in source order.
func checkFunctions(t testing.TB, f *facts.File, checkPos func(string, facts.Pos)) {
	t.Helper()
	for _, fn := range f.Functions {
		if fn.Name == "" || strings.HasPrefix(fn.Name, ".") || strings.HasSuffix(fn.Name, ".") {
			t.Fatalf("function name %q", fn.Name)
		}
		checkPos("function", fn.Pos)
		checkPos("function end", fn.End)
		if fn.End.Offset < fn.Pos.Offset {
			t.Fatalf("%s: end %+v before start %+v", fn.Name, fn.End, fn.Pos)
		}
		for k := 1; k < len(fn.Shape); k++ {
			if fn.Shape[k-1] >= fn.Shape[k] {
				t.Fatalf("%s: Shape not sorted and unique: %v", fn.Name, fn.Shape)
			}
		}
		if (fn.Size == 0) != (len(fn.Shape) == 0) || fn.Size < len(fn.Params) {
			t.Fatalf("%s: Size %d, Shape %v, %d params", fn.Name, fn.Size, fn.Shape, len(fn.Params))
		}
		for _, p := range fn.Params {
			if p == "" {
				t.Fatalf("%s: empty parameter name in %q", fn.Name, fn.Params)
			}
		}
		for _, r := range fn.Required {
			checkPos("required field", r.Pos)
			if r.Field == "" || r.Receiver == "" {
				t.Fatalf("%s: required %+v", fn.Name, r)
			}
		}
		last := -1
		for _, c := range fn.Consts {
			switch c.Op {
			case "<", "<=", ">", ">=", "==", "!=", "in", "not in":
			default:
				t.Fatalf("%s: Const op %q", fn.Name, c.Op)
			}
			switch c.Measure {
			case "", "len", "words":
			default:
				t.Fatalf("%s: Const measure %q", fn.Name, c.Measure)
			}
			switch c.Value.(type) {
			case float64, string, bool:
				if c.Ref != "" {
					t.Fatalf("%s: Const with a value and a ref %q", fn.Name, c.Ref)
				}
			case nil: // a constant of another module, named by its ref
				if c.Ref == "" || c.Name == "" || !strings.Contains(c.Ref, ":") {
					t.Fatalf("%s: Const without a value nor a ref: %+v", fn.Name, c)
				}
			default:
				t.Fatalf("%s: Const value %#v", fn.Name, c.Value)
			}
			if c.Branch != facts.BranchUnknown && c.Branch != facts.BranchReject && c.Branch != facts.BranchAccept {
				t.Fatalf("%s: Const branch %d", fn.Name, c.Branch)
			}
			checkPos("const", c.Pos)
			if c.Pos.Offset < fn.Pos.Offset || c.Pos.Offset > fn.End.Offset {
				t.Fatalf("%s: Const at %+v outside the function %+v-%+v", fn.Name, c.Pos, fn.Pos, fn.End)
			}
			if c.Pos.Offset < last {
				t.Fatalf("%s: Consts not in source order", fn.Name)
			}
			last = c.Pos.Offset
		}
		for _, list := range [][]string{fn.Fields, fn.Calls} {
			for k, s := range list {
				if s == "" || k > 0 && list[k-1] >= s {
					t.Fatalf("%s: not sorted, unique and non-empty: %q", fn.Name, list)
				}
			}
		}
	}
}

func findFunc(t *testing.T, f *facts.File, name string) *facts.Function {
	t.Helper()
	for k := range f.Functions {
		if f.Functions[k].Name == name {
			return &f.Functions[k]
		}
	}
	var names []string
	for _, fn := range f.Functions {
		names = append(names, fn.Name)
	}
	t.Fatalf("no function %q among %q", name, names)
	return nil
}

// constString renders a Const without its position: value field measure op.
func constString(c facts.Const) string {
	v := fmt.Sprintf("%v", c.Value)
	switch c.Value.(type) {
	case string:
		v = fmt.Sprintf("%q", c.Value)
	case float64:
		v = fmt.Sprintf("%gf", c.Value)
	}
	return fmt.Sprintf("%s %s %s %s", c.Field, c.Measure, c.Op, v)
}

const shouldEscalate = `def should_escalate(handback):
    if handback["metrics"]["quality"] < 0.7:
        return True
    if handback["retry_count"] >= 3:
        return True
    return handback["status"] == "blocked"
`

func TestFunctionsShouldEscalate(t *testing.T) {
	f, toks := extractTokens(t, shouldEscalate)
	if len(f.Functions) != 1 {
		t.Fatalf("%d functions", len(f.Functions))
	}
	fn := f.Functions[0]
	want := []shape.Token{shape.Param, shape.If, shape.Lt, shape.Name, shape.Field, shape.Field, shape.Num,
		shape.Return, shape.Bool, shape.End, shape.If, shape.Ge, shape.Name, shape.Field, shape.Num, shape.Return,
		shape.Bool, shape.End, shape.Return, shape.Eq, shape.Name, shape.Field, shape.Str}
	if got := toks["should_escalate"]; !slices.Equal(got, want) {
		t.Errorf("tokens\n got %s\nwant %s", tokString(got), tokString(want))
	}
	if fn.Size != len(want) || !slices.Equal(fn.Shape, shape.Fingerprint(want)) {
		t.Errorf("Size %d, Shape %v", fn.Size, fn.Shape)
	}
	if fn.Name != "should_escalate" || !slices.Equal(fn.Params, []string{"handback"}) {
		t.Errorf("name %q params %q", fn.Name, fn.Params)
	}
	if fn.Pos != (facts.Pos{Line: 1, Col: 1, Offset: 0}) || fn.End.Line != 6 || fn.End.Col != 43 {
		t.Errorf("range %+v-%+v", fn.Pos, fn.End)
	}
	wantConsts := []facts.Const{
		{Value: 0.7, Field: "metrics.quality", Op: "<", Pos: facts.Pos{Line: 2, Col: 41, Offset: 71}, Branch: facts.BranchAccept},
		{Value: 3.0, Field: "retry_count", Op: ">=", Pos: facts.Pos{Line: 4, Col: 35, Offset: 130}, Branch: facts.BranchAccept},
		{Value: "blocked", Field: "status", Op: "==", Pos: facts.Pos{Line: 6, Col: 34, Offset: 186}},
	}
	if !slices.Equal(fn.Consts, wantConsts) {
		t.Errorf("consts\n got %+v\nwant %+v", fn.Consts, wantConsts)
	}
	if want := []string{"metrics.quality", "retry_count", "status"}; !slices.Equal(fn.Fields, want) {
		t.Errorf("fields %q", fn.Fields)
	}
	if fn.Calls != nil {
		t.Errorf("calls %q", fn.Calls)
	}
}

type funcCase struct {
	name, src string
	fn        string   // the function to check
	params    []string // nil: none
	consts    []string // constString of each
	fields    []string
	calls     []string
}

func TestFunctionFacts(t *testing.T) {
	cases := []funcCase{
		{name: "scope words", src: `
def validate(delegate):
    if len(delegate["scope"].split()) < 15: raise ValueError("scope too short")
`, fn: "validate", params: []string{"delegate"},
			consts: []string{`scope words < 15f`}, fields: []string{"scope"}, calls: []string{"ValueError", "len", "split"}},
		{name: "three spellings of one field", src: `
def f(h):
    return h["metrics"]["quality"] < 0.5 or h.metrics.quality < 0.5 or h.get("metrics", {}).get("quality", 0) < 0.5
`, fn: "f", params: []string{"h"},
			consts: []string{"metrics.quality  < 0.5f", "metrics.quality  < 0.5f", "metrics.quality  < 0.5f"},
			fields: []string{"metrics.quality"}},
		{name: "camel case and getattr", src: `
def f(h):
    return h.retryCount > 2 and getattr(h, "TaskID", None) != "x" and h["HTTPStatus"] == 500
`, fn: "f", params: []string{"h"},
			consts: []string{`retry_count  > 2f`, `task_id  != "x"`, `http_status  == 500f`},
			fields: []string{"http_status", "retry_count", "task_id"}},
		{name: "mirrored, local bound from a field, walrus", src: `
def f(handback, limit):
    q = handback["metrics"]["quality"]
    if 0.5 > q or 1 <= limit:
        return "low"
    if (c := handback.get("confidence")) >= .7:
        return c
    q = compute()
    return q == 3
`, fn: "f", params: []string{"handback", "limit"},
			consts: []string{"metrics.quality  < 0.5f", "limit  >= 1f", "confidence  >= 0.7f", "q  == 3f"},
			fields: []string{"confidence", "metrics.quality"}, calls: []string{"compute"}},
		{name: "module constants", src: `
MIN_QUALITY = 0.6
LABEL: str = "done"
TWICE = 1
TWICE = 2
NEG = -3
NOT_LITERAL = compute()
def f(h, TWICE_PARAM=0):
    return h.q < MIN_QUALITY and h.s == LABEL and h.n > TWICE and h.m != NEG and h.k == NOT_LITERAL
def g(h):
    MIN_QUALITY = 1
    return h.q < MIN_QUALITY
`, fn: "f", params: []string{"h", "TWICE_PARAM"},
			consts: []string{"q  < 0.6f", `s  == "done"`, "m  != -3f"},
			fields: []string{"k", "m", "n", "q", "s"}},
		{name: "shadowed module constant: the function's own value", src: `
MIN_QUALITY = 0.6
def g(h):
    MIN_QUALITY = 1
    return h.q < MIN_QUALITY
`, fn: "g", params: []string{"h"}, consts: []string{"q  < 1f"}, fields: []string{"q"}},
		{name: "a local bound to a number once, and one bound twice", src: `
def g(h, slack=2):
    limit = 85
    again = 1
    again = 2
    slack = 5
    return h.q < limit or h.r > again or h.s > slack
`, fn: "g", params: []string{"h", "slack"}, consts: []string{"q  < 85f"}, fields: []string{"q", "r", "s"}},
		{name: "membership", src: `
def f(msg):
    if msg.status in ("done", "failed") or msg["kind"] not in {"a", 2}:
        return "x" in msg.tags or msg.status in STATUSES
    return msg.mode in "rw"
`, fn: "f", params: []string{"msg"},
			consts: []string{`status  in "done"`, `status  in "failed"`, `kind  not in "a"`, `kind  not in 2f`, `mode  in "rw"`},
			fields: []string{"kind", "mode", "status", "tags"}},
		{name: "is None and bool", src: `
def f(x, y):
    return x is not None and y == True and x is False
`, fn: "f", params: []string{"x", "y"}, consts: []string{"y  == true"}},
		{name: "two constants", src: `
LEVEL = 3
def f():
    return 2 < LEVEL and "a" == "b"
`, fn: "f", consts: []string{"  < 3f", `  == "b"`}},
		{name: "chained comparison", src: `
def f(h):
    return 0 < h.q <= 1
`, fn: "f", params: []string{"h"}, consts: []string{"q  > 0f", "q  <= 1f"}, fields: []string{"q"}},
		{name: "measures", src: `
def f(items, text):
    n = len(text.split(" "))
    return len(items) > 0 and n >= 3 and len(str(text).strip().split()) < 100
`, fn: "f", params: []string{"items", "text"},
			consts: []string{"items len > 0f", "n  >= 3f", "text words < 100f"}, calls: []string{"len", "split", "strip"}},
		{name: "measure bound from a field", src: `
def f(d):
    words = len(d["scope"].split())
    return words < 15
`, fn: "f", params: []string{"d"}, consts: []string{"scope words < 15f"}, fields: []string{"scope"}, calls: []string{"len", "split"}},
		{name: "normalizer and conversion keep the field", src: `
def f(h):
    return h.status.lower() == "done" and float(h["q"]) < 0.5 and h.f() == 1
`, fn: "f", params: []string{"h"},
			consts: []string{`status  == "done"`, "q  < 0.5f", "  == 1f"},
			fields: []string{"q", "status"}, calls: []string{"f", "lower"}},
		{name: "match", src: `
def route(msg):
    match msg["status"]:
        case "done" | "ok":
            return 1
        case -1:
            return 2
        case ("x" | "y") as z:
            return 3
        case Status.DONE | True:
            return 4
        case _:
            return 5
`, fn: "route", params: []string{"msg"},
			consts: []string{`status  == "done"`, `status  == "ok"`, "status  == -1f", `status  == "x"`, `status  == "y"`, "status  == true"},
			fields: []string{"status"}},
		{name: "methods and parameters", src: `
class Router(Base):
    """doc"""
    @classmethod
    def make(cls, a, *args, b: int = 1, c=2, **kw) -> "Router":
        pass
    async def route(self, msg, /, *, strict: bool):
        def inner(self): return msg.x
        return await inner(self)
`, fn: "Router.route", params: []string{"msg", "strict"}, fields: []string{"x"}, calls: []string{"inner"}},
		{name: "typed splats", src: `
class R:
    def make(cls, a, *args: int, b: int = 1, c=2, **kw: str):
        pass
`, fn: "R.make", params: []string{"a", "args", "b", "c", "kw"}},
		{name: "fields: modules, self, methods, writes", src: `
import os, os.path as osp, json
from typing import Any
from pkg import mod as m
class Status: DONE = "done"
def f(self, h):
    self.count += 1
    h["result"]["status"] = Status.DONE
    h.meta.owner = osp.join(os.sep, json.dumps(h.payload))
    m.helper(self.cfg.timeout)
    h.validate()
    return self.name, Any
`, fn: "f", params: []string{"self", "h"},
			fields: []string{"cfg.timeout", "count", "meta", "name", "payload", "result"},
			calls:  []string{"dumps", "helper", "join", "validate"}},
		{name: "nested functions and classes are part of their function", src: `
def outer(h):
    def inner(x):
        return x.a == "a"
    class Local:
        def m(self):
            return self.b > 1
    return lambda y: y.c in ("c",)
`, fn: "outer", params: []string{"h"},
			consts: []string{`a  == "a"`, "b  > 1f", `c  in "c"`}, fields: []string{"a", "b", "c"}},
		{name: "get with a computed key is a call", src: `
def f(d, k):
    return d.get(k) == 1 and d.get("k", default=2)
`, fn: "f", params: []string{"d", "k"}, consts: []string{"  == 1f"}, calls: []string{"get"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, _ := extractTokens(t, c.src)
			fn := findFunc(t, f, c.fn)
			var consts []string
			for _, k := range fn.Consts {
				consts = append(consts, constString(k))
			}
			if !slices.Equal(fn.Params, c.params) {
				t.Errorf("params %q, want %q", fn.Params, c.params)
			}
			if !slices.Equal(consts, c.consts) {
				t.Errorf("consts\n got %q\nwant %q", consts, c.consts)
			}
			if !slices.Equal(fn.Fields, c.fields) {
				t.Errorf("fields %q, want %q", fn.Fields, c.fields)
			}
			if !slices.Equal(fn.Calls, c.calls) {
				t.Errorf("calls %q, want %q", fn.Calls, c.calls)
			}
		})
	}
}

func TestFunctionNames(t *testing.T) {
	f, _ := extractTokens(t, `
def a(): pass
@decorator(1)
def b(): pass
class C:
    def m(self): pass
    @staticmethod
    def s(x): pass
    class D:
        def n(self): pass
    if X:
        def cond(self): pass
def outer():
    def nested(): pass
    class E:
        def hidden(self): pass
if TYPE_CHECKING:
    def typed(): pass
lam = lambda: 0
def (broken
`)
	var got []string
	for _, fn := range f.Functions {
		got = append(got, fmt.Sprintf("%s@%d:%d", fn.Name, fn.Pos.Line, fn.Pos.Col))
	}
	want := []string{"a@1:1", "b@3:1", "C.m@5:5", "C.s@7:5", "D.n@9:9", "C.cond@11:9", "outer@12:1", "typed@17:5"}
	if !slices.Equal(got, want) {
		t.Errorf("functions\n got %q\nwant %q", got, want)
	}
	if s := findFunc(t, f, "C.s"); !slices.Equal(s.Params, []string{"x"}) {
		t.Errorf("static method params %q", s.Params)
	}
}

func TestFunctionTokens(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"go parity", `
def f(handback):
    if handback["metrics"]["quality"] < 0.5:
        return True
`, "Param If Lt Name Field Field Num Return Bool End"},
		{"docstring, pass, bare return", `
def f():
    """Docstring."""
    pass
    return
`, "Break Return"},
		{"elif else", `
def f(x):
    if x == 1:
        return "a"
    elif x is None:
        return None
    else:
        raise ValueError(f"bad {x}")
`, "Param If Eq Name Num Return Str End Else If Eq Name Nil Return Nil End Else Raise Call Name Str End End"},
		{"loops", `
def f(xs):
    for i, x in enumerate(xs):
        if not x:
            continue
        break
    else:
        pass
    while True:
        x += 1
`, "Param Loop Name Name Call Name Name End If Not Name Break End Break End Else Break End Loop Bool Assign Name Num End"},
		{"try with", `
def f(p):
    try:
        with open(p) as fh, lock:
            data = fh.read()
    except (OSError, ValueError) as e:
        raise RuntimeError("x") from e
    finally:
        cleanup()
`, "Param Try Assign Name Call Name Name End Assign Name Call Name End End Raise Call Name Str End End Call Name End End"},
		{"expressions", `
def f(a, b):
    x = a if b else -b
    y = [1, "s", None] + {"k": a, **b}
    z = (a and b) or not (a - 1)
    return (w := a[0]), b[1:2], len(a)
`, "Param Param Assign Name If Name Name Else Name End Assign Name Arith List Num Str Nil End Map Str Name Name End " +
			"Assign Name Or And Name Name Not Arith Name Num Return Assign Name Index Name Num Index Name Num Num Len Name"},
		{"calls", `
import os
def f(h, s):
    h.check(s, strict=True, *rest)
    os.path.join(s)
    run()(s)
    return int(s), s.split(), s.split(","), str(h.get("k"))
`, "Param Param Call Name Name Bool Name End Call Name Name End Call Call Name End Name End Return Name Words Name Call Name Str End Name Field"},
		{"comprehensions and lambda", `
def f(xs):
    a = [x.v for x in xs if x]
    b = {k: v for k, v in xs}
    return sorted(a, key=lambda x: x.v)
`, "Param Assign Name Loop Name Field Name Name End Assign Name Loop Name Name Name End Return Call Name Name Func Param Return Name Field End End"},
		{"nested def", `
def f():
    def g(x):
        "doc"
        return x
    return g
`, "Func Param Return Name End Return Name"},
		{"match", `
def f(s):
    match s:
        case "a" | "b" if s:
            pass
        case _:
            return 1
`, "Param Switch Name Case Str Str Name Break End Case Return Num End End"},
		{"assert del global augmented", `
def f(d, k):
    global G
    import os
    assert d, "msg"
    del d[k]
    d[k] += 1
    a, b = b, a
`, "Param Param Raise Name Call Index Name Name End Assign Index Name Name Num Assign Name Name Name Name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, toks := extractTokens(t, c.src)
			if len(f.Functions) != 1 {
				t.Fatalf("%d functions", len(f.Functions))
			}
			if got := tokString(toks[f.Functions[0].Name]); got != c.want {
				t.Errorf("tokens\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestFunctionShapes: names and values do not change a Shape; structure
// does.
func TestFunctionShapes(t *testing.T) {
	f, _ := extractTokens(t, shouldEscalate+`
def needs_review(result):
    if result["metrics"]["quality"] < 0.5:
        return True
    if result["retry_count"] >= 10:
        return True
    return result["status"] == "escalated"

def build_index(items, key):
    index = {}
    for item in items:
        try:
            index[item[key]] = item
        except KeyError:
            continue
    return sorted(index.values())
`)
	a, b, c := findFunc(t, f, "should_escalate"), findFunc(t, f, "needs_review"), findFunc(t, f, "build_index")
	if !slices.Equal(a.Shape, b.Shape) || a.Size != b.Size {
		t.Errorf("renamed copy: shapes %v and %v", a.Shape, b.Shape)
	}
	if s := shape.Similarity(a.Shape, b.Shape); s != 1 {
		t.Errorf("renamed copy: similarity %v", s)
	}
	if s := shape.Similarity(a.Shape, c.Shape); s >= 0.3 {
		t.Errorf("different function: similarity %v", s)
	}
}

// TestFunctionsDeep: deep nesting is bounded, not a stack overflow, and
// the result is still consistent.
func TestFunctionsDeep(t *testing.T) {
	var b strings.Builder
	b.WriteString("def f(x):\n    return ")
	b.WriteString(strings.Repeat("(", 5000))
	b.WriteString("x.a < 1")
	b.WriteString(strings.Repeat(")", 5000))
	b.WriteString(" + x" + strings.Repeat(" + x", 5000) + "\n")
	b.WriteString("def g(x):\n")
	// tree-sitter's Python scanner gives up on indentation deeper than
	// about 70 levels; 60 is still parsed.
	for k := 0; k < 60; k++ {
		b.WriteString(strings.Repeat(" ", 4*(k+1)) + "if x:\n")
	}
	b.WriteString(strings.Repeat(" ", 4*61) + "return x.b < 2 and " + strings.Repeat("(", 200) + "x.c" + strings.Repeat(")", 200) + "\n")
	f, _ := extractTokens(t, b.String())
	if len(f.Functions) != 2 {
		t.Fatalf("%d functions", len(f.Functions))
	}
	g := findFunc(t, f, "g")
	if !slices.Equal(g.Fields, []string{"b"}) || len(g.Consts) != 1 {
		t.Errorf("g: fields %q consts %+v", g.Fields, g.Consts)
	}
}

// TestFunctionsNestedChains: a chain's shared operand is written twice,
// so chains nested in that operand would double the tokens (and the work)
// at every level; copying stops at maxRepeat tokens.
func TestFunctionsNestedChains(t *testing.T) {
	e := "h.x"
	for k := 0; k < 40; k++ {
		e = "0 < (" + e + ") < 1"
	}
	f, _ := extractTokens(t, "def f(h):\n    return "+e+"\n")
	fn := findFunc(t, f, "f")
	if fn.Size > maxRepeat+1000 {
		t.Errorf("Size %d", fn.Size)
	}
	if !slices.Equal(fn.Fields, []string{"x"}) {
		t.Errorf("fields %q", fn.Fields)
	}
	// Small chains are copied whole: a < b < c is And (Lt a b) (Lt b c).
	_, toks := extractTokens(t, "def g(a, c):\n    return a < f(a.b) < c\n")
	if got, want := tokString(toks["g"]), "Param Param Return And Lt Name Call Name Name Field End Lt Call Name Name Field End Name"; got != want {
		t.Errorf("tokens\n got %s\nwant %s", got, want)
	}
}

// TestConstSources: a threshold written as a literal, a module constant,
// a parameter's default (also a module constant as default), an imported
// name or a module attribute; a parameter with a default beside a literal
// stays the variable; a rebound parameter loses its default.
func TestConstSources(t *testing.T) {
	src := `from config.limits import FLOOR as QF
from . import limits
import pkg.limits as pl
from pkg import rules
MIN_WORDS = 15
TWICE = 1
TWICE = 2

def f(d, threshold=0.5, floor=MIN_WORDS, attempts=0, other=0.1):
    if d["a"] < MIN_WORDS: pass
    if d["b"] < threshold: pass
    if d["c"] < floor: pass
    if attempts >= 3: pass
    if d["d"] < QF: pass
    if d["e"] < limits.MAX: pass
    if d["f"] < pl.MAX: pass
    if d["g"] < rules.MAX: pass
    if d["h"] < TWICE: pass
    other = d["x"]
    if d["i"] < other: pass
`
	f, _ := extractTokens(t, src)
	var got []string
	for _, c := range f.Functions[0].Consts {
		got = append(got, fmt.Sprintf("%s %v %s %s", c.Field, c.Value, c.Name, c.Ref))
	}
	want := []string{
		"a 15 MIN_WORDS ",
		"b 0.5 threshold ",
		"c 15 MIN_WORDS ",
		"attempts 3  ",
		"d <nil> QF config.limits:FLOOR",
		"e <nil> MAX .limits:MAX",
		"f <nil> MAX pkg.limits:MAX",
		"g <nil> MAX pkg.rules:MAX",
	}
	if !slices.Equal(got, want) {
		t.Errorf("consts\n got %q\nwant %q", got, want)
	}
}

// TestConstBranch: what the code does when a comparison holds, through
// not, and, or, else and elif.
func TestConstBranch(t *testing.T) {
	for _, tc := range []struct {
		body string
		want facts.Branch
	}{
		{"if d['n'] < 15:\n        raise ValueError('x')", facts.BranchReject},
		{"if d['n'] < 15:\n        return False", facts.BranchReject},
		{"if d['n'] < 15:\n        return False, 'short'", facts.BranchReject},
		{"if d['n'] < 15:\n        return 'scope too short'", facts.BranchReject},
		{"if d['n'] < 15:\n        errors.append('x')", facts.BranchReject},
		{"if d['n'] < 15:\n        self.problems.append('x')", facts.BranchReject},
		{"if d['n'] < 15:\n        valid = False", facts.BranchReject},
		{"if d['n'] < 15:\n        return True", facts.BranchAccept},
		{"if not d['n'] < 15:\n        return True", facts.BranchReject},
		{"if d['m'] > 1 or d['n'] < 15:\n        raise ValueError('x')", facts.BranchReject},
		{"if not (d['m'] > 1 and d['n'] < 15):\n        raise ValueError('x')", facts.BranchAccept},
		{"if d['n'] < 15:\n        pass\n    else:\n        raise ValueError('x')", facts.BranchAccept},
		{"if d['m']:\n        pass\n    elif d['n'] < 15:\n        raise ValueError('x')", facts.BranchReject},
		{"assert d['n'] < 15", facts.BranchAccept},
		{"if d['n'] < 15:\n        log('x')", facts.BranchUnknown},
		{"if d['n'] < 15:\n        results.append('x')", facts.BranchUnknown},
		{"if f(d['n'] < 15):\n        raise ValueError('x')", facts.BranchUnknown}, // an argument, not the condition
		{"x = d['n'] < 15", facts.BranchUnknown},
		{"return d['n'] < 15", facts.BranchAccept}, // in validate_x: its verdict
	} {
		f, _ := extractTokens(t, "def validate_x(d):\n    "+tc.body+"\n")
		var got []facts.Branch
		for _, c := range f.Functions[0].Consts {
			if c.Field == "n" {
				got = append(got, c.Branch)
			}
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%q: branches %v, want %v", tc.body, got, tc.want)
		}
	}
	// return <condition> is a verdict only in a function named for validity
	for name, want := range map[string]facts.Branch{"is_valid": facts.BranchAccept, "check_scope": facts.BranchAccept,
		"is_invalid": facts.BranchUnknown, "too_short": facts.BranchUnknown, "should_escalate": facts.BranchUnknown, "words": facts.BranchUnknown} {
		f, _ := extractTokens(t, "def "+name+"(d):\n    return d['n'] < 15\n")
		if got := f.Functions[0].Consts[0].Branch; got != want {
			t.Errorf("%s: branch %v, want %v", name, got, want)
		}
	}
}
