package golang

// Required fields: what a validation refuses its input without
// (facts.Function.Required), read from the declaration of each function
// named for validation once its body has been walked.

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// requiredName tells whether a function's own name says it validates.
func requiredName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range [...]string{"valid", "check", "verif", "require"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// reqState is the reading of one declaration.
type reqState struct {
	x *extractor
	// records are the variables that may hold the record validated: the
	// parameters, and variables decoded into (json.Unmarshal(b, &h)), with
	// their declared type.
	records map[string]ast.Expr
	// lists are the local []string literals by name.
	lists map[string]*ast.CompositeLit
	body  *ast.BlockStmt
	out   []facts.Required
	// work is what is left of the budget of nodes the searches that look
	// again at part of the body (a loop's body, the uses of a slice of
	// missing fields) may visit: nested loops and many slices cost
	// linear time.
	work int
}

func (rs *reqState) add(field string, p token.Pos, how, recv string) {
	if field == "" || field == "-" || slices.ContainsFunc(rs.out, func(r facts.Required) bool { return r.Field == field }) {
		return
	}
	rs.out = append(rs.out, facts.Required{Field: field, Pos: rs.x.pos(p), How: how, Receiver: recv})
}

// required returns the fields declaration d requires of its input: tested
// for absence under a rejecting if (if h.TaskID == "" { return err }; if
// _, ok := m["task_id"]; !ok { ... }; if m["task_id"] == nil), looped over
// (for _, f := range required { if _, ok := m[f]; !ok { ... } }), or
// tagged required on the struct a validator checks (validate:"required",
// v.Struct(h)).
func (x *extractor) required(d *ast.FuncDecl) []facts.Required {
	if d.Body == nil || d.Name == nil || !requiredName(d.Name.Name) || d.Type == nil {
		return nil
	}
	rs := &reqState{x: x, records: map[string]ast.Expr{}, lists: map[string]*ast.CompositeLit{}, body: d.Body}
	for _, f := range d.Type.Params.List {
		for _, n := range f.Names {
			rs.records[n.Name] = f.Type
		}
	}
	locals := map[string]ast.Expr{}
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if n.Type != nil {
					locals[id.Name] = n.Type
				}
				if i < len(n.Values) {
					if cl, ok := n.Values[i].(*ast.CompositeLit); ok {
						rs.lists[id.Name] = cl
					}
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						if cl, ok := n.Rhs[i].(*ast.CompositeLit); ok {
							rs.lists[id.Name] = cl
							locals[id.Name] = cl.Type
						}
					}
				}
			}
		case *ast.CallExpr:
			switch calleeName(n.Fun) {
			case "Unmarshal", "Decode":
				for _, a := range n.Args {
					if u, ok := a.(*ast.UnaryExpr); ok && u.Op == token.AND {
						if id, ok := u.X.(*ast.Ident); ok {
							rs.records[id.Name] = locals[id.Name]
						}
					}
				}
			}
		}
		return true
	})
	rs.work = 1 << 16
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt:
			if x.outcome(n.Body) == facts.BranchReject || rs.appendsMissing(n.Body) {
				rs.absent(n.Cond, n.Init, "", 0)
			}
		case *ast.RangeStmt:
			rs.loop(n)
		case *ast.CallExpr:
			rs.tagged(n)
		}
		return true
	})
	if rs.work < 0 {
		// a reading cut short may lack fields, which would be judged
		// missing
		return nil
	}
	return rs.out
}

// appendsMissing tells whether a block starts by appending to a slice
// named for what is missing (missing = append(missing, f)) that the
// function returns or rejects on.
func (rs *reqState) appendsMissing(b *ast.BlockStmt) bool {
	if b == nil || len(b.List) == 0 {
		return false
	}
	s, ok := b.List[0].(*ast.AssignStmt)
	if !ok || len(s.Lhs) != 1 || len(s.Rhs) != 1 {
		return false
	}
	c, ok := s.Rhs[0].(*ast.CallExpr)
	name := lastName(s.Lhs[0])
	return ok && calleeName(c.Fun) == "append" && strings.Contains(strings.ToLower(name), "missing") && rs.reports(name)
}

// reports tells whether the function returns the variable name or
// rejects on it (if len(missing) > 0 { return err }).
func (rs *reqState) reports(name string) bool {
	found := false
	uses := func(n ast.Node) bool {
		ast.Inspect(n, func(n ast.Node) bool {
			rs.work--
			if id, ok := n.(*ast.Ident); ok && id.Name == name {
				found = true
			}
			return !found && rs.work >= 0
		})
		return found
	}
	ast.Inspect(rs.body, func(n ast.Node) bool {
		if rs.work--; rs.work < 0 {
			return false
		}
		switch n := n.(type) {
		case *ast.ReturnStmt:
			return !uses(n)
		case *ast.IfStmt:
			if rs.x.outcome(n.Body) == facts.BranchReject && uses(n.Cond) {
				return false
			}
		}
		return !found
	})
	return found
}

// absent reads the disjuncts of a rejected condition that test a field's
// absence; v, when set, is a loop variable standing for the field, and
// absent then returns the record it is tested in.
func (rs *reqState) absent(c ast.Expr, init ast.Stmt, v string, d int) string {
	c = unparen(c)
	if d > maxRequiredDepth {
		return ""
	}
	switch e := c.(type) {
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LOR:
			if r := rs.absent(e.X, init, v, d+1); r != "" && v != "" {
				return r
			}
			return rs.absent(e.Y, init, v, d+1)
		case token.EQL:
			// a zero string, nil, or no items: len(h.Plan) == 0
			if !isZero(e.Y) {
				return ""
			}
			if b, ok := unparen(e.Y).(*ast.BasicLit); ok && b.Value == "0" {
				if c, ok := unparen(e.X).(*ast.CallExpr); !ok || calleeName(c.Fun) != "len" {
					return ""
				}
			}
			return rs.missingOperand(e.X, v)
		}
	case *ast.UnaryExpr:
		// if _, ok := m["task_id"]; !ok
		id, ok := unparen(e.X).(*ast.Ident)
		if e.Op != token.NOT || !ok {
			return ""
		}
		as, ok := init.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 || lastName(as.Lhs[1]) != id.Name {
			return ""
		}
		return rs.missingOperand(as.Rhs[0], v)
	}
	return ""
}

const maxRequiredDepth = 16

// isZero tells whether e is "", nil or 0 (len(x) == 0).
func isZero(e ast.Expr) bool {
	switch e := unparen(e).(type) {
	case *ast.Ident:
		return e.Name == "nil"
	case *ast.BasicLit:
		return e.Value == `""` || e.Value == "``" || e.Value == "0"
	}
	return false
}

// missingOperand reads what an absence test looks at: m["task_id"],
// h.TaskID, len(h.Plan), m[f] for the loop variable f.
func (rs *reqState) missingOperand(e ast.Expr, v string) string {
	e = unparen(e)
	if c, ok := e.(*ast.CallExpr); ok && len(c.Args) == 1 && calleeName(c.Fun) == "len" {
		e = unparen(c.Args[0])
	}
	switch e := e.(type) {
	case *ast.IndexExpr:
		recv, ok := e.X.(*ast.Ident)
		if !ok {
			return ""
		}
		if _, ok := rs.records[recv.Name]; !ok {
			return ""
		}
		if v != "" {
			if id, ok := e.Index.(*ast.Ident); ok && id.Name == v {
				return recv.Name
			}
			return ""
		}
		if lit, ok := e.Index.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				rs.add(s, lit.Pos(), "test", recv.Name)
			}
		}
	case *ast.SelectorExpr:
		recv, ok := e.X.(*ast.Ident)
		if !ok || v != "" {
			return ""
		}
		t, ok := rs.records[recv.Name]
		if !ok {
			return ""
		}
		if name, ok := rs.jsonName(recv, t, e.Sel.Name); ok {
			rs.add(name, e.Sel.Pos(), "test", recv.Name)
		}
	}
	return ""
}

// jsonName is the name a record's field has in JSON: its json tag, else
// its Go name; ok is false for a method or a field the record's struct
// (when known) lacks.
func (rs *reqState) jsonName(recv *ast.Ident, t ast.Expr, field string) (string, bool) {
	for _, f := range rs.structFields(recv, t) {
		if f.name == field {
			return f.json, true
		}
	}
	// a method, a field of an embedded struct, or a struct declared in
	// another file: its JSON name is not known
	return "", false
}

type structField struct {
	name, json string
	tag        reflect.StructTag
	pos        token.Pos // invalid for a struct of another file
}

// structFields lists the fields of a record's struct type: from the type
// checker when there is one, else from a struct declared in this file.
func (rs *reqState) structFields(recv *ast.Ident, t ast.Expr) []structField {
	var out []structField
	if st := rs.typesStruct(recv); st != nil {
		for i := 0; i < st.NumFields(); i++ {
			f := st.Field(i)
			sf := structField{name: f.Name(), tag: reflect.StructTag(st.Tag(i))}
			if rs.x.inFile(f.Pos()) {
				sf.pos = f.Pos()
			}
			sf.json = jsonTagName(sf.tag, f.Name())
			out = append(out, sf)
		}
		return out
	}
	st := rs.structOf(recv, t)
	if st == nil || st.Fields == nil {
		return nil
	}
	for _, f := range st.Fields.List {
		var tag reflect.StructTag
		if f.Tag != nil {
			if s, err := strconv.Unquote(f.Tag.Value); err == nil {
				tag = reflect.StructTag(s)
			}
		}
		for _, n := range f.Names {
			out = append(out, structField{name: n.Name, json: jsonTagName(tag, n.Name), tag: tag, pos: n.Pos()})
		}
	}
	return out
}

func jsonTagName(tag reflect.StructTag, name string) string {
	if j, ok := tag.Lookup("json"); ok {
		if n, _, _ := strings.Cut(j, ","); n != "" {
			return n
		}
	}
	return name
}

// typesStruct is the struct type of a record by the type checker.
func (rs *reqState) typesStruct(recv *ast.Ident) *types.Struct {
	if rs.x.info == nil {
		return nil
	}
	t := rs.x.info.TypeOf(recv)
	if t == nil {
		return nil
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, _ := t.Underlying().(*types.Struct)
	return st
}

// structOf finds the struct declared in this file that a type expression
// (T, *T) names.
func (rs *reqState) structOf(recv *ast.Ident, t ast.Expr) *ast.StructType {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	id, ok := t.(*ast.Ident)
	if !ok {
		return nil
	}
	return rs.x.fileStruct(id.Name)
}

// loop reads `for _, f := range required { if _, ok := m[f]; !ok { return
// err } }`: every field of the list is required.
func (rs *reqState) loop(r *ast.RangeStmt) {
	v, ok := r.Value.(*ast.Ident)
	if !ok || r.Body == nil {
		return
	}
	recv := ""
	ast.Inspect(r.Body, func(n ast.Node) bool {
		if rs.work--; rs.work < 0 {
			return false
		}
		if s, ok := n.(*ast.IfStmt); ok && recv == "" && (rs.x.outcome(s.Body) == facts.BranchReject || rs.appendsMissing(s.Body)) {
			recv = rs.absent(s.Cond, s.Init, v.Name, 0)
		}
		return recv == ""
	})
	if recv == "" {
		return
	}
	var lit *ast.CompositeLit
	switch l := unparen(r.X).(type) {
	case *ast.CompositeLit:
		lit = l
	case *ast.Ident:
		if lit = rs.lists[l.Name]; lit == nil {
			lit = rs.x.fileList(l.Name)
		}
	}
	if lit == nil {
		return
	}
	for _, e := range lit.Elts {
		if b, ok := e.(*ast.BasicLit); ok && b.Kind == token.STRING {
			if s, err := strconv.Unquote(b.Value); err == nil {
				rs.add(s, b.Pos(), "list", recv)
			}
		}
	}
}

// tagged reads v.Struct(h) (go-playground/validator, gin's binding): the
// fields of h's struct tagged validate:"required" or binding:"required".
func (rs *reqState) tagged(c *ast.CallExpr) {
	switch calleeName(c.Fun) {
	case "Struct", "StructCtx":
	default:
		return
	}
	if _, ok := c.Fun.(*ast.SelectorExpr); !ok || len(c.Args) == 0 {
		return
	}
	arg := unparen(c.Args[len(c.Args)-1])
	if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
		arg = u.X
	}
	recv, ok := arg.(*ast.Ident)
	if !ok {
		return
	}
	t, ok := rs.records[recv.Name]
	if !ok {
		return
	}
	for _, f := range rs.structFields(recv, t) {
		for _, key := range [...]string{"validate", "binding"} {
			rules, _ := f.tag.Lookup(key)
			if slices.Contains(strings.Split(rules, ","), "required") {
				p := f.pos
				if !p.IsValid() {
					p = c.Pos()
				}
				rs.add(f.json, p, "tag", recv.Name)
			}
		}
	}
}

// fileStruct and fileList look up the file's declarations: a struct type,
// a package-level []string literal.
func (x *extractor) fileStruct(name string) *ast.StructType {
	if x.fn.ast == nil {
		return nil
	}
	for _, d := range x.fn.ast.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == name {
				st, _ := ts.Type.(*ast.StructType)
				return st
			}
		}
	}
	return nil
}

func (x *extractor) fileList(name string) *ast.CompositeLit {
	if x.fn.ast == nil {
		return nil
	}
	for _, d := range x.fn.ast.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			vs, ok := s.(*ast.ValueSpec)
			if !ok {
				continue
			}
			for i, n := range vs.Names {
				if n.Name == name && i < len(vs.Values) {
					cl, _ := vs.Values[i].(*ast.CompositeLit)
					return cl
				}
			}
		}
	}
	return nil
}

// inFile tells whether p lies in the file being extracted.
func (x *extractor) inFile(p token.Pos) bool {
	off := int(p) - x.base
	return p.IsValid() && off >= 0 && off <= x.size
}
