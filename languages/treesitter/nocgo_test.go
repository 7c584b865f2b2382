package treesitter

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestBuildWithoutCgo checks what a build without cgo (CGO_ENABLED=0, or
// a machine without gcc or clang) says first: every package of the
// command loads, this package holds only doc.go and nocgo.go then, and
// nocgo.go's one error names cgo and a C compiler. One go list, no
// compilation: a package the command imports with no Go file left would
// fail the build first, with "build constraints exclude all Go files".
func TestBuildWithoutCgo(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command(gobin, "list", "-e", "-deps", "-json=ImportPath,Standard,GoFiles,Error", "../../cmd/protoscan")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	type pkg struct {
		ImportPath string
		Standard   bool
		GoFiles    []string
		Error      *struct{ Err string }
	}
	const self = "github.com/protoscan-dev/protoscan/languages/treesitter"
	seen := false
	for dec := json.NewDecoder(strings.NewReader(string(out))); dec.More(); {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		switch {
		case p.Error != nil:
			t.Errorf("%s does not load without cgo: %s", p.ImportPath, p.Error.Err)
		case len(p.GoFiles) == 0 && !p.Standard:
			// go build's first words would be "build constraints
			// exclude all Go files in" it
			t.Errorf("%s has no Go files without cgo", p.ImportPath)
		}
		if p.ImportPath == self {
			seen = true
			if want := []string{"doc.go", "nocgo.go"}; !slices.Equal(p.GoFiles, want) {
				t.Errorf("without cgo %s builds %v, want %v", self, p.GoFiles, want)
			}
		}
	}
	if !seen {
		t.Fatalf("cmd/protoscan does not import %s", self)
	}

	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range []string{"doc.go", "nocgo.go"} {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	var errs []string
	conf := types.Config{Error: func(err error) { errs = append(errs, err.Error()) }}
	conf.Check(self, fset, files, nil)
	if len(errs) != 1 || !strings.Contains(errs[0], "needs cgo and a C compiler: install gcc or clang") {
		t.Errorf("the build without cgo fails with %q, want one error that names cgo and a C compiler", errs)
	}
}
