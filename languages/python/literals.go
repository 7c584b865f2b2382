package python

// String literals, values of mapping entries, and where literals are emitted.

import (
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/treesitter"
)

// literal returns the value of a str literal node (string or
// concatenated_string), and false for anything else: byte strings,
// f-strings with placeholders, and strings broken by syntax errors.
func (x *extractor) literal(i int) (string, bool) {
	switch x.kind(i) {
	case kString:
		bs, be, flags, ok := x.stringBody(i)
		if !ok {
			return "", false
		}
		return decodeBody(x.src[bs:be], flags), true
	case kConcat:
		if !x.isString(i) {
			return "", false
		}
		var b []byte
		end := int(x.nodes[i].End)
		for c := x.first(i); c >= 0; c = x.next(c, end) {
			if x.kind(c) == kString {
				bs, be, flags, _ := x.stringBody(c)
				b = append(b, decodeBody(x.src[bs:be], flags)...)
			}
		}
		return string(b), true
	}
	return "", false
}

// isString reports whether literal(i) would succeed, without decoding.
func (x *extractor) isString(i int) bool {
	switch x.kind(i) {
	case kString:
		_, _, _, ok := x.stringBody(i)
		return ok
	case kConcat:
		if x.nodes[i].HasError() {
			return false
		}
		parts := 0
		end := int(x.nodes[i].End)
		for c := x.first(i); c >= 0; c = x.next(c, end) {
			switch x.kind(c) {
			case kString:
				if _, _, _, ok := x.stringBody(c); !ok {
					return false
				}
				parts++
			case kComment:
			default:
				if x.nodes[c].IsNamed() {
					return false
				}
			}
		}
		return parts > 0
	}
	return false
}

// stringBody returns the byte range between the quotes of a string node
// and its prefix flags, or false if it is not a plain str literal.
func (x *extractor) stringBody(i int) (bs, be, flags int, ok bool) {
	nd := &x.nodes[i]
	if nd.HasError() {
		return 0, 0, 0, false
	}
	start, end := -1, -1
	ne := int(nd.End)
	for c := x.first(i); c >= 0; c = x.next(c, ne) {
		switch x.kind(c) {
		case kStringStart:
			start = c
		case kStringEnd:
			end = c
		case kInterpolation:
			return 0, 0, 0, false
		}
	}
	if start < 0 || end < 0 || x.nodes[end].IsMissing() {
		return 0, 0, 0, false
	}
	flags, ok = parsePrefix(x.text(start))
	if !ok || flags&pBytes != 0 {
		return 0, 0, 0, false
	}
	bs, be = int(x.nodes[start].EndByte), int(x.nodes[end].StartByte)
	if bs > be || be > len(x.src) {
		return 0, 0, 0, false
	}
	return bs, be, flags, true
}

// emit records string literal i and returns its index in Strings, or -1
// when i is not a plain str literal.
func (x *extractor) emit(i int, role facts.Role, key, recv string, mapping, group int) int {
	v, ok := x.literal(i)
	if !ok {
		return -1
	}
	nd := &x.nodes[i]
	x.f.Strings = append(x.f.Strings, facts.String{
		Value:    v,
		Pos:      x.pos(nd.StartByte),
		End:      x.pos(nd.EndByte),
		Role:     role,
		Key:      key,
		Receiver: recv,
		Scope:    x.scope().name,
		Mapping:  mapping,
		Group:    group,
	})
	return len(x.f.Strings) - 1
}

// valueSite says how emitValues treats containers.
type valueSite struct {
	role           facts.Role
	key, recv      string
	mapping, group int
	containers     bool // strings inside list/tuple/set displays count too
	pendingName    string
}

// emitValues records the string literals that expression i evaluates to:
// i itself, the branches of a conditional expression or and/or, and with
// s.containers the elements of a list, tuple or set display.
func (x *extractor) emitValues(i int, s *valueSite, depth int) {
	if i < 0 || depth > maxDepth {
		return
	}
	i = x.unparen(i)
	switch x.kind(i) {
	case kString, kConcat:
		if k := x.emit(i, s.role, s.key, s.recv, s.mapping, s.group); k >= 0 && s.pendingName != "" {
			sc := x.scope()
			sc.pending = append(sc.pending, pendingAssign{str: k, name: s.pendingName})
		}
	case kCond:
		// a if cond else b: the values are a and b.
		var buf [4]int
		kids := x.namedChildren(i, buf[:0])
		if len(kids) == 3 {
			x.emitValues(kids[0], s, depth+1)
			x.emitValues(kids[2], s, depth+1)
		}
	case kBoolOp:
		x.emitValues(x.child(i, fLeft), s, depth+1)
		x.emitValues(x.child(i, fRight), s, depth+1)
	case kList, kTuple, kSet, kExprList:
		if !s.containers {
			return
		}
		end := int(x.nodes[i].End)
		for c := x.first(i); c >= 0; c = x.next(c, end) {
			if x.nodes[c].IsNamed() {
				x.emitValues(c, s, depth+1)
			}
		}
	}
}

// maxValues is the most values one extraction may build, the budget of
// nodes of a YAML or JSON document (yamlnode.DefaultLimits). Past it,
// every value not yet built is computed.
const maxValues = 1_000_000

// valueState holds the values built in one extraction, so that each is
// built once: a dict nested in another is the value of an entry of the
// outer one and a Mapping of its own, and both hold the one map.
type valueState struct {
	// slot[i] is 1 + the index in vals of node i's value, 0 until it is
	// built; slot is sized to the tree on the first value of a file.
	// node[k] is the node of vals[k], for reset to clear its slot.
	slot  []int32
	vals  []any
	node  []int32
	ready bool
	// max is the budget of values (maxValues unless a test sets another).
	max int
}

func (s *valueState) reset() {
	for _, i := range s.node {
		s.slot[i] = 0
	}
	clear(s.vals)
	s.vals, s.node = s.vals[:0], s.node[:0]
	s.ready = false
}

// release clears s for the pool and drops very large buffers.
func (s *valueState) release() {
	s.reset()
	if cap(s.slot) > 1<<20 {
		s.slot = nil
	}
	if cap(s.vals) > 1<<20 {
		s.vals, s.node = nil, nil
	}
}

// built is the number of values built.
func (s *valueState) built() int { return len(s.vals) }

func (s *valueState) budget() int {
	if s.max > 0 {
		return s.max
	}
	return maxValues
}

// value returns the literal value of expression i for a mapping entry,
// depth levels below the entry that asked first. Each value is built
// once, by the first entry or enclosing value that asks for it, and
// shared from then on: the entry of an outer dict asks before the
// entries of the dicts inside it (the walk is in preorder). A value more
// than maxDepth levels below the entry that asks is computed there, and
// built when an entry closer to it asks; past the extraction's budget of
// values every value not yet built is computed.
func (x *extractor) value(i int, depth int) any {
	if i < 0 || depth > maxDepth || x.nodes[i].HasError() {
		return facts.Unknown{}
	}
	i = x.unparen(i)
	s := &x.vs
	if !s.ready {
		if cap(s.slot) < len(x.nodes) {
			s.slot = make([]int32, len(x.nodes))
		}
		s.slot = s.slot[:len(x.nodes)]
		s.ready = true
	}
	if k := s.slot[i]; k > 0 {
		return s.vals[k-1]
	}
	if len(s.vals) >= s.budget() {
		return facts.Unknown{}
	}
	// vals[k] is taken before the elements are built, which append theirs
	k := len(s.vals)
	s.vals = append(s.vals, nil)
	s.node = append(s.node, int32(i))
	v := x.build(i, depth)
	s.vals[k] = v
	s.slot[i] = int32(k + 1)
	return v
}

// build builds the value of expression i (not parenthesized), its
// elements through value.
func (x *extractor) build(i int, depth int) any {
	switch x.kind(i) {
	case kString, kConcat:
		if v, ok := x.literal(i); ok {
			return v
		}
	case kInteger:
		if v, ok := parseInt(x.text(i)); ok {
			return v
		}
	case kFloat:
		if v, ok := parseFloat(x.text(i)); ok {
			return v
		}
	case kTrue:
		return true
	case kFalse:
		return false
	case kNone:
		return nil
	case kUnary:
		op, arg := x.child(i, fOperator), x.child(i, fArgument)
		if op < 0 || arg < 0 {
			break
		}
		v := x.value(arg, depth+1)
		neg := x.kind(op) == kOpMinus
		if !neg && x.kind(op) != kOpPlus {
			break
		}
		switch n := v.(type) {
		case int64:
			if neg {
				if n == -n && n != 0 { // math.MinInt64 has no negation
					return -float64(n)
				}
				return -n
			}
			return n
		case float64:
			if neg {
				return -n
			}
			return n
		}
	case kList, kTuple, kSet:
		out := []any{}
		end := int(x.nodes[i].End)
		for c := x.first(i); c >= 0; c = x.next(c, end) {
			nd := &x.nodes[c]
			if !nd.IsNamed() || nd.Flags&treesitter.Extra != 0 {
				continue
			}
			if x.kind(c) == kListSplat {
				return facts.Unknown{} // *rest: the length is not known
			}
			out = append(out, x.value(c, depth+1))
		}
		return out
	case kDict:
		out := map[string]any{}
		end := int(x.nodes[i].End)
		for c := x.first(i); c >= 0; c = x.next(c, end) {
			switch x.kind(c) {
			case kPair:
				k, ok := x.literalOf(x.child(c, fKey))
				if !ok {
					return facts.Unknown{}
				}
				out[k] = x.value(x.child(c, fValue), depth+1)
			case kDictSplat:
				return facts.Unknown{}
			}
		}
		return out
	}
	return facts.Unknown{}
}

// literalOf is literal for a possibly parenthesized expression.
func (x *extractor) literalOf(i int) (string, bool) {
	if i < 0 {
		return "", false
	}
	return x.literal(x.unparen(i))
}
