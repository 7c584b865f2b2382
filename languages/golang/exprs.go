package golang

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"unicode/utf8"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// unquote returns the value of a string literal. A literal go/parser could
// not make sense of (unterminated, bad escape) keeps its text without the
// quotes: the fact is still worth reporting where it is.
func unquote(lit string) string {
	if v, err := strconv.Unquote(lit); err == nil {
		return v
	}
	if len(lit) > 0 && (lit[0] == '"' || lit[0] == '`') {
		q := lit[0]
		lit = lit[1:]
		if n := len(lit); n > 0 && lit[n-1] == q {
			lit = lit[:n-1]
		}
	}
	return lit
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// strLit returns the string literal e spells, looking through parentheses
// and conversions to a type: "x", ("x"), Status("x").
func (x *extractor) strLit(e ast.Expr) *ast.BasicLit {
	for {
		switch v := e.(type) {
		case *ast.BasicLit:
			if v.Kind == token.STRING {
				return v
			}
			return nil
		case *ast.ParenExpr:
			e = v.X
		case *ast.CallExpr:
			if len(v.Args) != 1 || v.Ellipsis.IsValid() || !x.isType(v.Fun) {
				return nil
			}
			e = v.Args[0]
		default:
			return nil
		}
	}
}

// isType reports whether a call's function is a type, making the call a
// conversion. Without types.Info: string, or a type the file declares or
// names in a declaration.
func (x *extractor) isType(fun ast.Expr) bool {
	if x.info != nil {
		if tv, ok := x.info.Types[fun]; ok {
			return tv.IsType()
		}
	}
	id, ok := unparen(fun).(*ast.Ident)
	return ok && (id.Name == "string" || x.typeNames[id.Name])
}

// unwrapSubject looks through what does not change which field a value
// comes from: parentheses, conversions, type assertions, dereferences and
// the case and space folding of the strings package.
func (x *extractor) unwrapSubject(e ast.Expr) ast.Expr {
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
			if len(v.Args) != 1 || v.Ellipsis.IsValid() {
				return e
			}
			if !x.isType(v.Fun) && !x.isFolding(v.Fun) {
				return e
			}
			e = v.Args[0]
		default:
			return e
		}
	}
}

// isFolding reports whether fun is strings.ToLower, ToUpper, TrimSpace...
func (x *extractor) isFolding(fun ast.Expr) bool {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok || sel.Sel == nil {
		return false
	}
	switch sel.Sel.Name {
	case "ToLower", "ToUpper", "ToTitle", "Title", "TrimSpace":
	default:
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && x.importPath(id) == "strings"
}

// subjectOf returns the field an expression reads: Key "Status" and
// Receiver "h" for h.Status, "status" and "m" for m["status"], "status"
// and "" for a variable status (or, with resolve, the field the variable
// was bound from), "GetStatus" and "h" for h.GetStatus(), "status" and "r"
// for r.Get("status"). Other expressions give an empty subject.
func (x *extractor) subjectOf(e ast.Expr, resolve bool) subject {
	if resolve {
		e = x.unwrapSubject(e)
	} else {
		e = unparen(e)
		if s, ok := e.(*ast.StarExpr); ok {
			e = unparen(s.X)
		}
	}
	switch v := e.(type) {
	case *ast.Ident:
		if resolve {
			if b, ok := x.aliases[v.Name]; ok {
				return b
			}
		}
		return subject{key: v.Name}
	case *ast.SelectorExpr:
		if v.Sel == nil {
			break
		}
		if x.isPackage(v.X) {
			return subject{key: v.Sel.Name}
		}
		return subject{key: v.Sel.Name, recv: x.render(v.X)}
	case *ast.IndexExpr:
		if lit := x.strLit(v.Index); lit != nil {
			return subject{key: unquote(lit.Value), recv: x.render(v.X)}
		}
	case *ast.CallExpr:
		switch f := v.Fun.(type) {
		case *ast.SelectorExpr:
			if f.Sel == nil || x.isPackage(f.X) {
				break
			}
			switch {
			case len(v.Args) == 0:
				return subject{key: f.Sel.Name, recv: x.render(f.X)}
			case len(v.Args) == 1 && f.Sel.Name == "Get":
				if lit := x.strLit(v.Args[0]); lit != nil {
					return subject{key: unquote(lit.Value), recv: x.render(f.X)}
				}
			}
		case *ast.Ident:
			if len(v.Args) == 0 {
				return subject{key: f.Name}
			}
		}
	}
	return subject{}
}

// collection returns the name the collection expression e is bound to: a
// variable or constant, or the last name of a selector (pkg.Terminal,
// s.terminal); "" for anything else.
func collection(e ast.Expr) string {
	switch v := unparen(e).(type) {
	case *ast.Ident:
		if v.Name != "_" && v.Name != "nil" {
			return v.Name
		}
	case *ast.SelectorExpr:
		if v.Sel != nil {
			return v.Sel.Name
		}
	}
	return ""
}

// test records a lookup of what v reads in the collection expression coll
// at p: a Test when v has a subject, as a comparison would see it, and
// coll is bound to a name. b is what the code does when v's value is in
// coll (facts.Test.Branch).
func (x *extractor) test(coll, v ast.Expr, p token.Pos, b facts.Branch) {
	name := collection(coll)
	if name == "" {
		return
	}
	s := x.subjectOf(v, true)
	if s.key == "" {
		return
	}
	if x.fn.predicate {
		b = facts.BranchUnknown
	}
	x.out.Tests = append(x.out.Tests, facts.Test{Collection: name, Key: s.key, Receiver: s.recv, Scope: x.scope, Pos: x.pos(p), Branch: b})
}

// lookup records terminal[h.Status], an index expression that reads (the
// walk sends targets of assignments elsewhere) by an index that is not a
// string literal (m["status"] reads a field). With types.Info the index
// must be a string: xs[i] indexes a slice. b is the branch of the lookup's
// result when it is a condition (if !valid[s] { return err }).
func (x *extractor) lookup(e *ast.IndexExpr, b facts.Branch) {
	if e.Index == nil || x.strLit(e.Index) != nil || x.isType(e.Index) { // F[string] instantiates
		return
	}
	if x.info != nil {
		t := x.info.Types[e.Index].Type
		if t == nil {
			return
		}
		if b, ok := t.Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
			return
		}
	}
	x.test(e.X, e.Index, e.Pos(), b)
}

// render writes an expression as short source text for receivers and
// subjects, at most maxRender bytes (then cut with "…").
func (x *extractor) render(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	b := appendExpr(x.renderBuf[:0], e, 0)
	if len(b) > maxRender {
		n := maxRender
		for n > 0 && !utf8.RuneStart(b[n]) {
			n--
		}
		b = append(b[:n], "…"...)
	}
	x.renderBuf = b
	return string(b)
}

func appendExpr(b []byte, e ast.Expr, depth int) []byte {
	if len(b) > maxRender || depth > 16 {
		return append(b, "…"...)
	}
	depth++
	switch v := e.(type) {
	case nil:
	case *ast.Ident:
		b = append(b, v.Name...)
	case *ast.BasicLit:
		b = append(b, v.Value...)
	case *ast.SelectorExpr:
		b = appendExpr(b, v.X, depth)
		b = append(b, '.')
		if v.Sel != nil {
			b = append(b, v.Sel.Name...)
		}
	case *ast.IndexExpr:
		b = appendExpr(b, v.X, depth)
		b = append(b, '[')
		b = appendExpr(b, v.Index, depth)
		b = append(b, ']')
	case *ast.IndexListExpr:
		b = appendExpr(b, v.X, depth)
		b = append(b, '[')
		b = appendList(b, v.Indices, depth)
		b = append(b, ']')
	case *ast.SliceExpr:
		b = appendExpr(b, v.X, depth)
		b = append(b, "[:]"...)
	case *ast.CallExpr:
		b = appendExpr(b, v.Fun, depth)
		b = append(b, '(')
		b = appendList(b, v.Args, depth)
		b = append(b, ')')
	case *ast.StarExpr:
		b = append(b, '*')
		b = appendExpr(b, v.X, depth)
	case *ast.UnaryExpr:
		b = append(b, v.Op.String()...)
		b = appendExpr(b, v.X, depth)
	case *ast.BinaryExpr:
		b = appendExpr(b, v.X, depth)
		b = append(b, ' ')
		b = append(b, v.Op.String()...)
		b = append(b, ' ')
		b = appendExpr(b, v.Y, depth)
	case *ast.ParenExpr:
		b = append(b, '(')
		b = appendExpr(b, v.X, depth)
		b = append(b, ')')
	case *ast.TypeAssertExpr:
		b = appendExpr(b, v.X, depth)
		b = append(b, ".("...)
		b = appendExpr(b, v.Type, depth)
		b = append(b, ')')
	case *ast.CompositeLit:
		b = appendExpr(b, v.Type, depth)
		b = append(b, "{…}"...)
	case *ast.ArrayType:
		b = append(b, "[]"...)
		b = appendExpr(b, v.Elt, depth)
	case *ast.MapType:
		b = append(b, "map["...)
		b = appendExpr(b, v.Key, depth)
		b = append(b, ']')
		b = appendExpr(b, v.Value, depth)
	case *ast.FuncLit:
		b = append(b, "func(){…}"...)
	default:
		b = append(b, "…"...)
	}
	return b
}

func appendList(b []byte, list []ast.Expr, depth int) []byte {
	for i, a := range list {
		if i > 0 {
			b = append(b, ", "...)
		}
		if len(b) > maxRender {
			return append(b, "…"...)
		}
		b = appendExpr(b, a, depth)
	}
	return b
}
