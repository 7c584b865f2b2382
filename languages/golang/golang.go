// Package golang extracts protoscan facts from Go source files.
//
// The same extraction serves the standalone scan, which parses one file at a
// time without type information (Extract), and the go/analysis Analyzer run
// by `go vet -vettool`, which has the type checker's types.Info and passes it
// to ExtractFile to sharpen the context: the named type of a constant, the
// type of a composite literal with an elided or aliased type, the field
// names of a positional struct literal, whether x in x.Status is a package,
// which conversions are conversions, which untyped constants the file uses
// as a named type, and the values of constants in literal mappings
// (identifier keys of map literals become the constant's value, variables
// no key). Without types.Info the extraction falls back to syntax and a few
// file-local hints: the file's imports and the type names it declares or
// uses in declarations.
//
// Every string literal in one of these contexts becomes a facts.String:
//
//   - const declarations: RoleMember, Key the constant name, in a GroupConst
//     group (see below);
//   - struct and map literals: a facts.Mapping with all its entries, the
//     literal values as RoleValue with Key the field or key, string keys as
//     RoleKey; string elements of slice literals nested in an entry are
//     values of that entry;
//   - slice and array literals of strings assigned to a name
//     (`valid := []string{"success", "failure"}`): RoleMember in a GroupSet
//     named after the variable, Scope the function it is local to;
//   - == and != comparisons, strings.EqualFold, and slices.Contains,
//     slices.Index and lo.Contains with a literal slice: RoleCompare with
//     Key and Receiver of the other operand (h.Status, m["status"], status,
//     h.GetStatus(), r.Get("status"), seen through strings.ToLower and the
//     like; Key "" for other operands);
//   - switch cases: RoleCase with Key and Receiver of the tag, one GroupCases
//     group per switch;
//   - assignments, short variable declarations and var specs: RoleAssign;
//   - return statements: RoleReturn, Key the named result when there is one.
//
// A map literal assigned to a name (`var legacy = map[string]string{...}`,
// `routes := map[Status]func(){...}`, at file level or local) gives its
// Mapping that Name and the Scope of the binding.
//
// A field or variable looked up in a collection bound to a name (a
// variable, or the last name of a selector) is a facts.Test: the read
// index expression terminal[h.Status] (v, ok := table[h.Status] included;
// not an assignment's target or an increment; with types.Info only a
// string index), and slices.Contains, slices.Index or lo.Contains of it
// in such a collection. Key and Receiver are those a comparison with the
// value would have; an operand without a subject makes no Test.
//
// Other literals (call arguments, import paths, struct tags...) are not
// facts. Parentheses and conversions to a type (Status("ok")) around a
// literal are looked through. A variable bound from a field or key
// (`st := h.Status`, `v, ok := m["status"]`) gives that field's Key and
// Receiver where it is compared or switched on later in the same function.
//
// Const groups: constants of one named type (`const A Status = "a"`,
// `B = Status("b")`, or with types.Info any constant whose type is a named
// type, and untyped constants the file uses as that type) form one group per
// type name over the whole file, Name the type name. The other string
// constants of a const declaration form one group per declaration, Name the
// common word prefix of their names ("Status" for StatusOK and
// StatusFailed) or "". A lone `const StatusOK = "ok"` is therefore a
// single-member group with Name "": every RoleMember fact has a group.
//
// Functions: every function and method declaration with a body becomes a
// facts.Function (funcs.go), Name "Recv.Name" for a method, with its
// parameters, the shape tokens of its body (languages/shape; function
// literals are Func ... End inside their enclosing function) and their
// fingerprint, the constants it compares fields and variables with (the
// field on the left: 0.5 > h.Metrics.Quality is metrics.quality < 0.5;
// constants of the file resolved to their value; len(strings.Fields(x))
// measured in "words"; a variable bound from a field stands for the field),
// the field paths it reads (h.Metrics.Quality and m["metrics"]["quality"]
// are "metrics.quality"; package selectors and methods are not fields) and
// the names it calls. Go forms the shape vocabulary does not name map to
// their nearest neighbour: a three-clause for is init; Loop cond body post
// End, for {} is Loop Bool, x++ is Assign x Num, ch <- v and append(xs, v)
// are calls of their first operand, a deferred recover is Try, select is a
// Switch, slices.Contains(s, v) and strings.Contains(s, v) are In v s.
//
// Positions are those of the file itself (//line directives are ignored).
// Value is the literal's value as strconv.Unquote gives it (invalid UTF-8
// becomes U+FFFD); a literal go/parser could not close keeps its text.
//
// The extraction is one recursive walk over the AST (walk.go) that enters
// each node once and serves both the literal facts and the facts of the
// function declaration it is in; it keeps its context in a few fields and
// arguments and allocates little beyond what it emits. go/parser refuses
// input nested deeper than 100,000 levels, and the walk has its own depth
// limit for ASTs built otherwise.
package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sort"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// Lang is the facts.File.Lang of Go files.
const Lang = "go"

// maxDepth bounds the walk's recursion (statements, expressions, composite
// literals): below it, subtrees are skipped. Every level the walk recurses
// through costs go/parser at least one of its 100,000 nesting levels, so
// parsed files never reach it; it guards against ASTs built otherwise.
const maxDepth = 1 << 17

// maxValueDepth bounds the nesting of literals converted into
// facts.Entry.Value; deeper literals become facts.Unknown. Every mapping
// converts its own subtree, so without a bound deeply nested literals would
// cost quadratic time.
const maxValueDepth = 16

// maxRender bounds the length of receivers and subjects rendered as text.
const maxRender = 80

// Extract parses src as a Go file named path and extracts its facts. Parse
// errors return the facts of what go/parser could recover together with the
// error. The returned File's Path is path.
func Extract(path string, src []byte) (*facts.File, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if f == nil {
		return &facts.File{Path: path, Lang: Lang}, err
	}
	out := ExtractFile(fset, f, nil)
	AddNotes(out, src)
	out.Path = path
	return out, err
}

// ExtractFile extracts the facts of a parsed file. info may be nil; when
// given (by the go/analysis Analyzer), it sharpens the context, see the
// package documentation. Path is the file's name in fset; callers that scan a
// repository replace it with the path relative to the scan root.
//
// Strings are in source order, Mappings in the order of their opening
// position, Groups in the order of their Pos, Functions in source order.
func ExtractFile(fset *token.FileSet, f *ast.File, info *types.Info) *facts.File {
	return extractFile(fset, f, info, nil)
}

// extractFile is ExtractFile with a hook that sees every node the walk
// enters (for tests).
func extractFile(fset *token.FileSet, f *ast.File, info *types.Info, entered func(ast.Node)) *facts.File {
	out := &facts.File{Lang: Lang}
	if fset == nil || f == nil {
		return out
	}
	start := f.FileStart
	if !start.IsValid() {
		start = f.Pos()
	}
	tf := fset.File(start)
	if tf == nil {
		return out
	}
	out.Path = tf.Name()
	x := &extractor{
		out:   out,
		info:  info,
		base:  tf.Base(),
		size:  tf.Size(),
		lines: tf.Lines(),

		entered: entered,
	}
	x.prepare(f)
	x.prepareFuncs(f)
	x.prepareFormats(f)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			x.genDecl(d, lits)
		case *ast.FuncDecl:
			x.funcDecl(d)
		}
	}
	x.finish()
	return out
}

// extractor is the state of one file's extraction.
type extractor struct {
	out  *facts.File
	info *types.Info

	// position conversion, from the token.File's line table
	base, size int
	lines      []int
	lastLine   int

	depth   int
	entered func(ast.Node) // a test hook: the nodes the walk enters (next to depth, which the walk touches too)

	// function context
	scope   string         // "Type.Method", "func", "" at file level
	recv    string         // the receiver's name in a method, else ""
	results *ast.FieldList // results of the innermost function
	inFunc  int            // >0 inside a function body
	// aliases maps a local variable to the field or key it was bound from
	// (st := h.Status). Reset for every top-level function.
	aliases map[string]subject

	// file-local hints used without types.Info
	imports   []importName
	typeNames map[string]bool

	// const members, grouped at the end of the file
	consts    []pendingConst
	blockPos  []token.Pos // position of each const declaration with string members
	untyped   map[*types.Const]bool
	usedAs    map[*types.Const]string
	renderBuf []byte

	fn funcState // the facts of the function declaration, see funcs.go

	// regexps are the names the file binds to compiled patterns (nil
	// when it does not import regexp), see formats.go
	regexps map[string]goPattern
}

type importName struct{ name, path string }

type subject struct{ key, recv string }

type pendingConst struct {
	str   int    // index in out.Strings
	typ   string // named type, "" when untyped
	block int    // index in blockPos
	obj   *types.Const
}

// pos converts p to a facts.Pos with a binary search of the line table,
// trying the last line found first: literals come mostly in source order.
func (x *extractor) pos(p token.Pos) facts.Pos {
	off := int(p) - x.base
	if !p.IsValid() || off < 0 || off > x.size || len(x.lines) == 0 {
		return facts.Pos{}
	}
	i := x.lastLine
	if i >= len(x.lines) || x.lines[i] > off || (i+1 < len(x.lines) && x.lines[i+1] <= off) {
		i = sort.Search(len(x.lines), func(i int) bool { return x.lines[i] > off }) - 1
		if i < 0 {
			i = 0
		}
		x.lastLine = i
	}
	return facts.Pos{Line: i + 1, Col: off - x.lines[i] + 1, Offset: off}
}

// emit appends a String fact for lit and returns its index.
func (x *extractor) emit(lit *ast.BasicLit, role facts.Role, key, recv string, mapping, group int) int {
	i := len(x.out.Strings)
	x.out.Strings = append(x.out.Strings, facts.String{
		Value:    unquote(lit.Value),
		Pos:      x.pos(lit.Pos()),
		End:      x.pos(lit.End()),
		Role:     role,
		Key:      key,
		Receiver: recv,
		Scope:    x.scope,
		Mapping:  mapping,
		Group:    group,
	})
	if group >= 0 {
		g := &x.out.Groups[group]
		g.Members = append(g.Members, i)
	}
	return i
}

// newGroup appends a group defined in the current scope and returns its
// index.
func (x *extractor) newGroup(kind facts.GroupKind, name string, p token.Pos) int {
	x.out.Groups = append(x.out.Groups, facts.Group{Kind: kind, Name: name, Pos: x.pos(p), Scope: x.scope})
	return len(x.out.Groups) - 1
}

// prepare collects the file-local hints: import names, the names the file
// uses as types, and with types.Info the untyped string constants declared
// at file level (whose uses may come before their declaration).
func (x *extractor) prepare(f *ast.File) {
	for _, imp := range f.Imports {
		if imp.Path == nil {
			continue
		}
		path := unquote(imp.Path.Value)
		name := ""
		if imp.Name != nil {
			name = imp.Name.Name
		} else {
			name = guessPackageName(path)
		}
		if name != "" && name != "_" && name != "." {
			x.imports = append(x.imports, importName{name, path})
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) > 0 {
				x.addTypeName(baseTypeName(d.Recv.List[0].Type))
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name != nil {
						x.addTypeName(s.Name.Name)
					}
				case *ast.ValueSpec:
					if id, ok := s.Type.(*ast.Ident); ok {
						x.addTypeName(id.Name)
					}
					if d.Tok == token.CONST && x.info != nil {
						for _, n := range s.Names {
							x.watchConst(n)
						}
					}
				}
			}
		}
	}
}

func (x *extractor) addTypeName(name string) {
	if name == "" || name == "_" {
		return
	}
	if x.typeNames == nil {
		x.typeNames = make(map[string]bool)
	}
	x.typeNames[name] = true
}

// watchConst notes an untyped string constant, to learn from its uses
// whether the file uses it as a named type.
func (x *extractor) watchConst(n *ast.Ident) {
	c, ok := x.info.Defs[n].(*types.Const)
	if !ok {
		return
	}
	if b, ok := c.Type().(*types.Basic); !ok || b.Kind() != types.UntypedString {
		return
	}
	if x.untyped == nil {
		x.untyped = make(map[*types.Const]bool)
	}
	x.untyped[c] = true
}

// noteUse records the named type a watched untyped constant is converted to
// where id uses it (types.Info records the final type of untyped operands).
func (x *extractor) noteUse(id *ast.Ident) {
	c, ok := x.info.Uses[id].(*types.Const)
	if !ok || !x.untyped[c] {
		return
	}
	if _, seen := x.usedAs[c]; seen {
		return
	}
	if name := namedTypeName(x.info.Types[id].Type); name != "" {
		if x.usedAs == nil {
			x.usedAs = make(map[*types.Const]string)
		}
		x.usedAs[c] = name
	}
}

// importPath returns the path of the package imported as name, or "".
func (x *extractor) importPath(id *ast.Ident) string {
	if x.info != nil {
		if pn, ok := x.info.Uses[id].(*types.PkgName); ok {
			return pn.Imported().Path()
		}
		if _, ok := x.info.Uses[id]; ok {
			return "" // a variable or constant shadowing the import
		}
	}
	for _, imp := range x.imports {
		if imp.name == id.Name {
			return imp.path
		}
	}
	return ""
}

func (x *extractor) isPackage(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && x.importPath(id) != ""
}

// funcDecl walks a function declaration's body, for its literal facts
// and its facts.Function.
func (x *extractor) funcDecl(d *ast.FuncDecl) {
	if d.Body == nil || d.Name == nil {
		return
	}
	x.scope, x.recv = scopeName(d), receiverName(d)
	if d.Type != nil {
		x.results = d.Type.Results
	}
	clear(x.aliases)
	x.inFunc++
	x.beginFunction(d)
	x.stmts(d.Body.List, lits|shapes)
	x.inFunc--
	x.endFunction(d)
	x.scope, x.recv, x.results = "", "", nil
}

func scopeName(d *ast.FuncDecl) string {
	if d.Recv != nil && len(d.Recv.List) > 0 {
		if t := baseTypeName(d.Recv.List[0].Type); t != "" {
			return t + "." + d.Name.Name
		}
	}
	return d.Name.Name
}

// enterFuncLit sets the context of a function literal's body and returns
// the results to restore.
func (x *extractor) enterFuncLit(e *ast.FuncLit) *ast.FieldList {
	saved := x.results
	x.results = nil
	if e.Type != nil {
		x.results = e.Type.Results
	}
	if x.inFunc == 0 { // a function literal at file level starts afresh
		clear(x.aliases)
	}
	x.inFunc++
	return saved
}

func (x *extractor) leaveFuncLit(saved *ast.FieldList) {
	x.inFunc--
	x.results = saved
}

// compare emits the literal operands of an == or != comparison (or of
// strings.EqualFold) with the subject of the other operand.
func (x *extractor) compare(a, b ast.Expr) {
	x.heldCompare(a, b)
	if lit := x.strLit(a); lit != nil {
		s := x.subjectOf(b, true)
		x.emit(lit, facts.RoleCompare, s.key, s.recv, -1, -1)
	}
	if lit := x.strLit(b); lit != nil {
		s := x.subjectOf(a, true)
		x.emit(lit, facts.RoleCompare, s.key, s.recv, -1, -1)
	}
}

// compareCall handles the calls that compare: strings.EqualFold(x, "lit"),
// and slices.Contains, slices.Index and lo.Contains of x in a literal slice
// ([]string{"a", "b"}) or in a collection bound to a name (a Test; b is
// the branch of the call's result, see facts.Test.Branch).
func (x *extractor) compareCall(e *ast.CallExpr, b facts.Branch) {
	sel, ok := e.Fun.(*ast.SelectorExpr)
	if !ok || len(e.Args) != 2 || sel.Sel == nil {
		return
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return
	}
	switch sel.Sel.Name {
	case "EqualFold":
		if x.importPath(id) == "strings" {
			x.compare(e.Args[0], e.Args[1])
		}
	case "Contains", "Index":
		switch x.importPath(id) {
		case "slices":
		case "github.com/samber/lo":
			if sel.Sel.Name != "Contains" {
				return
			}
		default:
			return
		}
		lit, ok := unparen(e.Args[0]).(*ast.CompositeLit)
		if !ok {
			if sel.Sel.Name != "Contains" {
				b = facts.BranchUnknown // an index, not a verdict
			}
			x.test(e.Args[0], e.Args[1], e.Pos(), b)
			return
		}
		var s subject
		done := false
		for _, el := range lit.Elts {
			if l := x.strLit(el); l != nil {
				if !done {
					s, done = x.subjectOf(e.Args[1], true), true
				}
				x.emit(l, facts.RoleCompare, s.key, s.recv, -1, -1)
			}
		}
	}
}

// caseLits is the subject of a switch's tag and the group of its
// string cases, made at the first.
type caseLits struct {
	subj  subject
	group int
}

func (x *extractor) switchLits(s *ast.SwitchStmt) caseLits {
	cl := caseLits{group: -1}
	if s.Tag != nil {
		cl.subj = x.subjectOf(s.Tag, true)
	}
	return cl
}

// caseLits emits the string literals of a case as RoleCase facts with the
// subject of the tag.
func (x *extractor) caseLits(s *ast.SwitchStmt, cc *ast.CaseClause, cl *caseLits) {
	if s.Tag == nil {
		return
	}
	for _, v := range cc.List {
		lit := x.strLit(v)
		if lit == nil {
			x.constTest(s.Tag, v) // case AgentSenior:
			x.heldTest(s.Tag, v)  // case agents[1]:
			continue
		}
		if cl.group < 0 {
			cl.group = x.newGroup(facts.GroupCases, x.render(x.unwrapSubject(s.Tag)), s.Pos())
		}
		x.emit(lit, facts.RoleCase, cl.subj.key, cl.subj.recv, -1, cl.group)
	}
}

// returnLits emits the string literals a return statement returns.
func (x *extractor) returnLits(s *ast.ReturnStmt) {
	for i, r := range s.Results {
		if lit := x.strLit(r); lit != nil {
			x.emit(lit, facts.RoleReturn, resultName(x.results, i), "", -1, -1)
		}
	}
}

// resultName returns the name of the i-th result in results, or "".
func resultName(results *ast.FieldList, i int) string {
	if results == nil {
		return ""
	}
	for _, f := range results.List {
		if len(f.Names) == 0 {
			if i == 0 {
				return ""
			}
			i--
			continue
		}
		if i < len(f.Names) {
			if f.Names[i].Name == "_" {
				return ""
			}
			return f.Names[i].Name
		}
		i -= len(f.Names)
	}
	return ""
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// bind records that the local variable lhs holds the field or key read by
// rhs, or forgets what it held.
func (x *extractor) bind(lhs, rhs ast.Expr) {
	id, ok := lhs.(*ast.Ident)
	if !ok || id.Name == "_" || x.inFunc == 0 {
		return
	}
	r := x.unwrapSubject(rhs)
	switch r := r.(type) {
	case *ast.Ident:
		if b, ok := x.aliases[r.Name]; ok {
			x.setAlias(id.Name, b)
			return
		}
	case *ast.SelectorExpr, *ast.IndexExpr, *ast.CallExpr:
		if s := x.subjectOf(r, false); s.key != "" {
			x.setAlias(id.Name, s)
			return
		}
	}
	delete(x.aliases, id.Name)
}

func (x *extractor) setAlias(name string, s subject) {
	if x.aliases == nil {
		x.aliases = make(map[string]subject)
	}
	x.aliases[name] = s
}

func (x *extractor) unbind(lhs ast.Expr) {
	if id, ok := lhs.(*ast.Ident); ok && x.aliases != nil {
		delete(x.aliases, id.Name)
	}
}

// finish groups the const members and puts Strings, Groups, Mappings and
// Tests in source order. The walk emits in source order except where a parent emits
// before walking an earlier child (f(func() {...}) == "x"), so the sorts
// are mostly skipped.
func (x *extractor) finish() {
	x.groupConsts()
	out := x.out
	x.otherFiles()
	if perm := sortPerm(len(out.Tests), func(i int) int { return out.Tests[i].Pos.Offset }); perm != nil {
		out.Tests = permute(out.Tests, perm)
	}
	if perm := sortPerm(len(out.Strings), func(i int) int { return out.Strings[i].Pos.Offset }); perm != nil {
		out.Strings = permute(out.Strings, perm)
		newIdx := inverse(perm)
		for g := range out.Groups {
			m := out.Groups[g].Members
			for k := range m {
				m[k] = newIdx[m[k]]
			}
			sort.Ints(m)
		}
	}
	if perm := sortPerm(len(out.Groups), func(i int) int { return out.Groups[i].Pos.Offset }); perm != nil {
		out.Groups = permute(out.Groups, perm)
		newIdx := inverse(perm)
		for i := range out.Strings {
			if g := out.Strings[i].Group; g >= 0 {
				out.Strings[i].Group = newIdx[g]
			}
		}
	}
	if perm := sortPerm(len(out.Mappings), func(i int) int { return out.Mappings[i].Pos.Offset }); perm != nil {
		out.Mappings = permute(out.Mappings, perm)
		newIdx := inverse(perm)
		for i := range out.Strings {
			if m := out.Strings[i].Mapping; m >= 0 {
				out.Strings[i].Mapping = newIdx[m]
			}
		}
	}
}

// sortPerm returns the stable order of n items by offset (perm[new] = old),
// or nil when they are in order already.
func sortPerm(n int, offset func(int) int) []int {
	sorted := true
	for i := 1; i < n && sorted; i++ {
		sorted = offset(i-1) <= offset(i)
	}
	if sorted {
		return nil
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(i, j int) bool { return offset(perm[i]) < offset(perm[j]) })
	return perm
}

func permute[T any](s []T, perm []int) []T {
	out := make([]T, len(s))
	for n, old := range perm {
		out[n] = s[old]
	}
	return out
}

func inverse(perm []int) []int {
	inv := make([]int, len(perm))
	for n, old := range perm {
		inv[old] = n
	}
	return inv
}
