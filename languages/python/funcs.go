package python

// Functions: one facts.Function per module-level function and per method,
// with the language-neutral shape of its body (package languages/shape),
// the constants it compares, the fields it reads and the names it calls.
//
// The body is walked recursively, in source order, writing shape tokens;
// the walk is bounded by maxShapeDepth (deeper subtrees add no tokens), so
// deep nesting costs no more stack than that.

import (
	"context"
	"slices"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/shape"
	"github.com/protoscan-dev/protoscan/languages/treesitter"
)

// maxShapeDepth bounds the recursion of the shape walk over statements and
// expressions together.
const maxShapeDepth = 128

// maxRepeat bounds the tokens of a function beyond which a comparison
// chain's shared operand (b in a < b < c, written twice) is no longer
// copied but written as one Name: nested chains would otherwise double the
// tokens at every level.
const maxRepeat = 1 << 16

// funcState is the state of the function being shaped; its buffers are
// reused from function to function and from file to file.
type funcState struct {
	toks   []shape.Token
	consts []facts.Const
	fields []string
	calls  []string
	params []string
	path   []byte // scratch for field paths
	// strs interns the names and paths of the files this extractor sees
	// (call names, parameters, fields repeat across files); bounded.
	strs map[string]string
	// strSlab and constSlab hand out the Params, Fields, Calls and Consts
	// of functions from shared chunks, not a slice each.
	strSlab   []string
	constSlab []facts.Const
	// locals are the names the function binds that matter: a name bound
	// from a field read (q = h["metrics"]["quality"]) maps to that field,
	// a name that shadows a module constant or was bound from a field
	// before maps to the zero local.
	locals map[string]local
	mod    moduleInfo
	// pol is the branch of the condition being walked (the comparisons
	// of an if's condition, of a returned verdict); the expression walk
	// hands it down through not, and, or and parentheses only.
	pol facts.Branch
	// verdict is the branch of `return <condition>` in this function:
	// accept when its name says it tells validity (is_valid, check_x).
	verdict facts.Branch
	// boolOutcome is set by outcome when a return True or False said
	// what a block does: a predicate's answer, which is a validation's
	// verdict only in a function named for validity.
	boolOutcome bool
	// hook, when set (by tests), sees every function's tokens.
	hook func(fn *facts.Function, toks []shape.Token)
	// help is what the file's helpers and classes say (measures.go);
	// class is the class of the method being walked, "" for a function.
	help  helperInfo
	class string
}

// local is what a name of the function holds: the field it was read from,
// or for a parameter with a default value, that value (def).
type local struct {
	path, measure string
	def           *cval
	row           *rowRef // a row of a table (tables.go)
	// konst: def is the one number the function binds the name to
	// (limit = 85), not a parameter's default
	konst bool
}

// cval is the value of a constant operand: a literal, a named constant
// (name), or a constant of another module (ref, v nil).
type cval struct {
	v         any
	name, ref string
	param     bool // a parameter's default
	// base and scale: ref's constant is part of an expression (see
	// facts.Const.Base)
	base, scale float64
	// rows: a column of a table, one value per row (tables.go)
	rows []tableRow
}

// moduleInfo is what the functions of a file see of its module, gathered
// once per file on its first function.
type moduleInfo struct {
	ready bool
	// roots are names whose attributes are not fields: imported modules
	// and names, and module-level classes (os.path, Status.DONE).
	roots map[string]struct{}
	// consts are module-level names with the number of their assignments
	// and, for a single number or string literal, its value.
	consts map[string]modConst
	// imports maps a name an import binds to what it stands for:
	// "MODULE:NAME" for from MODULE import NAME, "MODULE" for a module.
	imports map[string]string
}

type modConst struct {
	val any // float64 or string; nil when not a literal
	n   int
}

// maxInterned bounds the strings an extractor keeps interned.
const maxInterned = 1 << 14

// intern returns string(b), shared with earlier equal strings.
func (fs *funcState) intern(b []byte) string {
	if s, ok := fs.strs[string(b)]; ok {
		return s
	}
	if fs.strs == nil || len(fs.strs) >= maxInterned {
		fs.strs = make(map[string]string, 256)
	}
	s := string(b)
	fs.strs[s] = s
	return s
}

// take returns a copy of src carved from *slab, its capacity capped so
// that appending to it cannot overwrite a neighbour.
func take[T any](slab *[]T, src []T) []T {
	if len(src) == 0 {
		return nil
	}
	if len(src) > cap(*slab)-len(*slab) {
		*slab = make([]T, 0, max(len(src), 64))
	}
	n := len(*slab)
	*slab = append(*slab, src...)
	return (*slab)[n:len(*slab):len(*slab)]
}

func (fs *funcState) reset() {
	fs.toks = fs.toks[:0]
	clear(fs.params)
	fs.params = fs.params[:0]
	fs.consts = fs.consts[:0]
	clear(fs.fields)
	fs.fields = fs.fields[:0]
	clear(fs.calls)
	fs.calls = fs.calls[:0]
	clear(fs.locals)
}

// release drops very large buffers and references to the last file.
func (fs *funcState) release() {
	// A cleared map keeps its size: drop the large ones.
	if len(fs.locals) > 1<<10 {
		fs.locals = nil
	}
	if len(fs.mod.roots) > 1<<10 {
		fs.mod.roots = nil
	}
	if len(fs.mod.consts) > 1<<12 {
		fs.mod.consts = nil
	}
	if len(fs.mod.imports) > 1<<10 {
		fs.mod.imports = nil
	}
	clear(fs.consts)
	fs.reset()
	if cap(fs.toks) > 1<<16 {
		fs.toks = nil
	}
	if cap(fs.consts) > 1<<12 {
		fs.consts = nil
	}
	clear(fs.mod.roots)
	clear(fs.mod.consts)
	clear(fs.mod.imports)
	fs.mod.ready = false
	// The slabs' chunks belong to the facts handed out.
	fs.strSlab, fs.constSlab = nil, nil
}

func (x *extractor) tok(t shape.Token) { x.fs.toks = append(x.fs.toks, t) }

// named reports whether node c is a named node that is not a comment.
func (x *extractor) named(c int) bool {
	nd := &x.nodes[c]
	return nd.IsNamed() && nd.Flags&treesitter.Extra == 0
}

// function records function definition i as a Function when it is a
// module-level function or a method: definitions nested in a function are
// part of that function's shape.
func (x *extractor) function(i int) {
	for k := range x.scopes {
		if x.scopes[k].kind == scopeFunc {
			return
		}
	}
	id := x.text(x.child(i, fName))
	if len(id) == 0 {
		return
	}
	fs := &x.fs
	s := x.scope()
	method := s.kind == scopeClass
	b := fs.path[:0]
	if method {
		if cls := s.name[lastDot(s.name)+1:]; cls != "" {
			b = append(append(b, cls...), '.')
		}
	}
	b = append(b, id...)
	fs.path = b
	name := string(b)
	if !fs.mod.ready {
		x.scanModule()
	}
	fs.reset()
	fs.class = ""
	if method && s.kind == scopeClass && lastDot(s.name) < 0 {
		fs.class = s.name
	}
	fs.verdict = verdictOf(id)
	x.params(x.child(i, fParameters), method, true)
	params := take(&fs.strSlab, fs.params)
	x.block(x.child(i, fBody), 1, true)

	nd := &x.nodes[i]
	x.f.Functions = append(x.f.Functions, facts.Function{
		Name:   name,
		Pos:    x.pos(nd.StartByte),
		End:    x.pos(nd.EndByte),
		Params: params,
		Shape:  shape.Fingerprint(fs.toks),
		Size:   len(fs.toks),
	})
	fn := &x.f.Functions[len(x.f.Functions)-1]
	if len(fs.consts) > 0 {
		slices.SortStableFunc(fs.consts, func(a, b facts.Const) int { return a.Pos.Offset - b.Pos.Offset })
		fn.Consts = take(&fs.constSlab, fs.consts)
	}
	fn.Fields = take(&fs.strSlab, sortedUnique(fs.fields))
	fn.Calls = take(&fs.strSlab, sortedUnique(fs.calls))
	fn.ParamTypes = x.paramTypes(x.child(i, fParameters))
	if fs.hook != nil {
		fs.hook(fn, fs.toks)
	}
}

func sortedUnique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// params writes one Param per parameter of parameters node p, leaving out
// the self or cls of a method, and with collect appends the names to
// fs.params.
func (x *extractor) params(p int, method, collect bool) {
	if p < 0 {
		return
	}
	first := true
	end := int(x.nodes[p].End)
	for c := x.first(p); c >= 0; c = x.next(c, end) {
		if !x.named(c) {
			continue
		}
		id, def := -1, -1
		switch x.kind(c) {
		case kIdent:
			id = c
		case kDefaultParam, kTypedDefaultParam:
			id, def = x.child(c, fName), x.child(c, fValue)
		case kTypedParam, kListSplatPattern, kDictSplatPattern:
			id = c
			for k := 0; k < 2 && id >= 0 && x.kind(id) != kIdent; k++ {
				id = x.childIdentOrSplat(id)
			}
		default:
			continue // separators, py2 tuple parameters
		}
		n := x.text(id)
		if x.kind(id) != kIdent || len(n) == 0 {
			continue // a name lost to a syntax error
		}
		if method && first && (string(n) == "self" || string(n) == "cls") {
			first = false
			continue
		}
		first = false
		x.tok(shape.Param)
		if collect {
			x.fs.params = append(x.fs.params, x.fs.intern(n))
		}
		// a parameter's default value is the threshold the function
		// uses unless a caller says otherwise: quality < threshold
		// compares with it (the value is read before the parameter is
		// bound: def f(x=X) is the module's X)
		if v, _, ok := x.constOf(def, 0); ok {
			name := x.fs.intern(n)
			if v.name == "" {
				v.name = name
			}
			x.bindLocal(n, local{def: &v})
			continue
		}
		x.bindLocal(n, local{})
	}
}

// childIdentOrSplat returns the first identifier or splat pattern child of
// i, or -1.
func (x *extractor) childIdentOrSplat(i int) int {
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		switch x.kind(c) {
		case kIdent, kListSplatPattern, kDictSplatPattern:
			return c
		}
	}
	return -1
}

// block writes the statements of block b; doc skips a leading docstring.
func (x *extractor) block(b, d int, doc bool) {
	if b < 0 || d > maxShapeDepth {
		return
	}
	end := int(x.nodes[b].End)
	for c := x.first(b); c >= 0; c = x.next(c, end) {
		if !x.named(c) {
			continue
		}
		if doc {
			doc = false
			if x.isDocstring(c) {
				continue
			}
		}
		x.stmt(c, d)
	}
}

// isDocstring reports whether statement s is a lone string expression.
func (x *extractor) isDocstring(s int) bool {
	if x.kind(s) != kExprStmt {
		return false
	}
	var buf [2]int
	kids := x.namedChildren(s, buf[:0])
	return len(kids) == 1 && (x.kind(kids[0]) == kString || x.kind(kids[0]) == kConcat)
}

func (x *extractor) stmt(s, d int) {
	if d > maxShapeDepth {
		return
	}
	end := int(x.nodes[s].End)
	switch x.kind(s) {
	case kExprStmt:
		for c := x.first(s); c >= 0; c = x.next(c, end) {
			if x.named(c) {
				x.expr(c, d+1, 0)
			}
		}
	case kReturn:
		x.tok(shape.Return)
		for c := x.first(s); c >= 0; c = x.next(c, end) {
			if x.named(c) {
				x.fs.pol = x.fs.verdict
				x.expr(c, d+1, 0)
			}
		}
	case kRaise:
		x.tok(shape.Raise)
		// raise X from e: the cause is dropped.
		for c := x.first(s); c >= 0; c = x.next(c, end) {
			if x.named(c) {
				x.expr(c, d+1, 0)
				break
			}
		}
	case kAssert:
		// assert x, msg: Raise <x>.
		x.tok(shape.Raise)
		for c := x.first(s); c >= 0; c = x.next(c, end) {
			if x.named(c) {
				x.fs.pol = facts.BranchAccept
				x.expr(c, d+1, 0)
				break
			}
		}
	case kPass, kBreak, kContinue:
		x.tok(shape.Break)
	case kIf:
		x.tok(shape.If)
		x.fs.pol = x.ifBranch(x.child(s, fConsequence), x.elseOf(s))
		x.expr(x.child(s, fCondition), d+1, 0)
		x.block(x.child(s, fConsequence), d+1, false)
		x.tok(shape.End)
		for c := x.first(s); c >= 0; c = x.next(c, end) {
			switch x.kind(c) {
			case kElif:
				x.tok(shape.Else)
				x.tok(shape.If)
				x.fs.pol = x.ifBranch(x.child(c, fConsequence), -1)
				x.expr(x.child(c, fCondition), d+1, 0)
				x.block(x.child(c, fConsequence), d+1, false)
				x.tok(shape.End)
			case kElse:
				x.elseClause(c, d)
			}
		}
	case kFor:
		x.tok(shape.Loop)
		left := x.child(s, fLeft)
		x.target(left, d+1)
		x.unbind(left, 0)
		for c := x.first(s); c >= 0; c = x.next(c, end) {
			if x.nodes[c].Field == fRight && x.named(c) {
				x.expr(c, d+1, 0)
			}
		}
		x.block(x.child(s, fBody), d+1, false)
		x.tok(shape.End)
		x.elseClause(x.child(s, fAlternative), d)
	case kWhile:
		x.tok(shape.Loop)
		x.expr(x.child(s, fCondition), d+1, 0)
		x.block(x.child(s, fBody), d+1, false)
		x.tok(shape.End)
		x.elseClause(x.child(s, fAlternative), d)
	case kTry:
		// Try, then every body followed by End.
		x.tok(shape.Try)
		x.block(x.child(s, fBody), d+1, false)
		x.tok(shape.End)
		for c := x.first(s); c >= 0; c = x.next(c, end) {
			switch x.kind(c) {
			case kExcept, kExceptGroup:
				if v := x.child(c, fValue); x.kind(v) == kAsPattern {
					x.unbind(x.child(v, fAlias), 0)
				}
				x.block(x.childKind(c, kBlock), d+1, false)
				x.tok(shape.End)
			case kElse:
				x.block(x.child(c, fBody), d+1, false)
				x.tok(shape.End)
			case kFinally:
				x.block(x.childKind(c, kBlock), d+1, false)
				x.tok(shape.End)
			}
		}
	case kWith:
		// with a as b: Assign <b> <a>, then the body's statements.
		if wc := x.childKind(s, kWithClause); wc >= 0 {
			we := int(x.nodes[wc].End)
			for it := x.first(wc); it >= 0; it = x.next(it, we) {
				if x.kind(it) != kWithItem {
					continue
				}
				v := x.child(it, fValue)
				if x.kind(v) != kAsPattern {
					continue
				}
				alias := x.child(v, fAlias)
				x.tok(shape.Assign)
				x.target(alias, d+1)
				x.expr(x.first(v), d+1, 0)
				x.unbind(alias, 0)
			}
		}
		x.block(x.child(s, fBody), d+1, false)
	case kMatch:
		x.matchStmt(s, d)
	case kDelete:
		// del d[k]: like Go's delete(d, k), a call.
		x.tok(shape.Call)
		x.children(s, d)
		x.tok(shape.End)
	case kPrint, kExec:
		x.tok(shape.Call)
		x.tok(shape.Name)
		for c := x.first(s); c >= 0; c = x.next(c, end) {
			if x.named(c) && x.kind(c) != kOther {
				x.expr(c, d+1, 0)
			}
		}
		x.tok(shape.End)
	case kFunc:
		x.tok(shape.Func)
		x.params(x.child(s, fParameters), false, false)
		x.block(x.child(s, fBody), d+1, true)
		x.tok(shape.End)
	case kDecorated:
		if def := x.child(s, fDefinition); def >= 0 {
			x.stmt(def, d+1)
		}
	case kClass:
		// A class inside a function: its statements, methods as Func.
		x.block(x.child(s, fBody), d+1, true)
	}
	// global, nonlocal, import, type aliases, errors: nothing.
}

// elseClause writes Else <body> End for an else clause (of if, for, while).
func (x *extractor) elseClause(c, d int) {
	if x.kind(c) != kElse {
		return
	}
	x.tok(shape.Else)
	x.block(x.child(c, fBody), d+1, false)
	x.tok(shape.End)
}

// children writes the named children of i as expressions.
func (x *extractor) children(i, d int) {
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		if x.named(c) {
			x.expr(c, d+1, 0)
		}
	}
}

// flags of the expression walk.
const (
	// fChain: the expression is the object of a field read whose tokens
	// are being emitted; only the outermost read of a chain records its
	// field path, not its parts.
	fChain = 1 << iota
	// fRootOK: the enclosing attribute found its chain not rooted in a
	// module, so this one is not either.
	fRootOK
)

func (x *extractor) expr(e, d, fl int) {
	// the condition's branch reaches this expression only, not its
	// operands (see funcState.pol)
	pol := x.fs.pol
	x.fs.pol = facts.BranchUnknown
	if e < 0 || d > maxShapeDepth {
		return
	}
	switch x.kind(e) {
	case kIdent:
		x.tok(shape.Name)
	case kString, kConcat:
		x.tok(shape.Str)
	case kInteger, kFloat:
		x.tok(shape.Num)
	case kTrue, kFalse:
		x.tok(shape.Bool)
	case kNone:
		x.tok(shape.Nil)
	case kAttr:
		if fl&fRootOK == 0 && x.moduleRooted(e) {
			x.tok(shape.Name) // os.path, Status.DONE: a qualified name
			return
		}
		x.fieldRead(e, x.child(e, fObject), d, fl, fRootOK)
	case kSubscript:
		val := x.child(e, fValue)
		if x.stringKey(e) >= 0 {
			x.fieldRead(e, val, d, fl, 0)
			return
		}
		x.tok(shape.Index)
		x.expr(val, d+1, 0)
		end := int(x.nodes[e].End)
		for c := x.first(e); c >= 0; c = x.next(c, end) {
			if x.nodes[c].Field == fSubscript && x.named(c) {
				x.expr(c, d+1, 0)
			}
		}
	case kCall:
		x.formatCall(e, pol)
		x.callExpr(e, d, fl)
	case kCompare:
		x.formatCompare(e, pol)
		x.compareExpr(e, d, pol)
	case kBoolOp:
		if x.kind(x.child(e, fOperator)) == kOpOr {
			x.tok(shape.Or)
		} else {
			x.tok(shape.And)
		}
		x.fs.pol = pol
		x.expr(x.child(e, fLeft), d+1, 0)
		x.fs.pol = pol
		x.expr(x.child(e, fRight), d+1, 0)
	case kNot:
		x.tok(shape.Not)
		x.fs.pol = pol.Flip()
		x.expr(x.child(e, fArgument), d+1, 0)
	case kBinaryOp:
		x.tok(shape.Arith)
		x.expr(x.child(e, fLeft), d+1, 0)
		x.expr(x.child(e, fRight), d+1, 0)
	case kUnary:
		// -1 is a number; -x and ~x are x, as in the Go extractor.
		x.expr(x.child(e, fArgument), d+1, 0)
	case kCond:
		// a if c else b: If <c> <a> Else <b> End.
		var buf [4]int
		kids := x.namedChildren(e, buf[:0])
		if len(kids) != 3 {
			for _, k := range kids {
				x.expr(k, d+1, 0)
			}
			return
		}
		x.tok(shape.If)
		x.expr(kids[1], d+1, 0)
		x.expr(kids[0], d+1, 0)
		x.tok(shape.Else)
		x.expr(kids[2], d+1, 0)
		x.tok(shape.End)
	case kParen:
		end := int(x.nodes[e].End)
		for c := x.first(e); c >= 0; c = x.next(c, end) {
			if x.named(c) {
				x.fs.pol = pol
				x.expr(c, d+1, fl&^fRootOK)
			}
		}
	case kList, kTuple, kSet:
		x.tok(shape.List)
		x.children(e, d)
		x.tok(shape.End)
	case kExprList, kPatternList:
		x.children(e, d)
	case kDict:
		x.tok(shape.Map)
		x.children(e, d)
		x.tok(shape.End)
	case kPair:
		x.expr(x.child(e, fKey), d+1, 0)
		x.expr(x.child(e, fValue), d+1, 0)
	case kListComp, kSetComp, kGenExpr, kDictComp:
		x.comprehension(e, d)
	case kLambda:
		x.tok(shape.Func)
		x.params(x.child(e, fParameters), false, false)
		x.tok(shape.Return)
		x.expr(x.child(e, fBody), d+1, 0)
		x.tok(shape.End)
	case kNamedExpr:
		name, val := x.child(e, fName), x.child(e, fValue)
		x.tok(shape.Assign)
		x.tok(shape.Name)
		x.expr(val, d+1, 0)
		if name >= 0 {
			x.bindFrom(x.text(name), val)
		}
	case kAssign:
		left, right := x.child(e, fLeft), x.child(e, fRight)
		if right < 0 {
			return // x: int declares, assigns nothing
		}
		x.tok(shape.Assign)
		x.target(left, d+1)
		x.expr(right, d+1, 0)
		switch {
		case x.bindTable(left, right):
		case x.kind(left) == kIdent:
			x.bindFrom(x.text(left), right)
		default:
			x.unbind(left, 0)
		}
	case kAugAssign:
		// x += y: Assign <x> <y>; x is read too.
		left := x.child(e, fLeft)
		x.tok(shape.Assign)
		x.expr(left, d+1, 0)
		x.expr(x.child(e, fRight), d+1, 0)
		x.unbind(left, 0)
	case kYield:
		x.tok(shape.Return)
		x.children(e, d)
	case kAwait, kListSplat, kDictSplat, kParenListSplat, kSlice:
		x.children(e, d)
	case kKwarg:
		x.expr(x.child(e, fValue), d+1, 0)
	case kAsPattern:
		x.expr(x.first(e), d+1, 0)
	}
	// ellipsis, types, errors: nothing.
}

// fieldRead writes a field read of object obj (x.k, x["k"], x.get("k"),
// getattr(x, "k")): the object's tokens then Field; the outermost read of
// a chain records its path.
func (x *extractor) fieldRead(e, obj, d, fl, objFl int) {
	x.expr(obj, d+1, fChain|objFl)
	x.tok(shape.Field)
	if fl&fChain == 0 {
		x.recordField(e)
	}
}

func (x *extractor) recordField(e int) {
	b, ok := x.fieldChain(e, x.fs.path[:0], 0)
	x.fs.path = b
	if !ok || len(b) == 0 {
		return
	}
	x.fs.fields = x.fs.addName(x.fs.fields, b)
}

// addName appends string(b) to names unless it is empty (a name lost to a
// syntax error) or there already (among the first entries: the final sort
// removes any other duplicate).
func (fs *funcState) addName(names []string, b []byte) []string {
	if len(b) == 0 {
		return names
	}
	for k, s := range names {
		if k >= 256 {
			break
		}
		if s == string(b) {
			return names
		}
	}
	return append(names, fs.intern(b))
}

// target writes an assignment target: a written field's receiver is read,
// the written field itself is not.
func (x *extractor) target(t, d int) {
	if t < 0 || d > maxShapeDepth {
		return
	}
	switch x.kind(t) {
	case kAttr:
		if x.moduleRooted(t) {
			x.tok(shape.Name)
			return
		}
		x.expr(x.child(t, fObject), d+1, 0)
		x.tok(shape.Field)
	case kSubscript:
		if x.stringKey(t) >= 0 {
			x.expr(x.child(t, fValue), d+1, 0)
			x.tok(shape.Field)
			return
		}
		x.expr(t, d, 0)
	case kPatternList, kExprList, kAsPatternTarget, kParen, kListSplatPattern, kListSplat:
		end := int(x.nodes[t].End)
		for c := x.first(t); c >= 0; c = x.next(c, end) {
			if x.named(c) {
				x.target(c, d+1)
			}
		}
	case kTuplePattern, kListPattern, kTuple, kList:
		x.tok(shape.List)
		end := int(x.nodes[t].End)
		for c := x.first(t); c >= 0; c = x.next(c, end) {
			if x.named(c) {
				x.target(c, d+1)
			}
		}
		x.tok(shape.End)
	default:
		x.expr(t, d, 0)
	}
}

// stringKey returns the key node of x["k"] (a single str literal
// subscript), or -1.
func (x *extractor) stringKey(i int) int {
	sub := -1
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		if x.nodes[c].Field == fSubscript {
			if sub >= 0 {
				return -1
			}
			sub = c
		}
	}
	if sub = x.unparen(sub); sub >= 0 && x.isString(sub) {
		return sub
	}
	return -1
}

// callArgs appends the positional arguments of argument list a to buf;
// simple is false when a has keyword arguments or splats (or is not an
// argument list).
func (x *extractor) callArgs(a int, buf []int) (pos []int, simple bool) {
	if x.kind(a) != kArgList {
		return buf, false
	}
	simple = true
	end := int(x.nodes[a].End)
	for c := x.first(a); c >= 0; c = x.next(c, end) {
		if !x.named(c) {
			continue
		}
		switch x.kind(c) {
		case kKwarg, kListSplat, kDictSplat, kParenListSplat:
			simple = false
		default:
			buf = append(buf, c)
		}
	}
	return buf, simple
}

func isConversion(b []byte) bool {
	switch string(b) {
	case "float", "int", "str", "bool":
		return true
	}
	return false
}

// fieldCall returns the object and key of a call that reads a field:
// x.get("k"[, d]) and getattr(x, "k"[, d]); obj is -1 otherwise.
func (x *extractor) fieldCall(i int) (obj, key int) {
	fn := x.child(i, fFunction)
	var buf [4]int
	a, simple := x.callArgs(x.child(i, fArguments), buf[:0])
	if !simple {
		return -1, -1
	}
	switch x.kind(fn) {
	case kAttr:
		if (len(a) == 1 || len(a) == 2) && string(x.text(x.child(fn, fAttribute))) == "get" {
			if k := x.unparen(a[0]); x.isString(k) {
				return x.child(fn, fObject), k
			}
		}
	case kIdent:
		if (len(a) == 2 || len(a) == 3) && string(x.text(fn)) == "getattr" {
			if k := x.unparen(a[1]); x.isString(k) {
				return a[0], k
			}
		}
	}
	return -1, -1
}

// wordsCall returns the receiver of x.split() or x.split(" ") (or
// x.split(None)), or -1.
func (x *extractor) wordsCall(i int) int {
	fn := x.child(i, fFunction)
	if x.kind(fn) != kAttr || string(x.text(x.child(fn, fAttribute))) != "split" {
		return -1
	}
	var buf [2]int
	a, simple := x.callArgs(x.child(i, fArguments), buf[:0])
	if !simple || len(a) > 1 {
		return -1
	}
	if len(a) == 1 {
		arg := x.unparen(a[0])
		if x.kind(arg) != kNone {
			if s, ok := x.literal(arg); !ok || s != " " {
				return -1
			}
		}
	}
	return x.child(fn, fObject)
}

// unaryCall returns the argument of name(arg), a call of a plain name with
// one positional argument, or -1.
func (x *extractor) unaryCall(i int) (name []byte, arg int) {
	fn := x.child(i, fFunction)
	if x.kind(fn) != kIdent {
		return nil, -1
	}
	var buf [2]int
	a, simple := x.callArgs(x.child(i, fArguments), buf[:0])
	if !simple || len(a) != 1 {
		return nil, -1
	}
	return x.text(fn), a[0]
}

func (x *extractor) callExpr(e, d, fl int) {
	fn, args := x.child(e, fFunction), x.child(e, fArguments)
	if obj, _ := x.fieldCall(e); obj >= 0 {
		x.fieldRead(e, obj, d, fl, 0)
		return
	}
	if name, arg := x.unaryCall(e); arg >= 0 {
		switch {
		case string(name) == "len":
			x.fs.calls = x.fs.addName(x.fs.calls, name)
			x.tok(shape.Len)
			x.expr(arg, d+1, 0)
			return
		case isConversion(name):
			// float(x) is x, and not a call (as Go's conversions).
			x.expr(arg, d+1, 0)
			return
		}
	}
	if obj := x.wordsCall(e); obj >= 0 {
		x.fs.calls = x.fs.addName(x.fs.calls, []byte("split"))
		x.tok(shape.Words)
		x.expr(obj, d+1, 0)
		return
	}
	switch x.kind(fn) {
	case kIdent:
		x.fs.calls = x.fs.addName(x.fs.calls, x.text(fn))
	case kAttr:
		if a := x.child(fn, fAttribute); a >= 0 {
			x.fs.calls = x.fs.addName(x.fs.calls, x.text(a))
		}
	}
	x.tok(shape.Call)
	if x.kind(fn) == kAttr {
		// A method's name is erased: the callee is its receiver.
		if x.moduleRooted(fn) {
			x.tok(shape.Name)
		} else {
			x.expr(x.child(fn, fObject), d+1, 0)
		}
	} else {
		x.expr(fn, d+1, 0)
	}
	if x.kind(args) == kArgList {
		x.children(args, d)
	} else {
		x.expr(args, d+1, 0) // f(x for x in y)
	}
	x.tok(shape.End)
}

// comprehension writes Loop <element> <iterables and conditions> End.
func (x *extractor) comprehension(e, d int) {
	x.tok(shape.Loop)
	end := int(x.nodes[e].End)
	// Bind the loop variables first: the element uses them.
	for c := x.first(e); c >= 0; c = x.next(c, end) {
		if x.kind(c) == kForIn {
			x.unbind(x.child(c, fLeft), 0)
		}
	}
	x.expr(x.child(e, fBody), d+1, 0)
	for c := x.first(e); c >= 0; c = x.next(c, end) {
		switch x.kind(c) {
		case kForIn:
			ce := int(x.nodes[c].End)
			for r := x.first(c); r >= 0; r = x.next(r, ce) {
				if x.nodes[r].Field == fRight && x.named(r) {
					x.expr(r, d+1, 0)
				}
			}
		case kIfClause:
			x.children(c, d)
		}
	}
	x.tok(shape.End)
}

// cmpToken is the shape token of comparison operator node op.
func (x *extractor) cmpToken(op int) (shape.Token, string) {
	switch x.kind(op) {
	case kOpEq:
		return shape.Eq, "=="
	case kOpNe:
		return shape.Ne, "!="
	case kOpLt:
		return shape.Lt, "<"
	case kOpLe:
		return shape.Le, "<="
	case kOpGt:
		return shape.Gt, ">"
	case kOpGe:
		return shape.Ge, ">="
	case kOpIn:
		return shape.In, "in"
	case kOpNotIn:
		return shape.NotIn, "not in"
	case kOpIs:
		return shape.Eq, "" // is None: Eq <x> Nil; not a Const
	case kOpIsNot:
		return shape.Ne, ""
	}
	return shape.Eq, ""
}

// compareExpr writes a comparison; a chain a < b < c is And (Lt a b) (Lt
// b c), as Go writes it (left-associated when longer).
func (x *extractor) compareExpr(e, d int, pol facts.Branch) {
	var ob, pb [8]int
	operands, ops := ob[:0], pb[:0]
	end := int(x.nodes[e].End)
	for c := x.first(e); c >= 0; c = x.next(c, end) {
		if x.nodes[c].Flags&treesitter.Extra != 0 {
			continue
		}
		if x.nodes[c].Field == fOperators {
			ops = append(ops, c)
		} else if x.named(c) {
			operands = append(operands, c)
		}
	}
	if len(ops) == 0 || len(operands) != len(ops)+1 {
		for _, o := range operands {
			x.expr(o, d+1, 0)
		}
		return
	}
	for k := 1; k < len(ops); k++ {
		x.tok(shape.And)
	}
	// The operand shared by two comparisons is walked once (its fields,
	// calls and consts recorded once) and its tokens copied.
	prev, prevEnd := 0, 0
	for k, op := range ops {
		t, _ := x.cmpToken(op)
		x.tok(t)
		if k == 0 {
			x.expr(operands[0], d+1, 0)
		} else if toks := x.fs.toks; len(toks)+prevEnd-prev <= maxRepeat {
			x.fs.toks = append(toks, toks[prev:prevEnd]...)
		} else {
			x.tok(shape.Name)
		}
		prev = len(x.fs.toks)
		x.expr(operands[k+1], d+1, 0)
		prevEnd = len(x.fs.toks)
	}
	at := x.nodes[e].StartByte
	for k, op := range ops {
		_, name := x.cmpToken(op)
		if name == "" {
			continue
		}
		l, r := x.unparen(operands[k]), x.unparen(operands[k+1])
		if name == "in" || name == "not in" {
			// Only a literal container or string on the right: "a" in x
			// is x containing "a", which no Op says.
			if _, _, ok := x.constOf(l, at); ok {
				continue
			}
			switch x.kind(r) {
			case kTuple, kList, kSet:
				re := int(x.nodes[r].End)
				for c := x.first(r); c >= 0; c = x.next(c, re) {
					if !x.named(c) {
						continue
					}
					if v, vat, ok := x.constOf(c, at); ok {
						x.addConst(v, name, l, vat, pol)
					}
				}
			default:
				if v, vat, ok := x.constOf(r, at); ok {
					x.addConst(v, name, l, vat, pol)
				}
			}
			continue
		}
		lv, lat, lok := x.constOf(l, at)
		rv, rat, rok := x.constOf(r, at)
		// a parameter with a default is a variable beside a literal:
		// attempts >= 3 compares the parameter attempts=0 with 3
		if lok && rok && lv.param != rv.param {
			lok, rok = rv.param, lv.param
		}
		switch {
		case lok && rok:
			// Two constants (LEVEL > 2): the right one, about no field.
			x.fs.consts = append(x.fs.consts, facts.Const{Value: rv.v, Name: rv.name, Ref: rv.ref, Op: name, Pos: x.pos(rat), Branch: pol,
				Base: rv.base, Scale: rv.scale})
		case lok:
			x.addConst(lv, facts.Mirror(name), r, lat, pol)
		case rok:
			x.addConst(rv, name, l, rat, pol)
		}
	}
}

func (x *extractor) addConst(v cval, op string, side int, at uint32, pol facts.Branch) {
	path, measure, k := x.side(side)
	field := ""
	if k != sideNone {
		field = x.fs.intern(path)
	}
	for _, r := range v.rows { // a table's column: each row's value
		x.fs.consts = append(x.fs.consts, facts.Const{Value: r.v, Field: field, Measure: measure, Op: op, Pos: x.pos(at),
			Name: r.name, Branch: pol})
	}
	if len(v.rows) > 0 {
		return
	}
	x.fs.consts = append(x.fs.consts, facts.Const{Value: v.v, Field: field, Measure: measure, Op: op, Pos: x.pos(at),
		Name: v.name, Ref: v.ref, Branch: pol, Base: v.base, Scale: v.scale})
}

// constOf returns the constant value of expression i: a number (float64),
// a str literal, True or False, a module-level name assigned one number
// or string literal once (and not bound in the function), a parameter's
// default value, or a name imported from another module (a ref, resolved
// by the analyzer). A named value is placed at cmp, the comparison.
func (x *extractor) constOf(i int, cmp uint32) (v cval, at uint32, ok bool) {
	i = x.unparen(i)
	if i < 0 {
		return cval{}, 0, false
	}
	at = x.nodes[i].StartByte
	switch x.kind(i) {
	case kInteger, kFloat, kUnary:
		if f, ok := x.number(i); ok {
			return cval{v: f}, at, true
		}
	case kString, kConcat:
		if s, ok := x.literal(i); ok {
			return cval{v: s}, at, true
		}
	case kTrue:
		return cval{v: true}, at, true
	case kFalse:
		return cval{v: false}, at, true
	case kIdent:
		name := x.text(i)
		if l, bound := x.fs.locals[string(name)]; bound {
			if l.def != nil {
				v := *l.def
				v.param = !l.konst
				return v, cmp, true
			}
			return cval{}, 0, false
		}
		if c, found := x.fs.mod.consts[string(name)]; found {
			if c.n == 1 && c.val != nil {
				return cval{v: c.val, name: x.fs.intern(name)}, cmp, true
			}
			return cval{}, 0, false
		}
		if ref, ok := x.fs.mod.imports[string(name)]; ok && bytesHas([]byte(ref), ':') {
			return cval{name: x.fs.intern(name), ref: ref}, cmp, true
		}
	case kAttr:
		// self.MIN_WORDS, Limits.MIN_WORDS: a constant of a class
		if v, ok := x.classConst(i); ok {
			return v, cmp, true
		}
		// limits.MIN_WORDS, pkg.limits.MIN_WORDS: a constant of an
		// imported module
		if ref, name := x.moduleRef(i); ref != "" {
			return cval{name: name, ref: ref}, cmp, true
		}
	case kBinaryOp:
		if v, ok := x.arithConst(i, cmp); ok {
			return v, cmp, true
		}
	case kSubscript:
		if v, ok := x.tableConst(i); ok {
			return v, cmp, true
		}
	case kCall:
		if len(x.fs.help.tables) > 0 {
			if v, ok := x.flatConst(i); ok {
				return v, cmp, true
			}
		}
	}
	return cval{}, 0, false
}

// moduleRef returns the ref of attribute chain i when it names a module
// attribute: the root is an imported module (import a.b as m; m.X) or a
// name imported from a package (from a import m; m.X), and the chain is
// made of plain names.
func (x *extractor) moduleRef(i int) (ref, name string) {
	attr := x.child(i, fAttribute)
	if attr < 0 {
		return "", ""
	}
	var segs [8]int
	n := 0
	o := x.child(i, fObject)
	for ; x.kind(o) == kAttr; o = x.child(o, fObject) {
		if n == len(segs) {
			return "", ""
		}
		segs[n] = x.child(o, fAttribute)
		n++
	}
	if x.kind(o) != kIdent {
		return "", ""
	}
	root := x.text(o)
	if _, shadowed := x.fs.locals[string(root)]; shadowed {
		return "", ""
	}
	mod, ok := x.fs.mod.imports[string(root)]
	if !ok {
		return "", ""
	}
	b := []byte(mod)
	if k := indexByte(b, ':'); k >= 0 {
		// from pkg import mod: the module pkg.mod (from . import mod: .mod)
		pkg, m := b[:k], b[k+1:]
		b = append([]byte(nil), pkg...)
		if len(pkg) > 0 && pkg[len(pkg)-1] != '.' {
			b = append(b, '.')
		}
		b = append(b, m...)
	}
	for k := n - 1; k >= 0; k-- {
		if segs[k] < 0 {
			return "", ""
		}
		b = append(append(b, '.'), x.text(segs[k])...)
	}
	nm := x.text(attr)
	if len(nm) == 0 {
		return "", ""
	}
	b = append(append(b, ':'), nm...)
	return x.fs.intern(b), x.fs.intern(nm)
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// number returns the value of a number literal, signed or not, as float64.
func (x *extractor) number(i int) (float64, bool) {
	neg := false
	if x.kind(i) == kUnary {
		switch x.kind(x.child(i, fOperator)) {
		case kOpMinus:
			neg = true
		case kOpPlus:
		default:
			return 0, false
		}
		i = x.child(i, fArgument)
	}
	var v any
	var ok bool
	switch x.kind(i) {
	case kInteger:
		v, ok = parseInt(x.text(i))
	case kFloat:
		v, ok = parseFloat(x.text(i))
	}
	if !ok {
		return 0, false
	}
	var f float64
	switch n := v.(type) {
	case int64:
		f = float64(n)
	case float64:
		f = n
	default:
		return 0, false
	}
	if neg {
		f = -f
	}
	return f, true
}

type sideKind uint8

const (
	sideNone  sideKind = iota // a call, an expression
	sideName                  // a variable or parameter
	sideField                 // a field read, or a local bound from one
)

// side returns what one side of a comparison is about: the normalized
// path of a field read (without its root variable) or of a name (a local
// bound from a field read gives that field), and the measure taken of it
// ("len" for len(x), "words" for len(x.split())). The path is in the
// scratch buffer, valid until the next use of it.
func (x *extractor) side(i int) (path []byte, measure string, k sideKind) {
	i = x.transparent(i)
	if name, arg := x.unaryCall(i); arg >= 0 && string(name) == "len" {
		measure = "len"
		i = x.transparent(arg)
		if obj := x.wordsCall(i); obj >= 0 {
			measure = "words"
			i = x.transparent(obj)
		}
	} else if arg := x.wordHelperArg(i); arg >= 0 {
		// _count_words(scope): a helper of the file that counts words
		measure = "words"
		i = x.transparent(arg)
	}
	b := x.fs.path[:0]
	switch x.kind(i) {
	case kIdent:
		name := x.text(i)
		if l, bound := x.fs.locals[string(name)]; bound && l.path != "" {
			if measure == "" {
				measure = l.measure
			}
			b = append(b, l.path...)
			k = sideField
		} else {
			b = appendSeg(b, name)
			k = sideName
		}
	case kAttr, kSubscript, kCall:
		var field bool
		b, field = x.fieldChain(i, b, 0)
		if field && len(b) > 0 {
			k = sideField
		}
	}
	x.fs.path = b
	if k == sideNone {
		return nil, measure, sideNone
	}
	return b, measure, k
}

// transparent strips what keeps a value's identity: parentheses,
// float/int/str/bool(x), no-argument normalizers (x.lower()) and walrus
// (q := x).
func (x *extractor) transparent(i int) int {
	for k := 0; k < maxDepth && i >= 0; k++ {
		i = x.unparen(i)
		switch x.kind(i) {
		case kNamedExpr:
			i = x.child(i, fValue)
			continue
		case kCall:
			if name, arg := x.unaryCall(i); arg >= 0 && isConversion(name) {
				i = arg
				continue
			}
			fn := x.child(i, fFunction)
			if x.kind(fn) == kAttr && isNormalizer(x.text(x.child(fn, fAttribute))) {
				var buf [1]int
				if a, simple := x.callArgs(x.child(i, fArguments), buf[:0]); simple && len(a) == 0 {
					i = x.child(fn, fObject)
					continue
				}
			}
		}
		return i
	}
	return i
}

// fieldChain appends to b the path of field read i: its segments without
// the root (h["metrics"]["quality"], h.metrics.quality and
// h.get("metrics", {}).get("quality") all give metrics.quality). field is
// false when i is not a field read.
func (x *extractor) fieldChain(i int, b []byte, depth int) (_ []byte, field bool) {
	i = x.unparen(i)
	if i < 0 || depth > maxDepth {
		return b, false
	}
	var obj, key int
	switch x.kind(i) {
	case kAttr:
		if x.moduleRooted(i) {
			return b, false
		}
		obj, key = x.child(i, fObject), x.child(i, fAttribute)
		if key < 0 {
			return b, false
		}
		b, _ = x.fieldChain(obj, b, depth+1)
		return appendSeg(b, x.text(key)), true
	case kSubscript:
		key = x.stringKey(i)
		obj = x.child(i, fValue)
	case kCall:
		obj, key = x.fieldCall(i)
	default:
		return b, false
	}
	if obj < 0 || key < 0 {
		return b, false
	}
	b, _ = x.fieldChain(obj, b, depth+1)
	return x.appendKey(b, key), true
}

// appendKey appends the value of str literal k as a path segment, without
// decoding when it has nothing to decode.
func (x *extractor) appendKey(b []byte, k int) []byte {
	if x.kind(k) == kString {
		if bs, be, flags, ok := x.stringBody(k); ok {
			raw := x.src[bs:be]
			if !bytesHas(raw, '\\') && (flags&pFormat == 0 || !bytesHas(raw, '{') && !bytesHas(raw, '}')) {
				return appendSeg(b, raw)
			}
		}
	}
	s, _ := x.literal(k)
	return appendSeg(b, []byte(s))
}

// appendSeg appends a path segment, normalized by shape.FieldName.
func appendSeg(b, name []byte) []byte {
	if len(b) > 0 {
		b = append(b, '.')
	}
	for _, c := range name {
		if 'A' <= c && c <= 'Z' {
			return append(b, shape.FieldName(string(name))...)
		}
	}
	return append(b, name...)
}

// moduleRooted reports whether attribute chain i (a.b.c) starts at a
// module, an imported name or a module-level class: a qualified name,
// not a field read.
func (x *extractor) moduleRooted(i int) bool {
	for k := 0; k < maxDepth && x.kind(i) == kAttr; k++ {
		i = x.child(i, fObject)
	}
	if x.kind(i) != kIdent {
		return false
	}
	name := x.text(i)
	if _, ok := x.fs.mod.roots[string(name)]; !ok {
		return false
	}
	_, shadowed := x.fs.locals[string(name)]
	return !shadowed
}

// bindFrom records what local name holds after name = right: only a
// field read binds (q = h["quality"], n = len(h["scope"].split())); q =
// other gives q its own name.
func (x *extractor) bindFrom(name []byte, right int) {
	switch r := x.unparen(right); x.kind(r) {
	case kInteger, kFloat, kUnary:
		// limit = 85: a constant of the function, until bound again
		if f, ok := x.number(r); ok {
			if old, bound := x.fs.locals[string(name)]; bound && (old.konst || old.def != nil) {
				x.bindLocal(name, local{})
				return
			}
			x.bindLocal(name, local{def: &cval{v: f, name: x.fs.intern(name)}, konst: true})
			return
		}
	}
	if path, measure, k := x.side(right); k == sideField {
		x.bindLocal(name, local{path: x.fs.intern(path), measure: measure})
		return
	}
	x.bindLocal(name, local{})
}

// bindLocal records local name: bound from a field read, or (zero l) a
// plain local, which is remembered only where it matters: it was bound
// from a field before, or it shadows a module constant or root.
func (x *extractor) bindLocal(name []byte, l local) {
	fs := &x.fs
	if l.path == "" && l.def == nil && l.row == nil {
		_, bound := fs.locals[string(name)]
		_, isConst := fs.mod.consts[string(name)]
		_, isRoot := fs.mod.roots[string(name)]
		if !bound && !isConst && !isRoot {
			return
		}
	}
	if fs.locals == nil {
		fs.locals = make(map[string]local)
	}
	fs.locals[fs.intern(name)] = l
}

// unbind records the names bound by target t as plain locals.
func (x *extractor) unbind(t, depth int) {
	if t < 0 || depth > maxDepth {
		return
	}
	switch x.kind(t) {
	case kIdent:
		x.bindLocal(x.text(t), local{})
	case kPatternList, kExprList, kTuplePattern, kListPattern, kTuple, kList, kParen,
		kListSplatPattern, kListSplat, kAsPatternTarget:
		end := int(x.nodes[t].End)
		for c := x.first(t); c >= 0; c = x.next(c, end) {
			if x.named(c) {
				x.unbind(c, depth+1)
			}
		}
	}
}

// matchStmt writes Switch <subject> (Case <patterns> <guard> <body> End)...
// End, and records the literal cases of a single subject as == Consts.
func (x *extractor) matchStmt(s, d int) {
	x.tok(shape.Switch)
	subj, nsubj := -1, 0
	end := int(x.nodes[s].End)
	for c := x.first(s); c >= 0; c = x.next(c, end) {
		if x.nodes[c].Field == fSubject && x.named(c) {
			x.expr(c, d+1, 0)
			subj = c
			nsubj++
		}
	}
	if nsubj != 1 {
		subj = -1
	}
	if body := x.child(s, fBody); body >= 0 {
		be := int(x.nodes[body].End)
		for cc := x.first(body); cc >= 0; cc = x.next(cc, be) {
			if x.kind(cc) != kCaseClause {
				continue
			}
			x.tok(shape.Case)
			npat, pat := 0, -1
			ce := int(x.nodes[cc].End)
			for p := x.first(cc); p >= 0; p = x.next(p, ce) {
				if x.kind(p) == kCasePattern {
					x.pattern(p, d+1)
					npat++
					pat = p
				}
			}
			if g := x.child(cc, fGuard); g >= 0 {
				x.children(g, d)
			}
			x.block(x.child(cc, fConsequence), d+1, false)
			x.tok(shape.End)
			if npat == 1 && subj >= 0 {
				x.caseConsts(pat, subj, 0)
			}
		}
	}
	x.tok(shape.End)
}

// pattern writes the values of a case pattern: its literals and names.
func (x *extractor) pattern(p, d int) {
	if d > maxShapeDepth {
		return
	}
	switch x.kind(p) {
	case kString, kConcat:
		x.tok(shape.Str)
	case kInteger, kFloat, kComplexPattern:
		x.tok(shape.Num)
	case kTrue, kFalse:
		x.tok(shape.Bool)
	case kNone:
		x.tok(shape.Nil)
	case kIdent, kDottedName:
		x.tok(shape.Name)
	default:
		end := int(x.nodes[p].End)
		for c := x.first(p); c >= 0; c = x.next(c, end) {
			if x.named(c) {
				x.pattern(c, d+1)
			}
		}
	}
}

// caseConsts records the literal alternatives of case pattern p as
// subject == literal.
func (x *extractor) caseConsts(p, subj, depth int) {
	if depth > maxDepth {
		return
	}
	switch x.kind(p) {
	case kCasePattern, kUnionPattern:
		end := int(x.nodes[p].End)
		neg := -1 // a "-" just before a number
		for c := x.first(p); c >= 0; c = x.next(c, end) {
			switch k := x.kind(c); {
			case k == kOpMinus:
				neg = c
				continue
			case k == kInteger || k == kFloat:
				if f, ok := x.number(c); ok {
					at := x.nodes[c].StartByte
					if neg >= 0 {
						f, at = -f, x.nodes[neg].StartByte
					}
					x.addConst(cval{v: f}, "==", subj, at, 0)
				}
			case k == kString || k == kConcat:
				if v, ok := x.literal(c); ok {
					x.addConst(cval{v: v}, "==", subj, x.nodes[c].StartByte, 0)
				}
			case k == kTrue || k == kFalse:
				x.addConst(cval{v: k == kTrue}, "==", subj, x.nodes[c].StartByte, 0)
			case k == kUnionPattern || k == kCasePattern || k == kAsPattern:
				x.caseConsts(c, subj, depth+1)
			case k == kTuplePattern:
				// ("a" | "b") is a group, not a one-element sequence.
				var buf [2]int
				if kids := x.namedChildren(c, buf[:0]); len(kids) == 1 && x.childKind(c, kComma) < 0 {
					x.caseConsts(kids[0], subj, depth+1)
				}
			}
			neg = -1
		}
	case kAsPattern:
		x.caseConsts(x.first(p), subj, depth+1)
	}
}

// scanModule gathers the module information functions use: imported
// names (from every import statement of the file), module-level classes,
// and module-level assignments.
func (x *extractor) scanModule() {
	m := &x.fs.mod
	m.ready = true
	if m.roots == nil {
		m.roots = make(map[string]struct{})
	}
	if m.consts == nil {
		m.consts = make(map[string]modConst)
	}
	clear(m.roots)
	clear(m.consts)
	for j := range x.nodes {
		if k := kindOf[x.nodes[j].Kind]; k == kImport || k == kImportFrom {
			x.importNames(j)
		}
	}
	if len(x.nodes) > 0 {
		x.scanModuleBlock(0, 0)
	}
	x.scanHelpers()
}

// importNames adds the names import statement i binds: the first name of
// each dotted module name, or its alias; and what each stands for
// (moduleInfo.imports).
func (x *extractor) importNames(i int) {
	from := x.kind(i) == kImportFrom
	var mod []byte
	if from {
		if mod = x.dotted(x.child(i, fModuleName)); mod == nil {
			return // from __future__, a name lost to a syntax error
		}
	}
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		if x.nodes[c].Field != fName {
			continue
		}
		var id, full int
		switch x.kind(c) {
		case kDottedName:
			id, full = x.childKind(c, kIdent), -1
			if from {
				full = c
			}
		case kAliasedImport:
			id, full = x.child(c, fAlias), x.child(c, fName)
		default:
			continue
		}
		if id < 0 {
			continue
		}
		n := x.text(id)
		if len(n) == 0 {
			continue
		}
		x.fs.mod.roots[x.fs.intern(n)] = struct{}{}
		// import a.b binds a, the module a; import a.b as m binds the
		// module a.b; from M import N (as m) binds M:N
		target := x.dotted(full)
		if full < 0 {
			target = n
		}
		if target == nil {
			continue
		}
		var b []byte
		if from {
			b = append(append(append(b, mod...), ':'), target...)
		} else {
			b = append(b, target...)
		}
		if x.fs.mod.imports == nil {
			x.fs.mod.imports = make(map[string]string)
		}
		x.fs.mod.imports[x.fs.intern(n)] = x.fs.intern(b)
	}
}

// dotted returns the text of a dotted or relative module name without
// spaces ("a.b", "..a"), or nil.
func (x *extractor) dotted(i int) []byte {
	if i < 0 {
		return nil
	}
	t := x.text(i)
	if len(t) == 0 || len(t) > 256 {
		return nil
	}
	var b []byte
	for _, c := range t {
		switch {
		case c == '.' || c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80:
			b = append(b, c)
		case c == ' ' || c == '\t' || c == '\\' || c == '\n' || c == '\r':
		default:
			return nil // a comment inside, an error
		}
	}
	return b
}

// scanModuleBlock counts the module-level assignments and classes among
// the statements of b (the module, or a block of a module-level compound
// statement).
func (x *extractor) scanModuleBlock(b, depth int) {
	if b < 0 || depth > maxDepth {
		return
	}
	end := int(x.nodes[b].End)
	for c := x.first(b); c >= 0; c = x.next(c, end) {
		switch x.kind(c) {
		case kExprStmt:
			ce := int(x.nodes[c].End)
			for a := x.first(c); a >= 0; a = x.next(a, ce) {
				switch x.kind(a) {
				case kAssign:
					x.moduleAssign(a, 0)
				case kAugAssign:
					x.moduleTargets(x.child(a, fLeft), 0)
				}
			}
		case kClass:
			if n := x.text(x.child(c, fName)); len(n) > 0 {
				x.fs.mod.roots[x.fs.intern(n)] = struct{}{}
			}
		case kDecorated:
			if def := x.child(c, fDefinition); x.kind(def) == kClass {
				if n := x.text(x.child(def, fName)); len(n) > 0 {
					x.fs.mod.roots[x.fs.intern(n)] = struct{}{}
				}
			}
		case kIf, kTry, kWith, kFor, kWhile:
			if x.kind(c) == kFor {
				x.moduleTargets(x.child(c, fLeft), 0)
			}
			ce := int(x.nodes[c].End)
			for k := x.first(c); k >= 0; k = x.next(k, ce) {
				switch x.kind(k) {
				case kBlock:
					x.scanModuleBlock(k, depth+1)
				case kElif, kElse, kExcept, kExceptGroup, kFinally:
					x.scanModuleBlock(x.childKind(k, kBlock), depth+1)
				}
			}
		}
	}
}

// moduleAssign counts a module-level assignment and keeps the value of a
// single number or string literal.
func (x *extractor) moduleAssign(a, depth int) {
	left, right := x.child(a, fLeft), x.child(a, fRight)
	if right < 0 || depth > maxDepth {
		return // X: int binds nothing
	}
	if x.kind(right) == kAssign {
		x.moduleAssign(right, depth+1) // A = B = 1: neither is kept
		x.moduleTargets(left, 0)
		return
	}
	if x.kind(left) != kIdent {
		x.moduleTargets(left, 0)
		return
	}
	var val any
	r := x.unparen(right)
	switch x.kind(r) {
	case kInteger, kFloat, kUnary:
		if f, ok := x.number(r); ok {
			val = f
		}
	case kString, kConcat:
		if s, ok := x.literal(r); ok {
			val = s
		}
	}
	x.moduleName(x.text(left), val)
}

// moduleTargets counts the names target t assigns, with no value.
func (x *extractor) moduleTargets(t, depth int) {
	if t < 0 || depth > maxDepth {
		return
	}
	switch x.kind(t) {
	case kIdent:
		x.moduleName(x.text(t), nil)
		return
	case kPatternList, kExprList, kTuplePattern, kListPattern, kTuple, kList, kParen, kListSplatPattern, kListSplat:
	default:
		return // a.b = 1, a[k] = 1 bind no name
	}
	end := int(x.nodes[t].End)
	for c := x.first(t); c >= 0; c = x.next(c, end) {
		if x.named(c) {
			x.moduleTargets(c, depth+1)
		}
	}
}

func (x *extractor) moduleName(name []byte, val any) {
	if len(name) == 0 {
		return
	}
	m := x.fs.mod.consts
	c, ok := m[string(name)]
	if ok {
		c.n++
		c.val = nil
	} else {
		c = modConst{val: val, n: 1}
	}
	m[x.fs.intern(name)] = c
}

// ifBranch is the branch of an if's condition: what its body does (see
// outcome), else the opposite of what its else clause does.
func (x *extractor) ifBranch(body, elseClause int) facts.Branch {
	if b := x.outcome(body); b != facts.BranchUnknown {
		return b
	}
	if elseClause >= 0 {
		return x.outcome(x.child(elseClause, fBody)).Flip()
	}
	return facts.BranchUnknown
}

// elseOf returns the else clause of if statement s, or -1.
func (x *extractor) elseOf(s int) int {
	end := int(x.nodes[s].End)
	for c := x.first(s); c >= 0; c = x.next(c, end) {
		if x.kind(c) == kElse {
			return c
		}
	}
	return -1
}

// outcome says what block b does to the input it judges, by its first
// statement that says: raise, return False (or a tuple starting with it),
// return a message string, append to a list named for problems, or set a
// validity flag to False reject; return True or set the flag to True
// accept.
func (x *extractor) outcome(b int) facts.Branch {
	if b < 0 {
		return facts.BranchUnknown
	}
	end := int(x.nodes[b].End)
	n := 0
	for c := x.first(b); c >= 0 && n < 8; c = x.next(c, end) {
		if !x.named(c) {
			continue
		}
		n++
		switch x.kind(c) {
		case kRaise:
			return facts.BranchReject
		case kReturn:
			var buf [2]int
			kids := x.namedChildren(c, buf[:0])
			if len(kids) != 1 {
				return facts.BranchUnknown
			}
			v := x.unparen(kids[0])
			if k := x.kind(v); k == kTuple || k == kExprList {
				v = x.unparen(x.namedFirst(v))
			}
			switch x.kind(v) {
			case kFalse:
				x.fs.boolOutcome = true
				return facts.BranchReject
			case kTrue:
				x.fs.boolOutcome = true
				return facts.BranchAccept
			case kString, kConcat:
				return facts.BranchReject
			}
			return facts.BranchUnknown
		case kExprStmt:
			e := x.namedFirst(c)
			switch x.kind(e) {
			case kCall:
				fn := x.child(e, fFunction)
				if x.kind(fn) == kAttr {
					switch string(x.text(x.child(fn, fAttribute))) {
					case "append", "add", "extend", "insert":
						if problemName(x.lastName(x.child(fn, fObject))) {
							return facts.BranchReject
						}
					}
				}
			case kAssign:
				if r := x.kind(x.child(e, fRight)); (r == kFalse || r == kTrue) && validityName(x.lastName(x.child(e, fLeft))) {
					if r == kFalse {
						return facts.BranchReject
					}
					return facts.BranchAccept
				}
			}
		}
	}
	return facts.BranchUnknown
}

// namedFirst returns the first named child of i, or -1.
func (x *extractor) namedFirst(i int) int {
	if i < 0 {
		return -1
	}
	end := int(x.nodes[i].End)
	for c := x.first(i); c >= 0; c = x.next(c, end) {
		if x.named(c) {
			return c
		}
	}
	return -1
}

// lastName is the name of a variable or the last attribute of a chain:
// errors, self.errors, result.problems.
func (x *extractor) lastName(i int) []byte {
	switch x.kind(i) {
	case kIdent:
		return x.text(i)
	case kAttr:
		return x.text(x.child(i, fAttribute))
	}
	return nil
}

// problemName reports whether a list's name says it collects problems:
// errors, issues, violations, problems, failures, a validator's findings
// (any case, any affix).
func problemName(b []byte) bool {
	n := lowerWord(b)
	for _, w := range [...]string{"err", "issue", "violation", "problem", "fail", "invalid", "finding"} {
		if containsStr(n, w) {
			return true
		}
	}
	return false
}

// validityName reports whether a flag's name says it holds validity:
// valid, is_valid, ok, passed.
func validityName(b []byte) bool {
	switch n := lowerWord(b); n {
	case "ok", "valid", "is_valid", "isvalid", "passed", "passes", "success":
		return true
	}
	return false
}

// verdictOf is the branch of `return <condition>` in a function named
// name: accept for a name that says the result tells validity (is_valid,
// validate_x, check_x), unknown for any other (is_invalid, too_short and
// escalate return the opposite or something else).
func verdictOf(name []byte) facts.Branch {
	n := lowerWord(name)
	for _, w := range [...]string{"invalid", "not", "too", "missing", "fail", "error", "reject", "escalat", "need", "should"} {
		if containsStr(n, w) {
			return facts.BranchUnknown
		}
	}
	for _, w := range [...]string{"valid", "check", "verif", "meets", "passes", "satisf"} {
		if containsStr(n, w) {
			return facts.BranchAccept
		}
	}
	return facts.BranchUnknown
}

// lowerWord is b in ASCII lower case, at most 64 bytes of it.
func lowerWord(b []byte) string {
	if len(b) > 64 {
		b = b[:64]
	}
	var buf [64]byte
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return string(buf[:len(b)])
}

func containsStr(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// moduleOf parses src and reads its module level (scanModule), for the
// readers of a module's names; the caller releases the extractor.
func moduleOf(ctx context.Context, src []byte) (*extractor, error) {
	x := extractors.Get().(*extractor)
	err := parserPool().Parse(ctx, src, func(t *treesitter.Tree) error {
		x.nodes = t.Flatten(x.nodes)
		return nil
	})
	if err != nil {
		x.release()
		return nil, err
	}
	x.src = src
	x.scanModule()
	return x, nil
}

// ModuleConsts returns the module-level names of Python source src that
// are assigned one number literal once (MIN_SCOPE_WORDS = 15), by name:
// the constants other modules import and compare with (see
// facts.Const.Ref). It fails as Extract does.
func ModuleConsts(ctx context.Context, src []byte) (map[string]float64, error) {
	x, err := moduleOf(ctx, src)
	if err != nil {
		return nil, err
	}
	defer x.release()
	var out map[string]float64
	for name, c := range x.fs.mod.consts {
		if f, ok := c.val.(float64); ok && c.n == 1 {
			if out == nil {
				out = make(map[string]float64)
			}
			out[name] = f
		}
	}
	return out, nil
}
