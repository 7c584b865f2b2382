// Package textsafe makes the scanned tree's text safe to print on a
// terminal or in a CI log: the one escaping every text report and every
// line on stderr puts the tree's strings (file names, values quoted in
// messages, spec and config strings) through.
//
// A file name or a value can hold anything: ESC sequences that drive the
// terminal, a newline followed by a GitHub workflow command
// ("::error file=...::", "::add-mask::", "::stop-commands::"), bidi
// controls that reorder what a reviewer reads. String writes those as Go
// escapes them, and leaves the rest, plain ASCII and printable Unicode, as
// it is. JSON and SARIF do not use it: they have their own escaping and
// keep the tree's values as they are.
package textsafe

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// escaped tells the runes String writes as escapes: C0 controls, DEL, C1
// controls, the line and paragraph separators, and the bidi embedding,
// override and isolate controls.
func escaped(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// String is s as a terminal can show it: control characters (C0, DEL,
// C1), U+2028 and U+2029 and the bidi controls (U+202A-202E,
// U+2066-2069) escaped as Go escapes them (\n, \t, \x1b, \u0085,
// \u202e), each byte of invalid UTF-8 as \xNN, everything else as it is.
// A backslash is left as it is: messages quote values with Go's %q,
// whose escapes must not double, and Windows paths and regular
// expressions stay readable. So the text \x1b and the byte ESC
// print alike; neither reaches the terminal as ESC. String returns s
// itself when it has nothing to escape.
func String(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || escaped(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteByte(hex[s[i]>>4])
			b.WriteByte(hex[s[i]&15])
		case escaped(r):
			q := strconv.QuoteRune(r) // '\x1b', '\n', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

const hex = "0123456789abcdef"

// Path is the tree's file name p as String writes it, with "./" put
// before a name that begins with "::", so that no line that starts with
// a path is a GitHub workflow command. The name still names the same
// file (relative names only can begin with "::").
func Path(p string) string {
	p = String(p)
	if strings.HasPrefix(p, "::") {
		return "./" + p
	}
	return p
}

// Error is err's text as String writes it, one line per error of an
// errors.Join (as errors.Join prints them), each line that would begin
// with "::" begun with "./" as Path does: the errors of a spec or a
// config begin with the file they are about. nil is "".
func Error(err error) string {
	if err == nil {
		return ""
	}
	var lines []string
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok && isJoin(err) {
			for _, e := range j.Unwrap() {
				if e != nil {
					walk(e)
				}
			}
			return
		}
		lines = append(lines, Path(err.Error()))
	}
	walk(err)
	return strings.Join(lines, "\n")
}

// isJoin tells an errors.Join error, whose text is its errors' texts a
// line each; other errors with several wrapped errors (fmt.Errorf with
// two %w) are one text, escaped as one.
func isJoin(err error) bool {
	j := err.(interface{ Unwrap() []error })
	var parts []string
	for _, e := range j.Unwrap() {
		if e != nil {
			parts = append(parts, e.Error())
		}
	}
	return err.Error() == strings.Join(parts, "\n")
}
