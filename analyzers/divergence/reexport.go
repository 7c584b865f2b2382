package divergence

// ImportTree is a Tree that also says which names a file imports from
// other modules: a package's __init__.py that re-exports a constant
// (from .limits import MIN_WORDS) defines it for its importers.
type ImportTree interface {
	Tree
	// Imports returns the names file p binds by importing them, each to
	// the reference it stands for ("MODULE:NAME", as facts.Const.Ref
	// spells it); nil when it binds none or cannot be read.
	Imports(p string) map[string]string
}

// reexported resolves name in the module files when one of them imports
// it from another module, one import deep: the reference is looked up
// from that file, as the file itself would.
func (r *resolver) reexported(files []string, lang, name string) (float64, bool) {
	it, ok := r.t.(ImportTree)
	if !ok || r.depth > 0 {
		return 0, false
	}
	var val float64
	n := 0
	for _, f := range files {
		ref, ok := r.fileImports(it, f)[name]
		if !ok {
			continue
		}
		r.depth++
		v, ok := r.resolve(f, lang, ref)
		r.depth--
		if ok {
			val = v
			n++
		}
	}
	return val, n == 1
}

func (r *resolver) fileImports(it ImportTree, p string) map[string]string {
	if m, ok := r.imports[p]; ok {
		return m
	}
	if r.read >= maxRefFiles {
		return nil
	}
	r.read++
	m := it.Imports(p)
	if r.imports == nil {
		r.imports = map[string]map[string]string{}
	}
	r.imports[p] = m
	return m
}
