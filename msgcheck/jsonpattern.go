package msgcheck

import (
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// Patterns in an exported JSON Schema are read by Go RE2 (protoscan,
// santhosh-tekuri/jsonschema) and by ECMA-262 engines (ajv, editors, with
// the u flag). The two agree on a common subset: literal characters,
// bracket classes of literal characters, \d \w \b and their negations
// (ASCII in both), groups, alternation, quantifiers and the ^ and $ of
// one-line mode. They disagree on \s (ASCII in RE2, Unicode in
// JavaScript), on . (RE2 excludes \n only, JavaScript every line
// terminator), on \pL, (?i), [[:alpha:]], \z, \Q...\E, and on lone { } ]
// (literals in RE2, errors under the u flag). ecmaPattern keeps a pattern
// that stays in the subset, and rewrites any other from its syntax tree.

// ecmaPattern returns a spelling of the RE2 pattern src that Go RE2 and
// ECMA-262 (u flag) read alike: src itself when it already is one, else
// a rewrite. ok is false when there is none (a ^ or $ of (?m) mode in the
// middle of the pattern); src is returned then.
func ecmaPattern(src string) (string, bool) {
	if portablePattern(src) {
		return src, true
	}
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return src, false
	}
	lineAnchors(re, true, true)
	out, _, ok := printECMA(re)
	if !ok {
		return src, false
	}
	return out, true
}

// lineAnchors rewrites the ^ and $ of (?m) mode where the common subset
// can say them. Only whether a pattern matches counts, not where, so a ^
// that starts the pattern may consume the newline before it, (?:^|\n), and
// a $ that ends it the newline after it, (?:$|\n); a $ right before a
// literal newline, or a ^ right after one, always holds. Any other line
// anchor stays, and printECMA gives up on it.
func lineAnchors(re *syntax.Regexp, atStart, atEnd bool) {
	either := func(text syntax.Op) *syntax.Regexp {
		return &syntax.Regexp{Op: syntax.OpAlternate, Sub: []*syntax.Regexp{
			{Op: text}, {Op: syntax.OpLiteral, Rune: []rune{'\n'}},
		}}
	}
	newline := func(sub *syntax.Regexp, first bool) bool {
		if sub.Op != syntax.OpLiteral || sub.Flags&syntax.FoldCase != 0 || len(sub.Rune) == 0 {
			return false
		}
		if first {
			return sub.Rune[0] == '\n'
		}
		return sub.Rune[len(sub.Rune)-1] == '\n'
	}
	switch re.Op {
	case syntax.OpBeginLine:
		if atStart {
			*re = *either(syntax.OpBeginText)
		}
	case syntax.OpEndLine:
		if atEnd {
			*re = *either(syntax.OpEndText)
		}
	case syntax.OpConcat:
		last := len(re.Sub) - 1
		for i, sub := range re.Sub {
			switch {
			case sub.Op == syntax.OpEndLine && i < last && newline(re.Sub[i+1], true),
				sub.Op == syntax.OpBeginLine && i > 0 && newline(re.Sub[i-1], false):
				*sub = syntax.Regexp{Op: syntax.OpEmptyMatch}
			default:
				lineAnchors(sub, atStart && i == 0, atEnd && i == last)
			}
		}
	case syntax.OpAlternate, syntax.OpCapture:
		for _, sub := range re.Sub {
			lineAnchors(sub, atStart, atEnd)
		}
	default:
		for _, sub := range re.Sub {
			lineAnchors(sub, false, false)
		}
	}
}

// portablePattern reports whether src, a pattern RE2 accepts, means the
// same in ECMA-262 with the u flag. It is a lexer that accepts the common
// subset and nothing else, so a false answer only costs a rewrite.
func portablePattern(src string) bool {
	rs := []rune(src)
	quantifiable := false // the previous token is an atom a quantifier may follow
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch c {
		case '\\':
			if i+1 >= len(rs) {
				return false
			}
			i++
			e := rs[i]
			switch {
			case strings.ContainsRune("dDwWtnrfv", e), strings.ContainsRune(`^$\.*+?()[]{}|/`, e):
				quantifiable = true
			case e == 'b' || e == 'B':
				quantifiable = false
			default:
				return false
			}
		case '.', ']', '}':
			return false
		case '^', '$', '|':
			quantifiable = false
		case '(':
			if i+1 < len(rs) && rs[i+1] == '?' {
				if i+2 >= len(rs) || rs[i+2] != ':' {
					return false
				}
				i += 2
			}
			quantifiable = false
		case ')':
			quantifiable = true
		case '*', '+', '?', '{':
			if !quantifiable {
				return false
			}
			if c == '{' {
				n := braceQuantifier(rs[i:])
				if n == 0 {
					return false
				}
				i += n - 1
			}
			if i+1 < len(rs) && rs[i+1] == '?' {
				i++ // lazy
			}
			quantifiable = false
		case '[':
			n := portableClass(rs[i:])
			if n == 0 {
				return false
			}
			i += n - 1
			quantifiable = true
		default:
			quantifiable = true
		}
	}
	return true
}

// braceQuantifier returns the length of the {n}, {n,} or {n,m} at the
// start of rs, or 0.
func braceQuantifier(rs []rune) int {
	i := 1
	digits := func() int {
		start := i
		for i < len(rs) && '0' <= rs[i] && rs[i] <= '9' {
			i++
		}
		return i - start
	}
	if digits() == 0 {
		return 0
	}
	if i < len(rs) && rs[i] == ',' {
		i++
		digits()
	}
	if i < len(rs) && rs[i] == '}' {
		return i + 1
	}
	return 0
}

// portableClass returns the length of the portable bracket class at the
// start of rs, or 0.
func portableClass(rs []rune) int {
	i := 1
	if i < len(rs) && rs[i] == '^' {
		i++
	}
	if i < len(rs) && rs[i] == ']' {
		return 0 // a literal ] for RE2, an empty class for JavaScript
	}
	for ; i < len(rs); i++ {
		switch rs[i] {
		case ']':
			return i + 1
		case '[':
			if i+1 < len(rs) && (rs[i+1] == ':' || rs[i+1] == '=' || rs[i+1] == '.') {
				return 0
			}
		case '\\':
			if i+1 >= len(rs) {
				return 0
			}
			i++
			if !strings.ContainsRune("dDwWtnrfv", rs[i]) && !strings.ContainsRune(`^$\.*+?()[]{}|/-`, rs[i]) {
				return 0
			}
		}
	}
	return 0
}

// Precedences of printed expressions: an operand of a quantifier must be
// an atom, an element of a concatenation anything but an alternation.
const (
	precAlt = iota
	precConcat
	precQuant // a quantified atom, or an assertion (^ $ \b), which the u flag forbids quantifying
	precAtom
)

// printECMA prints re in the common subset of RE2 and ECMA-262.
func printECMA(re *syntax.Regexp) (string, int, bool) {
	switch re.Op {
	case syntax.OpNoMatch:
		return `[^\d\D]`, precAtom, true
	case syntax.OpEmptyMatch:
		return `(?:)`, precAtom, true
	case syntax.OpLiteral:
		var b strings.Builder
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				b.WriteString(foldClass(r))
			} else {
				b.WriteString(escapeLiteral(r))
			}
		}
		if len(re.Rune) == 1 {
			return b.String(), precAtom, true
		}
		return b.String(), precConcat, true
	case syntax.OpCharClass:
		return classECMA(re.Rune), precAtom, true
	case syntax.OpAnyCharNotNL:
		return `[^\n]`, precAtom, true
	case syntax.OpAnyChar:
		return `[\d\D]`, precAtom, true
	case syntax.OpBeginText:
		return `^`, precQuant, true
	case syntax.OpEndText:
		return `$`, precQuant, true
	case syntax.OpWordBoundary:
		return `\b`, precQuant, true
	case syntax.OpNoWordBoundary:
		return `\B`, precQuant, true
	case syntax.OpCapture:
		inner, _, ok := printECMA(re.Sub[0])
		return "(?:" + inner + ")", precAtom, ok
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		inner, prec, ok := printECMA(re.Sub[0])
		if !ok {
			return "", 0, false
		}
		if prec < precAtom {
			inner = "(?:" + inner + ")"
		}
		var q string
		switch re.Op {
		case syntax.OpStar:
			q = "*"
		case syntax.OpPlus:
			q = "+"
		case syntax.OpQuest:
			q = "?"
		default:
			q = "{" + strconv.Itoa(re.Min)
			switch {
			case re.Max == re.Min:
			case re.Max < 0:
				q += ","
			default:
				q += "," + strconv.Itoa(re.Max)
			}
			q += "}"
		}
		if re.Flags&syntax.NonGreedy != 0 {
			q += "?"
		}
		return inner + q, precQuant, true
	case syntax.OpConcat:
		if len(re.Sub) == 0 {
			return `(?:)`, precAtom, true
		}
		var b strings.Builder
		for _, sub := range re.Sub {
			s, prec, ok := printECMA(sub)
			if !ok {
				return "", 0, false
			}
			if prec == precAlt {
				s = "(?:" + s + ")"
			}
			b.WriteString(s)
		}
		return b.String(), precConcat, true
	case syntax.OpAlternate:
		parts := make([]string, len(re.Sub))
		for i, sub := range re.Sub {
			s, _, ok := printECMA(sub)
			if !ok {
				return "", 0, false
			}
			parts[i] = s
		}
		return strings.Join(parts, "|"), precAlt, true
	}
	// OpBeginLine, OpEndLine that lineAnchors left: ^ and $ of (?m) mode
	// inside the pattern have no spelling both engines read alike
	// (ECMA-262 would need the m flag, RE2 lookaround)
	return "", 0, false
}

// escapeLiteral writes r outside a class.
func escapeLiteral(r rune) string {
	if strings.ContainsRune(`\^$.|?*+()[]{}`, r) {
		return `\` + string(r)
	}
	return string(r)
}

// foldClass is the class of r and the runes it case-folds to, as RE2's
// (?i) matches them.
func foldClass(r rune) string {
	orbit := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		orbit = append(orbit, f)
	}
	if len(orbit) == 1 {
		return escapeLiteral(r)
	}
	slices.Sort(orbit)
	var ranges []rune
	for _, c := range orbit {
		ranges = append(ranges, c, c)
	}
	return classECMA(ranges)
}

// classECMA prints an RE2 class (sorted lo, hi pairs) as a bracket class
// of literal characters, negated when that is shorter.
func classECMA(ranges []rune) string {
	pairs := clampSurrogates(ranges)
	if len(pairs) == 0 {
		return `[^\d\D]`
	}
	if len(pairs) == 2 && pairs[0] == 0 && pairs[1] == unicode.MaxRune {
		return `[\d\D]`
	}
	if pairs[len(pairs)-1] == unicode.MaxRune {
		// the complement is shorter: [^a] rather than [\x00-`b-\x{10FFFF}]
		comp := clampSurrogates(complementRanges(pairs))
		if len(comp) == 0 {
			return `[\d\D]`
		}
		return "[^" + classBody(comp, false) + "]"
	}
	return "[" + classBody(pairs, false) + "]"
}

// clampSurrogates drops the surrogate code points from the ends of the
// ranges: no UTF-8 string holds them, and a pattern cannot spell them.
func clampSurrogates(ranges []rune) []rune {
	var out []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo >= 0xD800 && lo <= 0xDFFF {
			lo = 0xE000
		}
		if hi >= 0xD800 && hi <= 0xDFFF {
			hi = 0xD7FF
		}
		if lo <= hi {
			out = append(out, lo, hi)
		}
	}
	return out
}

func complementRanges(ranges []rune) []rune {
	var out []rune
	next := rune(0)
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i] > next {
			out = append(out, next, ranges[i]-1)
		}
		next = ranges[i+1] + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, next, unicode.MaxRune)
	}
	return out
}

// classBody writes ranges as the inside of a bracket class. With
// shortASCII, ASCII ranges and ranges of two are written character by
// character (as the word-separator class of the hand-written
// protocol-core schema is).
func classBody(ranges []rune, shortASCII bool) string {
	var b strings.Builder
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		switch {
		case lo == hi:
			b.WriteString(escapeInClass(lo))
		case hi == lo+1 || (shortASCII && hi < 0x80):
			for r := lo; r <= hi; r++ {
				b.WriteString(escapeInClass(r))
			}
		default:
			b.WriteString(escapeInClass(lo) + "-" + escapeInClass(hi))
		}
	}
	return b.String()
}

func escapeInClass(r rune) string {
	if strings.ContainsRune(`\]-[^`, r) {
		return `\` + string(r)
	}
	return string(r)
}

// wordSeparatorRanges are the runes isWordSeparator accepts, as sorted
// lo, hi pairs.
var wordSeparatorRanges = sync.OnceValue(func() []rune {
	var out []rune
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF || !isWordSeparator(r) {
			continue
		}
		if n := len(out); n > 0 && out[n-1] == r-1 {
			out[n-1] = r
		} else {
			out = append(out, r, r)
		}
	}
	return out
})

// maxRE2Repeat is the largest count RE2 accepts in {n}.
const maxRE2Repeat = 1000

// wordsPattern is minWords n as a pattern: ^S*(?:W+S+){n-1}W+, where S is
// the class of word separators and W its complement, so a string matches
// when it has at least n maximal runs of non-separators. The separators
// are spelled out (JSON escapes in the document): Go RE2's \s is
// ASCII-only and lacks \v, and JavaScript's \s has U+FEFF and not U+0085,
// so neither \s nor [\s\p{Z}] reads alike in both engines.
func wordsPattern(n int) string {
	body := classBody(wordSeparatorRanges(), true)
	sep, word := "["+body+"]", "[^"+body+"]"
	if n <= 1 {
		return "^" + sep + "*" + word + "+"
	}
	return "^" + sep + "*" + repeatN("(?:"+word+"+"+sep+"+)", n-1) + word + "+"
}

// repeatN writes unit{k}. RE2 rejects counts over 1000, nested ones
// included (their product counts), so a larger k is written as a
// sequence of unit{1000}.
func repeatN(unit string, k int) string {
	var b strings.Builder
	for ; k > maxRE2Repeat; k -= maxRE2Repeat {
		b.WriteString(unit + "{" + strconv.Itoa(maxRE2Repeat) + "}")
	}
	b.WriteString(unit + "{" + strconv.Itoa(k) + "}")
	return b.String()
}
