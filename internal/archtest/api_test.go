package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the module path, and root its directory from this package.
const (
	module = "github.com/protoscan-dev/protoscan"
	root   = "../.."
)

// publicDirs lists the directories of the packages code outside the
// module can import: not under internal/, cmd/ or bench/, nor testdata.
func publicDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		switch d.Name() {
		case "internal", "cmd", "bench", "testdata", "node_modules", ".git":
			return filepath.SkipDir
		}
		if m, _ := filepath.Glob(filepath.Join(p, "*.go")); len(m) > 0 {
			dirs = append(dirs, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// TestPublicAPIHasNoInternalTypes: no exported function, method, type,
// field, variable or constant of a public package names a type of an
// internal package, which code outside the module could not write.
func TestPublicAPIHasNoInternalTypes(t *testing.T) {
	dirs := publicDirs(t)
	if len(dirs) < 10 {
		t.Fatalf("%d public packages found under %s, want the module's", len(dirs), root)
	}
	for _, dir := range dirs {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, pkg := range pkgs {
			for name, f := range pkg.Files {
				for _, bad := range internalRefs(f) {
					t.Errorf("%s: %s names %s, an internal type", filepath.ToSlash(name), bad.where, bad.what)
				}
			}
		}
	}
}

type ref struct{ where, what string }

// internalRefs lists the exported declarations of f whose types name a
// package under internal/.
func internalRefs(f *ast.File) []ref {
	internal := map[string]string{} // import name -> path, for internal imports
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if !strings.HasPrefix(p, module+"/") || !slices.Contains(strings.Split(p, "/"), "internal") {
			continue
		}
		name := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		internal[name] = p
	}
	if len(internal) == 0 {
		return nil
	}
	var out []ref
	check := func(where string, n ast.Node) {
		if n == nil {
			return
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit, *ast.BlockStmt:
				return false // bodies are not the API
			case *ast.Field:
				// an unexported field of a struct is not the API
				if len(n.Names) > 0 && !slices.ContainsFunc(n.Names, func(id *ast.Ident) bool { return id.IsExported() }) {
					return false
				}
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok {
					if p, ok := internal[x.Name]; ok {
						out = append(out, ref{where, p + "." + n.Sel.Name})
					}
				}
			}
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || d.Recv != nil && !exportedRecv(d.Recv) {
				continue
			}
			check(d.Name.Name, d.Type)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						check(s.Name.Name, s.Type)
					}
				case *ast.ValueSpec:
					for _, id := range s.Names {
						if id.IsExported() {
							check(id.Name, s.Type)
						}
					}
				}
			}
		}
	}
	return out
}

// exportedRecv reports whether a method's receiver type is exported.
func exportedRecv(fl *ast.FieldList) bool {
	if len(fl.List) == 0 {
		return false
	}
	t := fl.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}
