package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"
)

// TestWalkOnce: the literal facts and the function facts come from one
// walk, which enters every statement and expression of a function body
// once.
func TestWalkOnce(t *testing.T) {
	src := `package p

func f(h, n, xs, g any) bool {
	st := h
	if n > 0 && st == "done" {
		return g(n, xs[n]) == 1
	}
	for i := 0; i < n; i++ {
		switch st {
		case "a", "b":
			n--
		default:
			st = "c"
		}
	}
	for k, v := range xs {
		go g(k, v)
	}
	defer g(-n)
	return !(n != 2)
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "once.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	ff, entered := ExtractCounting(fset, f, nil)
	if len(ff.Functions) != 1 || len(ff.Strings) != 4 {
		t.Fatalf("%d functions, %d strings", len(ff.Functions), len(ff.Strings))
	}
	// Every node of the body but its blocks and case clauses, which the
	// walk goes through without entering.
	nodes := 0
	ast.Inspect(f.Decls[0].(*ast.FuncDecl).Body, func(n ast.Node) bool {
		switch n.(type) {
		case nil, *ast.BlockStmt, *ast.CaseClause:
			return true
		}
		nodes++
		if entered[n] != 1 {
			t.Errorf("%T at %v entered %d times", n, fset.Position(n.Pos()), entered[n])
		}
		return true
	})
	total := 0
	for _, k := range entered {
		total += k
	}
	if total != nodes {
		t.Errorf("%d nodes entered for the %d of the body", total, nodes)
	}
}

// TestWalkOnceFiles: no node of real code (this package's) is entered
// twice.
func TestWalkOnceFiles(t *testing.T) {
	paths, _ := filepath.Glob("*.go")
	more, _ := filepath.Glob("testdata/*.go")
	files := 0
	for _, p := range append(paths, more...) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		_, entered := ExtractCounting(fset, f, nil)
		inFile := map[ast.Node]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			inFile[n] = true
			return true
		})
		for n, k := range entered {
			if k != 1 || !inFile[n] {
				t.Errorf("%s: %T at %v entered %d times (in the file: %v)", p, n, fset.Position(n.Pos()), k, inFile[n])
			}
		}
		files++
	}
	if files < 10 {
		t.Errorf("only %d files", files)
	}
}
