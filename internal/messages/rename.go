package messages

import (
	"fmt"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/facts"
)

// renameFix gives fd, the finding on a field held under its former name
// old (msgcheck's -renamed), the fix that renames the key to its current
// name: an edit of the key's text from where the facts put it, which
// KeyFixes then fits to the file's bytes (the key may be quoted).
func renameFix(fd *finding.Finding, m *facts.Mapping, old, to string) {
	for _, en := range m.Entries {
		if en.Key != old || en.KeyPos.Line == 0 {
			continue
		}
		renameFixAt(fd, en.KeyPos.Offset, old, to)
		return
	}
}

// renameFixAt gives fd the fix that renames the key old, whose text
// starts at off, to to.
func renameFixAt(fd *finding.Finding, off int, old, to string) {
	fd.Literal, fd.Canonical = old, to
	fd.Fix = &finding.Fix{Message: fmt.Sprintf("Rename %q to %q", old, to),
		Edits: []finding.Edit{{Path: fd.Path, Offset: off, End: off + len(old), New: to}}}
}

// KeyFixes fits the key renames of fs, the findings of one file whose
// bytes are src, to the key as the file writes it: the name itself, or
// the name between quotes. A key written otherwise (with escapes, or a
// struct field's name where the facts read its JSON tag) keeps no fix.
func KeyFixes(src []byte, fs []finding.Finding) {
	for i := range fs {
		fd := &fs[i]
		if fd.Fix == nil || len(fd.Fix.Edits) != 1 || fd.Literal == "" || !isRename(fd) {
			continue
		}
		ed := &fd.Fix.Edits[0]
		at, n := ed.Offset, len(fd.Literal)
		switch {
		case at >= 0 && at+n <= len(src) && string(src[at:at+n]) == fd.Literal && !identByte(src, at+n) && !identByte(src, at-1):
		case at >= 0 && at+n+2 <= len(src) && (src[at] == '"' || src[at] == '\'') && string(src[at+1:at+1+n]) == fd.Literal && src[at+1+n] == src[at]:
			ed.Offset, ed.End = at+1, at+1+n
		default:
			fd.Fix = nil
		}
	}
}

// isRename tells a fix renameFix made.
func isRename(fd *finding.Finding) bool {
	return fd.Fix.Edits[0].New == fd.Canonical && fd.Fix.Message == fmt.Sprintf("Rename %q to %q", fd.Literal, fd.Canonical)
}

// identByte tells whether src[i] is a letter, digit or _ (a key that
// goes on past the name is another key).
func identByte(src []byte, i int) bool {
	if i < 0 || i >= len(src) {
		return false
	}
	c := src[i]
	return c == '_' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
