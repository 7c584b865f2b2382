package golang

import (
	"go/ast"
	"go/token"
	"runtime"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

func TestPositions(t *testing.T) {
	// byte columns after a multibyte rune, a raw string over two lines with
	// a CRLF (go/parser drops the \r from the value but not from the span)
	src := "package p\n\nvar é, t = \"é\", `a\r\nb`\n"
	ff, err := Extract("x.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, []byte(src), ff)
	want := []facts.String{
		{Value: "é", Pos: facts.Pos{Line: 3, Col: 13, Offset: 23}, End: facts.Pos{Line: 3, Col: 17, Offset: 27},
			Role: facts.RoleAssign, Key: "é", Mapping: -1, Group: -1},
		{Value: "a\nb", Pos: facts.Pos{Line: 3, Col: 19, Offset: 29}, End: facts.Pos{Line: 4, Col: 3, Offset: 35},
			Role: facts.RoleAssign, Key: "t", Mapping: -1, Group: -1},
	}
	if len(ff.Strings) != len(want) {
		t.Fatalf("got %d strings: %+v", len(ff.Strings), ff.Strings)
	}
	for i := range want {
		if ff.Strings[i] != want[i] {
			t.Errorf("string %d:\n got %+v\nwant %+v", i, ff.Strings[i], want[i])
		}
	}
	if got := src[ff.Strings[1].Pos.Offset:ff.Strings[1].End.Offset]; got != "`a\r\nb`" {
		t.Errorf("span of the raw string = %q", got)
	}
}

func TestHelpers(t *testing.T) {
	for _, tt := range []struct {
		names []string
		want  string
	}{
		{[]string{"StatusSuccess", "StatusSkipped"}, "Status"},
		{[]string{"StatusOK", "StatusFailed", "StatusPending"}, "Status"},
		{[]string{"STATUS_OK", "STATUS_FAILED"}, "STATUS"},
		{[]string{"status_ok", "status_failed"}, "status"},
		{[]string{"statusOK", "statusFailed"}, "status"},
		{[]string{"Status", "StatusOK"}, "Status"},
		{[]string{"HTTPServer", "HTTPClient"}, "HTTP"},
		{[]string{"Success", "Skipped"}, ""},
		{[]string{"A", "B"}, ""},
		{[]string{"StatusOK"}, ""},
		{[]string{"_", "_"}, ""},
		{[]string{"é1", "é2"}, ""},
	} {
		if got := commonPrefix(tt.names); got != tt.want {
			t.Errorf("commonPrefix(%q) = %q, want %q", tt.names, got, tt.want)
		}
	}
	for path, want := range map[string]string{
		"strings":                  "strings",
		"example.com/agent/v2":     "agent",
		"gopkg.in/yaml.v3":         "yaml",
		"github.com/x/go-redis/v9": "redis",
		"github.com/a/b-c":         "b_c",
		"v2":                       "v2",
	} {
		if got := guessPackageName(path); got != want {
			t.Errorf("guessPackageName(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestBadInput: partial ASTs, invalid UTF-8, NUL bytes. Parse errors return
// the facts of what go/parser recovered.
func TestBadInput(t *testing.T) {
	for _, src := range []string{
		"",
		"package",
		"package p; func f() { if h.Status == \"x\" { ",
		"package p; func f() { x := Handback{Status: \"ok\", \n",
		"package p; var s = \"\xff\x00\"; func f() { _ = s == \"\xc3\" }",
		"package p\x00; const A = \"a\"",
		"package p; func f() { switch h.Status { case \"a\", : } }",
		"package p; func (", "package p; func () f() { return \"r\" }",
		"package p; const ( A Status = \"a\"; B; C = )",
		"package p; var _ = map[string]any{: \"v\", \"k\": }",
		"package p; var _ = []string{\"a\" \"b\"}",
		"package p; var _ = \"unterminated",
		"package p; var _ = `unterminated",
		"package p; func f() { _ = x.(\"s\") == \"t\"; _ = T{}.(type) }",
		"\xef\xbb\xbfpackage p; var s = \"bom\"",
	} {
		ff, _ := Extract("bad.go", []byte(src))
		if ff == nil || ff.Lang != "go" {
			t.Fatalf("%q: no File", src)
		}
		checkInvariants(t, []byte(src), ff)
	}
	ff, err := Extract("bad.go", []byte("package p; func f() { if h.Status == \"x\" { "))
	if err == nil || len(ff.Strings) != 1 || ff.Strings[0].Key != "Status" {
		t.Errorf("partial file: err %v, strings %+v", err, ff.Strings)
	}
	if ff := ExtractFile(nil, nil, nil); ff == nil || len(ff.Strings) != 0 {
		t.Errorf("ExtractFile(nil...) = %+v", ff)
	}
	if ff := ExtractFile(token.NewFileSet(), &ast.File{}, nil); ff == nil || len(ff.Strings) != 0 {
		t.Errorf("ExtractFile(empty File) = %+v", ff)
	}
}

// TestDeepNesting: 10,000 nested parentheses and 2,000 nested composite
// literals are extracted, in memory linear in the source (255 bytes per
// byte measured for the literals, the same from 1,000 levels to 10,000);
// input past go/parser's 100,000 nesting levels is refused without a
// crash; an AST built deeper than any parse is cut at maxDepth.
func TestDeepNesting(t *testing.T) {
	n := 10000
	src := "package p\nvar _ = " + strings.Repeat("(", n) + `status == "x"` + strings.Repeat(")", n) + "\n"
	ff, err := Extract("deep.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(ff.Strings) != 1 || ff.Strings[0].Key != "status" {
		t.Errorf("nested parens: %+v", ff.Strings)
	}

	n = 2000
	src = "package p\nvar _ = " + strings.Repeat(`map[string]any{"status": "x", "a": `, n) + "nil" + strings.Repeat("}", n) + "\n"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ff, err = Extract("deep.go", []byte(src))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(ff.Mappings) != n || len(ff.Strings) != 3*n {
		t.Errorf("nested maps: %d mappings, %d strings", len(ff.Mappings), len(ff.Strings))
	}
	if a := after.TotalAlloc - before.TotalAlloc; a > 512*uint64(len(src)) {
		t.Errorf("nested maps: %d bytes allocated for %d of source, want at most 512 per byte", a, len(src))
	}
	checkInvariants(t, []byte(src), ff)

	const past = 100_001 // each of these costs go/parser a nesting level
	for _, src := range []string{
		"package p\nvar _ = " + strings.Repeat("(", past) + `"x"` + strings.Repeat(")", past),
		"package p\nfunc f() {" + strings.Repeat("{", past) + strings.Repeat("}", past) + "}",
		"package p\nvar _ = " + strings.Repeat("x.", past) + "y == \"z\"",
		"package p\nvar _ = " + strings.Repeat("a || ", past) + "s == \"z\"",
	} {
		if _, err := Extract("deep.go", []byte(src)); err == nil {
			t.Errorf("go/parser accepted %d bytes of nesting", len(src))
		}
	}

	// A hand-built AST nested more than any parse: *(*(*(...x == "lit"))).
	fset := token.NewFileSet()
	tf := fset.AddFile("built.go", -1, 100)
	tf.SetLines([]int{0})
	var e ast.Expr = &ast.BinaryExpr{X: ast.NewIdent("x"), Op: token.EQL,
		Y: &ast.BasicLit{ValuePos: tf.Pos(10), Kind: token.STRING, Value: `"lit"`}}
	for range maxDepth + 10 {
		e = &ast.ParenExpr{X: e}
	}
	f := &ast.File{FileStart: tf.Pos(0), Package: tf.Pos(0), Name: ast.NewIdent("p"),
		Decls: []ast.Decl{&ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{
			&ast.ValueSpec{Names: []*ast.Ident{ast.NewIdent("_")}, Values: []ast.Expr{e}}}}}}
	if ff := ExtractFile(fset, f, nil); len(ff.Strings) != 0 {
		t.Errorf("a literal below maxDepth was reached: %+v", ff.Strings)
	}
}
