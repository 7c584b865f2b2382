package divergence

import (
	"cmp"
	"path"
	"slices"
	"strings"
)

// Tree is what Resolve needs of the scanned tree: its files and the
// constants they define.
type Tree interface {
	// Files returns the Python and Go files of directory dir (a slash
	// path as facts name files, "" for the root), sorted by name.
	Files(dir string) []string
	// Consts returns the module- or package-level constants with a
	// number value that file p defines, by name; nil when it defines
	// none or cannot be read.
	Consts(p string) map[string]float64
	// Prefix is what the paths of the tree start with ("" when the scan
	// has one root; the root's name among several).
	Prefix() string
}

// maxRefFiles bounds the files Resolve reads, whatever the candidates'
// imports: each is read and parsed once more.
const maxRefFiles = 256

// Resolve gives the constants of cands that name a constant of another
// file (facts.Const.Ref) their value, where t holds that file and it
// defines the name once with a number: a Python module the import names
// (relative, or absolute from any directory above the importing file),
// or a Go package's directory (the longest directory of the tree that
// ends the import path; the importing file's own directory for a name
// of the same package). A constant left unresolved keeps its Ref and a
// nil Value. cands is updated in place; the functions' Consts are copied
// first, since they may be shared (the scan's cache).
func Resolve(cands []Candidate, t Tree) {
	r := resolver{t: t, consts: map[string]map[string]float64{}}
	// in path order, whatever order the scan's workers gave: which files
	// fit under maxRefFiles must not depend on it
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(cands[a].Path, cands[b].Path), cmp.Compare(cands[a].Fn.Pos.Offset, cands[b].Fn.Pos.Offset))
	})
	for _, i := range order {
		c := &cands[i]
		if c.Lang != "python" && c.Lang != "go" {
			continue // a fenced block of a document: no module of its own
		}
		copied := false
		for j := range c.Fn.Consts {
			k := &c.Fn.Consts[j]
			if k.Ref == "" || k.Value != nil {
				continue
			}
			v, ok := r.resolve(c.Path, c.Lang, k.Ref)
			if !ok {
				continue
			}
			if !copied {
				c.Fn.Consts = slices.Clone(c.Fn.Consts)
				k = &c.Fn.Consts[j]
				copied = true
			}
			k.Value = v
		}
	}
}

type resolver struct {
	t      Tree
	consts map[string]map[string]float64 // by file, memoized
	read   int
}

func (r *resolver) fileConsts(p string) map[string]float64 {
	if m, ok := r.consts[p]; ok {
		return m
	}
	if r.read >= maxRefFiles {
		return nil
	}
	r.read++
	m := r.t.Consts(p)
	r.consts[p] = m
	return m
}

func (r *resolver) resolve(from, lang, ref string) (float64, bool) {
	mod, name, ok := strings.Cut(ref, ":")
	if !ok || name == "" {
		return 0, false
	}
	if lang == "go" {
		return r.goConst(pdir(from), mod, name)
	}
	for _, f := range r.pyModule(pdir(from), mod) {
		if v, ok := r.fileConsts(f)[name]; ok {
			return v, true
		}
		return 0, false // the module the import names: found, without the name
	}
	return 0, false
}

// has reports whether the tree holds file p.
func (r *resolver) has(p string) bool {
	dir, base := path.Split(p)
	_, found := slices.BinarySearch(r.t.Files(strings.TrimSuffix(dir, "/")), p)
	return base != "" && found
}

// pyModule returns the file of Python module mod imported from a file
// of directory dir, or nothing.
func (r *resolver) pyModule(dir, mod string) []string {
	dots := len(mod) - len(strings.TrimLeft(mod, "."))
	rest := strings.ReplaceAll(mod[dots:], ".", "/")
	try := func(base string) []string {
		for _, p := range []string{rest + ".py", rest + "/__init__.py"} {
			if rest == "" {
				p = "__init__.py"
			}
			if p = pjoin(base, p); r.has(p) {
				return []string{p}
			}
		}
		return nil
	}
	if dots > 0 {
		base := dir
		for range dots - 1 {
			if base == "" || base == "." {
				return nil
			}
			base = pdir(base)
		}
		return try(base)
	}
	// an absolute import: from the nearest directory above the importer
	// that holds the module (a package root, a src/ layout)
	for base := dir; ; base = pdir(base) {
		if f := try(base); f != nil {
			return f
		}
		if base == "" || base == "." {
			return nil
		}
	}
}

// goConst finds constant name of the Go package imported as importPath
// ("" for the package of directory dir).
func (r *resolver) goConst(dir, importPath, name string) (float64, bool) {
	pkg := ""
	if importPath == "" {
		pkg = dir
	} else {
		// the longest directory of the tree that ends the import path
		for p := importPath; p != ""; {
			if d := r.goDir(p); d != "" {
				pkg = d
				break
			}
			i := strings.IndexByte(p, '/')
			if i < 0 {
				break
			}
			p = p[i+1:]
		}
	}
	if pkg == "" && importPath != "" {
		return 0, false
	}
	var val float64
	n := 0
	for _, f := range r.t.Files(pkg) {
		if !strings.HasSuffix(f, ".go") || strings.HasSuffix(f, "_test.go") {
			continue
		}
		if v, ok := r.fileConsts(f)[name]; ok {
			val = v
			n++
		}
	}
	return val, n == 1 // two: build-tagged variants, which differ
}

// goDir returns the directory of the tree named by suffix, the end of an
// import path, if it holds Go files.
func (r *resolver) goDir(suffix string) string {
	if d := pjoin(r.t.Prefix(), suffix); hasGo(r.t.Files(d)) {
		return d
	}
	return ""
}

func hasGo(files []string) bool {
	return slices.ContainsFunc(files, func(f string) bool { return strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") })
}

func pjoin(dir, p string) string {
	if dir == "" || dir == "." {
		return p
	}
	return dir + "/" + p
}

func pdir(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}
