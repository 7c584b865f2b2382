//go:build cgo

package treesitter

import (
	"bytes"
	"sort"
)

// Lines maps byte offsets of a source to 1-based lines and byte columns.
// Lines end at '\n', as tree-sitter and go/token count them.
type Lines struct {
	starts []int // byte offset of the start of each line
}

// Reset indexes src, reusing the receiver's storage.
func (l *Lines) Reset(src []byte) {
	l.starts = append(l.starts[:0], 0)
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		l.starts = append(l.starts, off)
	}
}

// Position returns the 1-based line and byte column of offset off.
func (l *Lines) Position(off int) (line, col int) {
	if len(l.starts) == 0 {
		return 1, off + 1
	}
	// The last line starting at or before off.
	i := sort.SearchInts(l.starts, off+1) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, off - l.starts[i] + 1
}
