package python

// The facts that tell a set of accepted old spellings from a vocabulary:
// the comment written about a group, and unions of named collections.

import "bytes"

// noteAt is the comment about the line at off (facts.Group.Note): the
// "#" lines just above it, at most five, and the text after a "#" at the
// end of the line.
func (x *extractor) noteAt(off uint32) string {
	src := x.src
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := bytes.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += int(off)
	}
	var note []byte
	if i := bytes.IndexByte(src[off:end], '#'); i >= 0 {
		note = src[int(off)+i+1 : end]
	}
	for n, at := 0, start; n < 5 && at > 0; n++ {
		prev := bytes.LastIndexByte(src[:at-1], '\n') + 1
		line := bytes.TrimSpace(src[prev : at-1])
		if len(line) == 0 || line[0] != '#' {
			break
		}
		note = append(append(append([]byte{}, line[1:]...), ' '), note...)
		at = prev
	}
	return string(bytes.TrimSpace(note))
}

// unionParts returns the names a union of named collections unites (A |
// B | C, A.union(B), {*A, *B}, with frozenset(...) or set(...) around a
// name), or nil when i is no such union.
func (x *extractor) unionParts(i int) []string {
	var parts []string
	var walk func(n, depth int) bool
	name := func(n int) bool {
		n = x.unparen(n)
		if x.kind(n) == kCall { // frozenset(A), set(A)
			fn, args := x.child(n, fFunction), x.child(n, fArguments)
			if f := string(x.text(fn)); f != "set" && f != "frozenset" || args < 0 {
				return false
			}
			var buf [2]int
			a := x.namedChildren(args, buf[:0])
			if len(a) != 1 {
				return false
			}
			n = x.unparen(a[0])
		}
		if x.kind(n) == kAttr { // self.CANONICAL, states.LEGACY
			n = x.child(n, fAttribute)
		}
		if x.kind(n) != kIdent {
			return false
		}
		parts = append(parts, string(x.text(n)))
		return true
	}
	walk = func(n, depth int) bool {
		n = x.unparen(n)
		if depth > 8 {
			return false
		}
		switch x.kind(n) {
		case kBinaryOp:
			op := x.child(n, fOperator)
			if op < 0 || string(x.text(op)) != "|" {
				return false
			}
			return walk(x.child(n, fLeft), depth+1) && walk(x.child(n, fRight), depth+1)
		case kSet:
			end := int(x.nodes[n].End)
			for c := x.first(n); c >= 0; c = x.next(c, end) {
				if !x.named(c) {
					continue
				}
				if x.kind(c) != kListSplat || !name(x.namedFirst(c)) {
					return false
				}
			}
			return true
		case kCall:
			fn, args := x.child(n, fFunction), x.child(n, fArguments)
			if x.kind(fn) == kAttr && string(x.text(x.child(fn, fAttribute))) == "union" && args >= 0 {
				if !name(x.child(fn, fObject)) {
					return false
				}
				var buf [4]int
				for _, a := range x.namedChildren(args, buf[:0]) {
					if !name(a) {
						return false
					}
				}
				return true
			}
		}
		return name(n)
	}
	if !walk(i, 0) || len(parts) < 2 {
		return nil
	}
	return parts
}
