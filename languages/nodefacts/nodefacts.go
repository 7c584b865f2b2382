// Package nodefacts extracts facts from yaml.Node trees, whichever source
// they were decoded from: YAML files, JSON files, and the YAML or JSON
// blocks of Markdown documents all yield the same kinds of facts.
//
// Every mapping becomes a facts.Mapping with each entry's literal value;
// every string value of a mapping entry is a facts.String with its key;
// every key is a facts.String with RoleKey (a routing table keyed by
// statuses is told by its keys); a list of strings under a key is a
// facts.Group named after the key; every sequence is a facts.List with
// the position of each item, so a finding on plan[1] lands on its item.
package nodefacts

import (
	"bytes"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"github.com/protoscan-dev/protoscan/languages/facts"
)

// Extract adds the facts of docs, decoded from src, to f. lineOffset is
// added to every line (a block inside a Markdown file) and colOffset to
// every column (its indentation).
func Extract(f *facts.File, src []byte, docs []*yaml.Node, lineOffset, colOffset int) {
	extract(f, src, docs, lineOffset, colOffset)
}

// extract is Extract, and also returns the runes pos and lineStops
// walked (tests bound them).
func extract(f *facts.File, src []byte, docs []*yaml.Node, lineOffset, colOffset int) (stepped int) {
	x := extractor{f: f, lines: lineStarts(src), src: src, lineOffset: lineOffset, colOffset: colOffset,
		done: map[*yaml.Node]any{}}
	if bytes.HasPrefix(src, bom) {
		x.bomLen = len(bom)
	}
	x.roots = map[*yaml.Node]bool{}
	for _, d := range docs {
		switch {
		case d.Kind == yaml.MappingNode:
			x.roots[d] = true
		case d.Kind == yaml.SequenceNode:
			for _, it := range d.Content {
				if it.Kind == yaml.MappingNode {
					x.roots[it] = true
				}
			}
		}
	}
	for _, d := range docs {
		x.value(d)
	}
	return x.stepped
}

type extractor struct {
	f          *facts.File
	src        []byte
	lines      []int // byte offset of each line start in src
	lineOffset int
	colOffset  int
	// done memoizes container values, so nested mappings are converted
	// once and an alias shares its anchor's value instead of expanding it.
	done map[*yaml.Node]any
	// roots are the records of the documents (see facts.Mapping.Root).
	roots map[*yaml.Node]bool
	// stops holds, for each long line met, the byte offset of every
	// stopEvery-th rune: pos starts from the nearest one, so that a long
	// line (minified JSON) costs linear time, not quadratic.
	stops map[int][]int
	// bomLen is 3 when src starts with a byte order mark, which the
	// parsers skip: their columns on line 1 start after it.
	bomLen int
	// stepped counts the runes pos and lineStops walked over
	stepped int
}

var bom = []byte("\xef\xbb\xbf")

// stopEvery is the spacing, in runes, of a long line's stops.
const stopEvery = 64

func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// pos turns yaml's line and rune column into a facts.Pos with a byte
// column and offset.
func (x *extractor) pos(line, col int) facts.Pos {
	p := facts.Pos{Line: line + x.lineOffset, Col: col + x.colOffset}
	if line < 1 || line > len(x.lines) {
		return p
	}
	off, r := x.lines[line-1], 1
	if line == 1 {
		off += x.bomLen
	}
	if col > stopEvery {
		s := x.lineStops(line)
		k := min((col-1)/stopEvery, len(s)-1)
		off, r = s[k], k*stopEvery+1
	}
	for ; r < col && off < len(x.src) && x.src[off] != '\n'; r++ {
		_, size := utf8.DecodeRune(x.src[off:])
		off += size
		x.stepped++
	}
	p.Col = off - x.lines[line-1] + 1 + x.colOffset
	p.Offset = off
	return p
}

// lineStops returns the stops of a line (see extractor.stops): the byte
// offset of runes 1, 1+stopEvery, 1+2*stopEvery... up to the line's end.
func (x *extractor) lineStops(line int) []int {
	if s, ok := x.stops[line]; ok {
		return s
	}
	off := x.lines[line-1]
	if line == 1 {
		off += x.bomLen
	}
	s := []int{off}
	for r := 1; off < len(x.src) && x.src[off] != '\n'; r++ {
		_, size := utf8.DecodeRune(x.src[off:])
		off += size
		x.stepped++
		if r%stopEvery == 0 {
			s = append(s, off)
		}
	}
	if x.stops == nil {
		x.stops = map[int][]int{}
	}
	x.stops[line] = s
	return s
}

// end is just past a single-line scalar, quotes included; zero when the
// scalar spans lines or its source spelling is not known.
func (x *extractor) end(n *yaml.Node, start facts.Pos) facts.Pos {
	width := len(n.Value)
	switch n.Style {
	case 0:
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		width += 2
	default:
		return facts.Pos{}
	}
	if start.Offset+width > len(x.src) {
		return facts.Pos{}
	}
	text := x.src[start.Offset : start.Offset+width]
	if n.Style != 0 {
		text = text[1 : len(text)-1]
	}
	// the source must spell the value itself: an escape ("FAIL\u0045D")
	// or a doubled quote makes the decoded width wrong, and a fix over it
	// would edit the wrong bytes
	if string(text) != n.Value {
		return facts.Pos{}
	}
	return facts.Pos{Line: start.Line, Col: start.Col + width, Offset: start.Offset + width}
}

func (x *extractor) str(n *yaml.Node, role facts.Role, key string, mapping, group int) int {
	p := x.pos(n.Line, n.Column)
	x.f.Strings = append(x.f.Strings, facts.String{Value: n.Value, Pos: p, End: x.end(n, p), Role: role,
		Key: key, Mapping: mapping, Group: group})
	return len(x.f.Strings) - 1
}

func isString(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" }

// value records the facts under n and returns its literal value.
func (x *extractor) value(n *yaml.Node) any {
	switch n.Kind {
	case yaml.ScalarNode:
		return yamlnode.Scalar(n)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return x.value(n.Content[0])
	case yaml.AliasNode:
		if v, ok := x.done[n.Alias]; ok {
			return v
		}
		if n.Alias != nil && n.Alias.Kind == yaml.ScalarNode {
			return yamlnode.Scalar(n.Alias)
		}
		return facts.Unknown{}
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		x.done[n] = out
		items := make([]facts.Pos, len(n.Content))
		for i, e := range n.Content {
			items[i] = x.pos(e.Line, e.Column)
		}
		x.f.Lists = append(x.f.Lists, facts.List{Pos: x.pos(n.Line, n.Column), Items: items})
		for _, e := range n.Content {
			out = append(out, x.value(e))
		}
		x.done[n] = out
		return out
	case yaml.MappingNode:
		return x.mapping(n)
	}
	return facts.Unknown{}
}

func (x *extractor) mapping(n *yaml.Node) any {
	out := make(map[string]any, len(n.Content)/2)
	x.done[n] = out
	idx := len(x.f.Mappings)
	x.f.Mappings = append(x.f.Mappings, facts.Mapping{Pos: x.pos(n.Line, n.Column), Root: x.roots[n]})
	entries := make([]facts.Entry, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		key := k.Value
		if isString(k) {
			x.str(k, facts.RoleKey, "", idx, -1)
		}
		switch {
		case isString(v):
			x.str(v, facts.RoleValue, key, idx, -1)
		case v.Kind == yaml.SequenceNode && allStrings(v.Content):
			g := len(x.f.Groups)
			x.f.Groups = append(x.f.Groups, facts.Group{Kind: facts.GroupSet, Name: key, Pos: x.pos(v.Line, v.Column)})
			members := make([]int, 0, len(v.Content))
			for _, e := range v.Content {
				members = append(members, x.str(e, facts.RoleMember, key, -1, g))
			}
			x.f.Groups[g].Members = members
		}
		val := x.value(v)
		out[key] = val
		entries = append(entries, facts.Entry{Key: key, KeyPos: x.pos(k.Line, k.Column), ValPos: x.pos(v.Line, v.Column), Value: val})
	}
	x.f.Mappings[idx].Entries = entries
	return out
}

func allStrings(nodes []*yaml.Node) bool {
	if len(nodes) == 0 {
		return false
	}
	for _, n := range nodes {
		if !isString(n) {
			return false
		}
	}
	return true
}
