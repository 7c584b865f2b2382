package golang

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// stringsPkg is the part of package strings the snippet uses, so that the
// test needs neither export data nor the standard library's sources.
func stringsPkg() *types.Package {
	pkg := types.NewPackage("strings", "strings")
	str := types.Typ[types.String]
	params := types.NewTuple(types.NewVar(token.NoPos, pkg, "s", str), types.NewVar(token.NoPos, pkg, "t", str))
	results := types.NewTuple(types.NewVar(token.NoPos, pkg, "", types.Typ[types.Bool]))
	sig := types.NewSignatureType(nil, nil, nil, params, results, false)
	pkg.Scope().Insert(types.NewFunc(token.NoPos, pkg, "EqualFold", sig))
	pkg.MarkComplete()
	return pkg
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// typeCheck parses and type-checks one file and returns what the
// go/analysis Analyzer would have.
func typeCheck(t *testing.T, src string) (*token.FileSet, *ast.File, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	conf := types.Config{Importer: importerFunc(func(path string) (*types.Package, error) {
		if path == "strings" {
			return stringsPkg(), nil
		}
		return importer.Default().Import(path)
	})}
	if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	return fset, f, info
}

const typedSrc = `package p

import "strings"

type Status string

type Handback struct {
	TaskID string
	Status Status
}

// The types of these constants are not spelled where they are declared.
const (
	A    Status = "a"
	B, C        = Status("b"), "c" // C is untyped, used as a Status below
	D           = A                // no literal
)

const E = "e" // untyped and never used as a Status

type Alias = Status

const F Alias = "f"

const (
	Count = 3
	Name  = "name" // an untyped constant in a mixed block
)

type Kind string

const (
	KindA = Kind("ka")
	KindB = KindA + "b" // not a literal
)

func f(h Handback, s Status, strs interface{ Upper(string) string }) {
	var x Status = C
	_ = x
	_ = []*Handback{{"t1", "ok"}}
	_ = map[Status]int{A: 1, "z": 2}
	_ = map[string]any{Name: E, "n": Count, "k": KindA}
	_ = strings.EqualFold(string(h.Status), "Done")
	if h.Status == "x" {
	}
}
`

// TestTypesInfo shows what types.Info adds: constant groups named by their
// type wherever the source leaves the type implicit, positional struct
// fields, constant keys and values, and the same facts otherwise.
func TestTypesInfo(t *testing.T) {
	fset, f, info := typeCheck(t, typedSrc)
	withInfo := dump(ExtractFile(fset, f, info))
	want := []string{
		`s0 14:16 member "a" key=A g0`,
		`s1 15:23 member "b" key=B g0`,
		`s2 15:29 member "c" key=C g0`,
		`s3 19:11 member "e" key=E g1`,
		`s4 23:17 member "f" key=F g2`,
		`s5 27:10 member "name" key=Name g3`,
		`s6 33:15 member "ka" key=KindA g4`,
		`s7 40:19 value "t1" key=TaskID scope=f m0`,
		`s8 40:25 value "ok" key=Status scope=f m0`,
		`s9 41:27 key "z" scope=f m1`,
		`s10 42:30 key "n" scope=f m2`,
		`s11 42:42 key "k" scope=f m2`,
		`s12 43:42 compare "Done" key=Status recv=h scope=f`,
		`s13 44:17 compare "x" key=Status recv=h scope=f`,
		`g0 const "Status" 13:1 [0 1 2]`,
		`g1 const "" 19:1 [3]`,
		`g2 const "Alias" 23:1 [4]`,
		`g3 const "" 25:1 [5]`,
		`g4 const "Kind" 32:1 [6]`,
		`m0 "Handback" 40:18 {TaskID@40:19="t1" Status@40:25="ok"}`,
		`m1 "" 41:6 {a@41:21=int64(1) z@41:27=int64(2)}`,
		`m2 "" 42:6 {name@42:21="e" n@42:30=int64(3) k@42:42="ka"}`,
	}
	if d := diffLines(want, withInfo); d != "" {
		t.Errorf("with types.Info (-want +got):\n%s", d)
	}

	// Without types.Info: C is in its declaration's group, which is typed
	// only for A and B (spelled), the positional literal is not a mapping,
	// and constants are unknown values kept by name.
	fset2 := token.NewFileSet()
	f2, err := parser.ParseFile(fset2, "x.go", typedSrc, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	withoutInfo := dump(ExtractFile(fset2, f2, nil))
	want = []string{
		`s0 14:16 member "a" key=A g0`,
		`s1 15:23 member "b" key=B g0`,
		`s2 15:29 member "c" key=C g1`,
		`s3 19:11 member "e" key=E g2`,
		`s4 23:17 member "f" key=F g3`,
		`s5 27:10 member "name" key=Name g4`,
		`s6 33:15 member "ka" key=KindA g5`,
		`s7 41:27 key "z" scope=f m0`,
		`s8 42:30 key "n" scope=f m1`,
		`s9 42:42 key "k" scope=f m1`,
		`s10 43:42 compare "Done" key=Status recv=h scope=f`,
		`s11 44:17 compare "x" key=Status recv=h scope=f`,
		`g0 const "Status" 13:1 [0 1]`,
		`g1 const "" 13:1 [2]`,
		`g2 const "" 19:1 [3]`,
		`g3 const "Alias" 23:1 [4]`,
		`g4 const "" 25:1 [5]`,
		`g5 const "Kind" 32:1 [6]`,
		`m0 "" 41:6 {A@41:21=int64(1) z@41:27=int64(2)}`,
		`m1 "" 42:6 {Name@42:21=? n@42:30=? k@42:42=?}`,
	}
	if d := diffLines(want, withoutInfo); d != "" {
		t.Errorf("without types.Info (-want +got):\n%s", d)
	}
}

// TestTypesInfoLookups: with types.Info an index expression is a lookup
// only when its index is a string; without, any index with a subject is.
func TestTypesInfoLookups(t *testing.T) {
	src := `package p

type Status string

type Handback struct{ Status Status }

var terminal = map[Status]bool{"done": true}

func f(h Handback, xs []int, i int, byName map[string]int, name string) {
	_ = terminal[h.Status]
	_ = byName[name]
	_ = xs[i]
	_ = xs[len(xs)-1]
}
`
	want := []string{
		`s0 7:32 key "done" m0`,
		`m0 "" name=terminal 7:16 {done@7:32=bool(true)}`,
		`t0 10:6 terminal key=Status recv=h scope=f`,
		`t1 11:6 byName key=name scope=f`,
	}
	fset, f, info := typeCheck(t, src)
	if d := diffLines(want, dump(ExtractFile(fset, f, info))); d != "" {
		t.Errorf("with types.Info (-want +got):\n%s", d)
	}
	want = append(want, `t2 12:6 xs key=i scope=f`)
	got, err := Extract("x.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if d := diffLines(want, dump(got)); d != "" {
		t.Errorf("without types.Info (-want +got):\n%s", d)
	}
}
