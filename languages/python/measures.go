package python

// Thresholds the source writes through a helper or a name of a class:
// a word count taken by a helper of the file (_count_words(scope) < 15,
// with def _count_words(text): return len(text.split())), a constant of
// a class read as self.MIN_WORDS, cls.MIN_WORDS or Limits.MIN_WORDS, and
// a base minus (or plus) a named gap (85 - ESCALATION_GAP).

import (
	"context"
	"math"
	"strings"
)

// helperInfo is what the functions of a file see of its helpers and
// class constants, gathered once per file with moduleInfo.
type helperInfo struct {
	// words are the functions and methods of the file whose body is
	// return len(p.split()) of their parameter p: word counters.
	words map[string]struct{}
	// classConsts are the upper-case names a module-level class body
	// assigns one number literal once, and no method of it assigns as
	// self.NAME or cls.NAME, by class and name.
	classConsts map[string]map[string]float64
	// tables are the module's tables of thresholds (tables.go)
	tables map[string]*numTable
}

// scanHelpers fills x.fs.help from the whole file.
func (x *extractor) scanHelpers() {
	h := &x.fs.help
	clear(h.words)
	clear(h.classConsts)
	for j := range x.nodes {
		if kindOf[x.nodes[j].Kind] == kFunc {
			if name := x.wordCounter(j); name != nil {
				if h.words == nil {
					h.words = make(map[string]struct{})
				}
				h.words[x.fs.intern(name)] = struct{}{}
			}
		}
	}
	if len(x.nodes) == 0 {
		return
	}
	x.scanTables()
	end := int(x.nodes[0].End)
	for c := x.first(0); c >= 0; c = x.next(c, end) {
		cls := c
		if x.kind(c) == kDecorated {
			cls = x.child(c, fDefinition)
		}
		if x.kind(cls) == kClass {
			x.classConsts(cls)
		}
	}
}

// wordCounter returns the name of function f when its body (after a
// docstring) is return len(p.split()) of its first parameter p (self and
// cls aside), else nil.
func (x *extractor) wordCounter(f int) []byte {
	name := x.text(x.child(f, fName))
	body := x.child(f, fBody)
	if len(name) == 0 || body < 0 {
		return nil
	}
	param := x.firstParam(x.child(f, fParameters))
	if param == nil {
		return nil
	}
	var ret int = -1
	end := int(x.nodes[body].End)
	doc := true
	for c := x.first(body); c >= 0; c = x.next(c, end) {
		if !x.named(c) {
			continue
		}
		if doc {
			doc = false
			if x.isDocstring(c) {
				continue
			}
		}
		if ret >= 0 || x.kind(c) != kReturn {
			return nil
		}
		ret = c
	}
	if ret < 0 {
		return nil
	}
	var buf [2]int
	kids := x.namedChildren(ret, buf[:0])
	if len(kids) != 1 {
		return nil
	}
	fn, arg := x.unaryCall(x.unparen(kids[0]))
	if arg < 0 || string(fn) != "len" {
		return nil
	}
	obj := x.wordsCall(x.transparent(arg))
	if obj < 0 {
		return nil
	}
	if obj = x.transparent(obj); x.kind(obj) != kIdent || string(x.text(obj)) != string(param) {
		return nil
	}
	return name
}

// firstParam returns the name of the first parameter of parameter list
// p that is not self or cls, or nil.
func (x *extractor) firstParam(p int) []byte {
	if p < 0 {
		return nil
	}
	end := int(x.nodes[p].End)
	for c := x.first(p); c >= 0; c = x.next(c, end) {
		if !x.named(c) {
			continue
		}
		id := -1
		switch x.kind(c) {
		case kIdent:
			id = c
		case kDefaultParam, kTypedDefaultParam:
			id = x.child(c, fName)
		case kTypedParam:
			id = x.childIdentOrSplat(c)
		default:
			return nil
		}
		if id < 0 || x.kind(id) != kIdent {
			return nil
		}
		if n := x.text(id); string(n) != "self" && string(n) != "cls" {
			return n
		}
	}
	return nil
}

// wordHelperArg returns the argument of a call of a word counter of the
// file (count_words(x), self.count_words(x), cls.count_words(x)), or -1.
func (x *extractor) wordHelperArg(i int) int {
	if len(x.fs.help.words) == 0 || x.kind(i) != kCall {
		return -1
	}
	fn := x.child(i, fFunction)
	var name []byte
	switch x.kind(fn) {
	case kIdent:
		name = x.text(fn)
		if _, shadowed := x.fs.locals[string(name)]; shadowed {
			return -1
		}
	case kAttr:
		obj := x.unparen(x.child(fn, fObject))
		if x.kind(obj) != kIdent {
			return -1
		}
		if o := string(x.text(obj)); o != "self" && o != "cls" {
			return -1
		}
		name = x.text(x.child(fn, fAttribute))
	default:
		return -1
	}
	if _, ok := x.fs.help.words[string(name)]; !ok {
		return -1
	}
	var buf [2]int
	a, simple := x.callArgs(x.child(i, fArguments), buf[:0])
	if !simple || len(a) != 1 {
		return -1
	}
	return a[0]
}

// classConsts records the constants of class c (see helperInfo).
func (x *extractor) classConsts(c int) {
	cname := x.text(x.child(c, fName))
	body := x.child(c, fBody)
	if len(cname) == 0 || body < 0 {
		return
	}
	var consts map[string]float64
	seen := map[string]int{}
	end := int(x.nodes[body].End)
	for s := x.first(body); s >= 0; s = x.next(s, end) {
		if x.kind(s) != kExprStmt {
			continue
		}
		se := int(x.nodes[s].End)
		for a := x.first(s); a >= 0; a = x.next(a, se) {
			if x.kind(a) != kAssign {
				continue
			}
			left, right := x.child(a, fLeft), x.unparen(x.child(a, fRight))
			if x.kind(left) != kIdent || right < 0 {
				continue
			}
			n := string(x.text(left))
			seen[n]++
			if !upperName(n) {
				continue
			}
			if f, ok := x.number(right); ok && (x.kind(right) == kInteger || x.kind(right) == kFloat || x.kind(right) == kUnary) {
				if consts == nil {
					consts = map[string]float64{}
				}
				consts[n] = f
			}
		}
	}
	for n, k := range seen {
		if k > 1 {
			delete(consts, n)
		}
	}
	// def __init__(self, limit=80): self.limit = limit, bound nowhere
	// else, holds the default
	inits, initAt := x.initDefaults(body)
	for n, v := range inits {
		if _, clash := seen[n]; clash {
			continue
		}
		if consts == nil {
			consts = map[string]float64{}
		}
		consts[n] = v
	}
	if len(consts) == 0 {
		return
	}
	// a method that assigns self.NAME or cls.NAME makes it a variable
	ce := int(x.nodes[c].End)
	for j := c; j < ce; j++ {
		if k := kindOf[x.nodes[j].Kind]; k != kAssign && k != kAugAssign || initAt[j] {
			continue
		}
		left := x.child(j, fLeft)
		if x.kind(left) != kAttr {
			continue
		}
		obj := x.unparen(x.child(left, fObject))
		if o := string(x.text(obj)); x.kind(obj) == kIdent && (o == "self" || o == "cls") {
			delete(consts, string(x.text(x.child(left, fAttribute))))
		}
	}
	if len(consts) == 0 {
		return
	}
	h := &x.fs.help
	if h.classConsts == nil {
		h.classConsts = make(map[string]map[string]float64)
	}
	h.classConsts[x.fs.intern(cname)] = consts
}

// initDefaults reads the __init__ of a class body: each self.NAME =
// PARAM at the top of its body, PARAM a parameter with a number as its
// default, gives NAME that number (the assignment's node in at). A
// parameter bound twice there holds no one value.
func (x *extractor) initDefaults(body int) (vals map[string]float64, at map[int]bool) {
	end := int(x.nodes[body].End)
	for d := x.first(body); d >= 0; d = x.next(d, end) {
		fn := d
		if x.kind(d) == kDecorated {
			fn = x.child(d, fDefinition)
		}
		if x.kind(fn) != kFunc || string(x.text(x.child(fn, fName))) != "__init__" {
			continue
		}
		defaults := map[string]float64{}
		p := x.child(fn, fParameters)
		if p < 0 {
			return nil, nil
		}
		pe := int(x.nodes[p].End)
		for c := x.first(p); c >= 0; c = x.next(c, pe) {
			if k := x.kind(c); k == kDefaultParam || k == kTypedDefaultParam {
				v := x.unparen(x.child(c, fValue))
				if k := x.kind(v); k == kInteger || k == kFloat || k == kUnary {
					if f, ok := x.number(v); ok {
						defaults[string(x.text(x.child(c, fName)))] = f
					}
				}
			}
		}
		fb := x.child(fn, fBody)
		if len(defaults) == 0 || fb < 0 {
			return nil, nil
		}
		fe := int(x.nodes[fb].End)
		for s := x.first(fb); s >= 0; s = x.next(s, fe) {
			if x.kind(s) != kExprStmt {
				continue
			}
			se := int(x.nodes[s].End)
			for a := x.first(s); a >= 0; a = x.next(a, se) {
				if x.kind(a) != kAssign {
					continue
				}
				left, right := x.child(a, fLeft), x.unparen(x.child(a, fRight))
				if x.kind(left) != kAttr || x.kind(right) != kIdent || string(x.text(x.unparen(x.child(left, fObject)))) != "self" {
					continue
				}
				v, ok := defaults[string(x.text(right))]
				if !ok {
					continue
				}
				if vals == nil {
					vals, at = map[string]float64{}, map[int]bool{}
				}
				vals[string(x.text(x.child(left, fAttribute)))] = v
				at[a] = true
			}
		}
		return vals, at
	}
	return nil, nil
}

// upperName reports a name written as a constant: upper-case letters,
// digits and underscores, with a letter.
func upperName(n string) bool {
	letter := false
	for i := 0; i < len(n); i++ {
		switch c := n[i]; {
		case 'A' <= c && c <= 'Z':
			letter = true
		case '0' <= c && c <= '9', c == '_':
		default:
			return false
		}
	}
	return letter
}

// classConst returns the value of attribute i when it reads a constant
// of a class: self.NAME or cls.NAME in a method of the class, or
// CLASS.NAME.
func (x *extractor) classConst(i int) (cval, bool) {
	if len(x.fs.help.classConsts) == 0 {
		return cval{}, false
	}
	obj, attr := x.unparen(x.child(i, fObject)), x.child(i, fAttribute)
	if x.kind(obj) != kIdent || attr < 0 {
		return cval{}, false
	}
	o := x.text(obj)
	cls := string(o)
	if _, shadowed := x.fs.locals[cls]; shadowed {
		return cval{}, false
	}
	if cls == "self" || cls == "cls" {
		cls = x.fs.class
	}
	name := x.text(attr)
	v, ok := x.fs.help.classConsts[cls][string(name)]
	if !ok {
		return cval{}, false
	}
	return cval{v: v, name: x.fs.intern(name)}, true
}

// arithConst returns the value of a base plus or minus a gap, both
// constants (85 - ESCALATION_GAP, BASE - GAP), named by the source text;
// one of them may be a constant of another module (a ref, resolved with
// facts.Const.Base and Scale).
func (x *extractor) arithConst(i int, cmp uint32) (cval, bool) {
	var sign float64
	switch x.kind(x.child(i, fOperator)) {
	case kOpMinus:
		sign = -1
	case kOpPlus:
		sign = 1
	default:
		return cval{}, false
	}
	l, _, lok := x.constOf(x.child(i, fLeft), cmp)
	r, _, rok := x.constOf(x.child(i, fRight), cmp)
	if !lok || !rok || l.param || r.param || l.rows != nil || r.rows != nil {
		return cval{}, false
	}
	text := x.text(i)
	if len(text) > 80 {
		return cval{}, false
	}
	name := x.fs.intern(collapseSpace(text))
	lf, lnum := l.v.(float64)
	rf, rnum := r.v.(float64)
	switch {
	case lnum && rnum:
		return cval{v: roundSum(lf + sign*rf), name: name}, true
	case lnum && r.ref != "" && r.scale == 0:
		return cval{name: name, ref: r.ref, base: lf, scale: sign}, true
	case rnum && l.ref != "" && l.scale == 0:
		return cval{name: name, ref: l.ref, base: sign * rf, scale: 1}, true
	}
	return cval{}, false
}

// collapseSpace returns b with its runs of white space made one space.
func collapseSpace(b []byte) []byte {
	out := make([]byte, 0, len(b))
	space := false
	for _, c := range b {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\' {
			space = true
			continue
		}
		if space && len(out) > 0 {
			out = append(out, ' ')
		}
		space = false
		out = append(out, c)
	}
	return out
}

// ModuleImports returns the names Python source src binds with from
// MODULE import NAME (as ALIAS), each to "MODULE:NAME" as facts.Const.Ref
// spells it: a package's __init__.py re-exports the constants it imports
// so. It fails as Extract does.
func ModuleImports(ctx context.Context, src []byte) (map[string]string, error) {
	x, err := moduleOf(ctx, src)
	if err != nil {
		return nil, err
	}
	defer x.release()
	var out map[string]string
	for name, ref := range x.fs.mod.imports {
		if strings.IndexByte(ref, ':') < 0 {
			continue
		}
		if out == nil {
			out = make(map[string]string)
		}
		out[name] = ref
	}
	return out, nil
}

// roundSum drops the binary noise of a sum of decimals: 0.85 - 0.3 is
// 0.55, not 0.5499999999999999.
func roundSum(v float64) float64 { return math.Round(v*1e9) / 1e9 }
