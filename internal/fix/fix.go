// Package fix applies the fixes findings suggest: it groups their edits by
// file, applies a file's edits to its bytes, and shows the change as a
// unified diff. It touches nothing but the edited bytes: a file's comments,
// formatting and line endings stay as they are. Select decides which fixes
// may be applied at all: those that leave the file parsing and add no
// duplicate case or key.
package fix

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/protoscan-dev/protoscan/finding"
)

// Apply returns src with edits applied; each replaces the bytes
// [Offset, End) of src with New, as finding.Edit says (Path is not read).
// Edits may come in any order. Identical edits count once; edits that
// overlap, or two different insertions at one offset (whose order would be
// a guess), are an error naming them, and so is an edit outside src. On
// error nothing is applied.
func Apply(src []byte, edits []finding.Edit) ([]byte, error) {
	es := slices.Clone(edits)
	slices.SortStableFunc(es, func(a, b finding.Edit) int {
		return cmp.Or(cmp.Compare(a.Offset, b.Offset), cmp.Compare(a.End, b.End), cmp.Compare(a.New, b.New))
	})
	es = slices.CompactFunc(es, func(a, b finding.Edit) bool {
		return a.Offset == b.Offset && a.End == b.End && a.New == b.New
	})
	size := len(src)
	for i, e := range es {
		if e.Offset < 0 || e.End < e.Offset || e.End > len(src) {
			return nil, fmt.Errorf("%s: edit %s is out of range (the file has %d bytes)", e.Path, edit(e), len(src))
		}
		if i > 0 {
			p := es[i-1]
			if p.End > e.Offset || p.Offset == p.End && e.Offset == e.End && p.Offset == e.Offset {
				return nil, fmt.Errorf("%s: edits %s and %s overlap", e.Path, edit(p), edit(e))
			}
		}
		size += len(e.New) - (e.End - e.Offset)
	}
	out := make([]byte, 0, size)
	at := 0
	for _, e := range es {
		out = append(out, src[at:e.Offset]...)
		out = append(out, e.New...)
		at = e.End
	}
	return append(out, src[at:]...), nil
}

// edit names an edit in an error.
func edit(e finding.Edit) string {
	return fmt.Sprintf("[%d,%d) -> %q", e.Offset, e.End, e.New)
}

// Files groups the edits of the findings' fixes by the file they edit. An
// Edit's Path is slash-separated and relative to the scan root, as the
// findings' paths are; the keys are those files' paths on disk, root
// joined with Path (an absolute Path is kept as it is). A scan of several
// roots prefixes every path with its root, so with root "." the keys are
// still the files' paths. Findings without a fix are skipped; each file's
// edits are in the order of the findings.
func Files(root string, findings []finding.Finding) map[string][]finding.Edit {
	out := map[string][]finding.Edit{}
	for _, f := range findings {
		if f.Fix == nil {
			continue
		}
		for _, e := range f.Fix.Edits {
			p := OSPath(root, e.Path)
			out[p] = append(out[p], e)
		}
	}
	return out
}

// OSPath is the path on disk of a slash-separated path relative to root,
// as Files computes it.
func OSPath(root, rel string) string {
	p := filepath.FromSlash(rel)
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(root, p)
}
