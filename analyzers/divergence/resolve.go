package divergence

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Tree is what Resolve needs of the scanned tree: which files a
// reference names, and the constants they define.
type Tree interface {
	// ModuleFiles returns the files of the module or package that
	// module (the MODULE of a facts.Const.Ref) names, from a file of
	// language lang at path from, as that language resolves imports;
	// nothing when the tree has none or lang resolves none.
	ModuleFiles(lang, from, module string) []string
	// Consts returns the module- or package-level constants with a
	// number value that file p defines, by name; nil when it defines
	// none or cannot be read.
	Consts(p string) map[string]float64
}

// maxRefFiles bounds the files Resolve reads, whatever the candidates'
// imports: each is read and parsed once more.
const maxRefFiles = 256

// Resolve gives the constants of cands that name a constant of another
// file (facts.Const.Ref) their value, where t holds the module the
// reference names (t.ModuleFiles) and one of its files defines the name
// with a number (two: build-tagged variants, which differ, resolve
// nothing). A constant left unresolved keeps its Ref and a
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
			if k.Scale != 0 {
				v = math.Round((k.Base+k.Scale*v)*1e9) / 1e9 // 85 - ESCALATION_GAP, without binary noise
			}
			k.Value = v
		}
	}
}

type resolver struct {
	t      Tree
	consts map[string]map[string]float64 // by file, memoized
	read   int
	// imports are the names each file imports (see ImportTree), memoized
	imports map[string]map[string]string
	depth   int // imports followed
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
	var val float64
	n := 0
	files := r.t.ModuleFiles(lang, from, mod)
	for _, f := range files {
		if v, ok := r.fileConsts(f)[name]; ok {
			val = v
			n++
		}
	}
	if n == 0 {
		return r.reexported(files, lang, name)
	}
	return val, n == 1
}
