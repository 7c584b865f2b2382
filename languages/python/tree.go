package python

// Navigation over the flattened tree (treesitter.Node, preorder).

import (
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/treesitter"
)

// kind returns the kind of node i; helpers take -1 for "no node" (a
// missing child) and treat it as nothing.
func (x *extractor) kind(i int) kind {
	if i < 0 {
		return kOther
	}
	return kindOf[x.nodes[i].Kind]
}

// text returns the source of node i, clamped to the source.
func (x *extractor) text(i int) []byte {
	if i < 0 {
		return nil
	}
	nd := &x.nodes[i]
	s, e := int(nd.StartByte), int(nd.EndByte)
	if e > len(x.src) {
		e = len(x.src)
	}
	if s > e {
		s = e
	}
	return x.src[s:e]
}

// next returns the next sibling index after child c of a node ending at end,
// or -1.
func (x *extractor) next(c, end int) int {
	c = int(x.nodes[c].End)
	if c >= end {
		return -1
	}
	return c
}

// first returns the first child of i, or -1.
func (x *extractor) first(i int) int {
	if i >= 0 && int(x.nodes[i].End) > i+1 {
		return i + 1
	}
	return -1
}

// child returns the first child of i with field f, or -1.
func (x *extractor) child(i int, f uint16) int {
	if f == 0 || i < 0 {
		return -1
	}
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		if x.nodes[c].Field == f {
			return c
		}
	}
	return -1
}

// countField counts the children of i with field f.
func (x *extractor) countField(i int, f uint16) int {
	if i < 0 {
		return 0
	}
	n, end := 0, int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		if x.nodes[c].Field == f {
			n++
		}
	}
	return n
}

// childKind returns the first child of i of kind k, or -1.
func (x *extractor) childKind(i int, k kind) int {
	if i < 0 {
		return -1
	}
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		if x.kind(c) == k {
			return c
		}
	}
	return -1
}

// namedChildren appends the named, non-comment children of i to buf.
func (x *extractor) namedChildren(i int, buf []int) []int {
	if i < 0 {
		return buf
	}
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		nd := &x.nodes[c]
		if nd.IsNamed() && nd.Flags&treesitter.Extra == 0 {
			buf = append(buf, c)
		}
	}
	return buf
}

// unparen strips parentheses around a single expression.
func (x *extractor) unparen(i int) int {
	for k := 0; k < maxDepth && i >= 0 && x.kind(i) == kParen; k++ {
		var buf [2]int
		kids := x.namedChildren(i, buf[:0])
		if len(kids) != 1 {
			return i
		}
		i = kids[0]
	}
	return i
}

// maxDepth bounds every recursion over expressions; deeper values are
// Unknown and deeper strings are not facts.
const maxDepth = 32

func (x *extractor) pos(off uint32) facts.Pos {
	o := int(off)
	if o > len(x.src) {
		o = len(x.src)
	}
	l, c := x.lines.Position(o)
	return facts.Pos{Line: l, Col: c, Offset: o}
}
