package golang

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/shape"
)

// funcState is the state of the shapes concern of the walk, which makes
// the facts.Function of every function declaration. Its buffers are reused
// from one function to the next.
type funcState struct {
	toks   []shape.Token
	consts []facts.Const
	fields []string
	calls  []string
	segs   []string   // the segments of one field chain, outermost first
	lhs    []ast.Expr // the names of one var spec
	params []string
	buf    []byte

	// alias maps a local variable to the field (and measure) it was bound
	// from: q := h.Metrics.Quality, n := len(strings.Fields(d.Scope)).
	alias map[string]fieldRef
	// local holds the constants declared in the function (ok) and the
	// variables that shadow a constant (!ok); file the file-level
	// constants with a literal value.
	local, file map[string]constVal
	// intern holds the field paths of the file, norm the normalized
	// segments with capitals (shape.FieldName allocates for those).
	intern, norm map[string]string
	// recovered is set when the walk meets a call of recover.
	recovered bool
	// declared holds the names the function declares (parameters,
	// variables): without types.Info, a name compared with a field that
	// is neither declared here nor a constant of the file may be a
	// constant of another file of the package (a ref).
	declared map[string]bool
	// verdict is the branch of `return <condition>` (see visit's
	// branchBits).
	verdict facts.Branch
	// boolOutcome is set by outcome when a return of true or false said
	// what a block does; predicate is set while the walk is in the
	// condition of an if so answered in a function not named for validity
	// (isDone's if slices.Contains(terminal, s) { return true }): a
	// predicate, not a validation, whose tests say no branch.
	boolOutcome, predicate bool
	// results are the declaration's results (function literals' do not
	// count), names its parameters carved from strSlab.
	results *ast.FieldList
	names   []string
	// words are the file's word counters (measures.go)
	words map[string]bool
	// tables are the file's tables of thresholds (tables.go); rows the
	// locals bound to a row of one
	tables map[string]*numTable
	rows   map[string]rowRef
	// resume is the base of the field chain being walked for the literal
	// facts only (shapeSpine): shapes resume there (see shapeChain).
	resume ast.Expr
	// side holds the tokens hold has moved aside.
	side []shape.Token

	// strSlab and constSlab hand out the Params, Fields, Calls and Consts
	// of the file's functions from a few shared chunks, not a slice each.
	strSlab   []string
	constSlab []facts.Const

	// ast is the file, whose declarations (structs, lists of required
	// fields) the reading of required fields looks up (required.go).
	ast *ast.File
}

// take returns a copy of src carved from *slab, with its capacity capped
// so that appending to it cannot overwrite its neighbour. A new chunk is
// twice the last one (at most 256 elements), or src's length.
func take[T any](slab *[]T, src []T) []T {
	if len(src) == 0 {
		return nil
	}
	if len(src) > cap(*slab)-len(*slab) {
		*slab = make([]T, 0, max(len(src), min(2*cap(*slab), 256), 8))
	}
	n := len(*slab)
	*slab = append(*slab, src...)
	return (*slab)[n:len(*slab):len(*slab)]
}

// fieldRef is what a comparison operand reads: a field path and a measure
// of it ("", "len", "words"; measureWordList for the word list itself,
// never reported).
type fieldRef struct{ path, measure string }

const measureWordList = "wordlist"

type constVal struct {
	v  any
	ok bool
}

// builtinTypes are the predeclared types: a call of one is a conversion.
var builtinTypes = map[string]bool{
	"bool": true, "string": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"float32": true, "float64": true, "complex64": true, "complex128": true, "byte": true, "rune": true,
	"any": true, "error": true,
}

// builtinFuncs are the predeclared functions the walk treats specially.
var builtinFuncs = map[string]bool{"len": true, "panic": true, "make": true, "new": true, "append": true, "recover": true}

// prepareFuncs collects the file-level constants with a literal value, so
// that a comparison with one (q < minQuality) gives its value.
// It also sizes File.Functions.
func (x *extractor) prepareFuncs(f *ast.File) {
	x.prepareHelpers(f)
	x.prepareTables(f)
	x.fn.ast = f
	n := 0
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body != nil && d.Name != nil {
				n++
			}
		case *ast.GenDecl:
			if d.Tok == token.CONST {
				if x.fn.file == nil {
					x.fn.file = make(map[string]constVal)
				}
				x.constSpecs(d, x.fn.file)
			}
		}
	}
	if n > 0 {
		x.out.Functions = make([]facts.Function, 0, n)
	}
}

// constSpecs records the constants of a declaration in m: their literal
// value, or !ok when they have none. A spec without values repeats the
// previous one's (iota aside, which is never a literal).
func (x *extractor) constSpecs(g *ast.GenDecl, m map[string]constVal) {
	var last []ast.Expr
	for _, s := range g.Specs {
		vs, ok := s.(*ast.ValueSpec)
		if !ok {
			continue
		}
		values, repeated := vs.Values, false
		if len(values) == 0 && vs.Type == nil {
			values, repeated = last, true
		} else {
			last = values
		}
		for i, n := range vs.Names {
			if n == nil || n.Name == "_" {
				continue
			}
			var c constVal
			if x.info != nil && (repeated || i >= len(values)) {
				if obj, ok := x.info.Defs[n].(*types.Const); ok {
					c.v, c.ok = fromConstant(obj.Val())
				}
			} else if i < len(values) {
				c.v, _, c.ok = x.constOf(values[i], token.NoPos)
			}
			m[n.Name] = c
		}
	}
}

// beginFunction starts the facts.Function of a declaration with a body,
// which the walk of its body makes with funcDecl: the state of the last
// one is reset, the parameters are Param tokens and variables.
func (x *extractor) beginFunction(d *ast.FuncDecl) {
	s := &x.fn
	s.toks, s.consts, s.fields, s.calls = s.toks[:0], s.consts[:0], s.fields[:0], s.calls[:0]
	clear(s.alias)
	clear(s.local)
	clear(s.declared)
	clear(s.rows)
	s.recovered = false
	s.verdict = facts.BranchUnknown
	s.results, s.names = nil, nil
	if d.Type != nil && d.Name != nil && returnsBool(d.Type.Results) {
		s.verdict = verdictOf(d.Name.Name)
	}
	if d.Type != nil {
		s.results = d.Type.Results
		s.names = take(&s.strSlab, x.params(d.Type.Params, true))
		x.shadowFields(d.Type.Results)
	}
	if d.Recv != nil {
		x.shadowFields(d.Recv)
	}
}

// endFunction appends the facts.Function of a declaration whose body has
// been walked.
func (x *extractor) endFunction(d *ast.FuncDecl) {
	s := &x.fn
	end := d.End()
	if !end.IsValid() || int(end)-x.base > x.size { // a body go/parser did not close
		end = token.Pos(x.base + x.size)
	}
	fn := facts.Function{
		Name:   x.scope, // set by funcDecl
		Pos:    x.pos(d.Pos()),
		End:    x.pos(end),
		Params: s.names,
		Shape:  shape.Fingerprint(s.toks),
		Size:   len(s.toks),
	}
	if !slices.IsSortedFunc(s.consts, cmpConstPos) {
		slices.SortStableFunc(s.consts, cmpConstPos)
	}
	fn.Consts = take(&s.constSlab, s.consts)
	fn.Fields = take(&s.strSlab, sortedSet(s.fields))
	fn.Calls = take(&s.strSlab, sortedSet(s.calls))
	fn.ParamTypes = x.paramTypes(d.Type)
	fn.Required = x.required(d)
	x.out.Functions = append(x.out.Functions, fn)
}

func cmpConstPos(a, b facts.Const) int { return a.Pos.Offset - b.Pos.Offset }

// sortedSet sorts buf and drops its duplicates.
func sortedSet(buf []string) []string {
	slices.Sort(buf)
	return slices.Compact(buf)
}

func (x *extractor) tok(t shape.Token) { x.fn.toks = append(x.fn.toks, t) }

// params emits one Param per parameter and returns their names ("_" for
// an unnamed one) when names is set. Parameters are variables: they forget
// any alias and shadow constants of the same name.
func (x *extractor) params(fl *ast.FieldList, names bool) []string {
	if fl == nil {
		return nil
	}
	var out []string
	if names {
		out = x.fn.params[:0]
	}
	for _, f := range fl.List {
		if f == nil {
			continue
		}
		if len(f.Names) == 0 {
			x.tok(shape.Param)
			if names {
				out = append(out, "_")
			}
			continue
		}
		for _, n := range f.Names {
			x.tok(shape.Param)
			name := "_"
			if n != nil {
				name = n.Name
				x.newVar(name)
			}
			if names {
				out = append(out, name)
			}
		}
	}
	if names {
		x.fn.params = out
	}
	return out
}

// shadowFields declares the names of a field list (results, receiver) as
// variables without emitting anything.
func (x *extractor) shadowFields(fl *ast.FieldList) {
	if fl == nil {
		return
	}
	for _, f := range fl.List {
		if f == nil {
			continue
		}
		for _, n := range f.Names {
			if n != nil {
				x.newVar(n.Name)
			}
		}
	}
}

// newVar notes a variable declared or assigned in the function: it forgets
// what the name was bound to and shadows a constant of the same name.
func (x *extractor) newVar(name string) {
	if x.fn.alias != nil {
		delete(x.fn.alias, name)
	}
	if x.info == nil {
		if x.fn.declared == nil {
			x.fn.declared = make(map[string]bool)
		}
		x.fn.declared[name] = true
	}
	_, inFile := x.fn.file[name]
	_, inLocal := x.fn.local[name]
	if inFile || inLocal {
		x.setLocal(name, constVal{})
	}
}

func (x *extractor) setLocal(name string, c constVal) {
	if x.fn.local == nil {
		x.fn.local = make(map[string]constVal)
	}
	x.fn.local[name] = c
}

// hold moves the tokens emitted since mark aside, for release to put them
// back after the tokens emitted in between: the walk meets a for loop's
// post statement before its body, and s before v in slices.Contains(s, v),
// whose shapes are body post and In v s. It returns what release takes.
func (x *extractor) hold(mark int) int {
	s := &x.fn
	n := len(s.side)
	s.side = append(s.side, s.toks[mark:]...)
	s.toks = s.toks[:mark]
	return n
}

func (x *extractor) release(n int) {
	s := &x.fn
	s.toks = append(s.toks, s.side[n:]...)
	s.side = s.side[:n]
}

func identToken(id *ast.Ident) shape.Token {
	switch id.Name {
	case "true", "false":
		return shape.Bool
	case "nil":
		return shape.Nil
	}
	return shape.Name
}

func basicToken(l *ast.BasicLit) shape.Token {
	if l.Kind == token.STRING || l.Kind == token.CHAR {
		return shape.Str
	}
	return shape.Num
}

// shapeDefer ends a deferred call begun at token start: Try before it
// when it recovers.
func (x *extractor) shapeDefer(start int, saved bool) {
	if x.fn.recovered {
		x.fn.toks = slices.Insert(x.fn.toks, start, shape.Try)
	}
	x.fn.recovered = x.fn.recovered || saved
}

// caseTag is the field a switch's tag reads, found at its first constant
// case.
type caseTag struct {
	ref  fieldRef
	done bool
}

// caseConst records the constant a case value compares the tag with.
func (x *extractor) caseConst(tag, v ast.Expr, t *caseTag) {
	val, p, ok := x.constOf(v, v.Pos())
	if !ok {
		return
	}
	if !t.done {
		t.ref, t.done = x.constRef(tag), true
	}
	x.addConst(val, t.ref, "==", p)
}

// shapeAssign starts lhs = rhs with Assign; the guard of a type switch
// (v := x.(type)) only declares its variables.
func (x *extractor) shapeAssign(s *ast.AssignStmt, guard bool) {
	if !guard {
		x.tok(shape.Assign)
		return
	}
	for _, l := range s.Lhs {
		if id, ok := l.(*ast.Ident); ok {
			x.newVar(id.Name)
		}
	}
}

// shapeIncDec notes the variable x++ assigns.
func (x *extractor) shapeIncDec(s *ast.IncDecStmt) {
	if id, ok := s.X.(*ast.Ident); ok {
		x.newVar(id.Name)
	}
}

// postBindings makes the bindings of a for loop's post statement, after
// the body.
func (x *extractor) postBindings(post ast.Stmt) {
	switch p := post.(type) {
	case *ast.AssignStmt:
		x.bindAll(p.Lhs, p.Rhs, p.Tok == token.ASSIGN || p.Tok == token.DEFINE)
	case *ast.IncDecStmt:
		x.shapeIncDec(p)
	}
}

// bindAll updates the aliases and shadowed constants after lhs = rhs.
func (x *extractor) bindAll(lhs, rhs []ast.Expr, plain bool) {
	for i, l := range lhs {
		id, ok := l.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		x.newVar(id.Name)
		x.bindRow(id.Name, nil)
		if !plain {
			continue
		}
		var r ast.Expr
		switch {
		case len(lhs) == len(rhs):
			r = rhs[i]
		case len(rhs) == 1 && len(lhs) == 2 && i == 0: // v, ok := m["k"]
			r = rhs[0]
		default:
			continue
		}
		x.bindRow(id.Name, r)
		if ref := x.refOf(r, false); ref.path != "" {
			if x.fn.alias == nil {
				x.fn.alias = make(map[string]fieldRef)
			}
			x.fn.alias[id.Name] = ref
		}
	}
}

// localConsts notes the constants declared in the function (no tokens).
func (x *extractor) localConsts(g *ast.GenDecl) {
	if x.fn.local == nil {
		x.fn.local = make(map[string]constVal)
	}
	x.constSpecs(g, x.fn.local)
}

// shapeVarNames starts var x = y: Assign <x>, the values follow.
func (x *extractor) shapeVarNames(vs *ast.ValueSpec) {
	x.tok(shape.Assign)
	for _, n := range vs.Names {
		if n != nil {
			x.tok(shape.Name)
		}
	}
}

// shapeVarBind declares the names of a var spec, after its values (which
// may declare variables too); var x T only declares x.
func (x *extractor) shapeVarBind(vs *ast.ValueSpec) {
	lhs := x.fn.lhs[:0]
	for _, n := range vs.Names {
		if n != nil {
			lhs = append(lhs, n)
		}
	}
	x.fn.lhs = lhs
	x.bindAll(lhs, vs.Values, true)
}

// shapeFuncLit starts a function literal: Func <params>, its body and End
// follow.
func (x *extractor) shapeFuncLit(e *ast.FuncLit) {
	x.tok(shape.Func)
	if e.Type != nil {
		x.params(e.Type.Params, false)
		x.shadowFields(e.Type.Results)
	}
}

// shapeChain finds the field chain e tops (see chain), if any: it records
// the path read, sets the chain's base as funcState.resume and returns the
// number of fields; the walk emits the base's tokens, then a Field per
// field. An assignment target (a target of any form) writes its outermost
// field rather than reads it; a method value (with types.Info) is no
// field.
func (x *extractor) shapeChain(e ast.Expr, target bool) int {
	base, n := x.chain(e)
	if n == 0 {
		return 0
	}
	segs := x.fn.segs[:n]
	if target || x.info != nil && x.isMethodValue(e) {
		segs = segs[1:]
	}
	if len(segs) > 0 {
		x.fn.fields = append(x.fn.fields, x.joinPath(segs))
	}
	x.fn.resume = base
	return n
}

// negatesContains reports whether !e negates slices.Contains or
// strings.Contains: NotIn.
func (x *extractor) negatesContains(e *ast.UnaryExpr) bool {
	c, ok := unparen(e.X).(*ast.CallExpr)
	return ok && x.containsKind(c) != ""
}

func binaryToken(op token.Token) shape.Token {
	switch op {
	case token.EQL:
		return shape.Eq
	case token.NEQ:
		return shape.Ne
	case token.LSS:
		return shape.Lt
	case token.LEQ:
		return shape.Le
	case token.GTR:
		return shape.Gt
	case token.GEQ:
		return shape.Ge
	case token.LAND:
		return shape.And
	case token.LOR:
		return shape.Or
	}
	return shape.Arith // arithmetic and bitwise operators
}

// shapeBinary emits the operator of a binary expression and records the
// constant of a comparison; it reports whether the condition's branch
// reaches the operands (&& and ||).
func (x *extractor) shapeBinary(v *ast.BinaryExpr, pol facts.Branch) bool {
	if op := compareOp(v.Op); op != "" {
		x.shapeCompare(v, op, pol)
	}
	x.tok(binaryToken(v.Op))
	return v.Op == token.LAND || v.Op == token.LOR
}

func compareOp(op token.Token) string {
	switch op {
	case token.EQL:
		return "=="
	case token.NEQ:
		return "!="
	case token.LSS:
		return "<"
	case token.LEQ:
		return "<="
	case token.GTR:
		return ">"
	case token.GEQ:
		return ">="
	}
	return ""
}

// shapeCompare records the constant of a comparison, the field on the left.
func (x *extractor) shapeCompare(v *ast.BinaryExpr, op string, pol facts.Branch) {
	yv, yp, yok := x.namedConst(v.Y, v.Pos())
	xv, xp, xok := x.namedConst(v.X, v.Pos())
	switch {
	case yok && xok:
		x.addNamed(yv, fieldRef{}, op, yp, pol)
	case yok:
		x.addNamed(yv, x.constRef(v.X), op, yp, pol)
	case xok:
		x.addNamed(xv, x.constRef(v.Y), facts.Mirror(op), xp, pol)
	}
}

func (x *extractor) addConst(v any, r fieldRef, op string, p token.Pos) {
	x.fn.consts = append(x.fn.consts, facts.Const{Value: v, Field: r.path, Measure: r.measure, Op: op, Pos: x.pos(p)})
}

func (x *extractor) addNamed(v cval, r fieldRef, op string, p token.Pos, pol facts.Branch) {
	for _, row := range v.rows { // a table's column: each row's value
		x.fn.consts = append(x.fn.consts, facts.Const{Value: row.v, Field: r.path, Measure: r.measure, Op: op, Pos: x.pos(p),
			Name: row.name, Branch: pol})
	}
	if len(v.rows) > 0 {
		return
	}
	x.fn.consts = append(x.fn.consts, facts.Const{Value: v.v, Field: r.path, Measure: r.measure, Op: op, Pos: x.pos(p),
		Name: v.name, Ref: v.ref, Branch: pol, Base: v.base, Scale: v.scale})
}

// cval is a comparison's constant operand: its value, the constant it is
// named by, or (without types.Info) a constant of another file (ref).
type cval struct {
	v         any
	name, ref string
	// base and scale: ref's constant is part of an expression (see
	// facts.Const.Base)
	base, scale float64
	// rows: a column of a table, one value per row (tables.go)
	rows []tableRow
}

// namedConst is constOf with the name of a named constant, and without
// types.Info, a ref for a name that may be a constant of another file:
// pkg.Name of an imported package, or a name neither the function nor
// the file declares.
func (x *extractor) namedConst(e ast.Expr, p token.Pos) (cval, token.Pos, bool) {
	if c, ok := x.arithConst(e, p); ok {
		return c, p, true
	}
	if c, ok := x.tableConst(e); ok {
		return c, p, true
	}
	if v, at, ok := x.constOf(e, p); ok {
		c := cval{v: v}
		switch u := unparen(e).(type) {
		case *ast.Ident:
			if u.Name != "true" && u.Name != "false" {
				c.name = u.Name
			}
		case *ast.SelectorExpr:
			if u.Sel != nil {
				c.name = u.Sel.Name
			}
		}
		return c, at, true
	}
	if x.info != nil {
		return cval{}, 0, false
	}
	switch u := unparen(e).(type) {
	case *ast.Ident:
		switch u.Name {
		case "true", "false", "nil", "iota", "_":
			return cval{}, 0, false
		}
		if x.fn.declared[u.Name] || x.typeNames[u.Name] || builtinFuncs[u.Name] || builtinTypes[u.Name] {
			return cval{}, 0, false
		}
		if _, ok := x.fn.local[u.Name]; ok {
			return cval{}, 0, false
		}
		if _, ok := x.fn.file[u.Name]; ok {
			return cval{}, 0, false
		}
		return cval{name: u.Name, ref: ":" + u.Name}, p, true
	case *ast.SelectorExpr:
		id, ok := u.X.(*ast.Ident)
		if !ok || u.Sel == nil {
			return cval{}, 0, false
		}
		if _, shadowed := x.fn.declared[id.Name]; shadowed {
			return cval{}, 0, false
		}
		if path := x.importPath(id); path != "" {
			return cval{name: u.Sel.Name, ref: path + ":" + u.Sel.Name}, p, true
		}
	}
	return cval{}, 0, false
}

// returnsBool reports whether a function's only result is a bool.
func returnsBool(fl *ast.FieldList) bool {
	if fl == nil || len(fl.List) != 1 || len(fl.List[0].Names) > 1 {
		return false
	}
	id, ok := fl.List[0].Type.(*ast.Ident)
	return ok && id.Name == "bool"
}

// ifBranch is the branch of an if's condition: what its body does (see
// outcome), else the opposite of what its else block does.
func (x *extractor) ifBranch(s *ast.IfStmt) facts.Branch {
	if b := x.outcome(s.Body); b != facts.BranchUnknown {
		return b
	}
	if e, ok := s.Else.(*ast.BlockStmt); ok {
		return x.outcome(e).Flip()
	}
	return facts.BranchUnknown
}

// outcome says what a block does to the input it judges, by its first
// statement that says: panic, return false, return an error (a call of
// errors.New, fmt.Errorf or a function named for errors, a variable named
// for one), append to a slice named for problems, set a validity flag to
// false reject; return true, or return nil as the only error result,
// accept.
func (x *extractor) outcome(b *ast.BlockStmt) facts.Branch {
	if b == nil {
		return facts.BranchUnknown
	}
	for i, s := range b.List {
		if i >= 8 {
			break
		}
		switch s := s.(type) {
		case *ast.ReturnStmt:
			if len(s.Results) == 0 {
				return facts.BranchUnknown
			}
			switch r := unparen(s.Results[len(s.Results)-1]).(type) {
			case *ast.Ident:
				switch {
				case r.Name == "false":
					x.fn.boolOutcome = true
					return facts.BranchReject
				case r.Name == "true":
					x.fn.boolOutcome = true
					return facts.BranchAccept
				case r.Name == "nil" && len(s.Results) == 1 && x.fn.results != nil && returnsError(x.fn.results):
					return facts.BranchAccept
				case problemName(r.Name):
					return facts.BranchReject
				}
			case *ast.CallExpr:
				if problemName(calleeName(r.Fun)) || calleeName(r.Fun) == "New" && x.isPackageNamed(r.Fun, "errors") {
					return facts.BranchReject
				}
			case *ast.UnaryExpr, *ast.CompositeLit:
				if t := compositeName(r); problemName(t) {
					return facts.BranchReject
				}
			}
			return facts.BranchUnknown
		case *ast.ExprStmt:
			if c, ok := s.X.(*ast.CallExpr); ok && x.builtin(c.Fun) == "panic" {
				return facts.BranchReject
			}
		case *ast.AssignStmt:
			if len(s.Lhs) != 1 || len(s.Rhs) != 1 {
				continue
			}
			name := lastName(s.Lhs[0])
			if c, ok := s.Rhs[0].(*ast.CallExpr); ok && x.builtin(c.Fun) == "append" && problemName(name) {
				return facts.BranchReject
			}
			if id, ok := s.Rhs[0].(*ast.Ident); ok && validityName(name) {
				switch id.Name {
				case "false":
					return facts.BranchReject
				case "true":
					return facts.BranchAccept
				}
			}
		}
	}
	return facts.BranchUnknown
}

// isPackageNamed reports whether fun is a selector on the import of path.
func (x *extractor) isPackageNamed(fun ast.Expr, path string) bool {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && x.importPath(id) == path
}

// returnsError reports whether a function's last result is an error.
func returnsError(fl *ast.FieldList) bool {
	if len(fl.List) == 0 {
		return false
	}
	id, ok := fl.List[len(fl.List)-1].Type.(*ast.Ident)
	return ok && id.Name == "error"
}

// compositeName is the type name of &T{...} or T{...}.
func compositeName(e ast.Expr) string {
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = u.X
	}
	if c, ok := e.(*ast.CompositeLit); ok {
		return calleeName(c.Type)
	}
	return ""
}

// lastName is the name of a variable or the last field of a selector.
func lastName(e ast.Expr) string {
	switch v := e.(type) {
	case *ast.Ident:
		return v.Name
	case *ast.SelectorExpr:
		if v.Sel != nil {
			return v.Sel.Name
		}
	}
	return ""
}

// problemName reports whether a name says it is or collects problems:
// errs, ErrShortScope, Errorf, issues, violations, problems, failures,
// a validator's findings.
func problemName(s string) bool {
	n := strings.ToLower(s)
	for _, w := range [...]string{"err", "issue", "violation", "problem", "fail", "invalid", "finding"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// validityName reports whether a flag's name says it holds validity.
func validityName(s string) bool {
	switch strings.ToLower(s) {
	case "ok", "valid", "isvalid", "is_valid", "passed", "passes", "success":
		return true
	}
	return false
}

// verdictOf is the branch of `return <condition>` in a bool function
// named name: accept for a name that says the result tells validity
// (IsValid, validScope, checkPlan), unknown for others (isInvalid,
// tooShort, ShouldEscalate return the opposite or something else).
func verdictOf(name string) facts.Branch {
	n := strings.ToLower(name)
	for _, w := range [...]string{"invalid", "not", "too", "missing", "fail", "err", "reject", "escalat", "need", "should"} {
		if strings.Contains(n, w) {
			return facts.BranchUnknown
		}
	}
	for _, w := range [...]string{"valid", "check", "verif", "meets", "passes", "satisf"} {
		if strings.Contains(n, w) {
			return facts.BranchAccept
		}
	}
	return facts.BranchUnknown
}

// callShape says which parts of a call shapes walk.
type callShape struct {
	fun      uint8 // funNone, funWhole or funRecv
	from, to int   // the arguments walked
	swap     bool  // the first argument's tokens follow the second's
	end      bool  // End after the arguments
}

const (
	funNone  = iota
	funWhole // the function called: Call <fun> <args> End
	funRecv  // the receiver of a method: Call <recv> <args> End
)

// shapeCall emits the tokens that start a call and says how the rest is
// walked: a conversion is its operand, len(x) Len <x>, panic(x) Raise <x>,
// strings.Fields(x) Words <x>, slices.Contains(s, v) In <v> <s> (NotIn
// when negated), other calls Call <callee> <args> End. (A field chain
// r.Get("status") is taken by shapeChain.)
func (x *extractor) shapeCall(c *ast.CallExpr, negated bool) callShape {
	n := len(c.Args)
	all := callShape{to: n, end: true}
	if n == 1 && !c.Ellipsis.IsValid() && x.isConversion(c.Fun) {
		return callShape{to: 1}
	}
	if b := x.builtin(c.Fun); b != "" {
		x.fn.calls = append(x.fn.calls, b)
		switch {
		case b == "len" && n == 1:
			x.tok(shape.Len)
			return callShape{to: 1}
		case b == "panic" && n == 1:
			x.tok(shape.Raise)
			return callShape{to: 1}
		case b == "make" && n >= 1:
			switch x.typeKind(c.Args[0]) {
			case kindList:
				x.tok(shape.List)
				x.tok(shape.End)
				return callShape{}
			case kindMap:
				x.tok(shape.Map)
				x.tok(shape.End)
				return callShape{}
			}
			x.tok(shape.Call)
			x.tok(shape.Name)
			return callShape{from: 1, to: n, end: true}
		case b == "new":
			x.tok(shape.Call)
			x.tok(shape.Name)
			x.tok(shape.End)
			return callShape{}
		case b == "append": // a method of its first argument: xs.append(y)
			x.tok(shape.Call)
			return all
		case b == "recover":
			x.fn.recovered = true
		}
		x.tok(shape.Call)
		x.tok(shape.Name)
		return all
	}
	if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel != nil {
		if x.isPackage(sel.X) {
			if x.containsKind(c) != "" {
				x.shapeContains(c, negated)
				return callShape{to: 2, swap: true}
			}
			x.fn.calls = append(x.fn.calls, sel.Sel.Name)
			if x.wordsArg(c) != nil { // its first argument
				x.tok(shape.Words)
				return callShape{to: 1}
			}
			x.tok(shape.Call)
			x.tok(shape.Name)
			return all
		}
		x.fn.calls = append(x.fn.calls, sel.Sel.Name)
		x.tok(shape.Call)
		all.fun = funRecv
		return all
	}
	if name := calleeName(c.Fun); name != "" {
		x.fn.calls = append(x.fn.calls, name)
	}
	x.tok(shape.Call)
	all.fun = funWhole
	return all
}

// calleeName returns the name of a called function: f, f[T], pkg.F[T].
func calleeName(fun ast.Expr) string {
	for {
		switch f := fun.(type) {
		case *ast.Ident:
			return f.Name
		case *ast.SelectorExpr:
			if f.Sel == nil {
				return ""
			}
			return f.Sel.Name
		case *ast.IndexExpr:
			fun = f.X
		case *ast.IndexListExpr:
			fun = f.X
		case *ast.ParenExpr:
			fun = f.X
		default:
			return ""
		}
	}
}

// containsKind returns "slices" for slices.Contains(s, v) and "strings"
// for strings.Contains(s, sub), "" for other calls.
func (x *extractor) containsKind(c *ast.CallExpr) string {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel == nil || sel.Sel.Name != "Contains" || len(c.Args) != 2 || c.Ellipsis.IsValid() {
		return ""
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	switch p := x.importPath(id); p {
	case "slices", "strings":
		return p
	}
	return ""
}

// shapeContains starts slices.Contains(s, v) as In (v in s) and
// strings.Contains(s, sub) as In (sub in s), NotIn when negated; the
// literal members of a slice literal s are constants v is compared with.
func (x *extractor) shapeContains(c *ast.CallExpr, negated bool) {
	x.fn.calls = append(x.fn.calls, "Contains")
	if negated {
		x.tok(shape.NotIn)
	} else {
		x.tok(shape.In)
	}
	if x.containsKind(c) != "slices" {
		return
	}
	lit, ok := unparen(c.Args[0]).(*ast.CompositeLit)
	if !ok {
		return
	}
	op := "in"
	if negated {
		op = "not in"
	}
	var ref fieldRef
	done := false
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			el = kv.Value
		}
		if val, p, ok := x.constOf(el, el.Pos()); ok {
			if !done {
				ref, done = x.constRef(c.Args[1]), true
			}
			x.addConst(val, ref, op, p)
		}
	}
}

// wordsArg returns x of strings.Fields(x) and strings.Split(x, " "), the
// calls that split a text into words, or nil.
func (x *extractor) wordsArg(c *ast.CallExpr) ast.Expr {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel == nil || c.Ellipsis.IsValid() {
		return nil
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil
	}
	switch {
	case sel.Sel.Name == "Fields" && len(c.Args) == 1:
	case sel.Sel.Name == "Split" && len(c.Args) == 2:
		if l := x.strLit(c.Args[1]); l == nil || unquote(l.Value) != " " {
			return nil
		}
	default:
		return nil
	}
	if x.importPath(id) != "strings" {
		return nil
	}
	return c.Args[0]
}

// shapeView starts a composite literal: a slice or array literal is List
// <elems> End, a map or struct literal Map <keys and values> End. elided
// is the type the parent implies for a literal without one.
func (x *extractor) shapeView(lit *ast.CompositeLit, elided ast.Expr) shapeView {
	typ := lit.Type
	if typ == nil {
		typ = elided
	}
	kind, _, _ := x.litType(lit, typ)
	isMap := kind == kindMap || kind == kindStruct || kind == kindUnknown && (len(lit.Elts) == 0 || hasKeys(lit))
	if isMap {
		x.tok(shape.Map)
	} else {
		x.tok(shape.List)
	}
	keyT, elemT := elemTypes(typ)
	return shapeView{isMap: isMap, kind: kind, keyT: keyT, elemT: elemT}
}

// shapeKey reports whether shapes walk the key of a map or struct
// literal's entry: a field name is Str, like a string key.
func (x *extractor) shapeKey(k ast.Expr, sv *shapeView) bool {
	if _, isID := k.(*ast.Ident); isID && sv.kind != kindMap {
		x.tok(shape.Str)
		return false
	}
	return true
}

// chain looks at e as a field read: a selector of a field, an index with a
// string key, r.Get("key"), through parentheses, dereferences, type
// assertions and conversions. It returns the base the fields are read
// from and the number of fields, whose names are in x.fn.segs outermost
// first; 0 when e reads no field.
func (x *extractor) chain(e ast.Expr) (ast.Expr, int) {
	segs := x.fn.segs[:0]
	for {
		switch v := e.(type) {
		case *ast.ParenExpr:
			e = v.X
			continue
		case *ast.StarExpr:
			e = v.X
			continue
		case *ast.TypeAssertExpr:
			if v.Type != nil {
				e = v.X
				continue
			}
		case *ast.SelectorExpr:
			if v.Sel != nil && v.X != nil && !x.isPackage(v.X) {
				segs = append(segs, v.Sel.Name)
				e = v.X
				continue
			}
		case *ast.IndexExpr:
			if k, ok := x.stringKey(v.Index); ok {
				segs = append(segs, k)
				e = v.X
				continue
			}
		case *ast.CallExpr:
			if len(v.Args) == 1 && !v.Ellipsis.IsValid() {
				if k, ok := x.getKey(v); ok {
					segs = append(segs, k)
					e = v.Fun.(*ast.SelectorExpr).X
					continue
				}
				if len(segs) > 0 && x.isConversion(v.Fun) {
					e = v.Args[0]
					continue
				}
			}
		}
		x.fn.segs = segs
		return e, len(segs)
	}
}

// getKey returns the key of r.Get("key"), a method (not a package
// function) given an identifier-like string literal.
func (x *extractor) getKey(c *ast.CallExpr) (string, bool) {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel == nil || sel.Sel.Name != "Get" || sel.X == nil || len(c.Args) != 1 || x.isPackage(sel.X) {
		return "", false
	}
	l := x.strLit(c.Args[0])
	if l == nil {
		return "", false
	}
	k := unquote(l.Value)
	return k, isIdentLike(k)
}

// stringKey returns the key of an index with a non-empty string literal
// or string constant: m["status"], m[keyStatus].
func (x *extractor) stringKey(e ast.Expr) (string, bool) {
	if l := x.strLit(e); l != nil {
		k := unquote(l.Value)
		return k, k != ""
	}
	if id, ok := unparen(e).(*ast.Ident); ok {
		if v, _, ok := x.constOf(id, token.NoPos); ok {
			s, ok := v.(string)
			return s, ok && s != ""
		}
	}
	return "", false
}

func isIdentLike(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || isLower(c) || isUpper(c) || i > 0 && isDigit(c)) {
			return false
		}
	}
	return s != ""
}

// joinPath returns the normalized path of segments given outermost first:
// ["Quality", "Metrics"] is "metrics.quality".
func (x *extractor) joinPath(segs []string) string {
	b := x.fn.buf[:0]
	for i := len(segs) - 1; i >= 0; i-- {
		if i != len(segs)-1 {
			b = append(b, '.')
		}
		b = append(b, x.normName(segs[i])...)
	}
	x.fn.buf = b
	if s, ok := x.fn.intern[string(b)]; ok {
		return s
	}
	if x.fn.intern == nil {
		x.fn.intern = make(map[string]string)
	}
	s := string(b)
	x.fn.intern[s] = s
	return s
}

// normName is shape.FieldName, remembered for names with capitals.
func (x *extractor) normName(s string) string {
	lower := true
	for i := 0; i < len(s); i++ {
		if isUpper(s[i]) {
			lower = false
			break
		}
	}
	if lower {
		return s
	}
	if n, ok := x.fn.norm[s]; ok {
		return n
	}
	if x.fn.norm == nil {
		x.fn.norm = make(map[string]string)
	}
	n := shape.FieldName(s)
	x.fn.norm[s] = n
	return n
}

// isMethodValue reports, with types.Info, whether a selector is a method
// value rather than a field.
func (x *extractor) isMethodValue(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s, ok := x.info.Selections[sel]
	return ok && s.Kind() != types.FieldVal
}

// isConversion reports whether a call of fun is a conversion: a type by
// types.Info, or without it a predeclared type, a type the file declares,
// or a type literal.
func (x *extractor) isConversion(fun ast.Expr) bool {
	if x.info != nil {
		if tv, ok := x.info.Types[fun]; ok {
			return tv.IsType()
		}
	}
	switch f := unparen(fun).(type) {
	case *ast.Ident:
		return builtinTypes[f.Name] || x.typeNames[f.Name]
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType, *ast.StructType:
		return true
	}
	return false
}

// isTypeExpr reports whether e is a type, for telling f[T] from xs[i].
func (x *extractor) isTypeExpr(e ast.Expr) bool {
	if x.info != nil {
		if tv, ok := x.info.Types[e]; ok {
			return tv.IsType()
		}
	}
	return x.isConversion(e)
}

// typeKind tells whether a type expression is a slice or a map.
func (x *extractor) typeKind(e ast.Expr) litKind {
	if x.info != nil {
		if tv, ok := x.info.Types[e]; ok && tv.Type != nil {
			switch tv.Type.Underlying().(type) {
			case *types.Slice:
				return kindList
			case *types.Map:
				return kindMap
			}
			return kindUnknown
		}
	}
	switch unparen(e).(type) {
	case *ast.ArrayType:
		return kindList
	case *ast.MapType:
		return kindMap
	}
	return kindUnknown
}

// builtin returns the name of the predeclared function fun names, if it
// is one the walk treats specially.
func (x *extractor) builtin(fun ast.Expr) string {
	id, ok := unparen(fun).(*ast.Ident)
	if !ok || !builtinFuncs[id.Name] {
		return ""
	}
	if x.info != nil {
		if obj, ok := x.info.Uses[id]; ok {
			if _, ok := obj.(*types.Builtin); !ok {
				return ""
			}
		}
	}
	return id.Name
}

// constRef is refOf for a comparison operand.
func (x *extractor) constRef(e ast.Expr) fieldRef {
	r := x.refOf(e, true)
	if r.measure == measureWordList {
		return fieldRef{}
	}
	return r
}

// refOf returns the field an operand reads: a field chain's path, the
// field a local variable was bound from, a measure of one (len(x),
// len(strings.Fields(x)), a getter h.GetQuality()); with bare, a variable
// that is not an alias gives its own name.
func (x *extractor) refOf(e ast.Expr, bare bool) fieldRef {
	if x.depth >= maxDepth {
		return fieldRef{}
	}
	x.depth++
	defer func() { x.depth-- }()
	e = x.look(e)
	switch v := e.(type) {
	case *ast.Ident:
		if r, ok := x.fn.alias[v.Name]; ok {
			return r
		}
		switch v.Name {
		case "true", "false", "nil", "_":
			return fieldRef{}
		}
		if bare {
			return fieldRef{path: x.normName(v.Name)}
		}
	case *ast.SelectorExpr, *ast.IndexExpr:
		if _, n := x.chain(e); n > 0 {
			return fieldRef{path: x.joinPath(x.fn.segs[:n])}
		}
		if sel, ok := v.(*ast.SelectorExpr); ok && bare && sel.Sel != nil {
			return fieldRef{path: x.normName(sel.Sel.Name)} // pkg.Var
		}
	case *ast.CallExpr:
		if x.builtin(v.Fun) == "len" && len(v.Args) == 1 {
			if w := x.wordsCall(v.Args[0]); w != nil {
				if r := x.refOf(w, true); r.measure == "" && r.path != "" {
					return fieldRef{r.path, "words"}
				}
				return fieldRef{}
			}
			r := x.refOf(v.Args[0], true)
			switch r.measure {
			case "":
				if r.path != "" {
					return fieldRef{r.path, "len"}
				}
			case measureWordList:
				return fieldRef{r.path, "words"}
			}
			return fieldRef{}
		}
		if w := x.wordsArg(v); w != nil {
			if r := x.refOf(w, true); r.measure == "" && r.path != "" {
				return fieldRef{r.path, measureWordList}
			}
			return fieldRef{}
		}
		if w := x.wordHelperArg(v); w != nil { // wordCount(d.Scope)
			if r := x.refOf(w, true); r.measure == "" && r.path != "" {
				return fieldRef{r.path, "words"}
			}
			return fieldRef{}
		}
		if _, n := x.chain(e); n > 0 { // r.Get("status")
			return fieldRef{path: x.joinPath(x.fn.segs[:n])}
		}
		return x.getter(v)
	}
	return fieldRef{}
}

// wordsCall returns x when e is strings.Fields(x) or strings.Split(x, " ").
func (x *extractor) wordsCall(e ast.Expr) ast.Expr {
	if c, ok := x.look(e).(*ast.CallExpr); ok {
		return x.wordsArg(c)
	}
	return nil
}

// getter returns the field a getter call reads: h.Metrics.GetQuality() is
// metrics.quality.
func (x *extractor) getter(c *ast.CallExpr) fieldRef {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel == nil || len(c.Args) != 0 || x.isPackage(sel.X) {
		return fieldRef{}
	}
	name := sel.Sel.Name
	if len(name) < 4 || name[:3] != "Get" || !isUpper(name[3]) {
		return fieldRef{}
	}
	_, n := x.chain(sel.X) // the receiver's fields, outermost first
	segs := append(x.fn.segs[:n], "")
	copy(segs[1:], segs[:n])
	segs[0] = name[3:]
	x.fn.segs = segs
	return fieldRef{path: x.joinPath(segs)}
}

// look looks through what does not change which field a value comes
// from: parentheses, dereferences, type assertions, conversions and the
// case and space folding of the strings package.
func (x *extractor) look(e ast.Expr) ast.Expr {
	for {
		switch v := e.(type) {
		case *ast.ParenExpr:
			e = v.X
		case *ast.StarExpr:
			e = v.X
		case *ast.TypeAssertExpr:
			if v.Type == nil {
				return e
			}
			e = v.X
		case *ast.CallExpr:
			if len(v.Args) != 1 || v.Ellipsis.IsValid() || !x.isConversion(v.Fun) && !x.isFolding(v.Fun) {
				return e
			}
			e = v.Args[0]
		default:
			return e
		}
	}
}

// constOf returns the constant value an operand spells and its position:
// a number (float64), string or rune (string) literal, true or false, a
// constant with such a value (declared in the file, or known to
// types.Info), negated or converted. p is the position to give a value
// that comes from a named constant.
func (x *extractor) constOf(e ast.Expr, p token.Pos) (any, token.Pos, bool) {
	neg := false
	at := token.NoPos
	for {
		switch v := e.(type) {
		case *ast.ParenExpr:
			e = v.X
			continue
		case *ast.UnaryExpr:
			if v.Op != token.SUB && v.Op != token.ADD {
				return nil, 0, false
			}
			if v.Op == token.SUB {
				neg = !neg
			}
			if !at.IsValid() {
				at = v.Pos()
			}
			e = v.X
			continue
		case *ast.CallExpr:
			if len(v.Args) != 1 || v.Ellipsis.IsValid() || !x.isConversion(v.Fun) {
				return nil, 0, false
			}
			e = v.Args[0]
			continue
		case *ast.BasicLit:
			val, ok := basicConst(v)
			if !at.IsValid() {
				at = v.Pos()
			}
			return negate(val, neg, at, ok)
		case *ast.Ident:
			val, ok := x.identConst(v)
			if !at.IsValid() {
				at = p
				if v.Name == "true" || v.Name == "false" {
					at = v.Pos()
				}
			}
			return negate(val, neg, at, ok)
		case *ast.SelectorExpr: // pkg.Const, with types.Info
			if x.info == nil || v.Sel == nil || !x.isPackage(v.X) {
				return nil, 0, false
			}
			if tv, ok := x.info.Types[v]; ok && tv.Value != nil {
				val, ok := fromConstant(tv.Value)
				if !at.IsValid() {
					at = p
				}
				return negate(val, neg, at, ok)
			}
		}
		return nil, 0, false
	}
}

func negate(v any, neg bool, at token.Pos, ok bool) (any, token.Pos, bool) {
	if !ok {
		return nil, 0, false
	}
	if neg {
		f, isNum := v.(float64)
		if !isNum {
			return nil, 0, false
		}
		v = -f
	}
	return v, at, true
}

// identConst returns the value of true, false or a constant with a
// literal value; a local variable of the same name shadows a constant.
func (x *extractor) identConst(id *ast.Ident) (any, bool) {
	if id.Name == "iota" {
		return nil, false // its value depends on where it is
	}
	var obj types.Object
	if x.info != nil {
		var ok bool
		if obj, ok = x.info.Uses[id]; ok {
			if _, isConst := obj.(*types.Const); !isConst {
				return nil, false
			}
		}
	}
	if obj == nil {
		switch id.Name {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	}
	if c, ok := x.fn.local[id.Name]; ok {
		if c.ok || obj == nil {
			return c.v, c.ok
		}
	} else if c, ok := x.fn.file[id.Name]; ok && (c.ok || obj == nil) {
		return c.v, c.ok
	}
	if obj != nil {
		return fromConstant(obj.(*types.Const).Val())
	}
	return nil, false
}

// basicConst returns a literal's value: float64 for numbers, string for
// strings and runes.
func basicConst(l *ast.BasicLit) (any, bool) {
	switch l.Kind {
	case token.STRING:
		return unquote(l.Value), true
	case token.CHAR:
		if n := len(l.Value); n >= 3 && l.Value[0] == '\'' && l.Value[n-1] == '\'' {
			r, _, tail, err := strconv.UnquoteChar(l.Value[1:n-1], '\'')
			if err == nil && tail == "" {
				return string(r), true
			}
		}
	case token.INT:
		if i, err := strconv.ParseInt(l.Value, 0, 64); err == nil {
			return float64(i), true
		}
		return fromConstant(constant.MakeFromLiteral(l.Value, l.Kind, 0))
	case token.FLOAT:
		if f, err := strconv.ParseFloat(l.Value, 64); err == nil && !math.IsInf(f, 0) {
			return f, true
		}
		return fromConstant(constant.MakeFromLiteral(l.Value, l.Kind, 0))
	}
	return nil, false
}

// fromConstant converts a constant to a Const value.
func fromConstant(v constant.Value) (any, bool) {
	switch v.Kind() {
	case constant.String:
		return constant.StringVal(v), true
	case constant.Bool:
		return constant.BoolVal(v), true
	case constant.Int, constant.Float:
		f, _ := constant.Float64Val(constant.ToFloat(v))
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, false
		}
		return f, true
	}
	return nil, false
}

// FileConsts returns the package-level constants of Go source src whose
// value is a number literal, or an expression of other such constants of
// the file the extractor folds (const MinScopeWords = 15), by name: the
// constants other files of the package, and other packages, compare with
// (see facts.Const.Ref).
func FileConsts(src []byte) map[string]float64 {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if f == nil {
		return nil
	}
	x := &extractor{}
	consts := map[string]constVal{}
	x.fn.file = consts
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			x.constSpecs(g, consts)
		}
	}
	var out map[string]float64
	for name, c := range consts {
		if v, ok := c.v.(float64); ok && c.ok {
			if out == nil {
				out = make(map[string]float64)
			}
			out[name] = v
		}
	}
	return out
}
