package golang

// Thresholds the source writes through a helper or arithmetic: a word
// count taken by a function of the file (wordCount(d.Scope) < 15, with
// func wordCount(s string) int { return len(strings.Fields(s)) }) and a
// base minus (or plus) a named gap (85 - EscalationGap).

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"math"
)

// prepareHelpers records the word counters of the file: functions and
// methods whose body is return len(strings.Fields(p)) (or
// strings.Split(p, " ")) of their first parameter p.
func (x *extractor) prepareHelpers(f *ast.File) {
	clear(x.fn.words)
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || fd.Name == nil || fd.Type == nil || fd.Type.Params == nil || len(fd.Body.List) != 1 {
			continue
		}
		ps := fd.Type.Params.List
		if len(ps) == 0 || len(ps[0].Names) == 0 || ps[0].Names[0] == nil {
			continue
		}
		ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		call, ok := unparen(ret.Results[0]).(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			continue
		}
		if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "len" {
			continue
		}
		w := x.wordsCall(call.Args[0])
		if id, ok := unparen(w).(*ast.Ident); !ok || id.Name != ps[0].Names[0].Name {
			continue
		}
		if x.fn.words == nil {
			x.fn.words = map[string]bool{}
		}
		x.fn.words[fd.Name.Name] = true
	}
}

// wordHelperArg returns the argument of a call of a word counter of the
// file (wordCount(x), v.wordCount(x)), or nil.
func (x *extractor) wordHelperArg(c *ast.CallExpr) ast.Expr {
	if len(x.fn.words) == 0 || len(c.Args) != 1 || c.Ellipsis.IsValid() {
		return nil
	}
	var name string
	switch f := c.Fun.(type) {
	case *ast.Ident:
		if x.fn.declared[f.Name] {
			return nil
		}
		if x.info != nil {
			if _, isFunc := x.info.Uses[f].(*types.Func); !isFunc {
				return nil
			}
		}
		name = f.Name
	case *ast.SelectorExpr:
		if f.Sel == nil || x.isPackage(f.X) {
			return nil
		}
		name = f.Sel.Name
	}
	if !x.fn.words[name] {
		return nil
	}
	return c.Args[0]
}

// arithConst returns a base plus or minus a gap, both constants (85 -
// EscalationGap, Base - Gap), named as the source writes it; one of them
// may be a constant of another file (a ref, see facts.Const.Base).
func (x *extractor) arithConst(e ast.Expr, p token.Pos) (cval, bool) {
	b, ok := unparen(e).(*ast.BinaryExpr)
	if !ok {
		return cval{}, false
	}
	var sign float64
	switch b.Op {
	case token.SUB:
		sign = -1
	case token.ADD:
		sign = 1
	default:
		return cval{}, false
	}
	l, _, lok := x.namedConst(b.X, p)
	r, _, rok := x.namedConst(b.Y, p)
	if !lok || !rok || l.rows != nil || r.rows != nil {
		return cval{}, false
	}
	name := types.ExprString(b)
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

// roundSum drops the binary noise of a sum of decimals: 0.85 - 0.3 is
// 0.55, not 0.5499999999999999.
func roundSum(v float64) float64 { return math.Round(v*1e9) / 1e9 }

// FileImports returns the package-level constants of Go source src
// defined as another constant, by name: a constant of an imported
// package (const MinWords = limits.MinWords gives
// "IMPORTPATH:MinWords") or of another file of the package (const
// MinWords = defaultMinWords gives ":defaultMinWords"), as
// facts.Const.Ref spells them: the divergence analyzer follows them to
// the constant a package re-exports.
func FileImports(src []byte) map[string]string {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if f == nil {
		return nil
	}
	imports := map[string]string{}
	for _, imp := range f.Imports {
		if imp.Path == nil {
			continue
		}
		path := unquote(imp.Path.Value)
		name := guessPackageName(path)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		imports[name] = path
	}
	declared := map[string]bool{}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && (g.Tok == token.CONST || g.Tok == token.VAR) {
			for _, s := range g.Specs {
				if vs, ok := s.(*ast.ValueSpec); ok {
					for _, n := range vs.Names {
						declared[n.Name] = true
					}
				}
			}
		}
	}
	var out map[string]string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs, ok := s.(*ast.ValueSpec)
			if !ok || len(vs.Names) != len(vs.Values) {
				continue
			}
			for i, n := range vs.Names {
				ref := ""
				switch v := unparen(vs.Values[i]).(type) {
				case *ast.SelectorExpr:
					if id, ok := v.X.(*ast.Ident); ok && v.Sel != nil && imports[id.Name] != "" {
						ref = imports[id.Name] + ":" + v.Sel.Name
					}
				case *ast.Ident:
					if !declared[v.Name] && v.Name != "iota" && v.Name != "true" && v.Name != "false" {
						ref = ":" + v.Name
					}
				}
				if ref == "" {
					continue
				}
				if out == nil {
					out = map[string]string{}
				}
				out[n.Name] = ref
			}
		}
	}
	return out
}
