package golang

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/shape"
)

// The walk: one recursive pass over the file's declarations and function
// bodies serves the two concerns of the extraction,
//
//   - lits, the literal facts (golang.go, lits.go, consts.go): Strings,
//     Mappings, Groups and Tests, at file level as in functions;
//   - shapes, the facts of the function declaration being walked
//     (funcs.go): its shape tokens, constants, fields and calls.
//
// stmt and expr enter each node once, in source order, hand it to the
// handlers of the concerns it is walked for, and walk its children for the
// concerns that read them. A concern may skip a child (shapes erase the
// types of a type switch's cases; lits skip a literal they have emitted) or
// take a subtree as one (the field chain h.Metrics.Quality is one read for
// shapes, which resume at its base h). Where the shape vocabulary orders
// tokens otherwise than the source (a for loop's post statement after the
// body, slices.Contains(s, v) as In v s), shapes move their own tokens
// (hold, release).

// visit says what a node is walked for: the concerns, and marks a parent
// gives the node itself (handed further down through parentheses only,
// but shapeSpine, which marks the subtree of a field chain's top).
type visit uint16

const (
	lits   visit = 1 << iota // the literal facts
	shapes                   // the facts of the function declaration

	litTarget   // lits: an index expression assigned to is no lookup
	shapeTarget // shapes: an assignment target; a field written is no field read
	shapeNot    // shapes: the operand of !, slices.Contains(s, v) is NotIn
	shapeGuard  // shapes: the v := x.(type) of a type switch
	shapePost   // shapes: a for loop's post statement; its bindings wait for the body
	shapeSpine  // shapes: below the top of a field chain, whose base is funcState.resume

	// shapes: the branch of the condition the expression is (an if's
	// condition, a returned verdict), a facts.Branch; expr hands it down
	// through !, &&, || and parentheses only.
	branchShift       = 8
	branchBits  visit = 3 << branchShift

	concerns = lits | shapes
	handed   = concerns | shapeSpine // what expr hands its children
)

// branch returns the mark of the condition's branch b.
func branch(b facts.Branch) visit { return visit(b) << branchShift & branchBits }

func (v visit) branch() facts.Branch { return facts.Branch(v & branchBits >> branchShift) }

func (x *extractor) stmts(list []ast.Stmt, c visit) {
	for _, s := range list {
		x.stmt(s, c)
	}
}

// body walks a block that closes a construct of the shape vocabulary: its
// statements, then End.
func (x *extractor) body(b *ast.BlockStmt, c visit) {
	if b != nil {
		x.stmts(b.List, c)
	}
	if c&shapes != 0 {
		x.tok(shape.End)
	}
}

// stmt walks a statement. Statements with more to do than walk their
// children in order have their own functions, which keeps this recursive
// frame small.
func (x *extractor) stmt(s ast.Stmt, v visit) {
	if s == nil || x.depth >= maxDepth || v&concerns == 0 {
		return
	}
	x.depth++
	if x.entered != nil { // the test hook (converting s to a Node costs)
		x.entered(s)
	}
	c := v & concerns
	switch s := s.(type) {
	case *ast.BlockStmt:
		x.stmts(s.List, c)
	case *ast.ExprStmt:
		x.expr(s.X, c)
	case *ast.AssignStmt:
		x.assign(s, v)
	case *ast.DeclStmt:
		if g, ok := s.Decl.(*ast.GenDecl); ok {
			x.genDecl(g, c)
		}
	case *ast.ReturnStmt:
		x.returnStmt(s, c)
	case *ast.IfStmt:
		x.ifStmt(s, c)
	case *ast.SwitchStmt:
		x.switchStmt(s, c)
	case *ast.TypeSwitchStmt:
		x.typeSwitch(s, c)
	case *ast.SelectStmt:
		if c&shapes != 0 {
			x.tok(shape.Switch)
		}
		x.clauses(s.Body, c, concerns)
	case *ast.CaseClause, *ast.CommClause: // outside a switch: never from go/parser
		x.clause(s, c, concerns)
	case *ast.ForStmt:
		x.forStmt(s, c)
	case *ast.RangeStmt:
		x.rangeStmt(s, c)
	case *ast.LabeledStmt:
		x.stmt(s.Stmt, c)
	case *ast.BranchStmt:
		if c&shapes != 0 {
			x.tok(shape.Break)
		}
	case *ast.GoStmt:
		if s.Call != nil {
			x.expr(s.Call, c)
		}
	case *ast.DeferStmt:
		if s.Call != nil {
			x.deferStmt(s.Call, c)
		}
	case *ast.SendStmt: // ch <- v is a put: Call <ch> <v> End
		if c&shapes != 0 {
			x.tok(shape.Call)
		}
		x.expr(s.Chan, c)
		x.expr(s.Value, c)
		if c&shapes != 0 {
			x.tok(shape.End)
		}
	case *ast.IncDecStmt:
		x.incDec(s, v)
	}
	x.depth--
}

// assign walks lhs = rhs (and :=, op=, the guard of a type switch).
func (x *extractor) assign(s *ast.AssignStmt, v visit) {
	c := v & concerns
	plain := s.Tok == token.ASSIGN || s.Tok == token.DEFINE
	guard := v&shapeGuard != 0
	if c&shapes != 0 {
		x.shapeAssign(s, guard)
	}
	// The left side first, for what it reads (m[key] = ..., p.f(x).y = ...).
	for _, l := range s.Lhs {
		lc := visit(0)
		if _, isID := l.(*ast.Ident); c&lits != 0 && !isID {
			lc |= lits | litTarget
		}
		if c&shapes != 0 && !guard {
			lc |= shapes
			if plain {
				lc |= shapeTarget
			}
		}
		x.expr(l, lc)
	}
	switch {
	case c&lits == 0 || !plain:
		x.exprs(s.Rhs, c)
	case len(s.Lhs) == len(s.Rhs):
		for i, r := range s.Rhs {
			x.assignOne(s.Lhs[i], r, c)
		}
	default: // v, ok := m["status"]; v, ok := x.(string)
		if len(s.Rhs) == 1 && len(s.Lhs) == 2 {
			x.bind(s.Lhs[0], s.Rhs[0])
		}
		x.exprs(s.Rhs, c)
	}
	if c&shapes != 0 && v&(shapeGuard|shapePost) == 0 {
		x.bindAll(s.Lhs, s.Rhs, plain)
	}
}

// assignOne walks rhs assigned to lhs (or var lhs = rhs, with lhs an
// identifier): a string literal is a RoleAssign fact, a slice literal a
// set named after lhs, a map literal a Mapping named after it.
func (x *extractor) assignOne(lhs, rhs ast.Expr, c visit) {
	if c&lits == 0 {
		x.expr(rhs, c)
		return
	}
	if lit := x.strLit(rhs); lit != nil {
		if !isBlank(lhs) {
			s := x.subjectOf(lhs, false)
			x.emit(lit, facts.RoleAssign, s.key, s.recv, -1, -1)
		}
		x.unbind(lhs)
		if c&shapes != 0 {
			x.expr(rhs, shapes)
		}
		return
	}
	if cl := x.listLit(rhs); cl != nil && !isBlank(lhs) {
		name, scope := x.setName(lhs)
		sc := strCtx{role: facts.RoleMember, mapping: -1, group: -1, isSet: true, set: name, setPos: cl.Pos()}
		if x.entered != nil {
			x.entered(cl)
		}
		x.composite(cl, c, nil, nil, &sc)
		if sc.group >= 0 {
			x.out.Groups[sc.group].Scope = scope
		}
		x.unbind(lhs)
		return
	}
	if _, isID := lhs.(*ast.Ident); !isID {
		x.heldTest(lhs, rhs) // d.Agent = agents[0]
	}
	x.bind(lhs, rhs)
	if cl, ok := unparen(rhs).(*ast.CompositeLit); ok && !isBlank(lhs) {
		if id, ok := lhs.(*ast.Ident); ok {
			n := len(x.out.Mappings)
			x.expr(rhs, c)
			if n < len(x.out.Mappings) && hasKeys(cl) && x.isMapLit(cl) {
				m := &x.out.Mappings[n] // made first, before any nested one
				m.Name, m.Scope = id.Name, x.scope
			}
			return
		}
	}
	x.expr(rhs, c)
}

// incDec walks x++ and x--: Assign <x> Num, x += 1.
func (x *extractor) incDec(s *ast.IncDecStmt, v visit) {
	c := v & concerns
	xc := c & shapes
	if c&lits != 0 {
		xc |= lits | litTarget
	}
	if c&shapes != 0 {
		x.tok(shape.Assign)
	}
	x.expr(s.X, xc)
	if c&shapes != 0 {
		x.tok(shape.Num)
		if v&shapePost == 0 {
			x.shapeIncDec(s)
		}
	}
}

func (x *extractor) genDecl(d *ast.GenDecl, c visit) {
	switch d.Tok {
	case token.CONST:
		if c&shapes != 0 {
			x.localConsts(d)
		}
		if c&lits != 0 {
			x.constDecl(d)
		}
	case token.VAR:
		for _, s := range d.Specs {
			if vs, ok := s.(*ast.ValueSpec); ok {
				x.varSpec(vs, c)
			}
		}
	}
}

// varSpec walks var a, b = x, y: Assign <names> <values>.
func (x *extractor) varSpec(vs *ast.ValueSpec, c visit) {
	if c&shapes != 0 && len(vs.Values) > 0 {
		x.shapeVarNames(vs)
	}
	for i, v := range vs.Values {
		if i < len(vs.Names) && len(vs.Names) == len(vs.Values) {
			x.assignOne(vs.Names[i], v, c)
		} else {
			x.expr(v, c)
		}
	}
	if c&lits != 0 && len(vs.Values) == 1 && len(vs.Names) == 2 {
		x.bind(vs.Names[0], vs.Values[0])
	}
	if c&shapes != 0 {
		x.shapeVarBind(vs)
	}
}

func (x *extractor) returnStmt(s *ast.ReturnStmt, c visit) {
	if c&lits != 0 {
		x.returnLits(s)
	}
	if c&shapes != 0 {
		x.tok(shape.Return)
		if len(s.Results) == 1 {
			x.expr(s.Results[0], c|branch(x.fn.verdict))
			return
		}
	}
	x.exprs(s.Results, c)
}

func (x *extractor) ifStmt(s *ast.IfStmt, c visit) {
	x.stmt(s.Init, c)
	cc := c
	saved := x.fn.predicate
	if c&shapes != 0 {
		x.tok(shape.If)
		x.fn.boolOutcome = false
		cc |= branch(x.ifBranch(s))
		x.fn.predicate = x.fn.boolOutcome && x.fn.verdict != facts.BranchAccept
	}
	x.expr(s.Cond, cc)
	x.fn.predicate = saved
	x.body(s.Body, c)
	if s.Else == nil {
		return
	}
	if c&shapes != 0 {
		x.tok(shape.Else)
	}
	if b, ok := s.Else.(*ast.BlockStmt); ok {
		x.body(b, c)
	} else { // else if
		x.stmt(s.Else, c)
	}
}

// switchStmt walks a switch: Switch <tag> (Case <values> <body> End)... End.
// The string literals of its cases are a RoleCase group (lits), its
// constant cases constants compared with the tag (shapes).
func (x *extractor) switchStmt(s *ast.SwitchStmt, c visit) {
	x.stmt(s.Init, c)
	if c&shapes != 0 {
		x.tok(shape.Switch)
	}
	x.expr(s.Tag, c)
	if s.Body != nil {
		var cases caseLits
		if c&lits != 0 {
			cases = x.switchLits(s)
		}
		var tag caseTag
		for _, cl := range s.Body.List {
			cc, ok := cl.(*ast.CaseClause)
			if !ok {
				x.stmt(cl, c)
				continue
			}
			if c&lits != 0 {
				x.caseLits(s, cc, &cases)
			}
			if c&shapes != 0 {
				x.tok(shape.Case)
			}
			for _, v := range cc.List {
				if c&shapes != 0 && s.Tag != nil {
					x.caseConst(s.Tag, v, &tag)
				}
				x.expr(v, c)
			}
			x.stmts(cc.Body, c)
			if c&shapes != 0 {
				x.tok(shape.End)
			}
		}
	}
	if c&shapes != 0 {
		x.tok(shape.End)
	}
}

// typeSwitch walks a type switch; the types of its cases are erased from
// the shape.
func (x *extractor) typeSwitch(s *ast.TypeSwitchStmt, c visit) {
	x.stmt(s.Init, c)
	if c&shapes != 0 {
		x.tok(shape.Switch)
	}
	switch s.Assign.(type) {
	case *ast.AssignStmt: // v := x.(type)
		x.stmt(s.Assign, c|shapeGuard)
	case *ast.ExprStmt:
		x.stmt(s.Assign, c)
	default:
		x.stmt(s.Assign, c&lits)
	}
	x.clauses(s.Body, c, lits)
}

// clauses walks the clauses of a select or type switch, and the final
// End; values are the concerns that read a case's values.
func (x *extractor) clauses(b *ast.BlockStmt, c, values visit) {
	if b != nil {
		for _, s := range b.List {
			x.clause(s, c, values)
		}
	}
	if c&shapes != 0 {
		x.tok(shape.End)
	}
}

// clause walks Case <values> <body> End.
func (x *extractor) clause(s ast.Stmt, c, values visit) {
	switch s := s.(type) {
	case *ast.CaseClause:
		if c&shapes != 0 {
			x.tok(shape.Case)
		}
		x.exprs(s.List, c&values)
		x.stmts(s.Body, c)
	case *ast.CommClause:
		if c&shapes != 0 {
			x.tok(shape.Case)
		}
		x.stmt(s.Comm, c)
		x.stmts(s.Body, c)
	default:
		x.stmt(s, c)
		return
	}
	if c&shapes != 0 {
		x.tok(shape.End)
	}
}

// forStmt walks a three-clause loop in source order; its shape is
// init; Loop cond body post End (while cond { body; post }), so the post
// statement's tokens and bindings wait for the body.
func (x *extractor) forStmt(s *ast.ForStmt, c visit) {
	x.stmt(s.Init, c)
	if c&shapes != 0 {
		x.tok(shape.Loop)
		if s.Cond == nil {
			x.tok(shape.Bool) // for {} is while true
		}
	}
	if s.Cond != nil {
		x.expr(s.Cond, c)
	}
	mark := len(x.fn.toks)
	x.stmt(s.Post, c|shapePost)
	if c&shapes == 0 {
		if s.Body != nil {
			x.stmts(s.Body.List, c)
		}
		return
	}
	held := x.hold(mark)
	if s.Body != nil {
		x.stmts(s.Body.List, c)
	}
	x.release(held)
	if x.depth < maxDepth { // the post statement was walked
		x.postBindings(s.Post)
	}
	x.tok(shape.End)
}

// rangeStmt walks for k, v := range x: Loop <k> <v> <x> <body> End.
func (x *extractor) rangeStmt(s *ast.RangeStmt, c visit) {
	if c&shapes != 0 {
		x.tok(shape.Loop)
	}
	x.rangeVar(s.Key, c)
	x.rangeVar(s.Value, c)
	x.expr(s.X, c)
	x.body(s.Body, c)
}

func (x *extractor) rangeVar(e ast.Expr, c visit) {
	v := c & lits
	if c&shapes != 0 && e != nil && !isBlank(e) {
		if id, ok := e.(*ast.Ident); ok {
			x.newVar(id.Name)
		}
		v |= shapes | shapeTarget
	}
	x.expr(e, v)
}

// deferStmt walks a deferred call, which shapes precede with Try when it
// recovers.
func (x *extractor) deferStmt(call *ast.CallExpr, c visit) {
	if c&shapes == 0 {
		x.expr(call, c)
		return
	}
	start, saved := len(x.fn.toks), x.fn.recovered
	x.fn.recovered = false
	x.expr(call, c)
	x.shapeDefer(start, saved)
}

func (x *extractor) exprs(list []ast.Expr, c visit) {
	for _, e := range list {
		x.expr(e, c)
	}
}

// expr walks an expression. Type expressions are not entered: they hold
// no literal in a context of interest, and no shape.
func (x *extractor) expr(e ast.Expr, v visit) {
	if v&shapeSpine != 0 && e == x.fn.resume && e != nil { // the base of a field chain
		v = v&^shapeSpine | shapes
	}
	if e == nil || x.depth >= maxDepth || v&(concerns|shapeSpine) == 0 {
		return
	}
	x.depth++
	if x.entered != nil {
		x.entered(e)
	}
	c := v & handed
	fields := 0 // e tops a field chain: shapes resume at its base
	if v&shapeTarget != 0 {
		if fields = x.shapeChain(e, true); fields > 0 {
			c = c&^shapes | shapeSpine
		}
	}
	switch e := e.(type) {
	case *ast.Ident:
		if c&lits != 0 && x.untyped != nil {
			x.noteUse(e)
		}
		if c&shapes != 0 {
			x.tok(identToken(e))
		}
	case *ast.BasicLit:
		if c&shapes != 0 {
			x.tok(basicToken(e))
		}
	case *ast.ParenExpr:
		x.expr(e.X, c|v&(litTarget|shapeNot|branchBits))
	case *ast.SelectorExpr:
		if c&shapes != 0 {
			if fields = x.shapeChain(e, false); fields > 0 {
				c = c&^shapes | shapeSpine
			} else if e.Sel != nil && x.isPackage(e.X) { // pkg.Name
				x.tok(shape.Name)
				c &^= shapes
			}
		}
		x.expr(e.X, c)
	case *ast.IndexExpr:
		if c&shapes != 0 {
			if fields = x.shapeChain(e, false); fields > 0 {
				c = c&^shapes | shapeSpine
			}
		}
		x.index(e, c|v&(litTarget|branchBits))
	case *ast.IndexListExpr:
		x.expr(e.X, c)
		x.exprs(e.Indices, c&(lits|shapeSpine))
	case *ast.SliceExpr:
		if c&shapes != 0 {
			x.tok(shape.Index)
		}
		x.expr(e.X, c)
		x.expr(e.Low, c)
		x.expr(e.High, c)
		x.expr(e.Max, c)
	case *ast.TypeAssertExpr:
		x.expr(e.X, c)
	case *ast.StarExpr:
		x.expr(e.X, c)
	case *ast.UnaryExpr:
		x.unary(e, c, v.branch())
	case *ast.BinaryExpr:
		x.binary(e, c, v.branch())
	case *ast.CallExpr:
		if c&shapes != 0 && isGet(e) {
			if fields = x.shapeChain(e, false); fields > 0 {
				c = c&^shapes | shapeSpine
			}
		}
		x.callExpr(e, c|v&(shapeNot|branchBits))
	case *ast.CompositeLit:
		x.composite(e, c, nil, nil, nil)
	case *ast.FuncLit:
		x.funcLit(e, c)
	case *ast.KeyValueExpr: // only inside composite literals, walked there
		x.expr(e.Key, c)
		x.expr(e.Value, c)
	}
	if fields > 0 {
		x.fn.resume = nil
		for range fields {
			x.tok(shape.Field)
		}
	}
	x.depth--
}

// isGet reports whether c may be r.Get("key"), a field read.
func isGet(c *ast.CallExpr) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	return ok && len(c.Args) == 1 && sel.Sel != nil && sel.Sel.Name == "Get"
}

// index walks xs[i]: a lookup in a collection (lits), Index <xs> <i>
// (shapes; f[T] instantiates, a string key is a field).
func (x *extractor) index(e *ast.IndexExpr, v visit) {
	c := v & handed
	if c&lits != 0 && v&litTarget == 0 {
		x.lookup(e, v.branch())
	}
	ic := c
	if c&shapes != 0 {
		if x.isTypeExpr(e.Index) {
			ic &^= shapes
		} else {
			x.tok(shape.Index)
		}
	}
	x.expr(e.X, c)
	x.expr(e.Index, ic)
}

func (x *extractor) unary(e *ast.UnaryExpr, c visit, pol facts.Branch) {
	v := c
	if c&shapes != 0 && e.Op == token.NOT {
		if x.negatesContains(e) { // !slices.Contains(s, v) is NotIn
			v |= shapeNot | branch(pol)
		} else {
			x.tok(shape.Not)
			v |= branch(pol.Flip())
		}
	}
	x.expr(e.X, v)
}

func (x *extractor) binary(e *ast.BinaryExpr, c visit, pol facts.Branch) {
	if c&lits != 0 && (e.Op == token.EQL || e.Op == token.NEQ) {
		x.compare(e.X, e.Y)
	}
	if c&shapes != 0 && x.shapeBinary(e, pol) { // && and ||: the operands are the condition
		c |= branch(pol)
	}
	x.expr(e.X, c)
	x.expr(e.Y, c)
}

// callExpr walks a call: lits read the calls that compare, shapes say
// which parts of the call they walk (callShape).
func (x *extractor) callExpr(e *ast.CallExpr, v visit) {
	c := v & handed
	if c&lits != 0 {
		b := v.branch() // of the call's result: NotIn under !
		if v&shapeNot != 0 {
			b = b.Flip()
		}
		x.compareCall(e, b)
	}
	var cs callShape
	if c&shapes != 0 {
		x.formatCall(e, v.branch())
		cs = x.shapeCall(e, v&shapeNot != 0)
	}
	fc := c & (lits | shapeSpine)
	switch cs.fun {
	case funWhole:
		fc |= shapes
	case funRecv: // a method: Call <receiver> <args> End
		fc |= shapeSpine
		x.fn.resume = e.Fun.(*ast.SelectorExpr).X
	}
	x.expr(e.Fun, fc)
	if cs.fun == funRecv {
		x.fn.resume = nil
	}
	switch {
	case c&shapes == 0 || cs.from == 0 && cs.to == len(e.Args) && !cs.swap:
		x.exprs(e.Args, c)
	case cs.swap: // In <v> <s>
		mark := len(x.fn.toks)
		x.expr(e.Args[0], c)
		held := x.hold(mark)
		x.expr(e.Args[1], c)
		x.release(held)
	default:
		for i, a := range e.Args {
			ac := c &^ shapes
			if cs.from <= i && i < cs.to {
				ac = c
			}
			x.expr(a, ac)
		}
	}
	if cs.end {
		x.tok(shape.End)
	}
}

func (x *extractor) funcLit(e *ast.FuncLit, c visit) {
	if c&shapes != 0 {
		x.shapeFuncLit(e)
	}
	if e.Body != nil {
		var saved *ast.FieldList
		if c&lits != 0 {
			saved = x.enterFuncLit(e)
		}
		x.stmts(e.Body.List, c)
		if c&lits != 0 {
			x.leaveFuncLit(saved)
		}
	}
	if c&shapes != 0 {
		x.tok(shape.End)
	}
}

// composite walks a composite literal: a Mapping or the strings of a list
// (lits), Map or List <elements> End (shapes). litT and shapeT are the
// type the parent implies for a literal without one, as each concern sees
// it; sc is the role the strings of a list take (lits).
func (x *extractor) composite(cl *ast.CompositeLit, c visit, litT, shapeT ast.Expr, sc *strCtx) {
	if x.depth >= maxDepth {
		return
	}
	x.depth++
	var lv litView
	if c&lits != 0 {
		sc = x.litView(&lv, cl, litT, sc)
	}
	var sv shapeView
	if c&shapes != 0 {
		sv = x.shapeView(cl, shapeT)
	}
	var entries []facts.Entry
	if lv.mapping {
		entries = make([]facts.Entry, 0, len(cl.Elts))
	}
	for i, el := range cl.Elts {
		if key, val, keyed := x.element(i, el, c, &lv, &sv, sc); keyed {
			entries = append(entries, facts.Entry{
				Key:    key,
				KeyPos: x.pos(el.Pos()),
				ValPos: x.pos(val.Pos()),
				Value:  x.value(val, 0),
			})
		}
	}
	if c&shapes != 0 {
		x.tok(shape.End)
	}
	if lv.mapping {
		x.out.Mappings[lv.mi].Entries = entries
	}
	x.depth--
}

// element walks the i-th element of a composite literal: its key, then
// its value. The strings of a list take the role ls gives them (lits).
// For a Mapping's entry, it returns the key, the value and keyed.
func (x *extractor) element(i int, el ast.Expr, c visit, lv *litView, sv *shapeView, ls *strCtx) (string, ast.Expr, bool) {
	val := el
	key, keyed := "", false
	if kv, ok := el.(*ast.KeyValueExpr); ok {
		val = kv.Value
		kc := visit(0)
		if c&lits != 0 {
			var walk bool
			if key, keyed, walk = x.entryKey(kv.Key, lv); walk {
				kc |= lits
			}
		}
		if c&shapes != 0 && sv.isMap && x.shapeKey(kv.Key, sv) {
			kc |= shapes
		}
		if kc != 0 {
			x.elem(kv.Key, kc, lv.keyT, sv.keyT, nil)
		}
	} else if lv.mapping && lv.st != nil && i < lv.st.NumFields() { // positional, fields from types.Info
		key, keyed = lv.st.Field(i).Name(), true
	}
	if val == nil {
		return "", nil, false
	}
	vc := c & shapes
	var litT ast.Expr
	var sc *strCtx
	if c&lits != 0 {
		switch {
		case lv.mapping:
			m := -1
			if keyed {
				m = lv.mi
			}
			if l := x.strLit(val); l != nil {
				x.emit(l, facts.RoleValue, key, "", m, -1)
				break
			}
			entry := strCtx{role: facts.RoleValue, key: key, mapping: m, group: -1}
			if field := x.fieldSet(lv, el, val); field != "" {
				// Router{validAgents: []string{...}}: a set of the type
				defer func() {
					if entry.group >= 0 {
						x.out.Groups[entry.group].Scope = field
					}
				}()
				entry.role, entry.isSet, entry.set, entry.setPos = facts.RoleMember, true, key, val.Pos()
			}
			vc, litT, sc = vc|lits, lv.elemT, &entry
		default:
			if ls != nil {
				if l := x.strLit(val); l != nil {
					x.emitCtx(l, ls)
					break
				}
			}
			vc, litT, sc = vc|lits, lv.elemT, ls
		}
	}
	if vc != 0 {
		x.elem(val, vc, litT, sv.elemT, sc)
	}
	return key, val, lv.mapping && keyed
}

// elem walks an element, key or value of a composite literal, handing a
// nested literal (through parentheses and &) the type its parent implies.
func (x *extractor) elem(e ast.Expr, c visit, litT, shapeT ast.Expr, sc *strCtx) {
	v := unparen(e)
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		v = unparen(u.X)
	}
	if cl, ok := v.(*ast.CompositeLit); ok {
		if c&concerns != 0 {
			if x.entered != nil {
				x.entered(cl)
			}
			x.composite(cl, c, litT, shapeT, sc)
		}
		return
	}
	x.expr(e, c)
}

// litView is what the literal facts make of a composite literal: a
// Mapping of a struct or map literal, or a list.
type litView struct {
	mapping     bool
	kind        litKind
	st          *types.Struct
	keyT, elemT ast.Expr
	mi          int // the Mapping's index
}

// shapeView is what the shape makes of a composite literal.
type shapeView struct {
	isMap       bool
	kind        litKind
	keyT, elemT ast.Expr
}
