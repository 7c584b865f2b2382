package msgcheck

import (
	"slices"
	"strings"
)

// RepoKey returns, as text, all that New read from the repository: the
// root, and for each field with existsIn the directories that exist and
// the names found in them. Two validators of the same specs with the same
// RepoKey judge every message alike, so a cache of validation results
// keys on it (see package internal/scan/cache).
func (v *Validator) RepoKey() string {
	var b strings.Builder
	b.WriteString(v.root)
	for _, sp := range v.specs {
		for _, sc := range sp.existsSchemas() {
			set := v.entries[sc]
			b.WriteString("\x00")
			b.WriteString(strings.Join(sc.existsIn, ","))
			if set == nil {
				continue
			}
			b.WriteString("\x00")
			b.WriteString(strings.Join(set.present, ","))
			names := make([]string, 0, len(set.names))
			for n := range set.names {
				names = append(names, n)
			}
			slices.Sort(names)
			b.WriteString("\x00")
			b.WriteString(strings.Join(names, "\x01"))
		}
	}
	return b.String()
}
