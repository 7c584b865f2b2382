package python

import "bytes"

// rejected tells whether the literal at node i is an input a test
// expects to be refused (facts.Mapping.Rejected): its row (the tuple or
// list it is an item of) holds False, or it lies under `with
// pytest.raises(...)` or `self.assertRaises(...)`, or in a test function
// named for invalid input or that asserts a failure (assert not ok,
// assertFalse). x.stack holds i's ancestors, its parent last.
func (x *extractor) rejected(i int) bool {
	row := true // the first tuple or list up from i is its row
	for k := len(x.stack) - 1; k >= 0; k-- {
		a := int(x.stack[k])
		switch x.kind(a) {
		case kParen:
		case kTuple, kList:
			if row && x.holdsFalse(a) {
				return true
			}
			row = false
		case kWith:
			if x.raises(a) {
				return true
			}
		case kFunc:
			if c := x.child(a, fName); c >= 0 && (rejectingTest(x.text(c)) || x.expectsFailure(a)) {
				return true
			}
		default:
			row = false
		}
	}
	return false
}

// holdsFalse reports a tuple or list with False among its items.
func (x *extractor) holdsFalse(i int) bool {
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		if x.kind(c) == kFalse {
			return true
		}
	}
	return false
}

// raises reports a with statement whose context manager expects an
// exception: pytest.raises(...), self.assertRaises(...),
// assertRaisesRegex(...).
func (x *extractor) raises(i int) bool {
	wc := x.childKind(i, kWithClause)
	if wc < 0 {
		return false
	}
	we := int(x.nodes[wc].End)
	for it := x.first(wc); it >= 0; it = x.next(it, we) {
		v := x.child(it, fValue)
		if x.kind(v) == kAsPattern {
			v = x.first(v)
		}
		if x.kind(v) != kCall {
			continue
		}
		fn := x.child(v, fFunction)
		if x.kind(fn) == kAttr {
			fn = x.child(fn, fAttribute)
		}
		if name := x.text(fn); bytes.Equal(name, []byte("raises")) || bytes.HasPrefix(name, []byte("assertRaises")) {
			return true
		}
	}
	return false
}

// rejectingTest reports a test function named for invalid input.
func rejectingTest(name []byte) bool {
	if !bytes.HasPrefix(name, []byte("test")) {
		return false
	}
	low := bytes.ToLower(name)
	for _, w := range [...]string{"invalid", "reject", "malformed", "bad_"} {
		if bytes.Contains(low, []byte(w)) {
			return true
		}
	}
	return false
}

// expectsFailure reports a test function (test_*) whose body asserts a
// failure: assert not ..., self.assertFalse(...). Cached per function.
func (x *extractor) expectsFailure(fn int) bool {
	if v, ok := x.failing[int32(fn)]; ok {
		return v
	}
	v := false
	if c := x.child(fn, fName); c >= 0 && bytes.HasPrefix(x.text(c), []byte("test")) {
		end := int(x.nodes[fn].End)
		for i := fn + 1; i < end && !v; i++ {
			switch x.kind(i) {
			case kAssert: // assert not ok, assert not ok and errors
				t := x.text(x.namedFirst(i))
				v = len(t) > 3 && bytes.HasPrefix(t, []byte("not")) && (t[3] == ' ' || t[3] == '(' || t[3] == '\t')
			case kCall:
				if f := x.child(i, fFunction); x.kind(f) == kAttr {
					v = bytes.Equal(x.text(x.child(f, fAttribute)), []byte("assertFalse"))
				}
			}
		}
	}
	if x.failing == nil {
		x.failing = map[int32]bool{}
	}
	x.failing[int32(fn)] = v
	return v
}

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
