package yamlnode

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Limits bound the work ToValue may do on untrusted input. Aliases are
// expanded, so MaxNodes is what stops a "billion laughs" document.
type Limits struct {
	MaxDepth int // deepest nesting of mappings and sequences
	MaxNodes int // nodes produced, counting every alias expansion
}

// DefaultLimits are generous for real messages and small enough that a
// hostile document fails fast.
func DefaultLimits() Limits { return Limits{MaxDepth: 1000, MaxNodes: 1_000_000} }

// Error is a conversion failure at a source line.
type Error struct {
	Line, Column int
	Msg          string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// OrDefault fills each unset (zero or negative) limit with its default.
func (l Limits) OrDefault() Limits {
	d := DefaultLimits()
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxNodes <= 0 {
		l.MaxNodes = d.MaxNodes
	}
	return l
}

// ToValue converts n into plain Go values: map[string]any, []any, string,
// int64, float64, bool and nil. Mapping keys become strings, merge keys
// (<<) are applied, and duplicate keys are an error.
func ToValue(n *yaml.Node, lim Limits) (any, error) {
	v, _, err := toValue(n, lim)
	return v, err
}

// toValue is ToValue, and also returns the nodes it produced (tests
// bound them).
func toValue(n *yaml.Node, lim Limits) (any, int, error) {
	c := converter{lim: lim.OrDefault()}
	v, err := c.value(n, 0)
	return v, c.nodes, err
}

type converter struct {
	lim   Limits
	nodes int
}

func (c *converter) value(n *yaml.Node, depth int) (any, error) {
	c.nodes++
	if c.nodes > c.lim.MaxNodes {
		return nil, &Error{n.Line, n.Column, fmt.Sprintf("document expands to more than %d nodes (alias bomb?)", c.lim.MaxNodes)}
	}
	if depth > c.lim.MaxDepth {
		return nil, &Error{n.Line, n.Column, fmt.Sprintf("nesting deeper than %d levels", c.lim.MaxDepth)}
	}
	switch n.Kind {
	case 0:
		return nil, nil // what yaml.Unmarshal leaves for an empty input
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.value(n.Content[0], depth)
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, &Error{n.Line, n.Column, "unresolved alias"}
		}
		return c.value(n.Alias, depth+1)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, e := range n.Content {
			v, err := c.value(e, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		if err := c.mapping(n, out, depth, false); err != nil {
			return nil, err
		}
		return out, nil
	case yaml.ScalarNode:
		return Scalar(n), nil
	}
	return nil, &Error{n.Line, n.Column, "unsupported node"}
}

// mapping fills out from n. Keys from merged mappings never override keys
// the mapping sets itself, as YAML's merge-key rules say.
func (c *converter) mapping(n *yaml.Node, out map[string]any, depth int, merged bool) error {
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		key := k.Value
		if k.Kind != yaml.ScalarNode {
			return &Error{k.Line, k.Column, "mapping key is not a scalar"}
		}
		if _, dup := out[key]; dup {
			if merged {
				continue
			}
			return &Error{k.Line, k.Column, fmt.Sprintf("duplicate key %q", key)}
		}
		val, err := c.value(v, depth+1)
		if err != nil {
			return err
		}
		out[key] = val
	}
	for _, m := range merges {
		for m.Kind == yaml.AliasNode && m.Alias != nil {
			m = m.Alias
		}
		srcs := []*yaml.Node{m}
		if m.Kind == yaml.SequenceNode {
			srcs = m.Content
		}
		for _, s := range srcs {
			for s.Kind == yaml.AliasNode && s.Alias != nil {
				s = s.Alias
			}
			if s.Kind != yaml.MappingNode {
				return &Error{s.Line, s.Column, "merge key must name a mapping"}
			}
			c.nodes += len(s.Content)
			if c.nodes > c.lim.MaxNodes {
				return &Error{s.Line, s.Column, fmt.Sprintf("document expands to more than %d nodes (alias bomb?)", c.lim.MaxNodes)}
			}
			if err := c.mapping(s, out, depth, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// Scalar resolves a scalar node the way YAML 1.2's core schema does, with
// integers as int64 (float64 when they overflow) and timestamps kept as text.
func Scalar(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		switch strings.ToLower(n.Value) {
		case "true", "yes", "on", "y":
			return true
		}
		return false
	case "!!int":
		s := strings.ReplaceAll(n.Value, "_", "")
		if i, err := strconv.ParseInt(s, 0, 64); err == nil {
			return i
		}
		// yaml's 0o/0b forms and a bare leading-zero octal
		if strings.HasPrefix(s, "0o") {
			if i, err := strconv.ParseInt(s[2:], 8, 64); err == nil {
				return i
			}
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
		return n.Value
	case "!!float":
		switch strings.ToLower(strings.TrimLeft(n.Value, "+")) {
		case ".inf":
			return math.Inf(1)
		case "-.inf":
			return math.Inf(-1)
		case ".nan":
			return math.NaN()
		}
		if f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); err == nil {
			return f
		}
		return n.Value
	}
	return n.Value
}

// Step is one element of a path into a value: a mapping key when Index is
// negative, else an index into a sequence.
type Step struct {
	Key   string
	Index int
}

// ParsePath turns a field path as msgcheck writes it (metrics.quality,
// output.files[0], plan[1][2]) into steps; it stops at an index that is
// not a number of zero or more.
func ParsePath(field string) []Step {
	if field == "" {
		return nil
	}
	var out []Step
	for _, part := range strings.Split(field, ".") {
		key, rest, _ := strings.Cut(part, "[")
		if key != "" {
			out = append(out, Step{Key: key, Index: -1})
		}
		for rest != "" {
			num, after, ok := strings.Cut(rest, "]")
			i, err := strconv.Atoi(num)
			if !ok || err != nil || i < 0 {
				break
			}
			out = append(out, Step{Index: i})
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return out
}

// Locate returns the line and column of the node at path under n. With
// key set, the last step's key is located rather than its value. When the
// path leaves the tree, the deepest node reached is located.
func Locate(n *yaml.Node, path []Step, key bool) (line, col int) {
	if n == nil {
		return 0, 0
	}
	cur := n
	for i, st := range path {
		cur = deref(cur)
		next, k := child(cur, st)
		if next == nil {
			break
		}
		if key && i == len(path)-1 && k != nil {
			return k.Line, k.Column
		}
		cur = next
	}
	cur = deref(cur)
	return cur.Line, cur.Column
}

func deref(n *yaml.Node) *yaml.Node {
	for guard := 0; guard < 100; guard++ {
		switch {
		case n.Kind == yaml.DocumentNode && len(n.Content) > 0:
			n = n.Content[0]
		case n.Kind == yaml.AliasNode && n.Alias != nil:
			n = n.Alias
		default:
			return n
		}
	}
	return n
}

func child(n *yaml.Node, st Step) (val, key *yaml.Node) {
	switch n.Kind {
	case yaml.MappingNode:
		if st.Index >= 0 {
			return nil, nil
		}
		for i := len(n.Content) - 2; i >= 0; i -= 2 {
			if n.Content[i].Value == st.Key {
				return n.Content[i+1], n.Content[i]
			}
		}
	case yaml.SequenceNode:
		if st.Index >= 0 && st.Index < len(n.Content) {
			return n.Content[st.Index], nil
		}
	}
	return nil, nil
}

// Columns turns the rune columns of yaml.v3 and languages/jsondoc into
// the byte columns protoscan's findings count (as go/token does), for
// the source the nodes were parsed from. A byte order mark, which the
// parsers skip, counts on line 1, as the scan counts it.
type Columns struct {
	src    []byte
	starts []int // byte offset of each line start
	// the last place asked for, where the next one on its line starts
	// counting: findings come in source order, so a long line (minified
	// JSON) is walked once, not once per finding
	line, col, off int
	stepped        int // runes walked, all calls together (tests bound it)
}

// NewColumns indexes the lines of src.
func NewColumns(src []byte) *Columns {
	c := &Columns{src: src, starts: []int{0}}
	for i, b := range src {
		if b == '\n' {
			c.starts = append(c.starts, i+1)
		}
	}
	return c
}

// Byte returns the byte column of the rune column col of line; a place
// the source does not have is returned as it is.
func (c *Columns) Byte(line, col int) int {
	if c == nil || line < 1 || line > len(c.starts) || col < 1 {
		return col
	}
	start := c.starts[line-1]
	off, r := start, 1
	if line == 1 && bytes.HasPrefix(c.src, bom) {
		off += len(bom)
	}
	if line == c.line && col >= c.col {
		off, r = c.off, c.col
	}
	for ; r < col && off < len(c.src) && c.src[off] != '\n'; r++ {
		_, size := utf8.DecodeRune(c.src[off:])
		off += size
		c.stepped++
	}
	c.line, c.col, c.off = line, r, off
	return off - start + 1
}

var bom = []byte("\xef\xbb\xbf")
