package python

// Holders of a field's values that are not literals at the place of use:
// a collection read through an index (AGENTS[1]), an enum member
// (Agent.SENIOR_ENGINEER, Agent(d["agent"])), a set bound to an instance
// attribute (self.valid_roles = {...}).

import (
	"bytes"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// holderName returns the node of the name of the collection expression v
// reads one item of: NAME for NAME[0], NAME[-1] and Enum.MEMBER (and
// Enum.MEMBER.value), the class for Enum(x) with x the field read (subj
// >= 0 is that read); -1 for anything else. A class is an enum when its
// name starts with an upper-case letter, as Python's convention writes
// classes.
func (x *extractor) holderName(v int) int {
	v = x.unparen(v)
	switch x.kind(v) {
	case kSubscript:
		sub := x.child(v, fSubscript)
		if x.countField(v, fSubscript) != 1 || !x.isIndex(sub) {
			return -1
		}
		return x.collection(x.child(v, fValue))
	case kAttr:
		obj, attr := x.unparen(x.child(v, fObject)), x.child(v, fAttribute)
		if obj < 0 || attr < 0 {
			return -1
		}
		if string(x.text(attr)) == "value" && x.kind(obj) == kAttr {
			obj = x.unparen(x.child(obj, fObject))
		}
		if n := x.collection(obj); n >= 0 && upperFirst(x.text(n)) {
			return n
		}
	}
	return -1
}

// isIndex tells whether i is an integer literal, negated or not.
func (x *extractor) isIndex(i int) bool {
	i = x.unparen(i)
	if x.kind(i) == kUnary {
		var buf [1]int
		if a := x.namedChildren(i, buf[:0]); len(a) == 1 {
			i = x.unparen(a[0])
		}
	}
	return x.kind(i) == kInteger
}

func upperFirst(b []byte) bool { return len(b) > 0 && b[0] >= 'A' && b[0] <= 'Z' }

// heldTest records that field key of recv takes the value of an item of
// the collection v reads (see holderName), at node at: a Test, as a
// membership test would give.
func (x *extractor) heldTest(v int, key, recv string, at int) {
	if key == "" || v < 0 {
		return
	}
	if name := x.holderName(v); name >= 0 {
		x.heldIn(string(x.text(name)), key, recv, at)
	}
}

// heldIn appends the Test of field key of recv in the collection named
// coll, at node at.
func (x *extractor) heldIn(coll, key, recv string, at int) {
	x.f.Tests = append(x.f.Tests, facts.Test{Collection: coll, Key: key, Receiver: recv, Scope: x.scope().name, Pos: x.pos(x.nodes[at].StartByte)})
}

// heldCompare records d["agent"] == AGENTS[1] and d["agent"] ==
// Agent.SENIOR (either way round) as a Test of the field in the holder:
// a field read, or a variable bound from one (b[0] == c, between plain
// variables, is no field's).
func (x *extractor) heldCompare(l, r int) {
	for _, p := range [2][2]int{{l, r}, {r, l}} {
		if x.kind(p[1]) == kIdent && constName(x.text(p[1])) {
			x.constCompare(p[1], p[0])
			continue
		}
		if x.holderName(p[1]) < 0 {
			continue
		}
		if key, recv, field := x.subject(p[0]); field && key != "" {
			x.heldTest(p[1], key, recv, p[0])
		}
	}
}

// constCompare records d["agent"] == AGENT_SENIOR as a Test of the field
// against the constant (facts.Test.Equal): the constant's value, defined
// at file level, is then compared with the field.
func (x *extractor) constCompare(name, v int) {
	if key, recv, field := x.subject(v); field && key != "" {
		x.f.Tests = append(x.f.Tests, facts.Test{Collection: string(x.text(name)), Key: key, Receiver: recv,
			Scope: x.scope().name, Pos: x.pos(x.nodes[v].StartByte), Equal: true})
	}
}

// constName tells whether an identifier is spelled as Python spells
// constants, in upper case (AGENT_SENIOR, DONE): a variable's value is
// not known where it is compared.
func constName(b []byte) bool {
	upper := false
	for _, c := range b {
		switch {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= '0' && c <= '9', c == '_':
		default:
			return false
		}
	}
	return upper
}

// enumCall records Agent(d["agent"]): the field's value made a member of
// the class, a Test of the field in it that gates acceptance.
func (x *extractor) enumCall(fn int, pos []int) {
	if len(pos) != 1 || x.kind(fn) != kIdent || !upperFirst(x.text(fn)) || exceptionName(x.text(fn)) {
		return
	}
	key, recv, field := x.subject(pos[0])
	if !field || key == "" {
		return
	}
	x.heldIn(string(x.text(fn)), key, recv, pos[0])
	// an Enum class refuses a value that is none of its members
	// (ValueError): the conversion lets only its values through
	x.f.Tests[len(x.f.Tests)-1].Branch = facts.BranchAccept
}

// attrSet records self.NAME = {"a", "b"} (or cls.NAME) in a method as a
// set named NAME of the class, as a class attribute would be: the methods
// of the class test it as self.NAME. It reports whether it did.
func (x *extractor) attrSet(left, right int) bool {
	n := len(x.scopes)
	if n < 2 || x.scopes[n-1].kind != scopeFunc || x.scopes[n-2].kind != scopeClass {
		return false
	}
	obj, attr := x.unparen(x.child(left, fObject)), x.child(left, fAttribute)
	if obj < 0 || attr < 0 || x.kind(obj) != kIdent {
		return false
	}
	if o := string(x.text(obj)); o != "self" && o != "cls" {
		return false
	}
	elems := x.stringSet(right)
	if len(elems) == 0 {
		return false
	}
	name := string(x.text(attr))
	g := x.newGroup(facts.GroupSet, name, x.nodes[left].StartByte)
	x.f.Groups[g].Scope = x.scopes[n-2].name
	for _, e := range elems {
		x.member(e, name, g)
	}
	return true
}

// exceptionName reports a class named as an exception is (ValueError,
// KeyError, ProtocolException, DeprecationWarning): raise
// ValueError(h["status"]) reports the value, it does not convert it.
func exceptionName(b []byte) bool {
	return bytes.HasSuffix(b, []byte("Error")) || bytes.HasSuffix(b, []byte("Exception")) || bytes.HasSuffix(b, []byte("Warning"))
}
