// Package yamldoc parses untrusted YAML streams into yaml.Node trees that
// carry a line and column for every node.
//
// It wraps go.yaml.in/yaml/v3 with the checks a linter needs before trusting
// the result: an input size limit, a nesting depth limit, a precise error for
// invalid UTF-8 and disallowed characters, and errors that name the file.
//
// Aliases are not expanded: an alias stays an AliasNode pointing at its
// anchor, so an alias bomb ("billion laughs") parses into a small tree, and a
// consumer that expands aliases must budget for it. An alias may point at a
// node that contains it, so walkers must not follow Alias blindly.
package yamldoc

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

var bom = []byte("\xef\xbb\xbf") // a UTF-8 byte order mark

// Limits bounds the work done for one input. A zero or negative field means
// the default from DefaultLimits.
type Limits struct {
	// MaxBytes is the largest accepted input, in bytes.
	MaxBytes int64
	// MaxDepth is the deepest accepted nesting of mappings and sequences: a
	// scalar document has depth 0 and "[[1]]" has depth 2.
	MaxDepth int
}

// DefaultLimits returns the limits used for zero fields: 16 MiB and a
// nesting depth of 1000.
func DefaultLimits() Limits {
	return Limits{MaxBytes: 16 << 20, MaxDepth: 1000}
}

// OrDefault fills each zero or negative field with its default.
func (l Limits) OrDefault() Limits {
	d := DefaultLimits()
	if l.MaxBytes <= 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	return l
}

// Error is a problem found in the input. Line and Column are 1-based; either
// is 0 when unknown. yaml.v3 reports only a line, and not always an exact
// one: for some syntax errors it names the line before the problem.
type Error struct {
	Name   string
	Line   int
	Column int
	Msg    string
}

// Error formats e as "name:line:col: msg", leaving out a zero line or column.
func (e *Error) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: %s", e.Name, e.Msg)
	case e.Column == 0:
		return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Name, e.Line, e.Column, e.Msg)
}

// Parse parses data, named name in errors, as a YAML stream and returns the
// content node of each document. Empty documents, such as the one after a
// trailing "---", are left out, so an empty stream yields no nodes. The
// first malformed document stops parsing: the documents before it are
// returned with its error (none when the input is over the size limit).
func Parse(name string, data []byte, lim Limits) ([]*yaml.Node, error) {
	lim, nodes, whole, err := parseWhole(name, data, lim)
	if err != nil || whole {
		return nodes, err
	}
	var first error
	eachSpan(name, data, lim.MaxDepth, func(d Doc) bool {
		if d.Err != nil {
			first = d.Err
			return false
		}
		nodes = append(nodes, d.Node)
		return true
	})
	return nodes, first
}

// Doc is one document of a YAML stream: its content node, or the error
// that makes it malformed.
type Doc struct {
	Node *yaml.Node // nil when Err is set
	Err  error      // an *Error; its Line is 0 when yaml.v3 gives none
	// Line is where the document starts: Node.Line, or for a malformed
	// one the first line of its text (1 for the first document, else its
	// "---" or the directives before it, or the line after the "..."
	// that ended the one before).
	Line int
	// From and To delimit a malformed document's text, data[From:To]
	// (its span, from its "---" or the directives before it); both are
	// 0 for a document that parsed.
	From, To int
}

// ParseDocs parses data, named name in errors, as a YAML stream, each
// document on its own: a malformed document is a Doc with Err, and the
// documents after it are parsed all the same. Empty documents are left
// out, as by Parse. err is set, and no Doc returned, only for input over
// the size limit.
func ParseDocs(name string, data []byte, lim Limits) ([]Doc, error) {
	lim, nodes, whole, err := parseWhole(name, data, lim)
	if err != nil {
		return nil, err
	}
	if whole {
		docs := make([]Doc, len(nodes)) // in one allocation: a stream may hold millions
		for i, n := range nodes {
			docs[i] = Doc{Node: n, Line: n.Line}
		}
		return docs, nil
	}
	var docs []Doc
	eachSpan(name, data, lim.MaxDepth, func(d Doc) bool {
		docs = append(docs, d)
		return true
	})
	return docs, nil
}

// parseWhole checks data against the limits lim (returned with their
// defaults filled in), and reads it with one decoder: whole is true, with
// the documents, when it parses without any error; err is set only for
// input over the size limit.
//
// Most streams parse whole, and one yaml.v3 decoder for all of their
// documents costs far less than one per document (a decoder's setup is
// most of the cost of a small document); the documents are the ones
// eachSpan would find (FuzzParseDocs holds it to that). A stream with an
// error is read again by eachSpan.
func parseWhole(name string, data []byte, lim Limits) (_ Limits, nodes []*yaml.Node, whole bool, err error) {
	lim = lim.OrDefault()
	if int64(len(data)) > lim.MaxBytes {
		return lim, nil, false, &Error{Name: name, Msg: fmt.Sprintf("input is %d bytes, more than the limit of %d", len(data), lim.MaxBytes)}
	}
	if checkChars(name, data, 1) != nil {
		return lim, nil, false, nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err == io.EOF {
			return lim, nodes, true, nil
		} else if err != nil {
			return lim, nil, false, nil
		}
		if len(doc.Content) == 0 || isEmpty(doc.Content[0]) {
			continue
		}
		if _, err := walk(name, doc.Content[0], lim.MaxDepth, 0); err != nil {
			return lim, nil, false, nil
		}
		nodes = append(nodes, doc.Content[0])
	}
}

// eachSpan parses each document of data on its own, calling fn for each
// until it returns false.
//
// Each document is handed to yaml.v3 on its own, because yaml.v3 cannot go
// on after an error: the stream is cut where a line starts with a "---" or
// "..." marker, which no scalar or collection can hold (YAML 1.2, 9.1.3:
// yaml.v3 ends a scalar there, or fails). A document that yaml.v3 reads as
// a document followed by garbage (`"a"b`) is malformed as a whole.
func eachSpan(name string, data []byte, maxDepth int, fn func(Doc) bool) {
	sp := splitter{data: data, line: 1, cur: span{line: 1}}
	for {
		s, more := sp.next()
		if !more {
			return
		}
		nodes, err := parseSpan(name, data, s, maxDepth)
		if err != nil && s.dirLine > 0 {
			// A "%YAML" line after a block collection is the next
			// document's directive to yaml.v3, but in a scalar it is
			// text: the splitter cannot tell, so the span is tried
			// without it.
			short := s
			short.to = s.dir
			if n, e := parseSpan(name, data, short, maxDepth); e == nil {
				nodes, err = n, nil
				sp.cur.from, sp.cur.breakAt, sp.cur.line = s.dir, s.dirBreakAt, s.dirLine
			}
		}
		if err != nil {
			if !fn(Doc{Err: err, Line: s.line, From: s.from, To: s.to}) {
				return
			}
			continue
		}
		for _, n := range nodes {
			if !fn(Doc{Node: n, Line: n.Line}) {
				return
			}
		}
	}
}

// parseSpan parses the document of data at sp: its content node (or the
// nodes of each, should yaml.v3 find more than one and no error), or why
// it is malformed.
func parseSpan(name string, data []byte, sp span, maxDepth int) ([]*yaml.Node, error) {
	// yaml.v3 rejects these itself, but without saying where.
	if err := checkChars(name, data[sp.from:sp.to], sp.line); err != nil {
		return nil, err
	}
	// yaml.v3 counts lines from 1 in what it is given, and leaves out the
	// line of an error on its first line: so it is given the line break
	// before the document too (the break's line becomes its line 1), and
	// its lines are shifted by the lines before that.
	from, shift := sp.from, 0
	if sp.line > 1 {
		from, shift = sp.breakAt, sp.line-2
	}
	// yaml.v3 stops nesting at 10000 levels of flow collections and 10000
	// of indentation, and fails fast beyond that, so deeply nested input
	// costs bounded time without a pre-scan; the tighter MaxDepth is checked
	// on the tree below. (A pre-scan of brackets would have to tokenize YAML
	// to avoid counting brackets inside strings and comments.)
	dec := yaml.NewDecoder(bytes.NewReader(data[from:sp.to]))
	var nodes []*yaml.Node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if err == io.EOF {
			break
		}
		if err != nil {
			e := yamlError(name, err)
			if e.Line > 0 {
				e.Line += shift
			}
			return nil, e
		}
		if len(doc.Content) == 0 || isEmpty(doc.Content[0]) {
			continue
		}
		nodes = append(nodes, doc.Content[0])
	}
	for _, n := range nodes {
		if _, err := walk(name, n, maxDepth, shift); err != nil {
			return nil, err
		}
	}
	return nodes, nil
}

// span is one document's bytes in a stream, data[from:to], starting on
// line; breakAt is where the line break before it starts (for a document
// after the first).
type span struct {
	from, to, breakAt, line int
	// dir, dirBreakAt and dirLine are from, breakAt and line of the
	// directives at the end of the span (dirLine 0: none)
	dir, dirBreakAt, dirLine int
}

// splitter cuts a stream into the spans of its documents, one at a time
// (next): before a line that is a "---" marker, unless the document so
// far holds only comments, directives and blank lines; and after a line
// that is a "..." marker. A span cut at a "---" notes where the %YAML or
// %TAG lines after its last content start, if any (see eachSpan). A span
// of nothing but comments, directives, blank lines and "..." ends no
// document and is left out. Lines end as yaml.v3 ends them (see
// checkChars).
type splitter struct {
	data []byte
	i    int // where the next line starts
	// line is the number of that line, and breakAt where the break
	// before it starts
	line, breakAt int
	cur           span // the span being cut
	content       bool // cur holds a line that is neither blank, a comment nor a directive
	dir           span // where the directives after cur's content start (line 0: none)
	spans         int  // the spans returned
	done          bool
}

// next returns the next span, or false after the last.
func (s *splitter) next() (span, bool) {
	data := s.data
	for s.i < len(data) {
		i := s.i
		ln := data[i:]
		if i == 0 {
			ln = bytes.TrimPrefix(ln, bom) // yaml.v3 reads past it
		}
		var out span
		cut := false
		switch marker(ln) {
		case '-':
			if s.content {
				s.cur.to = i
				s.cur.dir, s.cur.dirBreakAt, s.cur.dirLine = s.dir.from, s.dir.breakAt, s.dir.line
				out, cut = s.cur, true
				s.cur = span{from: i, breakAt: s.breakAt, line: s.line}
			}
			s.content, s.dir = true, span{}
		case '.':
			// no content: a "..." that ends no document, which yaml.v3
			// skips between documents but fails on at the start
		default:
			switch {
			case !s.content:
				s.content = !idle(ln)
			case directive(ln):
				if s.dir.line == 0 {
					s.dir = span{from: i, breakAt: s.breakAt, line: s.line}
				}
			case !idle(ln):
				s.dir = span{}
			}
		}
		end, next := lineEnd(data, i)
		if next == len(data) && end == next {
			s.i = next // the last line, without a break
		} else {
			if marker(ln) == '.' {
				if s.content {
					s.cur.to = next
					out, cut = s.cur, true
				}
				s.cur = span{from: next, breakAt: end, line: s.line + 1}
				s.content, s.dir = false, span{}
			}
			s.i, s.breakAt = next, end
			s.line++
		}
		if cut {
			s.spans++
			return out, true
		}
	}
	if s.done {
		return span{}, false
	}
	s.done = true
	s.cur.to = len(data)
	if s.cur.from < s.cur.to || s.spans == 0 {
		s.spans++
		return s.cur, true
	}
	return span{}, false
}

// directive says whether line (data from a line's start) is a %YAML or
// %TAG directive, the two yaml.v3 knows.
func directive(line []byte) bool {
	for _, name := range []string{"%YAML", "%TAG"} {
		if len(line) > len(name) && string(line[:len(name)]) == name && (line[len(name)] == ' ' || line[len(name)] == '\t') {
			return true
		}
	}
	return false
}

// marker says whether line (data from a line's start) is a "---" marker
// ('-'), a "..." marker ('.'), or neither (0): the three characters and
// then a space, a tab, a line break or the end.
func marker(line []byte) byte {
	if len(line) < 3 || (line[0] != '-' && line[0] != '.') || line[1] != line[0] || line[2] != line[0] {
		return 0
	}
	if rest := line[3:]; len(rest) > 0 && rest[0] != ' ' && rest[0] != '\t' && breakLen(rest) == 0 {
		return 0
	}
	return line[0]
}

// idle says whether line (data from a line's start) is blank, a comment or
// a directive: what may come before a document's "---".
func idle(line []byte) bool {
	if len(line) > 0 && line[0] == '%' {
		return true
	}
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			continue
		case c == '#' || breakLen(line[i:]) > 0:
			return true
		}
		return false
	}
	return true
}

// lineEnd returns where the line starting at data[i] ends (its break's
// first byte, or len(data)) and where the next line starts.
func lineEnd(data []byte, i int) (end, next int) {
	for j := i; j < len(data); j++ {
		if c := data[j]; c != '\n' && c != '\r' && c != 0xC2 && c != 0xE2 {
			continue
		}
		if n := breakLen(data[j:]); n > 0 {
			return j, j + n
		}
	}
	return len(data), len(data)
}

// breakLen returns the length of the line break at the start of b, or 0:
// "\r\n", "\n", a lone "\r", U+0085, U+2028 or U+2029, as yaml.v3 reads
// them.
func breakLen(b []byte) int {
	switch {
	case len(b) == 0:
		return 0
	case b[0] == '\n':
		return 1
	case b[0] == '\r':
		if len(b) > 1 && b[1] == '\n' {
			return 2
		}
		return 1
	case len(b) > 1 && b[0] == 0xC2 && b[1] == 0x85:
		return 2
	case len(b) > 2 && b[0] == 0xE2 && b[1] == 0x80 && (b[2] == 0xA8 || b[2] == 0xA9):
		return 3
	}
	return 0
}

// isEmpty reports whether n is what yaml.v3 makes of a document with no
// content: an untagged, unanchored, empty plain null.
func isEmpty(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Value == "" && n.Style == 0 && n.Anchor == ""
}

// yamlError turns a yaml.v3 error, "yaml: line N: msg" or "yaml: msg", into
// an *Error.
func yamlError(name string, err error) *Error {
	msg, _ := strings.CutPrefix(err.Error(), "yaml: ")
	e := &Error{Name: name, Msg: msg}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, text, ok := strings.Cut(rest, ": "); ok {
			if line, err := strconv.Atoi(num); err == nil && line > 0 {
				e.Line, e.Msg = line, text
			}
		}
	}
	return e
}

// checkChars reports invalid UTF-8 and the characters YAML does not allow
// in data, which starts line first of a stream, with the same line breaks
// yaml.v3 counts: "\n", "\r\n", a lone "\r", U+0085, U+2028 and U+2029.
func checkChars(name string, data []byte, first int) error {
	data = bytes.TrimPrefix(data, bom)
	line, col := first, 1
	for i := 0; i < len(data); {
		b := data[i]
		if b < utf8.RuneSelf {
			switch {
			case b == '\n' || b == '\r' && (i+1 == len(data) || data[i+1] != '\n'):
				line, col = line+1, 1
			case b == '\t' || b == '\r' || b >= 0x20 && b < 0x7F:
				col++
			default:
				return &Error{Name: name, Line: line, Column: col, Msg: fmt.Sprintf("character %U is not allowed in YAML", b)}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return &Error{Name: name, Line: line, Column: col, Msg: "invalid UTF-8"}
		case r == 0x85 || r == 0x2028 || r == 0x2029:
			line, col = line+1, 1
		case r >= 0xA0 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000:
			col++
		default:
			return &Error{Name: name, Line: line, Column: col, Msg: fmt.Sprintf("character %U is not allowed in YAML", r)}
		}
		i += size
	}
	return nil
}

// walk walks the tree under root with an explicit stack, adding shift to
// every node's line, and reports the first collection nested deeper than
// max, and the nodes it visited (tests bound them). It does not follow
// aliases, which may form cycles: every node is in exactly one Content
// list, so each is shifted once.
func walk(name string, root *yaml.Node, max, shift int) (visited int, err error) {
	type item struct {
		n     *yaml.Node
		depth int // of the collection n is in
	}
	stack := []item{{root, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		visited++
		it.n.Line += shift
		if it.n.Kind != yaml.MappingNode && it.n.Kind != yaml.SequenceNode {
			continue
		}
		depth := it.depth + 1
		if depth > max {
			return visited, &Error{Name: name, Line: it.n.Line, Column: it.n.Column, Msg: fmt.Sprintf("nesting deeper than %d", max)}
		}
		for i := len(it.n.Content) - 1; i >= 0; i-- { // so the first is popped first
			stack = append(stack, item{it.n.Content[i], depth})
		}
	}
	return visited, nil
}
