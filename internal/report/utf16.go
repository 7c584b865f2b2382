package report

import (
	"bytes"
	"cmp"
	"slices"
	"unicode/utf8"

	"github.com/protoscan-dev/protoscan/finding"
)

// SARIF counts columns and character offsets in UTF-16 code units
// (run.columnKind "utf16CodeUnits", as GitHub code scanning reads them);
// findings count bytes. utf16Columns converts the one into the other
// from the text of the files (Report.Source): each file is read once,
// only when a finding has a column or a fix in it, and kept only while
// its positions are converted.

// utf16Columns converts the byte columns and offsets of a report's
// findings into UTF-16 code units. Positions are asked for (want...)
// before resolve reads the files; afterwards col and offset answer.
type utf16Columns struct {
	source func(path string) ([]byte, error) // nil: columns as they are
	files  map[string]*fileUnits
}

// fileUnits holds the positions of one file, and their UTF-16 values
// once resolved.
type fileUnits struct {
	cols    map[[2]int]int // (line, byte column) -> UTF-16 column; 0: unknown
	offsets map[int]int    // byte offset -> UTF-16 offset; -1: unknown
	ascii   bool           // the file is ASCII: every position is its own
}

func newUTF16Columns(source func(string) ([]byte, error)) *utf16Columns {
	return &utf16Columns{source: source, files: map[string]*fileUnits{}}
}

func (c *utf16Columns) file(path string) *fileUnits {
	f := c.files[path]
	if f == nil {
		f = &fileUnits{cols: map[[2]int]int{}, offsets: map[int]int{}}
		c.files[path] = f
	}
	return f
}

// wantLocation asks for the columns of l.
func (c *utf16Columns) wantLocation(l finding.Location) {
	if c.source == nil || l.Line <= 0 || l.Col <= 0 && l.EndCol <= 0 {
		return
	}
	f := c.file(l.Path)
	if l.Col > 0 {
		f.cols[[2]int{l.Line, l.Col}] = 0
	}
	if l.EndCol > 0 {
		f.cols[[2]int{max(l.EndLine, l.Line), l.EndCol}] = 0
	}
}

// wantFix asks for the offsets of a fix's edits.
func (c *utf16Columns) wantFix(fx *finding.Fix) {
	if c.source == nil || fx == nil {
		return
	}
	for _, e := range fx.Edits {
		f := c.file(e.Path)
		f.offsets[e.Offset] = -1
		f.offsets[max(e.End, e.Offset)] = -1
	}
}

// resolve reads every file asked about, once, and converts its
// positions; a file that cannot be read leaves them unknown.
func (c *utf16Columns) resolve() {
	paths := make([]string, 0, len(c.files))
	for p := range c.files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		src, err := c.source(p)
		if err != nil {
			continue
		}
		c.files[p].convert(src)
	}
}

// isASCII reports whether src has no byte of a multi-byte sequence.
func isASCII(src []byte) bool {
	for _, b := range src {
		if b >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func (f *fileUnits) convert(src []byte) {
	if isASCII(src) {
		f.ascii = true
		return
	}
	if len(f.cols) > 0 {
		starts := []int{0}
		for i, b := range src {
			if b == '\n' {
				starts = append(starts, i+1)
			}
		}
		for k := range f.cols {
			line, col := k[0], k[1]
			if line > len(starts) {
				continue // not in the file (changed since): unknown
			}
			text := src[starts[line-1]:]
			if line < len(starts) {
				text = text[:starts[line]-starts[line-1]-1]
			}
			text = bytes.TrimSuffix(text, []byte("\r"))
			n := col - 1
			if n <= len(text) {
				f.cols[k] = utf16Units(text[:n]) + 1
			} else { // past the end of the line: one unit a byte
				f.cols[k] = utf16Units(text) + n - len(text) + 1
			}
		}
	}
	if len(f.offsets) > 0 {
		offs := make([]int, 0, len(f.offsets))
		for o := range f.offsets {
			offs = append(offs, o)
		}
		slices.SortFunc(offs, cmp.Compare[int])
		at, units := 0, 0 // units in src[:at]
		for _, o := range offs {
			if o < 0 || o > len(src) {
				continue
			}
			units += utf16Units(src[at:o])
			at = o
			f.offsets[o] = units
		}
	}
}

// utf16Units counts the UTF-16 code units of b: two for a character
// outside the Basic Multilingual Plane, one for any other, and one for
// each byte that is not valid UTF-8 (it reads as U+FFFD). A byte
// offset inside a character counts the character's bytes read so far
// as invalid ones.
func utf16Units(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}

// col is the UTF-16 column of a byte column on a line of path; false
// when it is unknown.
func (c *utf16Columns) col(path string, line, col int) (int, bool) {
	if c.source == nil {
		return col, true
	}
	f := c.files[path]
	if f == nil {
		return 0, false
	}
	if f.ascii {
		return col, true
	}
	u := f.cols[[2]int{line, col}]
	return u, u > 0
}

// offset is the UTF-16 offset of a byte offset into path; false when it
// is unknown.
func (c *utf16Columns) offset(path string, off int) (int, bool) {
	if c.source == nil {
		return off, true
	}
	f := c.files[path]
	if f == nil {
		return 0, false
	}
	if f.ascii {
		return off, true
	}
	u, ok := f.offsets[off]
	return u, ok && u >= 0
}
