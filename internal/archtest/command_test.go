package archtest

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The command stays thin (issue 39): the scan runs in internal/engine,
// and cmd/protoscan keeps the flags, the environment, the one render
// function and the exit codes.
const (
	commandDir      = root + "/cmd/protoscan"
	maxCommandLines = 2400 // non-test lines of cmd/protoscan
	maxFuncLines    = 80   // lines of any function there, from func to }
)

// TestCommandIsThin: cmd/protoscan has at most maxCommandLines lines
// outside its tests, and no function or method longer than
// maxFuncLines lines.
func TestCommandIsThin(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(commandDir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", commandDir, err)
	}
	total := 0
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		total += bytes.Count(src, []byte("\n"))
		file, err := parser.ParseFile(fset, f, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			start, end := fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line
			if n := end - start + 1; n > maxFuncLines {
				t.Errorf("%s:%d: %s is %d lines long, over %d: move its work into internal/engine or split it", filepath.Base(f), start, fd.Name.Name, n, maxFuncLines)
			}
		}
	}
	if total > maxCommandLines {
		t.Errorf("cmd/protoscan has %d non-test lines, over %d: the scan's work belongs in internal/engine", total, maxCommandLines)
	}
	t.Logf("cmd/protoscan: %d non-test lines", total)
}
