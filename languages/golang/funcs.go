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

// funcState is the state of the function walk, which makes the
// facts.Function of every function declaration. Its buffers are reused
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
	// pol is the branch of the condition being walked (an if's condition,
	// a returned verdict); fexpr hands it down through !, &&, || and
	// parentheses only. verdict is the branch of `return <condition>`.
	pol, verdict facts.Branch

	// strSlab and constSlab hand out the Params, Fields, Calls and Consts
	// of the file's functions from a few shared chunks, not a slice each.
	strSlab   []string
	constSlab []facts.Const
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

// function makes the facts.Function of a declaration with a body.
func (x *extractor) function(d *ast.FuncDecl) {
	s := &x.fn
	s.toks, s.consts, s.fields, s.calls = s.toks[:0], s.consts[:0], s.fields[:0], s.calls[:0]
	clear(s.alias)
	clear(s.local)
	clear(s.declared)
	s.recovered = false
	s.verdict = facts.BranchUnknown
	if d.Type != nil && d.Name != nil && returnsBool(d.Type.Results) {
		s.verdict = verdictOf(d.Name.Name)
	}
	var params []string
	if d.Type != nil {
		params = take(&s.strSlab, x.params(d.Type.Params, true))
		x.shadowFields(d.Type.Results)
	}
	if d.Recv != nil {
		x.shadowFields(d.Recv)
	}
	x.fstmts(d.Body.List)
	end := d.End()
	if !end.IsValid() || int(end)-x.base > x.size { // a body go/parser did not close
		end = token.Pos(x.base + x.size)
	}
	fn := facts.Function{
		Name:   x.scope, // set by funcDecl
		Pos:    x.pos(d.Pos()),
		End:    x.pos(end),
		Params: params,
		Shape:  shape.Fingerprint(s.toks),
		Size:   len(s.toks),
	}
	if !slices.IsSortedFunc(s.consts, cmpConstPos) {
		slices.SortStableFunc(s.consts, cmpConstPos)
	}
	fn.Consts = take(&s.constSlab, s.consts)
	fn.Fields = take(&s.strSlab, sortedSet(s.fields))
	fn.Calls = take(&s.strSlab, sortedSet(s.calls))
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

func (x *extractor) fstmts(list []ast.Stmt) {
	for _, s := range list {
		x.fstmt(s)
	}
}

// fbody emits a block's statements and End.
func (x *extractor) fbody(b *ast.BlockStmt) {
	if b != nil {
		x.fstmts(b.List)
	}
	x.tok(shape.End)
}

// fstmt emits the tokens of a statement.
func (x *extractor) fstmt(s ast.Stmt) {
	if s == nil || x.depth >= maxDepth {
		return
	}
	x.depth++
	switch s := s.(type) {
	case *ast.BlockStmt:
		x.fstmts(s.List)
	case *ast.ExprStmt:
		x.fexpr(s.X)
	case *ast.AssignStmt:
		x.fassign(s)
	case *ast.DeclStmt:
		if g, ok := s.Decl.(*ast.GenDecl); ok {
			x.fdecl(g)
		}
	case *ast.ReturnStmt:
		x.tok(shape.Return)
		if len(s.Results) == 1 {
			x.fn.pol = x.fn.verdict
		}
		x.fexprs(s.Results)
	case *ast.IfStmt:
		x.fstmt(s.Init)
		x.tok(shape.If)
		x.fn.pol = x.ifBranch(s)
		x.fexpr(s.Cond)
		x.fbody(s.Body)
		switch e := s.Else.(type) {
		case nil:
		case *ast.BlockStmt:
			x.tok(shape.Else)
			x.fbody(e)
		default: // else if
			x.tok(shape.Else)
			x.fstmt(e)
		}
	case *ast.SwitchStmt:
		x.fswitch(s)
	case *ast.TypeSwitchStmt:
		x.fstmt(s.Init)
		x.tok(shape.Switch)
		switch a := s.Assign.(type) {
		case *ast.AssignStmt: // v := x.(type)
			for _, l := range a.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					x.newVar(id.Name)
				}
			}
			x.fexprs(a.Rhs)
		case *ast.ExprStmt:
			x.fexpr(a.X)
		}
		x.fclauses(s.Body, false)
	case *ast.SelectStmt:
		x.tok(shape.Switch)
		x.fclauses(s.Body, true)
	case *ast.CaseClause, *ast.CommClause: // outside a switch: never from go/parser
		x.fclause(s, true)
	case *ast.ForStmt:
		// init; while cond { body; post }
		x.fstmt(s.Init)
		x.tok(shape.Loop)
		if s.Cond != nil {
			x.fexpr(s.Cond)
		} else {
			x.tok(shape.Bool) // for {} is while true
		}
		if s.Body != nil {
			x.fstmts(s.Body.List)
		}
		x.fstmt(s.Post)
		x.tok(shape.End)
	case *ast.RangeStmt:
		x.tok(shape.Loop)
		for _, v := range [2]ast.Expr{s.Key, s.Value} {
			if v == nil || isBlank(v) {
				continue
			}
			if id, ok := v.(*ast.Ident); ok {
				x.newVar(id.Name)
			}
			x.flhs(v)
		}
		x.fexpr(s.X)
		x.fbody(s.Body)
	case *ast.LabeledStmt:
		x.fstmt(s.Stmt)
	case *ast.BranchStmt:
		x.tok(shape.Break)
	case *ast.GoStmt:
		if s.Call != nil {
			x.fexpr(s.Call)
		}
	case *ast.DeferStmt:
		if s.Call != nil {
			x.fdefer(s.Call)
		}
	case *ast.SendStmt: // ch <- v is a put: Call <ch> <v> End
		x.tok(shape.Call)
		x.fexpr(s.Chan)
		x.fexpr(s.Value)
		x.tok(shape.End)
	case *ast.IncDecStmt: // x++ is x += 1
		x.tok(shape.Assign)
		x.fexpr(s.X)
		x.tok(shape.Num)
		if id, ok := s.X.(*ast.Ident); ok {
			x.newVar(id.Name)
		}
	}
	x.depth--
}

// fdefer emits a deferred call, preceded by Try when it recovers.
func (x *extractor) fdefer(call *ast.CallExpr) {
	start, saved := len(x.fn.toks), x.fn.recovered
	x.fn.recovered = false
	x.fexpr(call)
	if x.fn.recovered {
		x.fn.toks = slices.Insert(x.fn.toks, start, shape.Try)
	}
	x.fn.recovered = x.fn.recovered || saved
}

// fclauses emits the clauses of a switch, type switch or select and the
// final End; case literals compared with a tag are recorded by fswitch, not
// here.
func (x *extractor) fclauses(b *ast.BlockStmt, values bool) {
	if b != nil {
		for _, c := range b.List {
			x.fclause(c, values)
		}
	}
	x.tok(shape.End)
}

// fclause emits Case <values> <body> End; the types of a type switch's
// cases (!values) are erased.
func (x *extractor) fclause(c ast.Stmt, values bool) {
	switch c := c.(type) {
	case *ast.CaseClause:
		x.tok(shape.Case)
		if values {
			x.fexprs(c.List)
		}
		x.fstmts(c.Body)
		x.tok(shape.End)
	case *ast.CommClause:
		x.tok(shape.Case)
		x.fstmt(c.Comm)
		x.fstmts(c.Body)
		x.tok(shape.End)
	default:
		x.fstmt(c)
	}
}

func (x *extractor) fswitch(s *ast.SwitchStmt) {
	x.fstmt(s.Init)
	x.tok(shape.Switch)
	x.fexpr(s.Tag)
	var tag fieldRef
	tagDone := false
	if s.Body != nil {
		for _, c := range s.Body.List {
			cc, ok := c.(*ast.CaseClause)
			if !ok {
				x.fstmt(c)
				continue
			}
			x.tok(shape.Case)
			for _, v := range cc.List {
				if s.Tag != nil {
					if val, p, ok := x.constOf(v, v.Pos()); ok {
						if !tagDone {
							tag, tagDone = x.constRef(s.Tag), true
						}
						x.addConst(val, tag, "==", p)
					}
				}
				x.fexpr(v)
			}
			x.fstmts(cc.Body)
			x.tok(shape.End)
		}
	}
	x.tok(shape.End)
}

// fassign emits Assign <lhs...> <rhs...> and keeps the aliases: a
// variable assigned a field read stands for that field.
func (x *extractor) fassign(s *ast.AssignStmt) {
	x.tok(shape.Assign)
	plain := s.Tok == token.ASSIGN || s.Tok == token.DEFINE
	for _, l := range s.Lhs {
		if plain {
			x.flhs(l)
		} else {
			x.fexpr(l) // x += y reads x
		}
	}
	x.fexprs(s.Rhs)
	x.bindAll(s.Lhs, s.Rhs, plain)
}

// bindAll updates the aliases and shadowed constants after lhs = rhs.
func (x *extractor) bindAll(lhs, rhs []ast.Expr, plain bool) {
	for i, l := range lhs {
		id, ok := l.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		x.newVar(id.Name)
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
		if ref := x.refOf(r, false); ref.path != "" {
			if x.fn.alias == nil {
				x.fn.alias = make(map[string]fieldRef)
			}
			x.fn.alias[id.Name] = ref
		}
	}
}

// fdecl handles a declaration in a function: constants are noted (no
// tokens), var x = y is Assign <x> <y>, var x T only declares x.
func (x *extractor) fdecl(g *ast.GenDecl) {
	switch g.Tok {
	case token.CONST:
		if x.fn.local == nil {
			x.fn.local = make(map[string]constVal)
		}
		x.constSpecs(g, x.fn.local)
	case token.VAR:
		for _, s := range g.Specs {
			vs, ok := s.(*ast.ValueSpec)
			if !ok {
				continue
			}
			if len(vs.Values) > 0 {
				x.tok(shape.Assign)
				for _, n := range vs.Names {
					if n != nil {
						x.tok(shape.Name)
					}
				}
				x.fexprs(vs.Values)
			}
			lhs := x.fn.lhs[:0] // after the values, which may declare variables too
			for _, n := range vs.Names {
				if n != nil {
					lhs = append(lhs, n)
				}
			}
			x.fn.lhs = lhs
			x.bindAll(lhs, vs.Values, true)
		}
	}
}

func (x *extractor) fexprs(list []ast.Expr) {
	for _, e := range list {
		x.fexpr(e)
	}
}

// flhs emits an assignment target: a field written is not a field read,
// but the fields its receiver is read from are (h.Metrics.Quality = 1
// reads metrics).
func (x *extractor) flhs(e ast.Expr) {
	if base, n := x.chain(e); n > 0 {
		x.fchain(base, n, true)
		return
	}
	x.fexpr(e)
}

// fchain emits a field chain found by chain: its base's tokens, then Field
// per field, and records the path read, without the outermost field when
// skipOuter (a field written, a method).
func (x *extractor) fchain(base ast.Expr, n int, skipOuter bool) {
	segs := x.fn.segs[:n]
	if skipOuter {
		segs = segs[1:]
	}
	if len(segs) > 0 {
		x.fn.fields = append(x.fn.fields, x.joinPath(segs))
	}
	x.fexpr(base)
	for range n {
		x.tok(shape.Field)
	}
}

// fexpr emits the tokens of an expression in prefix order.
func (x *extractor) fexpr(e ast.Expr) {
	// the condition's branch reaches this expression, not its operands
	pol := x.fn.pol
	x.fn.pol = facts.BranchUnknown
	if e == nil || x.depth >= maxDepth {
		return
	}
	x.depth++
	switch v := e.(type) {
	case *ast.Ident:
		switch v.Name {
		case "true", "false":
			x.tok(shape.Bool)
		case "nil":
			x.tok(shape.Nil)
		default:
			x.tok(shape.Name)
		}
	case *ast.BasicLit:
		if v.Kind == token.STRING || v.Kind == token.CHAR {
			x.tok(shape.Str)
		} else {
			x.tok(shape.Num)
		}
	case *ast.ParenExpr:
		x.fn.pol = pol
		x.fexpr(v.X)
	case *ast.SelectorExpr, *ast.IndexExpr:
		if base, n := x.chain(e); n > 0 {
			// h.Validate as a value is a method, not a field (with types.Info)
			x.fchain(base, n, x.info != nil && x.isMethodValue(e))
			break
		}
		switch v := v.(type) {
		case *ast.SelectorExpr: // pkg.Name, or no Sel
			if v.Sel != nil && x.isPackage(v.X) {
				x.tok(shape.Name)
			} else {
				x.fexpr(v.X)
			}
		case *ast.IndexExpr:
			if x.isTypeExpr(v.Index) { // f[T]: an instantiation
				x.fexpr(v.X)
				break
			}
			x.tok(shape.Index)
			x.fexpr(v.X)
			x.fexpr(v.Index)
		}
	case *ast.IndexListExpr:
		x.fexpr(v.X)
	case *ast.SliceExpr:
		x.tok(shape.Index)
		x.fexpr(v.X)
		x.fexpr(v.Low)
		x.fexpr(v.High)
		x.fexpr(v.Max)
	case *ast.StarExpr:
		x.fexpr(v.X)
	case *ast.TypeAssertExpr:
		x.fexpr(v.X)
	case *ast.UnaryExpr:
		if v.Op == token.NOT {
			if c, ok := unparen(v.X).(*ast.CallExpr); ok && x.containsKind(c) != "" {
				x.fcontains(c, true)
				break
			}
			x.tok(shape.Not)
			x.fn.pol = pol.Flip()
		}
		x.fexpr(v.X)
	case *ast.BinaryExpr:
		x.fbinary(v, pol)
	case *ast.CallExpr:
		x.fcall(v)
	case *ast.CompositeLit:
		x.fcomposite(v, nil)
	case *ast.FuncLit:
		x.tok(shape.Func)
		if v.Type != nil {
			x.params(v.Type.Params, false)
			x.shadowFields(v.Type.Results)
		}
		x.fbody(v.Body)
	case *ast.KeyValueExpr:
		x.fexpr(v.Key)
		x.fexpr(v.Value)
	}
	// type expressions, ellipses and bad expressions have no tokens
	x.depth--
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

func (x *extractor) fbinary(v *ast.BinaryExpr, pol facts.Branch) {
	t := binaryToken(v.Op)
	if op := compareOp(v.Op); op != "" {
		x.fcompare(v, op, pol)
	}
	x.tok(t)
	logical := v.Op == token.LAND || v.Op == token.LOR
	if logical {
		x.fn.pol = pol
	}
	x.fexpr(v.X)
	if logical {
		x.fn.pol = pol
	}
	x.fexpr(v.Y)
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

// fcompare records the constant of a comparison, the field on the left.
func (x *extractor) fcompare(v *ast.BinaryExpr, op string, pol facts.Branch) {
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
	x.fn.consts = append(x.fn.consts, facts.Const{Value: v.v, Field: r.path, Measure: r.measure, Op: op, Pos: x.pos(p),
		Name: v.name, Ref: v.ref, Branch: pol})
}

// cval is a comparison's constant operand: its value, the constant it is
// named by, or (without types.Info) a constant of another file (ref).
type cval struct {
	v         any
	name, ref string
}

// namedConst is constOf with the name of a named constant, and without
// types.Info, a ref for a name that may be a constant of another file:
// pkg.Name of an imported package, or a name neither the function nor
// the file declares.
func (x *extractor) namedConst(e ast.Expr, p token.Pos) (cval, token.Pos, bool) {
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
					return facts.BranchReject
				case r.Name == "true":
					return facts.BranchAccept
				case r.Name == "nil" && len(s.Results) == 1 && x.results != nil && returnsError(x.results):
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
// errs, ErrShortScope, Errorf, issues, violations, problems, failures.
func problemName(s string) bool {
	n := strings.ToLower(s)
	for _, w := range [...]string{"err", "issue", "violation", "problem", "fail", "invalid"} {
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

// fcall emits a call: a conversion is its operand, len(x) Len <x>,
// panic(x) Raise <x>, strings.Fields(x) Words <x>, slices.Contains(s, v)
// In <v> <s>, other calls Call <callee> <args> End.
func (x *extractor) fcall(c *ast.CallExpr) {
	if len(c.Args) == 1 && !c.Ellipsis.IsValid() && x.isConversion(c.Fun) {
		x.fexpr(c.Args[0])
		return
	}
	if b := x.builtin(c.Fun); b != "" {
		x.fn.calls = append(x.fn.calls, b)
		switch {
		case b == "len" && len(c.Args) == 1:
			x.tok(shape.Len)
			x.fexpr(c.Args[0])
			return
		case b == "panic" && len(c.Args) == 1:
			x.tok(shape.Raise)
			x.fexpr(c.Args[0])
			return
		case b == "make" && len(c.Args) >= 1:
			switch x.typeKind(c.Args[0]) {
			case kindList:
				x.tok(shape.List)
				x.tok(shape.End)
				return
			case kindMap:
				x.tok(shape.Map)
				x.tok(shape.End)
				return
			}
			x.tok(shape.Call)
			x.tok(shape.Name)
			x.fexprs(c.Args[1:])
			x.tok(shape.End)
			return
		case b == "new":
			x.tok(shape.Call)
			x.tok(shape.Name)
			x.tok(shape.End)
			return
		case b == "append": // a method of its first argument: xs.append(y)
			x.tok(shape.Call)
			x.fexprs(c.Args)
			x.tok(shape.End)
			return
		case b == "recover":
			x.fn.recovered = true
		}
		x.tok(shape.Call)
		x.tok(shape.Name)
		x.fexprs(c.Args)
		x.tok(shape.End)
		return
	}
	if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel != nil {
		if x.isPackage(sel.X) {
			if k := x.containsKind(c); k != "" {
				x.fcontains(c, false)
				return
			}
			x.fn.calls = append(x.fn.calls, sel.Sel.Name)
			if arg := x.wordsArg(c); arg != nil {
				x.tok(shape.Words)
				x.fexpr(arg)
				return
			}
			x.tok(shape.Call)
			x.tok(shape.Name)
			x.fexprs(c.Args)
			x.tok(shape.End)
			return
		}
		if base, n := x.chain(c); n > 0 { // r.Get("status")
			x.fchain(base, n, false)
			return
		}
		x.fn.calls = append(x.fn.calls, sel.Sel.Name)
		x.tok(shape.Call)
		x.fexpr(sel.X)
		x.fexprs(c.Args)
		x.tok(shape.End)
		return
	}
	if name := calleeName(c.Fun); name != "" {
		x.fn.calls = append(x.fn.calls, name)
	}
	x.tok(shape.Call)
	x.fexpr(c.Fun)
	x.fexprs(c.Args)
	x.tok(shape.End)
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

// fcontains emits slices.Contains(s, v) as In <v> <s> (v in s) and
// strings.Contains(s, sub) as In <sub> <s>, NotIn when negated; the
// literal members of a slice literal s are constants v is compared with.
func (x *extractor) fcontains(c *ast.CallExpr, negated bool) {
	x.fn.calls = append(x.fn.calls, "Contains")
	if negated {
		x.tok(shape.NotIn)
	} else {
		x.tok(shape.In)
	}
	if x.containsKind(c) == "slices" {
		if lit, ok := unparen(c.Args[0]).(*ast.CompositeLit); ok {
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
	}
	x.fexpr(c.Args[1])
	x.fexpr(c.Args[0])
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

// fcomposite emits a slice or array literal as List <elems> End and a map
// or struct literal as Map <keys and values> End; field names are keys
// like strings. elided is the type the parent implies for a literal
// without one.
func (x *extractor) fcomposite(lit *ast.CompositeLit, elided ast.Expr) {
	if x.depth >= maxDepth {
		return
	}
	x.depth++
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
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			x.felem(el, elemT)
			continue
		}
		if isMap {
			if _, isID := kv.Key.(*ast.Ident); isID && kind != kindMap {
				x.tok(shape.Str) // a field name
			} else {
				x.felem(kv.Key, keyT)
			}
		}
		x.felem(kv.Value, elemT)
	}
	x.tok(shape.End)
	x.depth--
}

// felem emits an element, passing the elided type to a nested literal.
func (x *extractor) felem(e, elemT ast.Expr) {
	v := unparen(e)
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		v = unparen(u.X)
	}
	if cl, ok := v.(*ast.CompositeLit); ok {
		x.fcomposite(cl, elemT)
		return
	}
	x.fexpr(e)
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
