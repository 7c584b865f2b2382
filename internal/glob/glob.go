// Package glob compiles the doublestar globs protoscan takes from the
// scanned tree (suppression rules, and the rules, include, exclude and
// canonical settings of .protoscan.yaml) into matchers whose cost is
// bounded: every call site matches through a *Glob, never through
// doublestar.Match.
//
// The syntax and meaning are those of github.com/bmatcuk/doublestar/v4
// (Match with '/' as the separator): "*" any run of bytes but '/', "?"
// one character but '/', "[...]" and "[!...]" / "[^...]" classes, "\\"
// escapes, "{a,b}" alternatives, and "**" between slashes (or at either
// end) any number of directories; a trailing "/**" or "/**/" also matches
// the directory itself. A pattern is at most MaxLen bytes and its braces
// expand to at most MaxAlternatives brace-free patterns; Compile refuses
// anything else.
//
// Compile expands the braces once and turns the alternatives into one RE2
// program (package regexp), so Match runs in time linear in the length of
// the name times the size of that program, which the two caps bound. A
// pattern without metacharacters is compared as a string, and the common
// shapes "dir/**", "prefix*" and "**/*suffix" with string functions.
//
// One difference from doublestar remains, on patterns no call site
// matches a name with: a pattern ending in "**/" (as written or once its
// braces are expanded; the walk trims trailing slashes, and rule ids and
// file paths never end in one). doublestar's matcher stops at the first
// way it finds to reach the end of the name, so whether it accepts
// "/0" for "**/*/**/" depends on the order of its search; Glob accepts a
// name when any way of matching does.
package glob

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// Caps on one pattern.
const (
	// MaxLen is the longest pattern accepted, in bytes.
	MaxLen = 256
	// MaxAlternatives is the most brace-free patterns a pattern's braces
	// may expand to ({a,b}{c,d} expands to 4).
	MaxAlternatives = 64
)

// Errors of Compile, wrapped in an *Error.
var (
	ErrBadPattern          = errors.New("invalid glob")
	ErrTooLong             = fmt.Errorf("glob longer than %d bytes", MaxLen)
	ErrTooManyAlternatives = fmt.Errorf("glob whose braces expand to more than %d alternatives", MaxAlternatives)
)

// Error is why Compile refused a pattern.
type Error struct {
	Pattern string
	Err     error // ErrBadPattern, ErrTooLong or ErrTooManyAlternatives
}

func (e *Error) Error() string {
	switch e.Err {
	case ErrTooLong:
		return fmt.Sprintf("glob %s is %d bytes, over the limit of %d", Short(e.Pattern), len(e.Pattern), MaxLen)
	case ErrTooManyAlternatives:
		return fmt.Sprintf("glob %s: its braces expand to more than %d alternatives", Short(e.Pattern), MaxAlternatives)
	}
	return fmt.Sprintf("invalid glob %s", Short(e.Pattern))
}

func (e *Error) Unwrap() error { return e.Err }

// Short quotes a pattern for a message, cut to its first 40 bytes.
func Short(p string) string {
	if len(p) <= 48 {
		return strconv.Quote(p)
	}
	cut := 40
	for cut > 0 && !utf8.RuneStart(p[cut]) {
		cut--
	}
	return strconv.Quote(p[:cut]) + "..."
}

// Glob is a compiled pattern, safe for concurrent use.
type Glob struct {
	pattern string
	literal bool // no metacharacter: Match compares strings
	// the common shapes, matched without the program: "L/**" (dir),
	// "L*" (prefix), "**/*S" (suffix), L and S literal
	shape shape
	lit   string
	re    *regexp.Regexp // otherwise
	alts  int
}

type shape uint8

const (
	general shape = iota
	dirShape
	prefixShape
	suffixShape
)

// Compile checks pattern against the caps and doublestar's syntax and
// compiles it. The error is an *Error.
func Compile(pattern string) (*Glob, error) {
	if len(pattern) > MaxLen {
		return nil, &Error{pattern, ErrTooLong}
	}
	if !doublestar.ValidatePattern(pattern) {
		return nil, &Error{pattern, ErrBadPattern}
	}
	if plain(pattern) {
		return &Glob{pattern: pattern, literal: true, alts: 1}, nil
	}
	if l, ok := strings.CutSuffix(pattern, "/**"); ok && l != "" && plain(l) {
		return &Glob{pattern: pattern, shape: dirShape, lit: l, alts: 1}, nil
	}
	if l, ok := strings.CutSuffix(pattern, "*"); ok && plain(l) {
		return &Glob{pattern: pattern, shape: prefixShape, lit: l, alts: 1}, nil
	}
	if sfx, ok := strings.CutPrefix(pattern, "**/*"); ok && sfx != "" && !strings.Contains(sfx, "/") && plain(sfx) {
		return &Glob{pattern: pattern, shape: suffixShape, lit: sfx, alts: 1}, nil
	}
	if countAlternatives(pattern) > MaxAlternatives {
		return nil, &Error{pattern, ErrTooManyAlternatives}
	}
	alts := expand(pattern, nil, nil)
	var b strings.Builder
	b.WriteString(`(?s)\A(?:`)
	for i, a := range alts {
		if i > 0 {
			b.WriteByte('|')
		}
		translate(&b, a)
	}
	b.WriteString(`)\z`)
	re, err := regexp.Compile(b.String())
	if err != nil { // a translation bug, not the pattern's fault
		return nil, &Error{pattern, fmt.Errorf("%w: %v", ErrBadPattern, err)}
	}
	return &Glob{pattern: pattern, re: re, alts: len(alts)}, nil
}

// plain tells whether s has no metacharacter and compares as doublestar
// compares it, rune by rune: valid UTF-8 without U+FFFD (doublestar takes
// an invalid byte of the pattern as equal to every invalid byte of the
// name).
func plain(s string) bool {
	return !strings.ContainsAny(s, `*?[]{}\`) && utf8.ValidString(s) && !strings.ContainsRune(s, utf8.RuneError)
}

// MustCompile is Compile for patterns known to be good; it panics on an
// error.
func MustCompile(pattern string) *Glob {
	g, err := Compile(pattern)
	if err != nil {
		panic(err)
	}
	return g
}

// Match reports whether name, a slash path or a rule id, matches g.
func (g *Glob) Match(name string) bool {
	switch {
	case g.literal:
		return name == g.pattern
	case g.shape == dirShape:
		return strings.HasPrefix(name, g.lit) && (len(name) == len(g.lit) || name[len(g.lit)] == '/')
	case g.shape == prefixShape:
		return strings.HasPrefix(name, g.lit) && strings.IndexByte(name[len(g.lit):], '/') < 0
	case g.shape == suffixShape:
		return strings.HasSuffix(name, g.lit)
	}
	return g.re.MatchString(name)
}

// String returns the pattern as written.
func (g *Glob) String() string { return g.pattern }

// Alternatives is the number of brace-free patterns g was expanded to
// (at most MaxAlternatives).
func (g *Glob) Alternatives() int { return g.alts }

// ProgramSize is the size of the RE2 expression Match runs (its length
// in bytes; 0 for a literal pattern): Match costs at most this times the
// name's length.
func (g *Glob) ProgramSize() int {
	if g.re == nil {
		return 0
	}
	return len(g.re.String())
}

// skipClass returns the index just past the "]" closing the class that
// starts at p[i] == '[', as doublestar finds it, or len(p).
func skipClass(p string, i int) int {
	for i++; i < len(p); i++ {
		if p[i] == '\\' {
			i++
		} else if p[i] == ']' {
			return i + 1
		}
	}
	return len(p)
}

// closing returns the index of the "}" matching the "{" at p[open], and
// the indexes of the commas that separate its alternatives, as
// doublestar's indexMatchedClosingAlt and indexNextAlt find them; -1 when
// it is not closed.
func closing(p string, open int) (int, []int) {
	depth := 1
	var commas []int
	for i := open + 1; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			i = skipClass(p, i) - 1
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i, commas
			}
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		}
	}
	return -1, nil
}

// firstBrace returns the index of the first "{" the matcher reaches in p
// (outside classes and escapes), or -1.
func firstBrace(p string) int {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			i = skipClass(p, i) - 1
		case '{':
			return i
		}
	}
	return -1
}

// countAlternatives returns how many brace-free patterns p expands to,
// saturating above MaxAlternatives, without expanding: the product over
// its top-level groups of the sums of their alternatives' counts.
func countAlternatives(p string) int {
	n := 1
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			i = skipClass(p, i) - 1
		case '{':
			end, commas := closing(p, i)
			if end < 0 {
				return n
			}
			sum, start := 0, i+1
			for _, c := range append(commas, end) {
				sum = min(sum+countAlternatives(p[start:c]), MaxAlternatives+1)
				start = c + 1
			}
			n = min(n*sum, MaxAlternatives+1)
			i = end
		}
	}
	return n
}

// expansion is a brace-free pattern a pattern stands for, and where in
// it the groups doublestar substituted start: its matcher expands a group
// when it reaches it, so no step of the pattern reaches across such a
// start into the group.
type expansion struct {
	text   string
	groups []int
}

// expand appends to out the brace-free patterns p stands for, in
// doublestar's order: the first group's alternatives substituted in the
// text, each expanded again. groups are the starts of the groups already
// substituted in p. The caller has bounded the number of patterns.
func expand(p string, groups []int, out []expansion) []expansion {
	open := firstBrace(p)
	if open < 0 {
		return append(out, expansion{p, groups})
	}
	end, commas := closing(p, open)
	if end < 0 {
		return append(out, expansion{p, groups})
	}
	groups = append(groups[:len(groups):len(groups)], open)
	start := open + 1
	for _, c := range append(commas, end) {
		out = expand(p[:open]+p[start:c]+p[end+1:], groups, out)
		start = c + 1
	}
	return out
}

// zeroLength tells whether doublestar accepts a name that ends where the
// rest of the pattern is rest: "" and a trailing "*", "**", "/**", "**/"
// or "/**/" (a directory named by "a/**"). doublestar tests the rest as
// written, expanding only a group that starts it: so a rest that held a
// group starting after its first byte is not one of these.
func zeroLength(rest string) bool {
	switch rest {
	case "", "*", "**", "/**", "**/", "/**/":
		return true
	}
	return false
}

// token is one step of a brace-free pattern: the expression it matches,
// the same without the empty string, and where it starts.
type token struct {
	re, plus string
	pos      int
}

// translate writes the RE2 expression of p, a valid brace-free doublestar
// pattern expanded from a pattern, as doublestar's matcher reads it. That matcher takes a step of
// the pattern only while some of the name is left, and once the name is
// used up accepts only if the rest of the pattern is zeroLength. So the
// names the steps from i on accept are A(i) = N(i), plus the empty name
// when zeroLength(p[pos(i):]), where N(i) = T(i) N(i+1), or T(i) alone
// without its empty match when zeroLength(p[pos(i+1):]); N(past the end)
// is empty. zeroLength holds only within 4 bytes of the end, so only the
// last steps nest and the expression stays linear in p.
func translate(b *strings.Builder, e expansion) {
	p := e.text
	group := make([]bool, len(p)+1) // a substituted group starts here
	lastGroup := -1
	for _, g := range e.groups {
		group[g] = true
		lastGroup = max(lastGroup, g)
	}
	toks := tokens(p, group)
	k := len(toks)
	z := func(pos int) bool { return pos >= lastGroup && zeroLength(p[pos:]) }
	at := func(i int) int { // where step i starts; len(p) past the end
		if i < k {
			return toks[i].pos
		}
		return len(p)
	}
	// N of the last steps, built from the end
	tail := ""
	i := k - 1
	for ; i >= 0 && at(i+1) >= len(p)-4; i-- {
		t := toks[i]
		switch {
		case i == k-1:
			tail = t.plus
		case z(at(i + 1)):
			tail = "(?:" + t.re + tail + "|" + t.plus + ")"
		default:
			tail = t.re + tail
		}
	}
	b.WriteString("(?:")
	for j := 0; j <= i; j++ {
		b.WriteString(toks[j].re)
	}
	b.WriteString(tail)
	b.WriteString(")")
	if z(0) {
		b.WriteString("?")
	}
}

// tokens splits p, a valid brace-free pattern, into its steps as
// doublestar's matcher takes them; group[i] tells that a substituted group
// starts at i, so that no step crosses i.
func tokens(p string, group []bool) []token {
	var out []token
	start := true // at the start of a segment
	for i := 0; i < len(p); {
		pos := i
		var t token
		switch c := p[i]; c {
		case '*':
			i++
			t = token{re: `[^/]*`, plus: `[^/]+`}
			if i < len(p) && p[i] == '*' && !group[i] {
				i++
				switch {
				case start && i == len(p) && !group[i]:
					t = token{re: `.*`, plus: `.+`}
				case start && i < len(p) && p[i] == '/' && !group[i]:
					i++
					t = token{re: `(?:[^/]*/)*`, plus: `(?:[^/]*/)+`}
				}
			}
			start = t.re == `(?:[^/]*/)*`
		case '?':
			t = token{re: `[^/]`}
			i++
			start = false
		case '[':
			var b strings.Builder
			i = class(&b, p, i)
			t = token{re: b.String()}
			start = false
		default:
			if c == '\\' {
				i++
			}
			end := i + 1 // a rune ends at a group's start
			for end < len(p) && end-i < utf8.UTFMax && !group[end] {
				end++
			}
			r, n := utf8.DecodeRuneInString(p[i:end])
			i += n
			var b strings.Builder
			writeRune(&b, r)
			t = token{re: b.String()}
			start = r == '/'
		}
		if t.plus == "" {
			t.plus = t.re
		}
		t.pos = pos
		out = append(out, t)
	}
	return out
}

// class writes the class starting at p[i] == '[' as doublestar reads it
// and returns the index past its "]".
func class(b *strings.Builder, p string, i int) int {
	i++
	negate := p[i] == '!' || p[i] == '^'
	if negate {
		i++
	}
	type span struct{ lo, hi rune }
	var set []span
	last := utf8.MaxRune
	for i < len(p) && p[i] != ']' {
		r, n := utf8.DecodeRuneInString(p[i:])
		i += n
		if last < utf8.MaxRune && r == '-' && i < len(p) && p[i] != ']' {
			if p[i] == '\\' {
				i++
			}
			hi, n := utf8.DecodeRuneInString(p[i:])
			i += n
			set = append(set, span{last, hi})
			last = utf8.MaxRune
			continue
		}
		if r == '\\' {
			r, n = utf8.DecodeRuneInString(p[i:])
			i += n
		}
		set = append(set, span{r, r})
		last = r
	}
	i++ // the ']'
	var body strings.Builder
	for _, s := range set {
		if s.lo > s.hi {
			continue // an empty range matches nothing
		}
		body.WriteString(classRune(s.lo))
		if s.hi > s.lo {
			body.WriteByte('-')
			body.WriteString(classRune(s.hi))
		}
	}
	switch {
	case body.Len() == 0 && negate:
		b.WriteString(`[\x00-\x{10FFFF}]`)
	case body.Len() == 0:
		b.WriteString(`[^\x00-\x{10FFFF}]`)
	case negate:
		b.WriteString("[^" + body.String() + "]")
	default:
		b.WriteString("[" + body.String() + "]")
	}
	return i
}

func classRune(r rune) string { return fmt.Sprintf(`\x{%X}`, r) }

func writeRune(b *strings.Builder, r rune) {
	if r < utf8.RuneSelf && r != utf8.RuneError {
		b.WriteString(regexp.QuoteMeta(string(r)))
		return
	}
	b.WriteString(classRune(r))
}
