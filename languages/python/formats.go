package python

import (
	"strings"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/treesitter"
)

// Formats: the regular expressions a function matches fields with,
// facts.Format. A match is re.match/fullmatch/search(P, x[, flags]) or
// R.match/fullmatch/search(x) of an R bound to re.compile(P[, flags]) in
// the file (a module or class constant, self.R, a local), or
// re.compile(P).fullmatch(x); P is a string literal or a module constant
// bound to one. x is a field read, a local bound from one, or a name.

// compiled is a pattern bound to a name by re.compile.
type compiled struct {
	pattern, flags string
	at             uint32 // the pattern literal's start
	n              int    // bindings of the name: more than one is no pattern
}

// formatState is what formats know of the file, built on the first match.
type formatState struct {
	ready bool
	names map[string]compiled
}

// matchAnchors are the re functions and methods that match and how they
// anchor: at the start, at the end.
var matchAnchors = map[string][2]bool{"match": {true, false}, "fullmatch": {true, true}, "search": {false, false}}

// formatCompare records the match of `M is None` and `M is not None` with
// the branch of the match: pol flipped for is None.
func (x *extractor) formatCompare(e int, pol facts.Branch) {
	var operands [3]int
	n, op := 0, -1
	end := int(x.nodes[e].End)
	for c := x.first(e); c >= 0; c = x.next(c, end) {
		switch {
		case x.nodes[c].Flags&treesitter.Extra != 0:
		case x.nodes[c].Field == fOperators:
			if op >= 0 {
				return // a chain
			}
			op = c
		case x.named(c) && n < len(operands):
			operands[n] = c
			n++
		}
	}
	if n != 2 || op < 0 || x.kind(operands[1]) != kNone {
		return
	}
	call := x.unparen(operands[0])
	if x.kind(call) != kCall {
		return
	}
	switch x.kind(op) {
	case kOpIs:
		x.formatCall(call, pol.Flip())
	case kOpIsNot:
		x.formatCall(call, pol)
	}
}

// formatCall records call e as a Format when it matches a field with a
// pattern; pol is the branch of the condition e is.
func (x *extractor) formatCall(e int, pol facts.Branch) {
	if n := len(x.f.Formats); n > 0 && x.f.Formats[n-1].Pos.Offset == int(x.nodes[e].StartByte) {
		return // recorded by formatCompare, with its branch
	}
	fn := x.child(e, fFunction)
	if x.kind(fn) != kAttr || x.nodes[e].HasError() {
		return
	}
	anchors, ok := matchAnchors[string(x.text(x.child(fn, fAttribute)))]
	if !ok {
		return
	}
	var buf [4]int
	args, simple := x.callArgs(x.child(e, fArguments), buf[:0])
	obj := x.unparen(x.child(fn, fObject))
	var c compiled
	var name string
	var subject int
	switch {
	case x.isReModule(obj): // re.fullmatch(P, x[, flags])
		if len(args) < 2 || len(args) > 3 {
			return
		}
		if c, ok = x.patternArg(args[0]); !ok {
			return
		}
		if x.kind(args[0]) == kIdent {
			name = string(x.text(args[0]))
		}
		c.flags = x.reFlags(args[2:], x.child(e, fArguments))
		subject = args[1]
	case len(args) == 1 && simple: // R.fullmatch(x)
		if c, name, ok = x.compiledOf(obj); !ok {
			return
		}
		subject = args[0]
	default:
		return
	}
	path, measure, k := x.side(subject)
	if k == sideNone || measure != "" || len(path) == 0 {
		return
	}
	x.f.Formats = append(x.f.Formats, facts.Format{
		Field: x.fs.intern(path), Pattern: c.pattern, Syntax: "python", Flags: c.flags,
		Start: anchors[0], End: anchors[1],
		Pos: x.pos(x.nodes[e].StartByte), PatternPos: x.pos(c.at), Name: name, Branch: pol,
	})
}

// isReModule tells whether i is the name of the re module.
func (x *extractor) isReModule(i int) bool {
	if x.kind(i) != kIdent || string(x.text(i)) != "re" {
		return false
	}
	_, shadowed := x.fs.locals["re"]
	return !shadowed
}

// patternArg is the pattern of argument i: a string literal, or a module
// constant bound once to one.
func (x *extractor) patternArg(i int) (compiled, bool) {
	i = x.unparen(i)
	switch x.kind(i) {
	case kString, kConcat:
		if s, ok := x.literal(i); ok {
			return compiled{pattern: s, at: x.nodes[i].StartByte, n: 1}, true
		}
	case kIdent:
		if _, local := x.fs.locals[string(x.text(i))]; local {
			return compiled{}, false
		}
		if mc, ok := x.fs.mod.consts[string(x.text(i))]; ok && mc.n == 1 {
			if s, ok := mc.val.(string); ok {
				return compiled{pattern: s, at: x.nodes[i].StartByte, n: 1}, true
			}
		}
	}
	return compiled{}, false
}

// compiledOf is the pattern that obj (R, self.R, cls.R, Class.R or
// re.compile(P)) compiles.
func (x *extractor) compiledOf(obj int) (c compiled, name string, ok bool) {
	switch x.kind(obj) {
	case kIdent:
		name = string(x.text(obj))
	case kAttr:
		name = string(x.text(x.child(obj, fAttribute)))
	case kCall:
		c, ok = x.compileCall(obj)
		return c, "", ok
	default:
		return compiled{}, "", false
	}
	if !x.fmt.ready {
		x.scanCompiled()
	}
	c, ok = x.fmt.names[name]
	return c, name, ok && c.n == 1
}

// scanCompiled finds the names the file binds to re.compile(P): N =
// re.compile(P), self.N = re.compile(P), each bound once.
func (x *extractor) scanCompiled() {
	x.fmt.ready = true
	if x.fmt.names == nil {
		x.fmt.names = map[string]compiled{}
	}
	clear(x.fmt.names)
	if !x.fs.mod.ready {
		x.scanModule()
	}
	for j := range x.nodes {
		if kindOf[x.nodes[j].Kind] != kAssign {
			continue
		}
		left, right := x.child(j, fLeft), x.unparen(x.child(j, fRight))
		var name []byte
		switch x.kind(left) {
		case kIdent:
			name = x.text(left)
		case kAttr:
			name = x.text(x.child(left, fAttribute))
		default:
			continue
		}
		c, ok := x.compileCall(right)
		if !ok {
			if prev, seen := x.fmt.names[string(name)]; seen {
				prev.n++ // bound to something else too
				x.fmt.names[string(name)] = prev
			}
			continue
		}
		if prev, seen := x.fmt.names[string(name)]; seen {
			c.n += prev.n
		}
		x.fmt.names[string(name)] = c
	}
}

// compileCall is the pattern of re.compile(P[, flags]).
func (x *extractor) compileCall(i int) (compiled, bool) {
	if x.kind(i) != kCall || x.nodes[i].HasError() {
		return compiled{}, false
	}
	fn := x.child(i, fFunction)
	if x.kind(fn) != kAttr || string(x.text(x.child(fn, fAttribute))) != "compile" || !x.isReModule(x.unparen(x.child(fn, fObject))) {
		return compiled{}, false
	}
	var buf [3]int
	args, _ := x.callArgs(x.child(i, fArguments), buf[:0])
	if len(args) < 1 || len(args) > 2 {
		return compiled{}, false
	}
	c, ok := x.patternArg(args[0])
	if !ok {
		return compiled{}, false
	}
	c.flags = x.reFlags(args[1:], x.child(i, fArguments))
	return c, true
}

// reFlags reads the flags of a call: its positional flags argument, if
// any, or its flags= keyword: re.I | re.ASCII gives "ia"; anything but
// re's flags gives "?".
func (x *extractor) reFlags(pos []int, argList int) string {
	f := -1
	if len(pos) > 0 {
		f = pos[0]
	}
	end := int(x.nodes[argList].End)
	for c := x.first(argList); c >= 0 && f < 0; c = x.next(c, end) {
		if x.kind(c) == kKwarg && string(x.text(x.child(c, fName))) == "flags" {
			f = x.child(c, fValue)
		}
	}
	if f < 0 {
		return ""
	}
	var b strings.Builder
	if !x.flagLetters(x.unparen(f), &b, 0) {
		return "?"
	}
	return b.String()
}

var flagNames = map[string]string{
	"I": "i", "IGNORECASE": "i", "M": "m", "MULTILINE": "m", "S": "s", "DOTALL": "s",
	"X": "x", "VERBOSE": "x", "A": "a", "ASCII": "a", "U": "", "UNICODE": "", "NOFLAG": "",
}

func (x *extractor) flagLetters(i int, b *strings.Builder, depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch x.kind(i) {
	case kAttr:
		if !x.isReModule(x.child(i, fObject)) {
			return false
		}
		l, ok := flagNames[string(x.text(x.child(i, fAttribute)))]
		b.WriteString(l)
		return ok
	case kBinaryOp:
		op := x.child(i, fOperator)
		if op < 0 || string(x.text(op)) != "|" {
			return false
		}
		return x.flagLetters(x.unparen(x.child(i, fLeft)), b, depth+1) && x.flagLetters(x.unparen(x.child(i, fRight)), b, depth+1)
	case kInteger:
		return string(x.text(i)) == "0"
	}
	return false
}
