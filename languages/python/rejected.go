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
