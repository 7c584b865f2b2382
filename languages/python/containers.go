package python

import (
	"context"
	"fmt"
	"strconv"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/treesitter"
)

// SyntaxError is a place where tree-sitter found Python it cannot read.
type SyntaxError struct{ Line, Col int }

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%d:%d: syntax error", e.Line, e.Col)
}

// Containers parses src as Python and lists, in source order, the dict
// displays (their str and int literal keys) and set displays (their str
// and int literal members): the places where two equal constants are a
// silent bug, a key whose value is lost or a member counted once. A
// syntax error anywhere is returned as a *SyntaxError, with no
// containers; so is a failure to parse at all (too large, too slow).
func Containers(src []byte) ([]facts.Container, error) {
	x := extractors.Get().(*extractor)
	defer x.release()
	err := parserPool().Parse(context.Background(), src, func(t *treesitter.Tree) error {
		x.nodes = t.Flatten(x.nodes)
		return nil
	})
	if err != nil {
		return nil, err
	}
	x.src = src
	x.lines.Reset(src)
	n := x.nodes
	if len(n) > 0 && n[0].HasError() {
		for i := range n {
			if n[i].IsError() || n[i].IsMissing() {
				p := x.pos(n[i].StartByte)
				return nil, &SyntaxError{Line: p.Line, Col: p.Col}
			}
		}
		return nil, &SyntaxError{Line: 1, Col: 1}
	}
	var out []facts.Container
	var kids []int
	for i := range n {
		var c facts.Container
		switch x.kind(i) {
		case kDict:
			c.Kind = "dict"
			kids = x.namedChildren(i, kids[:0])
			for _, p := range kids {
				if x.kind(p) == kPair {
					if k, ok := x.constKey(x.child(p, fKey)); ok {
						c.Keys = append(c.Keys, k)
					}
				}
			}
		case kSet:
			c.Kind = "set"
			kids = x.namedChildren(i, kids[:0])
			for _, m := range kids {
				if k, ok := x.constKey(m); ok {
					c.Keys = append(c.Keys, k)
				}
			}
		default:
			continue
		}
		c.Line = x.pos(n[i].StartByte).Line
		out = append(out, c)
	}
	return out, nil
}

// constKey is the key of a str or int literal (parentheses aside).
func (x *extractor) constKey(i int) (facts.Key, bool) {
	i = x.unparen(i)
	if i < 0 {
		return facts.Key{}, false
	}
	line := x.pos(x.nodes[i].StartByte).Line
	if v, ok := x.literal(i); ok {
		return facts.Key{Value: "s:" + v, Text: strconv.Quote(v), Line: line}, true
	}
	if x.kind(i) == kInteger {
		t := string(x.text(i))
		return facts.Key{Value: "i:" + t, Text: t, Line: line}, true
	}
	return facts.Key{}, false
}
