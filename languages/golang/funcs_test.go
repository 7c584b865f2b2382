package golang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/shape"
)

// funcTokens returns the shape tokens of every function of src, in order,
// walking the file as ExtractFile does (with types.Info when typed).
func funcTokens(t *testing.T, src string, typed bool) [][]shape.Token {
	t.Helper()
	var (
		fset *token.FileSet
		f    *ast.File
		info *types.Info
	)
	if typed {
		fset, f, info = typeCheck(t, src)
	} else {
		fset = token.NewFileSet()
		var err error
		if f, err = parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution); err != nil {
			t.Fatal(err)
		}
	}
	tf := fset.File(f.FileStart)
	x := &extractor{out: &facts.File{}, info: info, base: tf.Base(), size: tf.Size(), lines: tf.Lines()}
	x.prepare(f)
	x.prepareFuncs(f)
	var out [][]shape.Token
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Name != nil {
			x.funcDecl(fd)
			out = append(out, slices.Clone(x.fn.toks))
		}
	}
	return out
}

func tokString(toks []shape.Token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.String())
	}
	return b.String()
}

// dumpFuncs formats the functions of a file, a few lines each:
//
//	Validator.check(h, min) 3:1-9:2
//	  words(scope) < 15 @4:36
//	  fields: metrics.quality status
//	  calls: Fields len
func dumpFuncs(ff *facts.File) []string {
	var out []string
	for _, f := range ff.Functions {
		out = append(out, fmt.Sprintf("%s(%s) %d:%d-%d:%d", f.Name, strings.Join(f.Params, ", "),
			f.Pos.Line, f.Pos.Col, f.End.Line, f.End.Col))
		for _, c := range f.Consts {
			field := c.Field
			if field == "" {
				field = "?"
			}
			if c.Measure != "" {
				field = c.Measure + "(" + field + ")"
			}
			out = append(out, fmt.Sprintf("  %s %s %s @%d:%d", field, c.Op, fmtConst(c.Value), c.Pos.Line, c.Pos.Col))
		}
		if len(f.Fields) > 0 {
			out = append(out, "  fields: "+strings.Join(f.Fields, " "))
		}
		if len(f.Calls) > 0 {
			out = append(out, "  calls: "+strings.Join(f.Calls, " "))
		}
	}
	return out
}

func fmtConst(v any) string {
	switch v := v.(type) {
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return strconv.Quote(v)
	case bool:
		return strconv.FormatBool(v)
	}
	return fmt.Sprintf("%T(%v)!", v, v)
}

var funcTests = []struct {
	name string
	src  string
	want []string
}{
	{
		name: "escalation: fields, thresholds, the field on the left",
		src: `package p

func ShouldEscalate(h Handback) bool { if h.Metrics.Quality < 0.7 { return true }; if h.RetryCount >= 3 { return true }; return h.Status == "blocked" }

func (r *Router) escalate(h Handback) bool {
	if 0.5 > h.Metrics.Quality || -1 == h.Retries {
		return true
	}
	return false
}
`,
		want: []string{
			"ShouldEscalate(h) 3:1-3:152",
			"  metrics.quality < 0.7 @3:63",
			"  retry_count >= 3 @3:103",
			`  status == "blocked" @3:141`,
			"  fields: metrics.quality retry_count status",
			"Router.escalate(h) 5:1-10:2",
			"  metrics.quality < 0.5 @6:5",
			"  retries == -1 @6:32",
			"  fields: metrics.quality retries",
		},
	},
	{
		name: "word counts and lengths, directly or through a variable",
		src: `package p

import (
	"errors"
	"strings"
)

func (d *Delegate) Validate() error {
	if len(strings.Fields(d.Scope)) < 15 {
		return errors.New("scope must be at least 15 words")
	}
	words := strings.Fields(d.Goal)
	if len(words) < 3 {
		return errors.New("goal")
	}
	n := len(strings.Split(d.Plan.Summary, " "))
	if n >= 10 || len(d.Steps) == 0 {
		return nil
	}
	if len(strings.Split(d.Tags, ",")) > 4 {
	}
	return nil
}

func checkScope(scope string, steps []string) bool {
	return len(strings.Fields(scope)) >= 10 && len(steps) > 2
}
`,
		want: []string{
			"Delegate.Validate() 8:1-23:2",
			"  words(scope) < 15 @9:36",
			"  words(goal) < 3 @13:18",
			"  words(plan.summary) >= 10 @17:10",
			"  len(steps) == 0 @17:32",
			"  ? > 4 @20:39",
			"  fields: goal plan.summary scope steps tags",
			"  calls: Fields New Split len",
			"checkScope(scope, steps) 25:1-27:2",
			"  words(scope) >= 10 @26:39",
			"  len(steps) > 2 @26:58",
			"  calls: Fields len",
		},
	},
	{
		name: "constants: file level, local, shadowed, in const blocks; aliases of fields",
		src: `package p

const minQuality = 0.7

const (
	maxRetries, blocked = 3, "blocked"
	also                // repeats 3
	floor = -maxRetries // -3
	cap2  = float64(2.5)
)

func check(h *Handback, minQuality float64, retries int) bool {
	const local = 'x'
	q := h.Metrics.Quality
	if q < minQuality || q > cap2 {
		return false
	}
	if h.RetryCount > maxRetries || also <= retries {
		return true
	}
	st, ok := h.Extra["status"]
	if ok && st != blocked && h.Kind == local {
		return true
	}
	q = 2
	return q >= 1 && h.Ratio != floor
}

func later() bool {
	maxRetries := 9
	return minQuality > 0.1 || maxRetries == 2
}
`,
		want: []string{
			"check(h, minQuality, retries) 12:1-27:2",
			"  metrics.quality > 2.5 @15:23",
			"  retry_count > 3 @18:5",
			"  retries >= 3 @18:34",
			`  extra.status != "blocked" @22:11`,
			`  kind == "x" @22:28`,
			"  q >= 1 @26:14",
			"  ratio != -3 @26:19",
			"  fields: extra.status kind metrics.quality ratio retry_count",
			"later() 29:1-32:2",
			"  ? > 0.1 @31:22",
			"  max_retries == 2 @31:43",
		},
	},
	{
		name: "switch cases, slices.Contains, negations",
		src: `package p

import (
	"slices"
	"strings"
)

const StatusFailed = "failed"

func route(h Handback) string {
	switch st := h.Status; st {
	case "success", "partial":
		return "next"
	case StatusFailed:
		return "retry"
	case other:
	}
	switch {
	case h.Confidence < 0.3:
	}
	if slices.Contains([]string{"blocked", StatusFailed}, h.Status) {
		return "stop"
	}
	if !slices.Contains([]string{"x"}, strings.ToLower(h.Phase)) && !strings.Contains(h.Note, "urgent") {
		return "skip"
	}
	return ""
}
`,
		want: []string{
			"route(h) 10:1-28:2",
			`  status == "success" @12:7`,
			`  status == "partial" @12:18`,
			`  status == "failed" @14:7`,
			"  confidence < 0.3 @19:22",
			`  status in "blocked" @21:30`,
			`  status in "failed" @21:41`,
			`  phase not in "x" @24:31`,
			"  fields: confidence note phase status",
			"  calls: Contains ToLower",
		},
	},
	{
		name: "fields read, not written; packages and methods are not fields",
		src: `package p

import (
	"fmt"
	"net/http"
	"strings"
)

func build(h *Handback, m map[string]any, r Values) {
	h.Status = "done"
	h.Metrics.Quality = 1
	x := m["metrics"]["quality"]
	h.Validate()
	h.Report.Send(fmt.Sprintf("%v", h.TaskID))
	_ = strings.TrimSpace(h.Summary) + r.Get("phase") + r.Get("a b")
	_ = http.StatusOK
	_ = hs[i].Agent.Name
	h.RetryCount++
	h.Score += 2
	var y = (*h).Extra.(Meta).Owner
	_, _ = x, y
}
`,
		want: []string{
			"build(h, m, r) 9:1-22:2",
			"  fields: agent.name extra.owner metrics metrics.quality phase report retry_count score summary task_id",
			"  calls: Get Send Sprintf TrimSpace Validate",
		},
	},
	{
		name: "methods, receivers, parameters, nested functions, no body",
		src: `package p

func (s *Stack[K, V]) Push(k K, v V) {}

func (Router) route(int, string, ...any) {}

func (p *(Pair)) swap(a, b int, _ string) {
	go func(q float64) {
		if q > 0.5 && p.Limit != 3 {
		}
	}(a)
}

func asm(x int) int

func init() {}
`,
		want: []string{
			"Stack.Push(k, v) 3:1-3:40",
			"Router.route(_, _, _) 5:1-5:44",
			"Pair.swap(a, b, _) 7:1-12:2",
			"  q > 0.5 @9:10",
			"  limit != 3 @9:28",
			"  fields: limit",
			"init() 16:1-16:15",
		},
	},
	{
		name: "literals of every kind",
		src: `package p

func lits(x T) {
	if x.A == 0x1F || x.B == 1_000.5 || x.C == 'é' || x.D == ` + "`raw`" + ` || x.E == true || x.F != 1e400 || x.G == 2i {
	}
	if x.H == +3 || x.I == -(2) || x.J == -"s" || x.K == nil {
	}
}
`,
		want: []string{
			"lits(x) 3:1-8:2",
			"  a == 31 @4:12",
			"  b == 1000.5 @4:27",
			`  c == "é" @4:45`,
			`  d == "raw" @4:60`,
			"  e == true @4:76",
			"  h == 3 @6:12",
			"  i == -2 @6:25",
			"  fields: a b c d e f g h i j k",
		},
	},
}

func TestFunctions(t *testing.T) {
	for _, tt := range funcTests {
		t.Run(tt.name, func(t *testing.T) {
			ff, err := Extract("x.go", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, []byte(tt.src), ff)
			if d := diffLines(tt.want, dumpFuncs(ff)); d != "" {
				t.Errorf("functions differ (-want +got):\n%s", d)
			}
		})
	}
}

// TestFunctionConsts checks the Const values themselves, not only how they
// print.
func TestFunctionConsts(t *testing.T) {
	src := `package p

import (
	"errors"
	"strings"
)

func (d *Delegate) Validate() error {
	if len(strings.Fields(d.Scope)) < 15 {
		return errors.New("scope must be at least 15 words")
	}
	return nil
}
`
	ff, err := Extract("x.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := facts.Function{
		Name:   "Delegate.Validate",
		Pos:    facts.Pos{Line: 8, Col: 1, Offset: 44},
		End:    facts.Pos{Line: 13, Col: 2, Offset: 193},
		Consts: []facts.Const{{Value: 15.0, Field: "scope", Measure: "words", Op: "<", Pos: facts.Pos{Line: 9, Col: 36, Offset: 117}, Branch: facts.BranchReject}},
		Fields: []string{"scope"},
		Calls:  []string{"Fields", "New", "len"},
	}
	if len(ff.Functions) != 1 {
		t.Fatalf("%d functions", len(ff.Functions))
	}
	got := ff.Functions[0]
	if got.Name != want.Name || got.Pos != want.Pos || got.End != want.End || len(got.Params) != 0 ||
		!slices.Equal(got.Consts, want.Consts) || !slices.Equal(got.Fields, want.Fields) || !slices.Equal(got.Calls, want.Calls) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if got.Size != 15 || len(got.Shape) == 0 {
		t.Errorf("Size %d, Shape %v", got.Size, got.Shape)
	}
	if src[got.Consts[0].Pos.Offset:][:2] != "15" || src[got.Pos.Offset:][:4] != "func" || src[got.End.Offset-1] != '}' {
		t.Errorf("positions do not point at the literal and the function")
	}
}

// TestShouldEscalateTokens: the contract's example, token for token. The
// Python extractor writes the same for
//
//	if handback["metrics"]["quality"] < 0.7: return True ...
func TestShouldEscalateTokens(t *testing.T) {
	src := `package p

func ShouldEscalate(h Handback) bool { if h.Metrics.Quality < 0.7 { return true }; if h.RetryCount >= 3 { return true }; return h.Status == "blocked" }
`
	want := "Param If Lt Name Field Field Num Return Bool End If Ge Name Field Num Return Bool End Return Eq Name Field Str"
	for _, typed := range []bool{false, true} {
		src := src
		if typed {
			src += "type Handback struct { Metrics struct{ Quality float64 }; RetryCount int; Status string }\n"
		}
		toks := funcTokens(t, src, typed)
		if len(toks) != 1 || tokString(toks[0]) != want {
			t.Errorf("typed=%v:\n got %v\nwant %s", typed, toks, want)
		}
	}
	ff, _ := Extract("x.go", []byte(src))
	want2 := []shape.Token{shape.Param, shape.If, shape.Lt, shape.Name, shape.Field, shape.Field, shape.Num, shape.Return,
		shape.Bool, shape.End, shape.If, shape.Ge, shape.Name, shape.Field, shape.Num, shape.Return, shape.Bool, shape.End,
		shape.Return, shape.Eq, shape.Name, shape.Field, shape.Str}
	if f := ff.Functions[0]; f.Size != len(want2) || !slices.Equal(f.Shape, shape.Fingerprint(want2)) {
		t.Errorf("Size %d Shape %v, want %d %v", f.Size, f.Shape, len(want2), shape.Fingerprint(want2))
	}
}

var tokenTests = []struct{ body, want string }{
	// statements
	{`if a { f() } else if b { g() } else { return }`,
		"If Name Call Name End End Else If Name Call Name End End Else Return End"},
	{`if err := f(); err != nil { return err }`, "Assign Name Call Name End If Ne Name Nil Return Name End"},
	{`x, err := f(); y += 2; z++; var w = 1; var v int; _ = v`,
		"Assign Name Name Call Name End Assign Name Num Assign Name Num Assign Name Num Assign Name Name"},
	{`for i := 0; i < n; i++ { continue }`, "Assign Name Num Loop Lt Name Name Break Assign Name Num End"},
	{`for _, h := range hs { if h.Done { break } }; for { }; for ok { }`,
		"Loop Name Name If Name Field Break End End Loop Bool End Loop Name End"},
	{`switch s := h.Status; s { case "a", "b": g(); fallthrough; default: }`,
		"Assign Name Name Field Switch Name Case Str Str Call Name End Break End Case End End"},
	{`switch v := x.(type) { case int, string: return v; case nil: }`,
		"Switch Name Case Return Name End Case End End"},
	{`select { case v := <-ch: _ = v; case out <- 1: default: }`,
		"Switch Case Assign Name Name Assign Name Name End Case Call Name Num End End Case End End"},
	{`L: for { goto L }; { return }`, "Loop Bool Break End Return"},
	{`panic(fmt.Sprintf("bad %d", n))`, "Raise Call Name Str Name End"},
	{`defer mu.Unlock(); go run(ctx)`, "Call Name End Call Name Name End"},
	{`defer func() { if r := recover(); r != nil { log(r) } }()`,
		"Try Call Func Assign Name Call Name End If Ne Name Nil Call Name Name End End End End"},
	// expressions
	{`return -x, &y, *p, !ok, ^b, <-ch`, "Return Name Name Name Not Name Name Name"},
	{`return a+b*c, a&^b, a<<1, a%2 == 0 && b || c`,
		"Return Arith Name Arith Name Name Arith Name Name Arith Name Num Or And Eq Arith Name Num Num Name Name"},
	{`return h.Metrics.Quality, m["metrics"]["quality"], r.Get("metrics"), m[k], xs[1:n], pkgs[0].Name`,
		"Return Name Field Field Name Field Field Name Field Index Name Name Index Name Num Name Index Name Num Field"},
	{`return len(x), strings.Fields(s), strings.Split(s, " "), strings.Split(s, ",")`,
		"Return Len Name Words Name Words Name Call Name Name Str End"},
	{`return float64(n), string(b), []byte(s), int64(h.Count), Local(x), Remote(x)`,
		"Return Name Name Name Name Field Name Call Name Name End"},
	{`return h.escalate(), h.Metrics.Check(1), f(x)(y), fmt.Errorf("x: %w", err)`,
		"Return Call Name End Call Name Field Num End Call Call Name Name End Name End Call Name Str Name End"},
	{`return slices.Contains(valid, s), !slices.Contains(valid, s), strings.Contains(s, "x")`,
		"Return In Name Name NotIn Name Name In Str Name"},
	{`return append(xs, y), make([]int, 0, n), make(map[string]int), make(chan int), new(T)`,
		"Return Call Name Name End List End Map End Call Name End Call Name End"},
	{`return Handback{Status: "ok", Steps: []Step{{N: 1}, {2}}}, map[string]int{k: 1}, []string{"a"}, &T{}, [2]int{1: 5}`,
		"Return Map Str Str Str List Map Str Num End List Num End End End Map Name Num End List Str End Map End List Num End"},
	{`return func(a, b int) bool { return a < b }, x.(T), (y)`,
		"Return Func Param Param Return Lt Name Name End Name Name"},
	{`return nil, true, 'c', 1.5, "s", Map[int](xs)`, "Return Nil Bool Str Num Str Call Name Name End"},
}

func TestFunctionTokens(t *testing.T) {
	for _, tt := range tokenTests {
		src := "package p\n\nimport (\n\t\"fmt\"\n\t\"slices\"\n\t\"strings\"\n)\n\ntype Local int\n\nfunc f() {\n\t" + tt.body + "\n}\n"
		toks := funcTokens(t, src, false)
		if len(toks) != 1 {
			t.Fatalf("%s: %d functions", tt.body, len(toks))
		}
		if got := tokString(toks[0]); got != tt.want {
			t.Errorf("%s\n got %s\nwant %s", tt.body, got, tt.want)
		}
	}
}

// TestShapeSimilarity: a copy with other names and values has the same
// Shape; a function with other logic shares little of it.
func TestShapeSimilarity(t *testing.T) {
	src := `package p

import "strings"

func ShouldEscalate(h Handback) bool {
	if h.Metrics.Quality < 0.7 {
		return true
	}
	if h.RetryCount >= 3 || len(strings.Fields(h.Summary)) < 5 {
		return true
	}
	switch h.Status {
	case "blocked", "failed":
		return true
	}
	return false
}

func needsHuman(result *Result) bool {
	if result.Scores.Confidence < 0.42 {
		return true
	}
	if result.Attempts >= 10 || len(strings.Fields(result.Notes)) < 12 {
		return true
	}
	switch result.State {
	case "stuck", "error":
		return true
	}
	return false
}

func summarize(items []Item) map[string]int {
	out := make(map[string]int)
	for _, it := range items {
		out[it.Kind]++
		total += it.Weight * 2
	}
	log.Printf("%d items", len(items))
	return out
}
`
	ff, err := Extract("x.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := ff.Functions[0], ff.Functions[1], ff.Functions[2]
	if !slices.Equal(a.Shape, b.Shape) || a.Size != b.Size {
		t.Errorf("renamed copy: shapes differ:\n%v\n%v", a.Shape, b.Shape)
	}
	if s := shape.Similarity(a.Shape, b.Shape); s != 1 {
		t.Errorf("Similarity of the copy = %v", s)
	}
	if s := shape.Similarity(a.Shape, c.Shape); s >= 0.3 {
		t.Errorf("Similarity of unrelated functions = %v, want < 0.3", s)
	}
	// the constants differ where the shapes do not
	if fmtConst(a.Consts[0].Value) != "0.7" || fmtConst(b.Consts[0].Value) != "0.42" {
		t.Errorf("consts %+v %+v", a.Consts, b.Consts)
	}
}

// TestFunctionsTypesInfo: types.Info tells method values from fields,
// conversions to types of other files from calls, and gives the values of
// constants the file does not spell.
func TestFunctionsTypesInfo(t *testing.T) {
	src := `package p

type Status string

type Metrics struct{ Quality float64 }

type Handback struct {
	Status  Status
	Metrics Metrics
	Retries int
}

func (h Handback) Validate() error { return nil }

const Floor = 0.5

const Blocked Status = "blocked"

const (
	A = iota
	B
)

func f(h Handback, n Status) bool {
	v := h.Validate
	_ = v
	if float64(h.Retries) > B {
		return false
	}
	q := Status(h.Status)
	return q == Blocked && h.Metrics.Quality >= Floor && h.Retries != 'x'
}
`
	fset, f, info := typeCheck(t, src)
	typed := dumpFuncs(ExtractFile(fset, f, info))
	want := []string{
		"Handback.Validate() 13:1-13:50",
		"f(h, n) 24:1-32:2",
		"  retries > 1 @27:5",
		`  status == "blocked" @31:9`,
		"  metrics.quality >= 0.5 @31:25",
		`  retries != "x" @31:68`,
		"  fields: metrics.quality retries status",
	}
	if d := diffLines(want, typed); d != "" {
		t.Errorf("with types.Info (-want +got):\n%s", d)
	}
	ff, err := Extract("x.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want = []string{
		"Handback.Validate() 13:1-13:50",
		"f(h, n) 24:1-32:2",
		`  status == "blocked" @31:9`,
		"  metrics.quality >= 0.5 @31:25",
		`  retries != "x" @31:68`,
		"  fields: metrics.quality retries status validate",
	}
	if d := diffLines(want, dumpFuncs(ff)); d != "" {
		t.Errorf("without types.Info (-want +got):\n%s", d)
	}
	// the tokens do not depend on types.Info here
	plain := funcTokens(t, src, false)
	withInfo := funcTokens(t, src, true)
	for i := range plain {
		if !slices.Equal(plain[i], withInfo[i]) {
			t.Errorf("function %d: tokens differ with types.Info:\n%v\n%v", i, plain[i], withInfo[i])
		}
	}
}

// TestFunctionsDeep: deep nesting inside a function is walked, and an AST
// nested deeper than any parse is cut at maxDepth without a crash.
func TestFunctionsDeep(t *testing.T) {
	n := 5000
	src := "package p\nfunc f(h H) {\n" + strings.Repeat("if h.A < 1 {\n", n) + strings.Repeat("}\n", n) + "}\n" +
		"func g(x X) bool { return " + strings.Repeat("(", n) + "x." + strings.Repeat("B.", n) + "C == 2" + strings.Repeat(")", n) + " }\n"
	ff, err := Extract("deep.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, []byte(src), ff)
	if len(ff.Functions) != 2 || len(ff.Functions[0].Consts) != n || ff.Functions[0].Size != 1+n*6 {
		t.Fatalf("nested ifs: %d functions, size %d", len(ff.Functions), ff.Functions[0].Size)
	}
	if g := ff.Functions[1]; len(g.Consts) != 1 || len(g.Fields) != 1 || len(g.Consts[0].Field) != 2*n+1 {
		t.Errorf("long chain: %d consts, %d fields", len(g.Consts), len(g.Fields))
	}

	fset := token.NewFileSet()
	tf := fset.AddFile("built.go", -1, 100)
	tf.SetLines([]int{0})
	var e ast.Expr = &ast.BinaryExpr{X: ast.NewIdent("x"), Op: token.LSS,
		Y: &ast.BasicLit{ValuePos: tf.Pos(10), Kind: token.INT, Value: "1"}}
	for range maxDepth + 10 {
		e = &ast.ParenExpr{X: &ast.UnaryExpr{Op: token.NOT, X: e}}
	}
	body := &ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: e}}}
	f := &ast.File{FileStart: tf.Pos(0), Package: tf.Pos(0), Name: ast.NewIdent("p"),
		Decls: []ast.Decl{&ast.FuncDecl{Name: ast.NewIdent("f"), Type: &ast.FuncType{}, Body: body}}}
	out := ExtractFile(fset, f, nil)
	if len(out.Functions) != 1 || len(out.Functions[0].Consts) != 0 || out.Functions[0].Size > maxDepth {
		t.Errorf("built AST: %d functions", len(out.Functions))
	}
}

var constOps = map[string]bool{"<": true, "<=": true, ">": true, ">=": true, "==": true, "!=": true, "in": true, "not in": true}

// checkFunctions checks what must hold for the functions of any input.
func checkFunctions(t testing.TB, src []byte, ff *facts.File) {
	t.Helper()
	inFile := func(p facts.Pos) bool {
		return p.Offset >= 0 && p.Offset <= len(src) && p.Line >= 1 && p.Col >= 1
	}
	for i, f := range ff.Functions {
		if f.Name == "" || strings.HasPrefix(f.Name, ".") || strings.HasSuffix(f.Name, ".") {
			t.Fatalf("function %d: name %q", i, f.Name)
		}
		if !inFile(f.Pos) || !inFile(f.End) || f.End.Offset <= f.Pos.Offset {
			t.Fatalf("function %s: bad span %+v..%+v (len %d)", f.Name, f.Pos, f.End, len(src))
		}
		if i > 0 && ff.Functions[i-1].Pos.Offset >= f.Pos.Offset {
			t.Fatalf("functions %d and %d out of order", i-1, i)
		}
		if f.Size < 0 || (f.Size == 0) != (len(f.Shape) == 0) || len(f.Shape) > max(f.Size, 1) {
			t.Fatalf("function %s: Size %d with %d hashes", f.Name, f.Size, len(f.Shape))
		}
		if !slices.IsSorted(f.Shape) || len(slices.Compact(slices.Clone(f.Shape))) != len(f.Shape) {
			t.Fatalf("function %s: Shape not sorted and unique: %v", f.Name, f.Shape)
		}
		for _, p := range f.Params {
			if p == "" {
				t.Fatalf("function %s: empty parameter name in %q", f.Name, f.Params)
			}
		}
		for _, list := range [][]string{f.Fields, f.Calls} {
			if !slices.IsSorted(list) || len(slices.Compact(slices.Clone(list))) != len(list) || slices.Contains(list, "") {
				t.Fatalf("function %s: not sorted, unique and non-empty: %q", f.Name, list)
			}
		}
		for k, c := range f.Consts {
			if !constOps[c.Op] {
				t.Fatalf("function %s: const %d op %q", f.Name, k, c.Op)
			}
			switch c.Value.(type) {
			case float64, string, bool:
				if c.Ref != "" {
					t.Fatalf("function %s: const %d has a value and a ref %q", f.Name, k, c.Ref)
				}
			case nil: // a constant of another file, named by its ref
				if c.Ref == "" || c.Name == "" {
					t.Fatalf("function %s: const %d without a value nor a ref", f.Name, k)
				}
			default:
				t.Fatalf("function %s: const %d value %T", f.Name, k, c.Value)
			}
			if c.Branch != facts.BranchUnknown && c.Branch != facts.BranchReject && c.Branch != facts.BranchAccept {
				t.Fatalf("function %s: const %d branch %d", f.Name, k, c.Branch)
			}
			if c.Measure != "" && c.Measure != "len" && c.Measure != "words" || c.Measure != "" && c.Field == "" {
				t.Fatalf("function %s: const %d measure %q of %q", f.Name, k, c.Measure, c.Field)
			}
			if !inFile(c.Pos) || c.Pos.Offset < f.Pos.Offset || c.Pos.Offset >= f.End.Offset {
				t.Fatalf("function %s: const %d at %+v outside %+v..%+v", f.Name, k, c.Pos, f.Pos, f.End)
			}
			if k > 0 && f.Consts[k-1].Pos.Offset > c.Pos.Offset {
				t.Fatalf("function %s: consts out of order", f.Name)
			}
		}
	}
}

// TestConstRefs: without types.Info, a name neither the function nor the
// file declares, and pkg.Name of an import, are refs to resolve over the
// tree; a file constant is a value; a local variable is neither.
func TestConstRefs(t *testing.T) {
	src := `package p

import "example.com/x/limits"

const fileMin = 15

func validateDelegate(d Delegate, floor int) error {
	local := 3
	if d.A < fileMin {
	}
	if d.B < minWords {
	}
	if d.C < limits.MaxPlan {
	}
	if d.D < local {
	}
	if d.E < floor {
	}
	return nil
}
`
	ff, err := Extract("x.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range ff.Functions[0].Consts {
		got = append(got, fmt.Sprintf("%s %v %s %s", c.Field, c.Value, c.Name, c.Ref))
	}
	want := []string{"a 15 fileMin ", "b <nil> minWords :minWords", "c <nil> MaxPlan example.com/x/limits:MaxPlan"}
	if !slices.Equal(got, want) {
		t.Errorf("consts\n got %q\nwant %q", got, want)
	}
}

// TestConstBranch: what the code does when a comparison holds.
func TestConstBranch(t *testing.T) {
	for _, tc := range []struct {
		body string
		want facts.Branch
	}{
		{"if d.N < 15 { return errors.New(\"x\") }", facts.BranchReject},
		{"if d.N < 15 { return fmt.Errorf(\"x\") }", facts.BranchReject},
		{"if d.N < 15 { return ErrShort }", facts.BranchReject},
		{"if d.N < 15 { return &ValidationError{} }", facts.BranchReject},
		{"if d.N < 15 { panic(\"x\") }", facts.BranchReject},
		{"if d.N < 15 { errs = append(errs, \"x\") }", facts.BranchReject},
		{"if d.N >= 15 { return nil }", facts.BranchAccept},
		{"if !(d.N < 15) { return nil }", facts.BranchReject},
		{"if d.M > 1 || d.N < 15 { return errors.New(\"x\") }", facts.BranchReject},
		{"if d.N < 15 { log(\"x\") } else { return errors.New(\"x\") }", facts.BranchAccept},
		{"if d.N < 15 { log(\"x\") }", facts.BranchUnknown},
		{"if f(d.N < 15) { return errors.New(\"x\") }", facts.BranchUnknown},
	} {
		src := "package p\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n)\n\nvar _ = fmt.Sprint\n\nfunc validateX(d D) error {\n\t" + tc.body + "\n\treturn errors.New(\"end\")\n}\n"
		ff, err := Extract("x.go", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", tc.body, err)
		}
		var got []facts.Branch
		for _, c := range ff.Functions[0].Consts {
			if c.Field == "n" {
				got = append(got, c.Branch)
			}
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%q: branches %v, want %v", tc.body, got, tc.want)
		}
	}
	for name, want := range map[string]facts.Branch{"IsValid": facts.BranchAccept, "checkScope": facts.BranchAccept,
		"isInvalid": facts.BranchUnknown, "ShouldEscalate": facts.BranchUnknown} {
		ff, _ := Extract("x.go", []byte("package p\n\nfunc "+name+"(d D) bool {\n\treturn d.N < 15\n}\n"))
		if got := ff.Functions[0].Consts[0].Branch; got != want {
			t.Errorf("%s: branch %v, want %v", name, got, want)
		}
	}
}
