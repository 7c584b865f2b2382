package scan

import (
	"context"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/analyzers/divergence"
	"github.com/protoscan-dev/protoscan/internal/scan/walk"
	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/languages/facts"
)

// constTree is the tree divergence.Resolve looks constants up in: the
// Python and Go files the walk found, read again (within the size limit)
// only when a candidate names a constant of theirs.
type constTree struct {
	ctx     context.Context
	root    string
	prefix  string
	maxSize int64
	paths   []string            // as findings name them, in walk order
	dirs    map[string][]string // built on first use
}

// add notes a file of the walk that may define constants.
func (t *constTree) add(f walk.File) {
	if l := extract.ForPath(f.Rel); l != nil && l.Consts != nil {
		t.paths = append(t.paths, join(t.prefix, f.Rel))
	}
}

// ModuleFiles asks the registry how a file of lang resolves module.
func (t *constTree) ModuleFiles(lang, from, module string) []string {
	if l := extract.Named(lang); l != nil && l.ModuleFiles != nil {
		return l.ModuleFiles(t.files, t.prefix, from, module)
	}
	return nil
}

// files lists the files of directory dir that may define constants,
// sorted.
func (t *constTree) files(dir string) []string {
	if t.dirs == nil {
		t.dirs = map[string][]string{}
		for _, p := range t.paths {
			d := path.Dir(p)
			if d == "." {
				d = ""
			}
			t.dirs[d] = append(t.dirs[d], p)
		}
		for _, fs := range t.dirs {
			slices.Sort(fs)
		}
	}
	return t.dirs[dir]
}

func (t *constTree) Consts(p string) map[string]float64 {
	rel := strings.TrimPrefix(strings.TrimPrefix(p, t.prefix), "/")
	src, err := readFile(filepath.Join(t.root, filepath.FromSlash(rel)), t.maxSize)
	if err != nil || walk.IsBinary(src) {
		return nil
	}
	if l := extract.ForPath(p); l != nil && l.Consts != nil {
		return l.Consts(t.ctx, src)
	}
	return nil
}

// Imports returns the names file p imports, for divergence.ImportTree.
func (t *constTree) Imports(p string) map[string]string {
	l := extract.ForPath(p)
	if l == nil || l.Imports == nil {
		return nil
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(p, t.prefix), "/")
	src, err := readFile(filepath.Join(t.root, filepath.FromSlash(rel)), t.maxSize)
	if err != nil || walk.IsBinary(src) {
		return nil
	}
	return l.Imports(t.ctx, src)
}

// hasRefs reports whether a candidate compares with a constant of another
// file, which only the whole tree can resolve.
func hasRefs(cands []divergence.Candidate) bool {
	for i := range cands {
		for _, c := range cands[i].Fn.Consts {
			if c.Ref != "" && c.Value == nil {
				return true
			}
		}
	}
	return false
}

// maxImportedFiles bounds the files analyzed again for the tests other
// files make of their collections.
const maxImportedFiles = 256

// testsOfImports maps each file that may define a collection another file
// imports and tests (enumdrift.Result.Imported) to those tests, marked
// with the testing file (facts.Test.In) and bound to no function of the
// defining file.
func testsOfImports(imported []importedTests, tree *constTree) map[string][]facts.Test {
	if len(imported) == 0 {
		return nil
	}
	slices.SortFunc(imported, func(a, b importedTests) int { return strings.Compare(a.rel, b.rel) })
	out := map[string][]facts.Test{}
	for _, it := range imported {
		for _, t := range it.tests {
			for _, p := range tree.ModuleFiles(it.lang, it.rel, t.From) {
				if p == it.rel {
					continue
				}
				if _, seen := out[p]; !seen && len(out) >= maxImportedFiles {
					continue
				}
				t.In, t.Scope = it.rel, ""
				out[p] = append(out[p], t)
			}
		}
	}
	return out
}
