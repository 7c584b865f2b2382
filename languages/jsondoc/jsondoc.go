// Package jsondoc parses untrusted JSON into yaml.Node trees, so that JSON
// and YAML sources can be checked by the same code.
//
// yaml.v3 can read most JSON itself, but not all of it: it rejects tabs used
// as indentation and the \/ escape, and it does not combine UTF-16
// surrogate pairs. This package has its own small scanner that accepts
// exactly RFC 8259 JSON (plus a leading byte order mark), and produces the
// nodes yaml.v3 would produce for the same text: flow-style mappings and
// sequences tagged !!map and !!seq, double-quoted !!str scalars, and plain
// !!int, !!float, !!bool and !!null scalars whose Value is the literal text.
//
// Every node carries a 1-based Line and Column. Columns count runes (not
// bytes), as yaml.v3 does. Lines are separated by '\n'; a '\r' is ordinary
// whitespace.
package jsondoc

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/jsonstr"
	"github.com/protoscan-dev/protoscan/languages/yamldoc"
)

// Limits bounds the work done for one input, as for YAML: MaxBytes, and
// MaxDepth, the deepest nesting of arrays and objects ("1" has depth 0,
// "[[1]]" depth 2). A zero or negative field means the default.
type Limits = yamldoc.Limits

// DefaultLimits returns the limits used for zero fields: 16 MiB and a
// nesting depth of 1000.
func DefaultLimits() Limits { return yamldoc.DefaultLimits() }

// Error is a problem found in the input, "name:line:col: msg"; Line and
// Column are 0 when the problem concerns the input as a whole.
type Error = yamldoc.Error

var bom = []byte("\xef\xbb\xbf")

// Parse parses data, named name in errors, as a sequence of JSON values
// separated by optional whitespace: a single value, concatenated values or
// JSON Lines. It returns the root node of each value; input that is empty
// or all whitespace yields no nodes. The first error stops parsing.
func Parse(name string, data []byte, lim Limits) ([]*yaml.Node, error) {
	nodes, _, err := parse(name, data, lim)
	return nodes, err
}

// parse is Parse, and also returns the bytes its position cursor walked
// (tests bound them).
func parse(name string, data []byte, lim Limits) (_ []*yaml.Node, walked int, _ error) {
	lim = lim.OrDefault()
	if int64(len(data)) > lim.MaxBytes {
		return nil, 0, sizeError(name, len(data), lim.MaxBytes)
	}
	data = bytes.TrimPrefix(data, bom)
	// Checking the encoding once up front keeps the scanner simple: every
	// string it slices out is valid UTF-8.
	if err := checkUTF8(name, data, 1); err != nil {
		return nil, 0, err
	}
	p := newParser(name, data, 0, 1, lim.MaxDepth)
	var nodes []*yaml.Node
	for {
		p.skipSpace()
		if p.i == len(p.data) {
			return nodes, p.walked, nil
		}
		// A number or literal runs until a delimiter, so "1 2" is two values
		// but "1x" is an error rather than 1 followed by garbage.
		if len(nodes) > 0 && isBare(p.data[p.i-1]) {
			return nil, p.walked, p.errorf(p.i, "invalid character %s after top-level value", quoteChar(p.data, p.i))
		}
		n, err := p.value()
		if err != nil {
			return nil, p.walked, err
		}
		nodes = append(nodes, n)
	}
}

// Part is one top-level value of a JSON input: its root node, or the
// error that makes it malformed (an *Error). data[From:To] is its text,
// in the input given (a byte order mark counts).
type Part struct {
	Node     *yaml.Node
	Err      error
	From, To int
}

// ParseParts parses data as Parse does, a sequence of JSON values, but
// value by value, calling fn for each until it returns false; blank input
// yields no call. A value nested deeper than lim.MaxDepth is a Part with
// its error, skipped to the bracket that closes it, and the values after
// it are parsed all the same. Any other error ends the input, which JSON
// cannot be read on past: its Part runs from the value it is in to the
// end. Input over the size limit, or not UTF-8, is one Part with the
// error, for all of it. Each byte is read a bounded number of times.
func ParseParts(name string, data []byte, lim Limits, fn func(Part) bool) {
	lim = lim.OrDefault()
	if int64(len(data)) > lim.MaxBytes {
		fn(Part{Err: sizeError(name, len(data), lim.MaxBytes), To: len(data)})
		return
	}
	off := 0
	if bytes.HasPrefix(data, bom) {
		off = len(bom)
	}
	body := data[off:]
	if err := checkUTF8(name, body, 1); err != nil {
		fn(Part{Err: err, To: len(data)})
		return
	}
	p := newParser(name, body, 0, 1, lim.MaxDepth)
	prev := false // a value came before
	for {
		p.skipSpace()
		if p.i == len(p.data) {
			return
		}
		start := p.i
		if prev && isBare(p.data[p.i-1]) {
			fn(Part{Err: p.errorf(p.i, "invalid character %s after top-level value", quoteChar(p.data, p.i)), From: off + start, To: len(data)})
			return
		}
		prev = true
		p.tooDeep = false
		n, err := p.value()
		if err == nil {
			if !fn(Part{Node: n, From: off + start, To: off + p.i}) {
				return
			}
			continue
		}
		if !p.tooDeep {
			fn(Part{Err: err, From: off + start, To: len(data)})
			return
		}
		p.i = skipValue(p.data, start)
		if !fn(Part{Err: err, From: off + start, To: off + p.i}) {
			return
		}
	}
}

// skipValue returns where the array or object at data[start] ends, after
// its closing bracket, counting brackets outside strings (or len(data)
// when it never closes). The value need not be valid: it is being left
// out.
func skipValue(data []byte, start int) int {
	depth := 0
	for i := start; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(data)
}

// ParseLines parses data as JSON Lines: one JSON value per '\n'-terminated
// line, blank lines ignored. It calls fn for each non-blank line with its
// 1-based line number and either the value's root node or the error for that
// line; a malformed line does not stop parsing. If fn returns false,
// ParseLines stops. Input larger than lim.MaxBytes yields a single call with
// line 0 and an error.
func ParseLines(name string, data []byte, lim Limits, fn func(line int, n *yaml.Node, err error) bool) {
	lim = lim.OrDefault()
	if int64(len(data)) > lim.MaxBytes {
		fn(0, nil, sizeError(name, len(data), lim.MaxBytes))
		return
	}
	data = bytes.TrimPrefix(data, bom)
	for line, start := 1, 0; start < len(data); line++ {
		end := len(data)
		if j := bytes.IndexByte(data[start:], '\n'); j >= 0 {
			end = start + j
		}
		if !isBlank(data[start:end]) {
			n, err := parseLine(name, data[:end], start, line, lim.MaxDepth)
			if !fn(line, n, err) {
				return
			}
		}
		start = end + 1
	}
}

// parseLine parses the single value in data[start:], which starts line line.
func parseLine(name string, data []byte, start, line, maxDepth int) (*yaml.Node, error) {
	if err := checkUTF8(name, data[start:], line); err != nil {
		return nil, err
	}
	p := newParser(name, data, start, line, maxDepth)
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i < len(p.data) {
		return nil, p.errorf(p.i, "invalid character %s after top-level value", quoteChar(p.data, p.i))
	}
	return n, nil
}

func sizeError(name string, size int, max int64) error {
	return &Error{Name: name, Msg: fmt.Sprintf("input is %d bytes, more than the limit of %d", size, max)}
}

// checkUTF8 reports the position of the first invalid UTF-8 sequence in
// data, which starts at the beginning of line line.
func checkUTF8(name string, data []byte, line int) error {
	if utf8.Valid(data) {
		return nil
	}
	col := 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return &Error{Name: name, Line: line, Column: col, Msg: "invalid UTF-8"}
		}
		if r == '\n' {
			line, col = line+1, 0
		}
		col++
		i += size
	}
	panic("unreachable: utf8.Valid reported invalid data")
}

// A parser reads JSON values from data[i:]. It tracks line and column with
// a cursor that only moves forward: node positions are requested in input
// order, so converting offsets costs O(len(data)) in total even when the
// whole input is one long line.
type parser struct {
	name     string
	data     []byte
	i        int
	maxDepth int

	// The cursor: byte offset off is at line, col.
	off, line, col int
	walked         int // bytes the cursor moved over, all calls together

	tooDeep bool // the last error was nesting deeper than maxDepth

	buf  []byte      // scratch space for unescaping strings
	slab []yaml.Node // nodes are allocated in blocks to save allocations
}

func newParser(name string, data []byte, start, line, maxDepth int) *parser {
	return &parser{name: name, data: data, i: start, maxDepth: maxDepth, off: start, line: line, col: 1}
}

// pos returns the line and column of byte offset off, which must not be
// before the previous offset asked for.
func (p *parser) pos(off int) (line, col int) {
	p.walked += off - p.off
	for _, b := range p.data[p.off:off] {
		switch {
		case b == '\n':
			p.line++
			p.col = 1
		case !isContinuation(b):
			p.col++
		}
	}
	p.off = off
	return p.line, p.col
}

func isContinuation(b byte) bool { return b&0xC0 == 0x80 }

func (p *parser) errorf(off int, format string, args ...any) error {
	line, col := p.pos(off)
	return &Error{Name: p.name, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// eofError reports that the input ended in the middle of a value.
func (p *parser) eofError() error {
	return p.errorf(len(p.data), "unexpected end of input")
}

func (p *parser) newNode(kind yaml.Kind, tag string, style yaml.Style, off int) *yaml.Node {
	if len(p.slab) == 0 {
		p.slab = make([]yaml.Node, 64)
	}
	n := &p.slab[0]
	p.slab = p.slab[1:]
	n.Kind, n.Tag, n.Style = kind, tag, style
	n.Line, n.Column = p.pos(off)
	return n
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// isBare reports whether b can end a number or a literal.
func isBare(b byte) bool { return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

func isBlank(line []byte) bool {
	for _, b := range line {
		if !isSpace(b) {
			return false
		}
	}
	return true
}

func (p *parser) skipSpace() {
	for p.i < len(p.data) && isSpace(p.data[p.i]) {
		p.i++
	}
}

// quoteChar quotes the character at data[i] for an error message.
func quoteChar(data []byte, i int) string {
	r, _ := utf8.DecodeRune(data[i:])
	return strconv.QuoteRune(r)
}

// frame is an array or object that is still open.
type frame struct {
	n    *yaml.Node
	keys map[string]bool // built once an object has many keys
}

// value parses one JSON value starting at p.i. It keeps open arrays and
// objects on an explicit stack rather than recursing, so deep nesting costs
// heap, not goroutine stack, and stops at maxDepth.
func (p *parser) value() (*yaml.Node, error) {
	var stack []frame
	for {
		// Parse a value: a scalar, or the start of an array or object.
		p.skipSpace()
		if p.i == len(p.data) {
			return nil, p.eofError()
		}
		var n *yaml.Node
		switch c := p.data[p.i]; c {
		case '{', '[':
			if len(stack) == p.maxDepth {
				p.tooDeep = true
				return nil, p.errorf(p.i, "nesting deeper than %d", p.maxDepth)
			}
			closer := byte(']')
			if c == '{' {
				n = p.newNode(yaml.MappingNode, "!!map", yaml.FlowStyle, p.i)
				closer = '}'
			} else {
				n = p.newNode(yaml.SequenceNode, "!!seq", yaml.FlowStyle, p.i)
			}
			p.i++
			p.skipSpace()
			if p.i < len(p.data) && p.data[p.i] == closer {
				p.i++
				break // empty: n is complete
			}
			stack = append(stack, frame{n: n})
			if c == '{' {
				if err := p.key(&stack[len(stack)-1]); err != nil {
					return nil, err
				}
			}
			continue
		case '"':
			var err error
			if n, err = p.str(); err != nil {
				return nil, err
			}
		case 't':
			if err := p.literal("true"); err != nil {
				return nil, err
			}
			n = p.newNode(yaml.ScalarNode, "!!bool", 0, p.i-4)
			n.Value = "true"
		case 'f':
			if err := p.literal("false"); err != nil {
				return nil, err
			}
			n = p.newNode(yaml.ScalarNode, "!!bool", 0, p.i-5)
			n.Value = "false"
		case 'n':
			if err := p.literal("null"); err != nil {
				return nil, err
			}
			n = p.newNode(yaml.ScalarNode, "!!null", 0, p.i-4)
			n.Value = "null"
		default:
			if c != '-' && (c < '0' || c > '9') {
				return nil, p.errorf(p.i, "invalid character %s looking for beginning of value", quoteChar(p.data, p.i))
			}
			var err error
			if n, err = p.number(); err != nil {
				return nil, err
			}
		}

		// n is complete: add it to the enclosing containers, closing each
		// one that ends here, until one expects another element.
		for {
			if len(stack) == 0 {
				return n, nil
			}
			top := &stack[len(stack)-1]
			top.n.Content = append(top.n.Content, n)
			p.skipSpace()
			if p.i == len(p.data) {
				return nil, p.eofError()
			}
			c := p.data[p.i]
			if c == ',' {
				p.i++
				if top.n.Kind == yaml.MappingNode {
					if err := p.key(top); err != nil {
						return nil, err
					}
				}
				break
			}
			if top.n.Kind == yaml.MappingNode && c != '}' {
				return nil, p.errorf(p.i, "invalid character %s after object key:value pair", quoteChar(p.data, p.i))
			}
			if top.n.Kind == yaml.SequenceNode && c != ']' {
				return nil, p.errorf(p.i, "invalid character %s after array element", quoteChar(p.data, p.i))
			}
			p.i++
			n = top.n
			stack = stack[:len(stack)-1]
		}
	}
}

// key parses an object key and the colon after it, appending the key node
// to f and rejecting duplicates.
func (p *parser) key(f *frame) error {
	p.skipSpace()
	if p.i == len(p.data) {
		return p.eofError()
	}
	if p.data[p.i] != '"' {
		return p.errorf(p.i, "invalid character %s looking for beginning of object key string", quoteChar(p.data, p.i))
	}
	k, err := p.str()
	if err != nil {
		return err
	}
	// A linear scan is cheapest for the usual small object; a map keeps
	// large ones from going quadratic.
	const small = 16
	content := f.n.Content
	dup := false
	if f.keys == nil && len(content) < 2*small {
		for i := 0; i < len(content); i += 2 {
			if content[i].Value == k.Value {
				dup = true
				break
			}
		}
	} else {
		if f.keys == nil {
			f.keys = make(map[string]bool, len(content))
			for i := 0; i < len(content); i += 2 {
				f.keys[content[i].Value] = true
			}
		}
		dup = f.keys[k.Value]
		f.keys[k.Value] = true
	}
	if dup {
		return &Error{Name: p.name, Line: k.Line, Column: k.Column, Msg: fmt.Sprintf("duplicate key %q", k.Value)}
	}
	f.n.Content = append(f.n.Content, k)
	p.skipSpace()
	if p.i == len(p.data) {
		return p.eofError()
	}
	if p.data[p.i] != ':' {
		return p.errorf(p.i, "invalid character %s after object key", quoteChar(p.data, p.i))
	}
	p.i++
	return nil
}

// literal consumes word (true, false or null) at p.i.
func (p *parser) literal(word string) error {
	for j := 0; j < len(word); j++ {
		if p.i+j == len(p.data) {
			return p.eofError()
		}
		if p.data[p.i+j] != word[j] {
			return p.errorf(p.i+j, "invalid character %s in literal %s", quoteChar(p.data, p.i+j), word)
		}
	}
	p.i += len(word)
	return nil
}

// number consumes a number at p.i:
//
//	-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *parser) number() (*yaml.Node, error) {
	start := p.i
	if p.data[p.i] == '-' {
		p.i++
	}
	digits := func() error {
		if p.i == len(p.data) {
			return p.eofError()
		}
		if c := p.data[p.i]; c < '0' || c > '9' {
			return p.errorf(p.i, "invalid character %s in numeric literal", quoteChar(p.data, p.i))
		}
		for p.i < len(p.data) && p.data[p.i] >= '0' && p.data[p.i] <= '9' {
			p.i++
		}
		return nil
	}
	if p.i < len(p.data) && p.data[p.i] == '0' {
		p.i++ // no leading zeros: "01" is 0 followed by an error
	} else if err := digits(); err != nil {
		return nil, err
	}
	tag := "!!int"
	if p.i < len(p.data) && p.data[p.i] == '.' {
		tag = "!!float"
		p.i++
		if err := digits(); err != nil {
			return nil, err
		}
	}
	if p.i < len(p.data) && (p.data[p.i] == 'e' || p.data[p.i] == 'E') {
		tag = "!!float"
		p.i++
		if p.i < len(p.data) && (p.data[p.i] == '+' || p.data[p.i] == '-') {
			p.i++
		}
		if err := digits(); err != nil {
			return nil, err
		}
	}
	n := p.newNode(yaml.ScalarNode, tag, 0, start)
	n.Value = string(p.data[start:p.i])
	return n, nil
}

// str consumes a string at p.i, which holds the opening quote.
func (p *parser) str() (*yaml.Node, error) {
	start := p.i
	p.i++
	// Fast path: most strings have no escapes and can be copied as they are.
	j := p.i
	for j < len(p.data) && p.data[j] != '"' && p.data[j] != '\\' && p.data[j] >= 0x20 {
		j++
	}
	if j < len(p.data) && p.data[j] == '"' {
		n := p.newNode(yaml.ScalarNode, "!!str", yaml.DoubleQuotedStyle, start)
		n.Value = string(p.data[p.i:j])
		p.i = j + 1
		return n, nil
	}
	buf := append(p.buf[:0], p.data[p.i:j]...)
	p.i = j
	for {
		if p.i == len(p.data) {
			return nil, p.eofError()
		}
		c := p.data[p.i]
		switch {
		case c == '"':
			n := p.newNode(yaml.ScalarNode, "!!str", yaml.DoubleQuotedStyle, start)
			n.Value = string(buf)
			p.buf = buf
			p.i++
			return n, nil
		case c < 0x20:
			return nil, p.errorf(p.i, "invalid character %s in string literal", quoteChar(p.data, p.i))
		case c != '\\':
			buf = append(buf, c)
			p.i++
			continue
		}
		var bad int
		var inHex bool
		if buf, p.i, bad, inHex = jsonstr.AppendEscape(buf, p.data, p.i); bad >= 0 {
			switch {
			case bad >= len(p.data):
				return nil, p.eofError()
			case inHex:
				return nil, p.errorf(bad, `invalid character %s in \u hexadecimal character escape`, quoteChar(p.data, bad))
			}
			return nil, p.errorf(bad, "invalid character %s in string escape code", quoteChar(p.data, bad))
		}
	}
}
