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
// first error stops parsing; the documents before it are returned with it
// (none when the error is in the stream's bytes or size, found first).
func Parse(name string, data []byte, lim Limits) ([]*yaml.Node, error) {
	lim = lim.OrDefault()
	if int64(len(data)) > lim.MaxBytes {
		return nil, &Error{Name: name, Msg: fmt.Sprintf("input is %d bytes, more than the limit of %d", len(data), lim.MaxBytes)}
	}
	// yaml.v3 rejects these itself, but without saying where.
	if err := checkChars(name, data); err != nil {
		return nil, err
	}
	// yaml.v3 stops nesting at 10000 levels of flow collections and 10000
	// of indentation, and fails fast beyond that, so deeply nested input
	// costs bounded time without a pre-scan; the tighter MaxDepth is checked
	// on the tree below. (A pre-scan of brackets would have to tokenize YAML
	// to avoid counting brackets inside strings and comments.)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if err == io.EOF {
			return docs, nil
		}
		if err != nil {
			return docs, yamlError(name, err)
		}
		if len(doc.Content) == 0 || isEmpty(doc.Content[0]) {
			continue
		}
		if err := checkDepth(name, doc.Content[0], lim.MaxDepth); err != nil {
			return docs, err
		}
		docs = append(docs, doc.Content[0])
	}
}

// isEmpty reports whether n is what yaml.v3 makes of a document with no
// content: an untagged, unanchored, empty plain null.
func isEmpty(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Value == "" && n.Style == 0 && n.Anchor == ""
}

// yamlError turns a yaml.v3 error, "yaml: line N: msg" or "yaml: msg", into
// an *Error.
func yamlError(name string, err error) error {
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
// anywhere in a stream, with the same line breaks yaml.v3 counts: "\n",
// "\r\n", a lone "\r", U+0085, U+2028 and U+2029.
func checkChars(name string, data []byte) error {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	line, col := 1, 1
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

// checkDepth walks the tree under root with an explicit stack and reports
// the first collection nested deeper than max. It does not follow aliases,
// which may form cycles.
func checkDepth(name string, root *yaml.Node, max int) error {
	type item struct {
		n     *yaml.Node
		depth int // of the collection n is in
	}
	stack := []item{{root, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.n.Kind != yaml.MappingNode && it.n.Kind != yaml.SequenceNode {
			continue
		}
		depth := it.depth + 1
		if depth > max {
			return &Error{Name: name, Line: it.n.Line, Column: it.n.Column, Msg: fmt.Sprintf("nesting deeper than %d", max)}
		}
		for i := len(it.n.Content) - 1; i >= 0; i-- { // so the first is popped first
			stack = append(stack, item{it.n.Content[i], depth})
		}
	}
	return nil
}
