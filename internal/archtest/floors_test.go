package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// floors are the levels of the module, bottom first (DESIGN.md, "Floors
// and the import rule"): a package imports packages of its own floor or
// below, never above. A package not listed fails the test, so that a
// new package is given its floor.
var floors = []struct {
	name string
	pkgs []string // import paths below the module; "dir/..." for a subtree
}{
	{"ground", []string{
		"finding", "jsonmsg",
		"internal/editdist", "internal/glob", "internal/safefile", "internal/swar", "internal/offheap",
		"internal/textsafe", "internal/yamlnode", "internal/gitdiff", "internal/jsonstr",
		"languages/facts", "languages/facts/factstest", "languages/markdown", "languages/shape", "languages/treesitter",
		"languages/yamldoc", "languages/jsondoc",
	}},
	{"readers", []string{
		"languages/golang", "languages/python", "languages/typescript", "languages/nodefacts", "languages/extract",
		"msgcheck/...", "internal/fix", "internal/rules",
	}},
	{"judges", []string{
		"analyzers/...", "handoff", "phase", "audit",
		"internal/messages", "internal/suppress", "internal/baseline", "internal/config",
		"internal/report", "internal/scan/walk", "internal/scan/cache",
	}},
	{"engine", []string{"internal/scan", "internal/engine/..."}},
	{"command", []string{"cmd/...", "bench/...", "internal/archtest"}},
}

// floorOf is the floor of a package (a path below the module), or -1.
func floorOf(pkg string) int {
	best, bestLen := -1, -1
	for i, f := range floors {
		for _, p := range f.pkgs {
			sub, tree := strings.CutSuffix(p, "/...")
			if (pkg == sub || tree && strings.HasPrefix(pkg, sub+"/")) && len(sub) > bestLen {
				best, bestLen = i, len(sub)
			}
		}
	}
	return best
}

// TestImportsGoDown: no package imports a package of a floor above its
// own, and every package has a floor.
func TestImportsGoDown(t *testing.T) {
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "node_modules", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		pkg := filepath.ToSlash(rel)
		from := floorOf(pkg)
		if from < 0 {
			t.Errorf("%s has no floor: give it one in floors (and DESIGN.md)", pkg)
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		n++
		for _, im := range f.Imports {
			ip, _ := strconv.Unquote(im.Path.Value)
			dep, ok := strings.CutPrefix(ip, module+"/")
			if !ok {
				continue
			}
			if to := floorOf(dep); to > from {
				t.Errorf("%s (%s) imports %s (%s), a floor above", filepath.ToSlash(p[len(root)+1:]), floors[from].name, dep, floors[to].name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("%d files read under %s, want the module's", n, root)
	}
}
