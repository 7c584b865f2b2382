package golang

import (
	"bytes"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// AddNotes sets the Note of f's groups (facts.Group.Note) from the file's
// source: the "//" lines just above a group's first line, at most five,
// and a "//" comment at the end of that line. Extract calls it; a caller
// of ExtractFile that has the source calls it too, so both faces read the
// same notes. Switch cases get none: they are no definitions.
func AddNotes(f *facts.File, src []byte) {
	for i := range f.Groups {
		g := &f.Groups[i]
		if g.Kind == facts.GroupCases || g.Pos.Line == 0 || g.Pos.Offset > len(src) {
			continue
		}
		g.Note = noteAt(src, g.Pos.Offset)
	}
}

// noteAt is the comment about the line at off.
func noteAt(src []byte, off int) string {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := bytes.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += off
	}
	var note []byte
	// a comment after the code of the line; "//" inside a string such as
	// "http://..." has no blank before it
	line := src[off:end]
	for i := 0; i+2 <= len(line); i++ {
		if line[i] == '/' && line[i+1] == '/' && i > 0 && (line[i-1] == ' ' || line[i-1] == '\t') {
			note = line[i+2:]
			break
		}
	}
	for n, at := 0, start; n < 5 && at > 0; n++ {
		prev := bytes.LastIndexByte(src[:at-1], '\n') + 1
		text := bytes.TrimSpace(src[prev : at-1])
		if !bytes.HasPrefix(text, []byte("//")) {
			break
		}
		note = append(append(append([]byte{}, text[2:]...), ' '), note...)
		at = prev
	}
	return string(bytes.TrimSpace(note))
}
