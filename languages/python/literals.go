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

// value returns the literal value of expression i for a mapping entry.
func (x *extractor) value(i int, depth int) any {
	if i < 0 || depth > maxDepth || x.nodes[i].HasError() {
		return facts.Unknown{}
	}
	i = x.unparen(i)
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
