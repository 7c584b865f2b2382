package semantic

import (
	"slices"
	"strconv"
	"strings"

	"github.com/protoscan-dev/protoscan/msgcheck/pipeline"
)

// maxDepth bounds how deep the validators look into a message.
const maxDepth = 32

// step is one element of a path into a message: a key, or an index when
// key is "".
type step struct {
	key   string
	index int
}

// trail is the path to the value being looked at; it is rendered only
// when a reason is reported.
type trail struct {
	steps []step
	buf   [16]step
}

func (t *trail) reset()          { t.steps = t.buf[:0] }
func (t *trail) push(key string) { t.steps = append(t.steps, step{key: key, index: -1}) }
func (t *trail) pushIndex(i int) { t.steps = append(t.steps, step{index: i}) }
func (t *trail) pop()            { t.steps = t.steps[:len(t.steps)-1] }
func (t *trail) depth() int      { return len(t.steps) }

// String renders the path as msgcheck writes fields: plan[1], output.files[0].
func (t *trail) String() string {
	var b strings.Builder
	for i, s := range t.steps {
		if s.index >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}

// reason builds a reason about the current path.
func (t *trail) reason(rule, text string) pipeline.Reason {
	f := t.String()
	msg := text
	if f != "" {
		msg = f + ": " + text
	}
	return pipeline.Reason{Field: f, Rule: rule, Message: msg}
}

// sortReasons orders reasons by field and message: maps are walked in
// random order, reasons must not be.
func sortReasons(rs []pipeline.Reason) []pipeline.Reason {
	slices.SortFunc(rs, func(a, b pipeline.Reason) int {
		if c := compareFields(a.Field, b.Field); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	return slices.CompactFunc(rs, func(a, b pipeline.Reason) bool { return a == b })
}

// compareFields orders field paths with indices numerically: plan[2]
// before plan[10].
func compareFields(a, b string) int {
	for a != "" && b != "" {
		i := strings.IndexByte(a, '[')
		j := strings.IndexByte(b, '[')
		if i < 0 || j < 0 || a[:i] != b[:j] {
			break
		}
		ea, eb := strings.IndexByte(a[i:], ']'), strings.IndexByte(b[j:], ']')
		if ea < 0 || eb < 0 {
			break
		}
		na, _ := strconv.Atoi(a[i+1 : i+ea])
		nb, _ := strconv.Atoi(b[j+1 : j+eb])
		if na != nb {
			return na - nb
		}
		a, b = a[i+ea+1:], b[j+eb+1:]
	}
	return strings.Compare(a, b)
}

// quote writes a value of the message into a reason, shortened.
func quote(s string) string {
	const max = 120
	if len(s) > max {
		cut := max
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "..."
	}
	return "'" + s + "'"
}

// trimQuotes drops quotes, backticks and the punctuation of prose around
// a word, without the cost of strings.Trim's cutset.
func trimQuotes(w string) string {
	for len(w) > 0 && isWrapper(w[0]) {
		w = w[1:]
	}
	for len(w) > 0 && isWrapper(w[len(w)-1]) {
		w = w[:len(w)-1]
	}
	return w
}

func isWrapper(c byte) bool {
	switch c {
	case '`', '\'', '"', '(', ')', '[', ']', '{', '}', '<', '>', ',', ';', ':', '!', '?', '*':
		return true
	}
	return false
}

// trimQuoteChars drops only quotes and backticks around a word.
func trimQuoteChars(w string) string {
	for len(w) > 0 && (w[0] == '`' || w[0] == '\'' || w[0] == '"') {
		w = w[1:]
	}
	for len(w) > 0 && (w[len(w)-1] == '`' || w[len(w)-1] == '\'' || w[len(w)-1] == '"') {
		w = w[:len(w)-1]
	}
	return w
}

// containsFold reports whether s contains the upper-case ASCII word sub,
// in any letter case, without allocating.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) {
			c := s[i+j]
			if c >= 'a' && c <= 'z' {
				c -= 'a' - 'A'
			}
			if c != sub[j] {
				break
			}
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}
