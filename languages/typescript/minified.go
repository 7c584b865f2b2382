package typescript

import (
	"bytes"
	"strings"
)

// MaxLine is the longest line, in bytes, of a file that is read: a
// longer one is the mark of minified or bundled code (a bundler's
// output is a few lines of tens of thousands of bytes; formatters keep
// written code under 120 columns, and long string literals under a few
// hundred).
const MaxLine = 1000

// Minified reports whether a file is minified or bundled code, generated
// rather than written: named *.min.js (or .min.mjs, .min.cjs), or with a
// line longer than MaxLine bytes.
func Minified(name string, src []byte) bool {
	n := strings.ToLower(name)
	for _, s := range []string{".min.js", ".min.mjs", ".min.cjs"} {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	for len(src) > MaxLine {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			return true
		}
		if i > MaxLine {
			return true
		}
		src = src[i+1:]
	}
	return false
}
