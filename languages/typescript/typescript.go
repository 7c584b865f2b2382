// Package typescript extracts language-neutral facts (package
// languages/facts) from TypeScript and JavaScript source (.ts, .tsx,
// .mts, .cts, .d.ts, .js, .jsx, .mjs, .cjs, and Markdown blocks of
// them): the string literals in the contexts that can make them protocol
// values, the groups they are defined in, literal objects and the
// lookups of fields in named collections, as package languages/python
// does for Python, so that enumdrift judges them alike.
//
// A literal becomes a fact only in a context, once, with the most
// specific role:
//
//   - string literal union types (type Status = "a" | "b", and a property
//     or field typed so: status: "a" | "b") are a GroupLiteral named for
//     the alias or property; zod's z.enum([...]), z.literal(...) and
//     z.union([...]) of literals one named for the variable or property
//     they are bound to. Their strings are RoleMember.
//   - enum and const enum are a GroupEnum of their string members (Key
//     the member's name, Scope the enum's); an object of strings written
//     `as const` (const Status = { Done: "done" } as const) is one too.
//   - arrays of strings bound to a name (as const or not), and new
//     Set([...]) of them, are a GroupSet of that name.
//   - other object literals are Mappings (Name the variable they are
//     bound to): their keys, identifiers or strings, are RoleKey (an
//     identifier without an End: no fix rewrites it), their string
//     values RoleValue with Key the property.
//   - comparisons (===, !==, ==, !=) of a string with a field (hb.status,
//     hb?.status, hb["status"], hb.status!), a name, or a local bound from
//     a field (const { status } = hb; const s = hb.status) are
//     RoleCompare; each string of an array literal whose .includes() is
//     asked of such a subject is one too.
//   - switch over such a subject: RoleCase, one GroupCases per switch.
//   - assignments to names, fields and variables, and parameter
//     defaults, are RoleAssign; return statements RoleReturn.
//   - NAME.includes(s), NAME.has(s), NAME.get(s), NAME[s] and s in NAME
//     are Tests of the collection NAME.
//
// JSX attributes (<Badge status="done" />) are props of components, not
// protocol values, and are never facts; nor are template strings with a
// substitution.
//
// Scopes are the named functions: function declarations, methods
// ("Class.method") and functions bound to a name (const route = (hb) =>
// ...); an anonymous callback is part of the function around it.
//
// Parsing is done by tree-sitter (the grammars of languages/treesitter:
// TSX for .tsx, JavaScript for the JavaScript suffixes, TypeScript
// otherwise), under the pool's size cap and budget of operations; the
// tree is flattened with one cgo call and walked iteratively. A value
// nested more than 32 levels below the entry that asks for it is
// computed (facts.Unknown), and one extraction builds at most 1,000,000
// values; past that every value is computed. Syntax errors do not stop
// extraction: constructs that contain one are skipped.
package typescript

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/treesitter"
)

// Budgets of one extraction, by count.
const (
	maxDepth  = 32
	maxValues = 1_000_000
)

// Extract returns the facts of TypeScript or JavaScript source src, the
// grammar chosen by path's suffix. It fails only when the source cannot
// be parsed at all: larger than the parser's size cap
// (treesitter.ErrTooLarge) or over its budget of operations
// (treesitter.ErrBudget). Syntax errors are not failures.
func Extract(path string, src []byte) (*facts.File, error) {
	return extractWith(context.Background(), grammarFor(path), path, src)
}

// ExtractTSX is Extract with the TSX grammar, whatever the name (a
// Markdown block labelled tsx).
func ExtractTSX(path string, src []byte) (*facts.File, error) {
	grammars()
	return extractWith(context.Background(), gTSX, path, src)
}

// ExtractJS is Extract with the JavaScript grammar, whatever the name.
func ExtractJS(path string, src []byte) (*facts.File, error) {
	grammars()
	return extractWith(context.Background(), gJS, path, src)
}

// ExtractTS is Extract with the TypeScript grammar, whatever the name.
func ExtractTS(path string, src []byte) (*facts.File, error) {
	grammars()
	return extractWith(context.Background(), gTS, path, src)
}

func extractWith(ctx context.Context, g *grammar, path string, src []byte) (*facts.File, error) {
	lang := "typescript"
	if g == gJS {
		lang = "javascript"
	}
	f := &facts.File{Path: path, Lang: lang}
	x := &extractor{g: g, src: src, f: f}
	err := g.pool.Parse(ctx, src, func(t *treesitter.Tree) error {
		x.nodes = t.Flatten(nil)
		return nil
	})
	if err != nil {
		return nil, err
	}
	x.extract()
	return f, nil
}

type extractor struct {
	g     *grammar
	src   []byte
	nodes []treesitter.Node
	lines treesitter.Lines
	f     *facts.File

	parent []int32
	// done marks nodes already made facts of (or passed over with their
	// strings): a string is reported once.
	done   []bool
	scopes []scope
	values int // values built so far, against maxValues
}

type scope struct {
	node int32
	name string
	// bindings maps locals bound from a field to it.
	bindings map[string]binding
}

type binding struct{ key, recv string }

func (x *extractor) extract() {
	n := x.nodes
	x.lines.Reset(x.src)
	x.parent = make([]int32, len(n))
	x.done = make([]bool, len(n))
	x.scopes = []scope{{node: -1}}
	var stack []int32
	for i := range n {
		for len(stack) > 0 && int32(i) >= n[stack[len(stack)-1]].End {
			x.pop(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		}
		x.parent[i] = -1
		if len(stack) > 0 {
			x.parent[i] = stack[len(stack)-1]
		}
		if !x.done[i] && !n[i].HasError() {
			x.visit(i)
		}
		if n[i].End > int32(i+1) {
			stack = append(stack, int32(i))
		}
	}
	x.finish()
}

func (x *extractor) pop(i int32) {
	if s := x.scopes[len(x.scopes)-1]; s.node == i {
		x.scopes = x.scopes[:len(x.scopes)-1]
	}
}

func (x *extractor) scope() *scope { return &x.scopes[len(x.scopes)-1] }

func (x *extractor) visit(i int) {
	switch x.kind(i) {
	case kFunc:
		x.enterFunc(i)
	case kClass:
		if name := x.text(x.child(i, fName)); name != "" {
			x.enterScope(i, name)
		}
	case kTypeDecl:
		x.literalGroup(i, x.text(x.child(i, fName)), x.child(i, fValue))
	case kPropSig:
		if t := x.child(i, fType); t >= 0 {
			x.literalGroup(i, x.text(x.child(i, fName)), x.firstNamed(t))
		}
	case kEnum:
		x.enum(i)
	case kDeclarator:
		x.declarator(i)
	case kObject:
		x.object(i, "")
	case kCall:
		x.call(i)
	case kNew:
		x.newSet(i, "")
	case kBinary:
		x.binary(i)
	case kSubscript:
		x.lookup(i)
	case kSwitch:
		x.switchStmt(i)
	case kAssign:
		x.assign(i)
	case kReturn:
		if s := x.firstNamed(i); x.isString(s) {
			x.addString(s, facts.RoleReturn, "", "", -1, -1)
		}
	case kParam, kAssignPattern:
		x.paramDefault(i)
	}
}

// enterFunc opens the scope of a named function: a declaration, a
// method, or a function bound to a variable or a property.
func (x *extractor) enterFunc(i int) {
	name := x.text(x.child(i, fName))
	if name == "" {
		p := x.up(i)
		switch x.kind(p) {
		case kDeclarator:
			name = x.text(x.child(p, fName))
		case kPair:
			name = x.keyName(x.child(p, fKey))
		}
	}
	if name != "" {
		x.enterScope(i, name)
	}
}

func (x *extractor) enterScope(i int, name string) {
	if outer := x.scope().name; outer != "" {
		name = outer + "." + name
	}
	x.scopes = append(x.scopes, scope{node: int32(i), name: name})
}

// up is the parent of i through parentheses, as, satisfies and !.
func (x *extractor) up(i int) int {
	p := int(x.parent[i])
	for k := 0; k < maxDepth && p >= 0; k++ {
		switch x.kind(p) {
		case kParen, kAs, kSatisfies, kNonNull:
			p = int(x.parent[p])
			continue
		}
		break
	}
	return p
}

// unwrap strips parentheses, as, satisfies and ! around an expression.
func (x *extractor) unwrap(i int) int {
	for k := 0; k < maxDepth && i >= 0; k++ {
		switch x.kind(i) {
		case kParen, kAs, kSatisfies, kNonNull:
			i = x.firstNamed(i)
			continue
		}
		break
	}
	return i
}

// asConst reports whether i is written `... as const`.
func (x *extractor) asConst(i int) bool {
	if x.kind(i) != kAs {
		return false
	}
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		if x.kind(c) == kConst {
			return true
		}
	}
	return false
}

// nameOf is the name a value at i is bound to: the variable it
// declares, the property it is the value of, the field it is assigned
// to; "" for none.
func (x *extractor) nameOf(i int) string {
	p := x.up(i)
	switch x.kind(p) {
	case kDeclarator:
		if n := x.child(p, fName); x.kind(n) == kIdent {
			return x.text(n)
		}
	case kPair:
		return x.keyName(x.child(p, fKey))
	case kAssign:
		l := x.child(p, fLeft)
		switch x.kind(l) {
		case kIdent:
			return x.text(l)
		case kMember:
			return x.text(x.child(l, fProperty))
		}
	case kPropSig:
		return x.text(x.child(p, fName))
	}
	return ""
}

// literalGroup makes a GroupLiteral of the string literal types of t, a
// union of them (parenthesised or not), named name.
func (x *extractor) literalGroup(at int, name string, t int) {
	if name == "" || t < 0 {
		return
	}
	var lits []int
	if !x.literalTypes(t, 0, &lits) || len(lits) == 0 {
		return
	}
	x.group(at, facts.GroupLiteral, name, lits, func(int) string { return name })
}

// literalTypes appends the strings of a union of literal types; false
// when t is a type of another sort (a union with string is no
// vocabulary, but "a" | "b" | undefined is).
func (x *extractor) literalTypes(t, depth int, out *[]int) bool {
	if depth > maxDepth {
		return false
	}
	switch x.kind(t) {
	case kUnion, kParenType:
		end := int(x.nodes[t].End)
		for c := x.first(t); c >= 0; c = x.next(c, end) {
			if !x.nodes[c].IsNamed() {
				continue
			}
			if !x.literalTypes(c, depth+1, out) {
				return false
			}
		}
		return true
	case kLiteralType:
		s := x.firstNamed(t)
		if x.isString(s) {
			*out = append(*out, s)
		}
		return true // null, undefined, numbers: literal types too
	}
	return false
}

// group adds a group of the strings lits, marking them done.
func (x *extractor) group(at int, k facts.GroupKind, name string, lits []int, key func(int) string) int {
	g := len(x.f.Groups)
	x.f.Groups = append(x.f.Groups, facts.Group{Kind: k, Name: name, Pos: x.pos(x.nodes[at].StartByte), Scope: x.scope().name})
	for _, s := range lits {
		if x.done[s] {
			continue
		}
		idx := x.addString(s, facts.RoleMember, key(s), "", -1, g)
		if idx >= 0 {
			x.f.Groups[g].Members = append(x.f.Groups[g].Members, idx)
		}
	}
	if len(x.f.Groups[g].Members) == 0 {
		x.f.Groups = x.f.Groups[:g]
		return -1
	}
	return g
}

func (x *extractor) enum(i int) {
	name := x.text(x.child(i, fName))
	body := x.child(i, fBody)
	if name == "" || body < 0 {
		return
	}
	var lits []int
	keys := map[int]string{}
	end := int(x.nodes[body].End)
	for c := x.first(body); c >= 0; c = x.next(c, end) {
		if x.kind(c) != kEnumAssign {
			continue
		}
		if v := x.child(c, fValue); x.isString(v) {
			lits = append(lits, v)
			keys[v] = x.keyName(x.child(c, fName))
		}
	}
	if len(lits) == 0 {
		return
	}
	outer := x.scope().name
	x.enterScope(i, name) // members are in the enum's scope, as a Python Enum's
	if g := x.group(i, facts.GroupEnum, name, lits, func(s int) string { return keys[s] }); g >= 0 {
		x.f.Groups[g].Scope = outer
	}
}

// declarator: a variable bound to a literal or a field.
func (x *extractor) declarator(i int) {
	nameNode, v := x.child(i, fName), x.child(i, fValue)
	if v < 0 {
		return
	}
	inner := x.unwrap(v)
	if x.kind(nameNode) == kObjectPattern {
		x.destructure(nameNode, inner)
		return
	}
	if x.kind(nameNode) != kIdent {
		return
	}
	name := x.text(nameNode)
	switch x.kind(inner) {
	case kString, kTemplate:
		if x.isString(inner) {
			x.addString(inner, facts.RoleAssign, name, "", -1, -1)
		}
	case kArray:
		if lits, ok := x.stringItems(inner); ok && len(lits) > 0 {
			x.group(i, facts.GroupSet, name, lits, func(int) string { return name })
			x.done[inner] = true
		}
	case kObject:
		if x.asConst(x.unwrapAs(v)) || x.asConst(v) {
			if lits, keys, ok := x.stringValues(inner); ok && len(lits) > 0 {
				x.group(i, facts.GroupEnum, name, lits, func(s int) string { return keys[s] })
				x.done[inner] = true
			}
		}
	case kMember, kSubscript:
		if key, recv, ok := x.field(inner); ok {
			x.bind(name, binding{key, recv})
		}
	}
}

// unwrapAs strips parentheses and satisfies, not as.
func (x *extractor) unwrapAs(i int) int {
	for k := 0; k < maxDepth && i >= 0; k++ {
		switch x.kind(i) {
		case kParen, kSatisfies, kNonNull:
			i = x.firstNamed(i)
			continue
		}
		break
	}
	return i
}

func (x *extractor) bind(name string, b binding) {
	s := x.scope()
	if s.bindings == nil {
		s.bindings = map[string]binding{}
	}
	s.bindings[name] = b
}

// destructure binds the names of const { status, kind: k } = hb to the
// fields of hb.
func (x *extractor) destructure(pat, v int) {
	recv := ""
	switch x.kind(v) {
	case kIdent, kMember, kThis:
		recv = x.text(v)
	default:
		return
	}
	end := int(x.nodes[pat].End)
	for c := x.first(pat); c >= 0; c = x.next(c, end) {
		switch x.kind(c) {
		case kShorthandPattern:
			x.bind(x.text(c), binding{x.text(c), recv})
		case kPairPattern:
			if val := x.child(c, fValue); x.kind(val) == kIdent {
				x.bind(x.text(val), binding{x.keyName(x.child(c, fKey)), recv})
			}
		case kAssignPattern: // { status = "pending" }
			if l := x.child(c, fLeft); x.kind(l) == kShorthandPattern {
				x.bind(x.text(l), binding{x.text(l), recv})
			}
		}
	}
}

// stringItems are the strings of an array literal of strings only.
func (x *extractor) stringItems(arr int) ([]int, bool) {
	var out []int
	end := int(x.nodes[arr].End)
	for c := x.first(arr); c >= 0; c = x.next(c, end) {
		if !x.nodes[c].IsNamed() || x.nodes[c].Flags&treesitter.Extra != 0 {
			continue
		}
		if !x.isString(c) {
			return nil, false
		}
		out = append(out, c)
	}
	return out, true
}

// stringValues are the string values of an object whose values are all
// strings, with the key of each.
func (x *extractor) stringValues(obj int) ([]int, map[int]string, bool) {
	var out []int
	keys := map[int]string{}
	end := int(x.nodes[obj].End)
	for c := x.first(obj); c >= 0; c = x.next(c, end) {
		if !x.nodes[c].IsNamed() || x.nodes[c].Flags&treesitter.Extra != 0 {
			continue
		}
		if x.kind(c) != kPair {
			return nil, nil, false
		}
		v := x.child(c, fValue)
		k := x.keyName(x.child(c, fKey))
		if !x.isString(v) || k == "" {
			return nil, nil, false
		}
		out = append(out, v)
		keys[v] = k
	}
	return out, keys, true
}

// keyName is the name of a property key: an identifier, a string, a
// number; "" for a computed one.
func (x *extractor) keyName(k int) string {
	switch x.kind(k) {
	case kPropIdent, kIdent:
		return x.text(k)
	case kString:
		v, _ := x.stringValue(k)
		return v
	case kNumber:
		return x.text(k)
	}
	return ""
}

// object makes a Mapping of an object literal.
func (x *extractor) object(i int, _ string) {
	m := len(x.f.Mappings)
	mp := facts.Mapping{Pos: x.pos(x.nodes[i].StartByte), InCode: true, AsWritten: true, Name: x.nameOf(i)}
	if mp.Name != "" && x.kind(x.up(i)) == kDeclarator {
		mp.Scope = x.scope().name
	} else {
		mp.Name = ""
	}
	x.f.Mappings = append(x.f.Mappings, mp)
	var entries []facts.Entry
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		switch x.kind(c) {
		case kPair:
			k, v := x.child(c, fKey), x.child(c, fValue)
			key := x.keyName(k)
			if key == "" || v < 0 {
				continue
			}
			switch x.kind(k) {
			case kString:
				x.addString(k, facts.RoleKey, "", "", m, -1)
			case kPropIdent:
				x.addIdentKey(k, m)
			}
			e := facts.Entry{Key: key, KeyPos: x.pos(x.nodes[k].StartByte), ValPos: x.pos(x.nodes[v].StartByte)}
			e.Value = x.value(v, 0)
			if iv := x.unwrap(v); x.isString(iv) {
				x.addString(iv, facts.RoleValue, key, "", m, -1)
			}
			entries = append(entries, e)
		case kShorthandProp:
			entries = append(entries, facts.Entry{Key: x.text(c), KeyPos: x.pos(x.nodes[c].StartByte), ValPos: x.pos(x.nodes[c].StartByte), Value: facts.Unknown{}})
		}
	}
	x.f.Mappings[m].Entries = entries
}

// value is the literal value of i: string, int64, float64, bool, nil,
// []any, map[string]any; Unknown when computed, nested too deep or over
// the budget of values.
func (x *extractor) value(i, depth int) any {
	i = x.unwrap(i)
	if i < 0 || depth > maxDepth || x.values >= maxValues {
		return facts.Unknown{}
	}
	x.values++
	switch x.kind(i) {
	case kString, kTemplate:
		if v, ok := x.stringValue(i); ok {
			return v
		}
	case kNumber:
		t := strings.ReplaceAll(x.text(i), "_", "")
		if n, err := strconv.ParseInt(t, 0, 64); err == nil {
			return n
		}
		if f, err := strconv.ParseFloat(t, 64); err == nil {
			return f
		}
	case kTrue:
		return true
	case kFalse:
		return false
	case kNull:
		return nil
	case kArray:
		out := []any{}
		end := int(x.nodes[i].End)
		for c := x.first(i); c >= 0; c = x.next(c, end) {
			if x.nodes[c].IsNamed() && x.nodes[c].Flags&treesitter.Extra == 0 {
				out = append(out, x.value(c, depth+1))
			}
		}
		return out
	case kObject:
		out := map[string]any{}
		end := int(x.nodes[i].End)
		for c := x.first(i); c >= 0; c = x.next(c, end) {
			if x.kind(c) != kPair {
				if x.nodes[c].IsNamed() && x.nodes[c].Flags&treesitter.Extra == 0 {
					return facts.Unknown{} // a spread, a method
				}
				continue
			}
			k := x.keyName(x.child(c, fKey))
			if k == "" {
				return facts.Unknown{}
			}
			out[k] = x.value(x.child(c, fValue), depth+1)
		}
		return out
	}
	return facts.Unknown{}
}

// call: zod vocabularies, and NAME.includes/has/get(subject) tests.
func (x *extractor) call(i int) {
	fn, args := x.child(i, fFunction), x.child(i, fArguments)
	if x.kind(fn) != kMember || args < 0 {
		return
	}
	obj, prop := x.unwrap(x.child(fn, fObject)), x.text(x.child(fn, fProperty))
	if x.text(obj) == "z" {
		x.zod(i, prop, args)
		return
	}
	switch prop {
	case "includes", "has", "get":
	default:
		return
	}
	arg := x.firstNamed(args)
	key, recv, ok := x.subject(arg)
	if !ok {
		return
	}
	switch x.kind(obj) {
	case kArray:
		if prop != "includes" {
			return
		}
		if lits, ok := x.stringItems(obj); ok {
			for _, s := range lits {
				x.addString(s, facts.RoleCompare, key, recv, -1, -1)
			}
		}
	case kIdent, kMember:
		x.test(x.lastName(obj), key, recv, i)
	}
}

// zod: z.enum([...]), z.literal(s) and z.union([...]) of literals.
func (x *extractor) zod(i int, prop string, args int) {
	var lits []int
	switch prop {
	case "enum":
		arr := x.unwrap(x.firstNamed(args))
		if x.kind(arr) != kArray {
			return
		}
		var ok bool
		if lits, ok = x.stringItems(arr); !ok {
			return
		}
	case "literal":
		if x.kind(x.up(i)) == kArray { // a member of z.union([...])
			return
		}
		if s := x.firstNamed(args); x.isString(s) {
			lits = []int{s}
		}
	case "union":
		arr := x.unwrap(x.firstNamed(args))
		if x.kind(arr) != kArray {
			return
		}
		end := int(x.nodes[arr].End)
		for c := x.first(arr); c >= 0; c = x.next(c, end) {
			if !x.nodes[c].IsNamed() || x.nodes[c].Flags&treesitter.Extra != 0 {
				continue
			}
			f := x.child(c, fFunction)
			if x.kind(c) != kCall || x.text(x.child(f, fObject)) != "z" || x.text(x.child(f, fProperty)) != "literal" {
				return
			}
			if s := x.firstNamed(x.child(c, fArguments)); x.isString(s) {
				lits = append(lits, s)
			}
		}
	default:
		return
	}
	name := x.nameOf(i)
	if name == "" || len(lits) == 0 {
		return
	}
	x.group(i, facts.GroupLiteral, name, lits, func(int) string { return name })
}

// newSet: new Set([...strings]) bound to a name is a GroupSet.
func (x *extractor) newSet(i int, _ string) {
	if x.text(x.child(i, fConstructor)) != "Set" {
		return
	}
	arr := x.unwrap(x.firstNamed(x.child(i, fArguments)))
	name := x.nameOf(i)
	if x.kind(arr) != kArray || name == "" {
		return
	}
	if lits, ok := x.stringItems(arr); ok && len(lits) > 0 {
		x.group(i, facts.GroupSet, name, lits, func(int) string { return name })
	}
}

// binary: s === subject and the like, and subject in NAME.
func (x *extractor) binary(i int) {
	op := -1
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		if x.g.fieldOf[x.nodes[c].Field] == fOperator {
			op = c
			break
		}
	}
	if op < 0 {
		return
	}
	o, ok := x.g.ops[x.nodes[op].Kind]
	if !ok {
		return
	}
	l, r := x.unwrap(x.child(i, fLeft)), x.unwrap(x.child(i, fRight))
	if o == "in" {
		if key, recv, ok := x.subject(l); ok && (x.kind(r) == kIdent || x.kind(r) == kMember) {
			x.test(x.lastName(r), key, recv, i)
		}
		return
	}
	if x.isString(l) {
		l, r = r, l
	}
	if !x.isString(r) {
		return
	}
	if key, recv, ok := x.subject(l); ok {
		x.addString(r, facts.RoleCompare, key, recv, -1, -1)
	}
}

// lookup: NAME[subject], read.
func (x *extractor) lookup(i int) {
	obj, idx := x.unwrap(x.child(i, fObject)), x.unwrap(x.child(i, fIndex))
	if x.kind(obj) != kIdent && x.kind(obj) != kMember || x.isString(idx) {
		return
	}
	if p := int(x.parent[i]); x.kind(p) == kAssign && x.child(p, fLeft) == i {
		return
	}
	if key, recv, ok := x.subject(idx); ok {
		x.test(x.lastName(obj), key, recv, i)
	}
}

func (x *extractor) test(coll, key, recv string, at int) {
	if coll == "" {
		return
	}
	x.f.Tests = append(x.f.Tests, facts.Test{Collection: coll, Key: key, Receiver: recv, Scope: x.scope().name, Pos: x.pos(x.nodes[at].StartByte)})
}

func (x *extractor) switchStmt(i int) {
	v := x.unwrap(x.child(i, fValue))
	key, recv, ok := x.subject(v)
	body := x.child(i, fBody)
	if !ok || body < 0 {
		return
	}
	var lits []int
	end := int(x.nodes[body].End)
	for c := x.first(body); c >= 0; c = x.next(c, end) {
		if x.kind(c) != kCase {
			continue
		}
		if s := x.unwrap(x.child(c, fValue)); x.isString(s) {
			lits = append(lits, s)
		}
	}
	if len(lits) == 0 {
		return
	}
	g := len(x.f.Groups)
	x.f.Groups = append(x.f.Groups, facts.Group{Kind: facts.GroupCases, Name: x.text(v), Pos: x.pos(x.nodes[i].StartByte), Scope: x.scope().name})
	for _, s := range lits {
		if idx := x.addString(s, facts.RoleCase, key, recv, -1, g); idx >= 0 {
			x.f.Groups[g].Members = append(x.f.Groups[g].Members, idx)
		}
	}
	if len(x.f.Groups[g].Members) == 0 {
		x.f.Groups = x.f.Groups[:g]
	}
}

func (x *extractor) assign(i int) {
	r := x.unwrap(x.child(i, fRight))
	if !x.isString(r) {
		return
	}
	l := x.unwrap(x.child(i, fLeft))
	if x.kind(l) == kIdent {
		x.addString(r, facts.RoleAssign, x.text(l), "", -1, -1)
		return
	}
	if key, recv, ok := x.field(l); ok {
		x.addString(r, facts.RoleAssign, key, recv, -1, -1)
	}
}

// paramDefault: function f(status = "pending").
func (x *extractor) paramDefault(i int) {
	var name, v int
	if x.kind(i) == kParam {
		name, v = x.child(i, fPattern), x.child(i, fValue)
	} else {
		name, v = x.child(i, fLeft), x.child(i, fRight)
	}
	if v = x.unwrap(v); x.isString(v) && (x.kind(name) == kIdent || x.kind(name) == kShorthandPattern) {
		x.addString(v, facts.RoleAssign, x.text(name), "", -1, -1)
	}
}

// field is the field a member or subscript expression reads: hb.status,
// hb?.status, hb["status"], this.status.
func (x *extractor) field(i int) (key, recv string, ok bool) {
	switch x.kind(i) {
	case kMember:
		p := x.child(i, fProperty)
		if x.kind(p) != kPropIdent {
			return "", "", false
		}
		return x.text(p), x.text(x.unwrap(x.child(i, fObject))), true
	case kSubscript:
		idx := x.unwrap(x.child(i, fIndex))
		if !x.isString(idx) {
			return "", "", false
		}
		k, _ := x.stringValue(idx)
		return k, x.text(x.unwrap(x.child(i, fObject))), k != ""
	}
	return "", "", false
}

// subject is what a comparison is about: a field, or a name (a local
// bound from a field stands for it).
func (x *extractor) subject(i int) (key, recv string, ok bool) {
	i = x.unwrap(i)
	if x.kind(i) == kIdent {
		name := x.text(i)
		for s := len(x.scopes) - 1; s >= 0; s-- {
			if b, ok := x.scopes[s].bindings[name]; ok {
				return b.key, b.recv, true
			}
		}
		return name, "", name != ""
	}
	return x.field(i)
}

// lastName is NAME of NAME or a.b.NAME.
func (x *extractor) lastName(i int) string {
	switch x.kind(i) {
	case kIdent:
		return x.text(i)
	case kMember:
		return x.text(x.child(i, fProperty))
	}
	return ""
}

// isString reports whether i is a string literal with a value: a string,
// or a template string without substitutions.
func (x *extractor) isString(i int) bool {
	if i < 0 {
		return false
	}
	switch x.kind(i) {
	case kString, kTemplate:
		_, ok := x.stringValue(i)
		return ok
	}
	return false
}

// stringValue decodes a string or template literal; false for a
// template with a substitution, or one with an error.
func (x *extractor) stringValue(i int) (string, bool) {
	nd := &x.nodes[i]
	if nd.HasError() || nd.IsMissing() {
		return "", false
	}
	var b strings.Builder
	end := int(nd.End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		switch x.kind(c) {
		case kSubst:
			return "", false
		}
	}
	raw := x.text(i)
	if len(raw) < 2 {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	for k := 0; k < len(body); k++ {
		c := body[k]
		if c != '\\' || k+1 >= len(body) {
			b.WriteByte(c)
			continue
		}
		k++
		switch e := body[k]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			b.WriteByte(0)
		case '\n':
		case '\r':
			if k+1 < len(body) && body[k+1] == '\n' {
				k++
			}
		case 'x':
			if k+2 < len(body) {
				if n, err := strconv.ParseUint(body[k+1:k+3], 16, 8); err == nil {
					b.WriteRune(rune(n))
					k += 2
					continue
				}
			}
			b.WriteByte(e)
		case 'u':
			hex := ""
			if k+1 < len(body) && body[k+1] == '{' {
				if j := strings.IndexByte(body[k:], '}'); j > 0 {
					hex = body[k+2 : k+j]
					if n, err := strconv.ParseUint(hex, 16, 32); err == nil && n <= utf8.MaxRune {
						b.WriteRune(rune(n))
						k += j
						continue
					}
				}
			} else if k+4 < len(body) {
				if n, err := strconv.ParseUint(body[k+1:k+5], 16, 32); err == nil {
					b.WriteRune(rune(n))
					k += 4
					continue
				}
			}
			b.WriteByte(e)
		default:
			b.WriteByte(e)
		}
	}
	return b.String(), true
}

// addString adds the string literal at i as a fact and marks it done; -1
// when it already is one.
func (x *extractor) addString(i int, role facts.Role, key, recv string, m, g int) int {
	if x.done[i] {
		return -1
	}
	v, ok := x.stringValue(i)
	if !ok {
		return -1
	}
	x.done[i] = true
	nd := &x.nodes[i]
	x.f.Strings = append(x.f.Strings, facts.String{
		Value: v, Pos: x.pos(nd.StartByte), End: x.pos(nd.EndByte), Role: role,
		Key: key, Receiver: recv, Scope: x.scope().name, Mapping: m, Group: g,
	})
	return len(x.f.Strings) - 1
}

// addIdentKey adds the identifier key of a property ({ success: f }) as
// a RoleKey string: routing tables are keyed so in JavaScript. Its End is
// left zero, so that no fix rewrites it: the canonical spelling need not
// be an identifier (senior-engineer).
func (x *extractor) addIdentKey(i, m int) {
	if x.done[i] {
		return
	}
	x.done[i] = true
	nd := &x.nodes[i]
	x.f.Strings = append(x.f.Strings, facts.String{
		Value: x.text(i), Pos: x.pos(nd.StartByte), Role: facts.RoleKey,
		Scope: x.scope().name, Mapping: m, Group: -1,
	})
}

// finish puts Strings and Tests in source order.
func (x *extractor) finish() {
	f := x.f
	sort.SliceStable(f.Tests, func(a, b int) bool { return f.Tests[a].Pos.Offset < f.Tests[b].Pos.Offset })
	n := len(f.Strings)
	order := make([]int, n)
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(a, b int) bool { return f.Strings[order[a]].Pos.Offset < f.Strings[order[b]].Pos.Offset })
	remap := make([]int, n)
	out := make([]facts.String, n)
	for k, old := range order {
		remap[old] = k
		out[k] = f.Strings[old]
	}
	f.Strings = out
	for g := range f.Groups {
		for k, old := range f.Groups[g].Members {
			f.Groups[g].Members[k] = remap[old]
		}
		sort.Ints(f.Groups[g].Members)
	}
}

// Navigation over the flattened tree.

func (x *extractor) kind(i int) kind {
	if i < 0 {
		return kOther
	}
	return x.g.kindOf[x.nodes[i].Kind]
}

func (x *extractor) text(i int) string {
	if i < 0 {
		return ""
	}
	nd := &x.nodes[i]
	s, e := int(nd.StartByte), int(nd.EndByte)
	if e > len(x.src) {
		e = len(x.src)
	}
	if s > e {
		s = e
	}
	return string(x.src[s:e])
}

func (x *extractor) first(i int) int {
	if i >= 0 && int(x.nodes[i].End) > i+1 {
		return i + 1
	}
	return -1
}

func (x *extractor) next(c, end int) int {
	c = int(x.nodes[c].End)
	if c >= end {
		return -1
	}
	return c
}

func (x *extractor) child(i int, f field) int {
	if i < 0 {
		return -1
	}
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		if id := x.nodes[c].Field; int(id) < len(x.g.fieldOf) && x.g.fieldOf[id] == f {
			return c
		}
	}
	return -1
}

// firstNamed is the first named child of i that is not a comment.
func (x *extractor) firstNamed(i int) int {
	if i < 0 {
		return -1
	}
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		if x.nodes[c].IsNamed() && x.nodes[c].Flags&treesitter.Extra == 0 {
			return c
		}
	}
	return -1
}

func (x *extractor) pos(off uint32) facts.Pos {
	o := int(off)
	if o > len(x.src) {
		o = len(x.src)
	}
	l, c := x.lines.Position(o)
	return facts.Pos{Line: l, Col: c, Offset: o}
}
