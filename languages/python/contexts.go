package python

// The contexts that make a literal a fact: subjects, mappings, assignments,
// comparisons, returns, match statements, groups.

import (
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/treesitter"
)

// normalizers are no-argument str methods that keep a value's identity for
// our purpose: h.status.lower() == "done" is still about h.status.
var normalizers = [...]string{"lower", "upper", "casefold", "strip", "lstrip", "rstrip", "title"}

func isNormalizer(b []byte) bool {
	for _, n := range normalizers {
		if string(b) == n {
			return true
		}
	}
	return false
}

// subject returns the field (key) and object (recv) expression i reads:
// x.k, x["k"], x.get("k"[, d]), getattr(x, "k"[, d]), a name, or a local
// bound from one of those. fieldRead reports whether i reads a field of an
// object (not a bare name); key is "" when i is none of these.
func (x *extractor) subject(i int) (key, recv string, fieldRead bool) {
	for depth := 0; i >= 0 && depth < maxDepth; depth++ {
		i = x.unparen(i)
		switch x.kind(i) {
		case kAttr:
			obj, attr := x.child(i, fObject), x.child(i, fAttribute)
			if obj < 0 || attr < 0 {
				return "", "", false
			}
			return string(x.text(attr)), string(x.text(obj)), true
		case kSubscript:
			val, sub := x.child(i, fValue), x.child(i, fSubscript)
			if val < 0 || sub < 0 || x.countField(i, fSubscript) != 1 {
				return "", "", false
			}
			k, ok := x.literalOf(sub)
			if !ok {
				return "", "", false
			}
			return k, string(x.text(val)), true
		case kCall:
			fn, args := x.child(i, fFunction), x.child(i, fArguments)
			if fn < 0 || args < 0 || x.kind(args) != kArgList {
				return "", "", false
			}
			var buf [4]int
			a := x.namedChildren(args, buf[:0])
			switch x.kind(fn) {
			case kAttr:
				obj, attr := x.child(fn, fObject), x.child(fn, fAttribute)
				if obj < 0 || attr < 0 {
					return "", "", false
				}
				name := x.text(attr)
				if len(a) == 0 && isNormalizer(name) {
					i = obj
					continue
				}
				if string(name) == "get" && len(a) >= 1 && len(a) <= 2 {
					if k, ok := x.literalOf(a[0]); ok {
						return k, string(x.text(obj)), true
					}
				}
			case kIdent:
				if string(x.text(fn)) == "getattr" && len(a) >= 2 && len(a) <= 3 {
					if k, ok := x.literalOf(a[1]); ok {
						return k, string(x.text(a[0])), true
					}
				}
			}
			return "", "", false
		case kNamedExpr:
			// (s := msg.status) == "x" compares msg.status.
			i = x.child(i, fValue)
			continue
		case kIdent:
			name := x.text(i)
			if b, ok := x.scope().bindings[string(name)]; ok {
				return b.key, b.recv, true
			}
			return string(name), "", false
		default:
			return "", "", false
		}
	}
	return "", "", false
}

// dict records a dict display with string keys as a Mapping, its string
// keys as RoleKey and its values as RoleValue.
func (x *extractor) dict(i int) {
	if x.nodes[i].HasError() {
		return
	}
	end := int(x.nodes[i].End)
	has := false
	for c := x.first(i); c >= 0 && !has; c = x.next(c, end) {
		if x.kind(c) == kPair {
			has = x.isString(x.unparen(x.child(c, fKey)))
		}
	}
	if !has {
		return
	}
	mi := len(x.f.Mappings)
	x.f.Mappings = append(x.f.Mappings, facts.Mapping{Pos: x.pos(x.nodes[i].StartByte), InCode: true, Rejected: x.rejected(i)})
	x.nameMapping(i, mi)
	var entries []facts.Entry
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		if x.kind(c) != kPair {
			continue
		}
		kn, vn := x.child(c, fKey), x.child(c, fValue)
		k, ok := x.literalOf(kn)
		if !ok || vn < 0 {
			continue
		}
		kn = x.unparen(kn)
		x.emit(kn, facts.RoleKey, "", "", mi, -1)
		entries = x.entry(entries, mi, k, kn, vn)
	}
	x.f.Mappings[mi].Entries = entries
}

// entry appends the entry key: value (nodes kn, vn) of mapping mi and
// emits the string values under it.
func (x *extractor) entry(entries []facts.Entry, mi int, k string, kn, vn int) []facts.Entry {
	entries = append(entries, facts.Entry{
		Key:    k,
		KeyPos: x.pos(x.nodes[kn].StartByte),
		ValPos: x.pos(x.nodes[x.unparen(vn)].StartByte),
		Value:  x.value(vn, 0),
	})
	x.emitValues(vn, &valueSite{role: facts.RoleValue, key: k, mapping: mi, group: -1, containers: true}, 0)
	return entries
}

// calleeName returns the last name of a call's function: "Handback" for
// Handback(...) and models.Handback(...).
func (x *extractor) calleeName(fn int) string {
	switch x.kind(fn) {
	case kIdent:
		return string(x.text(fn))
	case kAttr:
		if a := x.child(fn, fAttribute); a >= 0 {
			return string(x.text(a))
		}
	}
	return ""
}

func (x *extractor) call(i int) {
	if x.nodes[i].HasError() {
		return
	}
	fn, args := x.child(i, fFunction), x.child(i, fArguments)
	if fn < 0 || args < 0 || x.kind(args) != kArgList {
		return
	}
	end := int(x.nodes[args].End)
	var pos [3]int
	npos, kw := 0, 0
	for c := x.first(args); c >= 0; c = x.next(c, end) {
		nd := &x.nodes[c]
		if !nd.IsNamed() || nd.Flags&treesitter.Extra != 0 {
			continue
		}
		if x.kind(c) == kKwarg {
			kw++
		} else if npos < len(pos) {
			pos[npos] = c
			npos++
		}
	}
	// The default of x.get("k", "d") and getattr(x, "k", "d") is a value
	// of field k.
	name := x.calleeName(fn)
	if (name == "get" || name == "setdefault") && x.kind(fn) == kAttr && npos == 2 {
		if k, ok := x.literalOf(pos[0]); ok {
			recv := string(x.text(x.child(fn, fObject)))
			x.emitValues(pos[1], &valueSite{role: facts.RoleValue, key: k, recv: recv, mapping: -1, group: -1}, 0)
		}
	} else if name == "getattr" && x.kind(fn) == kIdent && npos == 3 {
		if k, ok := x.literalOf(pos[1]); ok {
			x.emitValues(pos[2], &valueSite{role: facts.RoleValue, key: k, recv: string(x.text(pos[0])), mapping: -1, group: -1}, 0)
		}
	}
	// ROUTES.get(h.status[, default]) looks the field's value up in ROUTES;
	// x.get("status") reads a field instead.
	if name == "get" && x.kind(fn) == kAttr && kw == 0 && (npos == 1 || npos == 2) && !x.isString(x.unparen(pos[0])) {
		x.test(x.child(fn, fObject), pos[0], i)
	}
	if kw == 0 {
		x.enumCall(fn, pos[:npos])
		return
	}
	mi := len(x.f.Mappings)
	x.f.Mappings = append(x.f.Mappings, facts.Mapping{Pos: x.pos(x.nodes[i].StartByte), TypeName: name, Call: true, InCode: true, Rejected: x.rejected(i)})
	if name == "dict" && x.kind(fn) == kIdent {
		x.nameMapping(i, mi)
	}
	entries := make([]facts.Entry, 0, kw)
	for c := x.first(args); c >= 0; c = x.next(c, end) {
		if x.kind(c) != kKwarg {
			continue
		}
		kn, vn := x.child(c, fName), x.child(c, fValue)
		if kn < 0 || vn < 0 {
			continue
		}
		entries = x.entry(entries, mi, string(x.text(kn)), kn, vn)
	}
	x.f.Mappings[mi].Entries = entries
}

// inBody reports whether statement node i (an assignment) sits directly in
// the body of the current class scope.
func (x *extractor) inClassBody(i int) bool {
	s := x.scope()
	if s.kind != scopeClass || len(x.stack) < 3 {
		return false
	}
	st := x.stack
	// assignment <- expression_statement <- block <- class_definition
	return x.kind(int(st[len(st)-1])) == kExprStmt && x.kind(int(st[len(st)-2])) == kBlock &&
		st[len(st)-3] == s.node
}

func (x *extractor) assign(i int) {
	if x.nodes[i].HasError() {
		return
	}
	left, right := x.child(i, fLeft), x.child(i, fRight)
	if left < 0 || right < 0 {
		return
	}
	s := x.scope()
	if x.kind(left) == kIdent {
		name := string(x.text(left))
		// Enum members.
		if s.enum && x.inClassBody(i) && len(name) > 0 && name[0] != '_' {
			if r := x.unparen(right); x.isString(r) {
				if s.group < 0 {
					at := x.nodes[s.node].StartByte
					if id := x.child(int(s.node), fName); id >= 0 {
						at = x.nodes[id].StartByte
					}
					s.group = x.newGroup(facts.GroupEnum, s.name[lastDot(s.name)+1:], at)
					// The enum is defined where its class is.
					x.f.Groups[s.group].Scope = x.scopes[len(x.scopes)-2].name
				}
				x.member(r, name, s.group)
				return
			}
		}
		if parts := x.unionParts(right); len(parts) >= 2 {
			x.f.Unions = append(x.f.Unions, facts.Union{Name: name, Parts: parts, Scope: s.name, Pos: x.pos(x.nodes[left].StartByte)})
		}
		// Sets of strings, at any level. A local one the function never
		// reads is dropped with its group, like any dead store.
		if elems := x.stringSet(right); len(elems) > 0 {
			g := x.newGroup(facts.GroupSet, name, x.nodes[left].StartByte)
			for _, e := range elems {
				if k := x.member(e, name, g); k >= 0 && s.kind == scopeFunc {
					s.pending = append(s.pending, pendingAssign{str: k, name: name})
				}
			}
			if s.bindings != nil {
				delete(s.bindings, name)
			}
			return
		}
		x.bind(name, right)
		site := valueSite{role: facts.RoleAssign, key: name, mapping: -1, group: -1, containers: true}
		if s.kind == scopeFunc {
			site.pendingName = name
		}
		x.emitValues(right, &site, 0)
		return
	}
	x.assignTo(left, right, 0)
}

// assignTo records the strings assigned to target left: an attribute, a
// string subscript, or (pairwise) the names of an unpacking.
func (x *extractor) assignTo(left, right int, depth int) {
	if depth > maxDepth {
		return
	}
	switch x.kind(left) {
	case kIdent:
		name := string(x.text(left))
		site := valueSite{role: facts.RoleAssign, key: name, mapping: -1, group: -1}
		if x.scope().kind == scopeFunc {
			site.pendingName = name
		}
		x.emitValues(right, &site, 0)
	case kAttr, kSubscript:
		if x.kind(left) == kAttr && depth == 0 && x.attrSet(left, right) {
			return
		}
		key, recv, ok := x.subject(left)
		if !ok {
			return
		}
		x.heldTest(right, key, recv, left)
		x.emitValues(right, &valueSite{role: facts.RoleAssign, key: key, recv: recv, mapping: -1, group: -1, containers: true}, 0)
	case kPatternList, kTuplePattern, kListPattern, kTuple, kList:
		right = x.unparen(right)
		if rk := x.kind(right); rk != kExprList && rk != kTuple && rk != kList {
			return
		}
		var lb, rb [8]int
		ls, rs := x.namedChildren(left, lb[:0]), x.namedChildren(right, rb[:0])
		if len(ls) != len(rs) {
			return
		}
		for k := range ls {
			x.assignTo(ls[k], rs[k], depth+1)
		}
	}
}

// bind records or forgets that local name holds a field read.
func (x *extractor) bind(name string, right int) {
	s := x.scope()
	key, recv, field := x.subject(right)
	if field && key != "" {
		if s.bindings == nil {
			s.bindings = make(map[string]binding)
		}
		s.bindings[name] = binding{key, recv}
		return
	}
	if s.bindings != nil {
		delete(s.bindings, name)
	}
}

func (x *extractor) namedExpr(i int) {
	if x.nodes[i].HasError() {
		return
	}
	name, val := x.child(i, fName), x.child(i, fValue)
	if name < 0 || val < 0 {
		return
	}
	x.bind(string(x.text(name)), val)
}

// stringSet returns the elements of a set, list, tuple or
// frozenset/set/tuple/list(...) of a display, when every element is a str
// literal.
func (x *extractor) stringSet(i int) []int {
	i = x.unparen(i)
	if x.kind(i) == kCall {
		fn, args := x.child(i, fFunction), x.child(i, fArguments)
		if fn < 0 || args < 0 || x.kind(fn) != kIdent || x.kind(args) != kArgList {
			return nil
		}
		switch string(x.text(fn)) {
		case "frozenset", "set", "tuple", "list":
		default:
			return nil
		}
		var buf [2]int
		a := x.namedChildren(args, buf[:0])
		if len(a) != 1 {
			return nil
		}
		i = x.unparen(a[0])
	}
	switch x.kind(i) {
	case kSet, kList, kTuple:
	default:
		return nil
	}
	var out []int
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		nd := &x.nodes[c]
		if !nd.IsNamed() || nd.Flags&treesitter.Extra != 0 {
			continue
		}
		e := x.unparen(c)
		if !x.isString(e) {
			return nil
		}
		out = append(out, e)
	}
	return out
}

// newGroup appends a group defined in the current scope (the Scope its
// members get).
func (x *extractor) newGroup(k facts.GroupKind, name string, off uint32) int {
	x.f.Groups = append(x.f.Groups, facts.Group{Kind: k, Name: name, Pos: x.pos(off), Scope: x.scope().name, Note: x.noteAt(off)})
	return len(x.f.Groups) - 1
}

// member emits string i as a member of group g and returns its index in
// Strings, or -1.
func (x *extractor) member(i int, key string, g int) int {
	k := x.emit(i, facts.RoleMember, key, "", -1, g)
	if k >= 0 {
		x.f.Groups[g].Members = append(x.f.Groups[g].Members, k)
	}
	return k
}

// nameMapping gives mapping mi, made of node i (a dict display or dict
// call), the name it is bound to: the target of an assignment (annotated
// or not) whose value is i, parentheses aside. Its scope is the current
// one.
func (x *extractor) nameMapping(i, mi int) {
	st := x.stack
	k := len(st) - 1 // the parent of i: visit(i) comes before i is pushed
	for k >= 0 && x.kind(int(st[k])) == kParen {
		i = int(st[k])
		k--
	}
	if k < 0 || x.kind(int(st[k])) != kAssign || x.nodes[i].Field != fRight {
		return
	}
	left := x.child(int(st[k]), fLeft)
	if x.kind(left) != kIdent || len(x.text(left)) == 0 { // a name lost to a syntax error
		return
	}
	m := &x.f.Mappings[mi]
	m.Name, m.Scope = string(x.text(left)), x.scope().name
}

// collection returns the node of the name the collection expression i is
// bound to: NAME, the last name of mod.NAME or self.NAME, and that of
// NAME.keys(); -1 for anything else.
func (x *extractor) collection(i int) int {
	i = x.unparen(i)
	if x.kind(i) == kCall {
		fn, args := x.child(i, fFunction), x.child(i, fArguments)
		if x.kind(fn) != kAttr || x.kind(args) != kArgList {
			return -1
		}
		var buf [1]int
		if a := x.child(fn, fAttribute); a < 0 || string(x.text(a)) != "keys" || len(x.namedChildren(args, buf[:0])) > 0 {
			return -1
		}
		i = x.unparen(x.child(fn, fObject))
	}
	switch x.kind(i) {
	case kIdent:
		return i
	case kAttr:
		return x.child(i, fAttribute)
	}
	return -1
}

// test records a lookup of what expression subj reads in the collection
// expression coll (a membership test, subscript or get, node at): a Test
// when subj reads a field or variable, as a comparison would see it, and
// coll is bound to a name.
func (x *extractor) test(coll, subj, at int) {
	if coll < 0 || subj < 0 {
		return
	}
	name := x.collection(coll)
	if name < 0 {
		return
	}
	key, recv, _ := x.subject(subj)
	if key == "" {
		return
	}
	x.f.Tests = append(x.f.Tests, facts.Test{
		Collection: string(x.text(name)),
		Key:        key, Receiver: recv,
		Scope: x.scope().name,
		Pos:   x.pos(x.nodes[at].StartByte),
	})
}

// lookup records ROUTES[h.status], a subscript read (not an assignment
// target) by one expression that is not a string: a string subscript reads
// a field.
func (x *extractor) lookup(i int) {
	nd := &x.nodes[i]
	if nd.HasError() || nd.Field == fLeft || x.countField(i, fSubscript) != 1 {
		return
	}
	if k := len(x.stack) - 1; k >= 0 && x.kind(int(x.stack[k])) == kDelete {
		return
	}
	sub := x.unparen(x.child(i, fSubscript))
	if x.isString(sub) {
		return
	}
	x.test(x.child(i, fValue), sub, i)
}

func lastDot(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return i
		}
	}
	return -1
}

// compare records the strings compared in a comparison chain.
func (x *extractor) compare(i int) {
	if x.nodes[i].HasError() {
		return
	}
	// operands and operators alternate; comments may sit in between.
	var ob, pb [8]int
	operands, ops := ob[:0], pb[:0]
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		nd := &x.nodes[c]
		if nd.Flags&treesitter.Extra != 0 {
			continue
		}
		if nd.Field == fOperators {
			ops = append(ops, c)
		} else {
			operands = append(operands, c)
		}
	}
	if len(operands) != len(ops)+1 {
		return
	}
	// In a chain (a == "x" == b) a literal between two comparisons is
	// reported once, with its left partner.
	emitted := -1
	cmp := func(str, other, at int) {
		if at != emitted {
			x.compared(str, other)
			emitted = at
		}
	}
	for k, op := range ops {
		l, r := x.unparen(operands[k]), x.unparen(operands[k+1])
		ls, rs := x.isString(l), x.isString(r)
		switch x.kind(op) {
		case kOpEq, kOpNe, kOpIs, kOpIsNot:
			if ls && !rs {
				cmp(l, r, k)
			} else if rs && !ls {
				cmp(r, l, k+1)
			} else if !ls && !rs {
				x.heldCompare(l, r)
			}
		case kOpIn, kOpNotIn:
			switch rk := x.kind(r); {
			case rk == kTuple || rk == kList || rk == kSet:
				if ls {
					break
				}
				key, recv, _ := x.subject(l)
				x.emitValues(r, &valueSite{role: facts.RoleCompare, key: key, recv: recv, mapping: -1, group: -1, containers: true}, 0)
				emitted = k + 1
			case ls && !rs:
				cmp(l, r, k)
			case rs && !ls:
				cmp(r, l, k+1)
			}
			if !ls {
				n := len(x.f.Tests)
				x.test(r, l, l)
				if len(x.f.Tests) > n && len(ops) == 1 {
					b := x.condBranch(i)
					if x.kind(op) == kOpNotIn {
						b = b.Flip()
					}
					x.f.Tests[n].Branch = b
				}
			}
		}
	}
}

func (x *extractor) compared(str, other int) {
	key, recv, _ := x.subject(other)
	x.emit(str, facts.RoleCompare, key, recv, -1, -1)
}

func (x *extractor) ret(i int) {
	if x.nodes[i].HasError() {
		return
	}
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		if x.nodes[c].IsNamed() && x.nodes[c].Flags&treesitter.Extra == 0 {
			x.emitValues(c, &valueSite{role: facts.RoleReturn, mapping: -1, group: -1, containers: true}, 0)
			return
		}
	}
}

func (x *extractor) paramDefault(i int) {
	if x.nodes[i].HasError() {
		return
	}
	name, val := x.child(i, fName), x.child(i, fValue)
	if name < 0 || val < 0 {
		return
	}
	x.emitValues(val, &valueSite{role: facts.RoleAssign, key: string(x.text(name)), mapping: -1, group: -1}, 0)
}

// match records the string cases of a match statement.
func (x *extractor) match(i int) {
	if x.nodes[i].HasError() {
		return
	}
	subj, body := x.child(i, fSubject), x.child(i, fBody)
	if subj < 0 || body < 0 {
		return
	}
	key, recv, _ := x.subject(subj)
	subjText := string(x.text(subj))
	m := caseSite{key: key, recv: recv, subj: subjText, group: -1, at: x.nodes[i].StartByte}
	end := int(x.nodes[body].End)
	for c := x.first(body); c >= 0; c = x.next(c, end) {
		if x.kind(c) != kCaseClause || x.nodes[c].HasError() {
			continue
		}
		// One case_pattern; several are a sequence pattern (case "a", "b"),
		// whose strings are not values of the subject.
		var pats [2]int
		np := 0
		ce := int(x.nodes[c].End)
		for p := x.first(c); p >= 0; p = x.next(p, ce) {
			if x.kind(p) == kCasePattern {
				if np < len(pats) {
					pats[np] = p
				}
				np++
			}
		}
		if np == 1 {
			x.casePattern(pats[0], &m, true, 0)
		}
	}
}

type caseSite struct {
	key, recv, subj string
	group           int
	at              uint32
}

// casePattern records the strings of pattern p. direct says p matches the
// subject itself (not a part of it).
func (x *extractor) casePattern(p int, m *caseSite, direct bool, depth int) {
	if p < 0 || depth > maxDepth {
		return
	}
	switch x.kind(p) {
	case kString, kConcat:
		if direct && x.isString(p) {
			if m.group < 0 {
				m.group = x.newGroup(facts.GroupCases, m.subj, m.at)
			}
			if k := x.emit(p, facts.RoleCase, m.key, m.recv, -1, m.group); k >= 0 {
				x.f.Groups[m.group].Members = append(x.f.Groups[m.group].Members, k)
			}
		}
	case kCasePattern, kUnionPattern:
		end := int(x.nodes[p].End)
		for c := x.first(p); c >= 0; c = x.next(c, end) {
			if x.nodes[c].IsNamed() {
				x.casePattern(c, m, direct, depth+1)
			}
		}
	case kAsPattern:
		x.casePattern(x.first(p), m, direct, depth+1)
	case kTuplePattern:
		// ("a" | "b") is a group, not a one-element sequence.
		var buf [2]int
		kids := x.namedChildren(p, buf[:0])
		if len(kids) == 1 && x.childKind(p, kComma) < 0 {
			x.casePattern(kids[0], m, direct, depth+1)
		}
	case kDictPattern:
		// {"status": "done", **rest}: a case on subject["status"].
		end := int(x.nodes[p].End)
		for c := x.first(p); c >= 0; c = x.next(c, end) {
			if x.nodes[c].Field != fKey {
				continue
			}
			k, ok := x.literalOf(c)
			v := x.next(c, end)
			for v >= 0 && x.nodes[v].Field != fValue {
				v = x.next(v, end)
			}
			if !ok || v < 0 {
				continue
			}
			sub := caseSite{key: k, recv: m.subj, group: -1}
			x.casePattern(v, &sub, false, depth+1)
			x.caseStrings(v, &sub, depth+1)
		}
	case kClassPattern:
		// Handback(status="done"): a case on subject.status.
		end := int(x.nodes[p].End)
		for c := x.first(p); c >= 0; c = x.next(c, end) {
			if x.kind(c) != kCasePattern {
				continue
			}
			kp := x.childKind(c, kKeywordPattern)
			if kp < 0 {
				continue
			}
			var buf [2]int
			kids := x.namedChildren(kp, buf[:0])
			if len(kids) != 2 || x.kind(kids[0]) != kIdent {
				continue
			}
			sub := caseSite{key: string(x.text(kids[0])), recv: m.subj, group: -1}
			x.caseStrings(kids[1], &sub, depth+1)
		}
	}
}

// caseStrings records the strings of a sub-pattern (a dict or keyword
// pattern's value) as RoleCase facts outside any group.
func (x *extractor) caseStrings(p int, m *caseSite, depth int) {
	if p < 0 || depth > maxDepth {
		return
	}
	switch x.kind(p) {
	case kString, kConcat:
		x.emit(p, facts.RoleCase, m.key, m.recv, -1, -1)
	case kCasePattern, kUnionPattern:
		end := int(x.nodes[p].End)
		for c := x.first(p); c >= 0; c = x.next(c, end) {
			if x.nodes[c].IsNamed() {
				x.caseStrings(c, m, depth+1)
			}
		}
	case kAsPattern:
		x.caseStrings(x.first(p), m, depth+1)
	}
}

// literalType records Literal["a", "b"], as a generic_type in an
// annotation or as a subscript expression, as a GroupLiteral named after
// what it annotates.
func (x *extractor) literalType(i int) {
	nd := &x.nodes[i]
	if nd.HasError() {
		return
	}
	var buf [8]int
	args := buf[:0]
	if x.kind(i) == kGenericType {
		id := x.first(i)
		if id < 0 || x.kind(id) != kIdent || string(x.text(id)) != "Literal" {
			return
		}
		tp := x.childKind(i, kTypeParam)
		if tp < 0 {
			return
		}
		end := int(x.nodes[tp].End)
		for c := x.first(tp); c >= 0; c = x.next(c, end) {
			if x.kind(c) == kType {
				if s := x.first(c); s >= 0 && x.isString(s) {
					args = append(args, s)
				}
			}
		}
	} else {
		val := x.child(i, fValue)
		if val < 0 {
			return
		}
		switch x.kind(val) {
		case kIdent:
			if string(x.text(val)) != "Literal" {
				return
			}
		case kAttr:
			a := x.child(val, fAttribute)
			if a < 0 || string(x.text(a)) != "Literal" {
				return
			}
		default:
			return
		}
		end := int(nd.End)
		for c := x.first(i); c >= 0; c = x.next(c, end) {
			if x.nodes[c].Field == fSubscript {
				if s := x.unparen(c); x.isString(s) {
					args = append(args, s)
				}
			}
		}
	}
	if len(args) == 0 {
		return
	}
	name, key := x.annotated(i)
	g := x.newGroup(facts.GroupLiteral, name, nd.StartByte)
	for _, a := range args {
		x.member(a, key, g)
	}
}

// annotated names what the type expression being visited annotates: the
// assigned or annotated name, the parameter, the function (for a return
// type, with an empty key) or the type alias.
func (x *extractor) annotated(i int) (name, key string) {
	st := x.stack
	below := i // the node we came through
	for k := len(st) - 1; k >= 0; k-- {
		a := int(st[k])
		switch x.kind(a) {
		case kType, kUnionType, kGenericType, kTypeParam, kSubscript, kBinaryOp, kMemberType,
			kConstrainedType, kTuple, kParen:
			below = a
			continue
		case kAssign:
			left := x.child(a, fLeft)
			if left < 0 || (x.nodes[below].Field != fType && x.nodes[below].Field != fRight) {
				return "", ""
			}
			n := targetName(x, left)
			return n, n
		case kTypedParam:
			if id := x.childKind(a, kIdent); id >= 0 {
				n := string(x.text(id))
				return n, n
			}
		case kTypedDefaultParam:
			if id := x.child(a, fName); id >= 0 {
				n := string(x.text(id))
				return n, n
			}
		case kFunc:
			if x.nodes[below].Field == fReturnType {
				if id := x.child(a, fName); id >= 0 {
					return string(x.text(id)), ""
				}
			}
		case kTypeAlias:
			if l := x.child(a, fLeft); l >= 0 {
				n := string(x.text(l))
				return n, n
			}
		}
		return "", ""
	}
	return "", ""
}

// targetName is the name an assignment target binds: x, or the attribute
// of self.x.
func targetName(x *extractor, left int) string {
	switch x.kind(left) {
	case kIdent:
		return string(x.text(left))
	case kAttr:
		if a := x.child(left, fAttribute); a >= 0 {
			return string(x.text(a))
		}
	}
	return ""
}
