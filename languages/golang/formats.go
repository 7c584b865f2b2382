package golang

import (
	"go/ast"
	"go/token"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// Formats: the regular expressions a function matches fields with,
// facts.Format. A match is R.MatchString(x) of an R bound in the file to
// regexp.MustCompile(P) or regexp.Compile(P) (a package variable, a
// local, a struct field assigned), regexp.MustCompile(P).MatchString(x),
// or regexp.MatchString(P, x); P is a string literal or a constant of the
// file bound to one. x is a field read, a local bound from one, or a name.
// Go's matches are searches: the pattern anchors itself or not.

// goPattern is a pattern bound to a name by regexp.(Must)Compile.
type goPattern struct {
	pattern string
	at      token.Pos
	n       int // bindings of the name: more than one is no pattern
}

// prepareFormats finds the names the file binds to compiled patterns,
// when it imports regexp.
func (x *extractor) prepareFormats(f *ast.File) {
	uses := false
	for _, imp := range x.imports {
		uses = uses || imp.path == "regexp"
	}
	if !uses {
		return
	}
	x.regexps = map[string]goPattern{}
	bind := func(name string, e ast.Expr) {
		if name == "" || name == "_" {
			return
		}
		p, ok := x.compiledPattern(e)
		prev, seen := x.regexps[name]
		switch {
		case ok && seen:
			p.n = prev.n + 1
		case !ok && seen:
			p, p.n = prev, prev.n+1
		case !ok:
			return
		}
		x.regexps[name] = p
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			if len(n.Values) == 0 {
				return true
			}
			for i, id := range n.Names {
				switch {
				case len(n.Values) == len(n.Names):
					bind(id.Name, n.Values[i])
				case i == 0 && len(n.Values) == 1: // re, err := regexp.Compile(p)
					bind(id.Name, n.Values[0])
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				var v ast.Expr
				switch {
				case len(n.Rhs) == len(n.Lhs):
					v = n.Rhs[i]
				case i == 0 && len(n.Rhs) == 1:
					v = n.Rhs[0]
				default:
					continue
				}
				bind(lastName(l), v)
			}
		case *ast.KeyValueExpr: // Validator{idRE: regexp.MustCompile(p)}
			if id, ok := n.Key.(*ast.Ident); ok {
				bind(id.Name, n.Value)
			}
		}
		return true
	})
}

// compiledPattern is the pattern of regexp.MustCompile(P) or
// regexp.Compile(P).
func (x *extractor) compiledPattern(e ast.Expr) (goPattern, bool) {
	c, ok := unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 1 || c.Ellipsis.IsValid() {
		return goPattern{}, false
	}
	name := calleeName(c.Fun)
	if name != "MustCompile" && name != "Compile" || !x.isPackageNamed(c.Fun, "regexp") {
		return goPattern{}, false
	}
	return x.patternArg(c.Args[0])
}

// patternArg is the pattern a string literal or a constant of the file
// spells.
func (x *extractor) patternArg(e ast.Expr) (goPattern, bool) {
	if l := x.strLit(e); l != nil {
		return goPattern{pattern: unquote(l.Value), at: l.Pos(), n: 1}, true
	}
	if id, ok := unparen(e).(*ast.Ident); ok {
		if c, ok := x.fn.file[id.Name]; ok && c.ok {
			if s, ok := c.v.(string); ok {
				return goPattern{pattern: s, at: id.Pos(), n: 1}, true
			}
		}
	}
	return goPattern{}, false
}

// formatCall records call c as a Format when it matches a field with a
// pattern; b is the branch of the condition c is.
func (x *extractor) formatCall(c *ast.CallExpr, b facts.Branch) {
	if x.regexps == nil {
		return
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel == nil || sel.Sel.Name != "MatchString" || c.Ellipsis.IsValid() {
		return
	}
	var p goPattern
	var name string
	var subject ast.Expr
	switch {
	case len(c.Args) == 2 && x.isPackageNamed(c.Fun, "regexp"): // regexp.MatchString(p, s)
		if p, ok = x.patternArg(c.Args[0]); !ok {
			return
		}
		if id, isID := unparen(c.Args[0]).(*ast.Ident); isID {
			name = id.Name
		}
		b, subject = facts.BranchUnknown, c.Args[1] // its result is (bool, error)
	case len(c.Args) == 1:
		if p, ok = x.compiledPattern(sel.X); !ok {
			name = lastName(sel.X)
			if p, ok = x.regexps[name]; !ok || p.n != 1 {
				return
			}
		}
		subject = c.Args[0]
	default:
		return
	}
	r := x.refOf(subject, true)
	if r.path == "" || r.measure != "" {
		return
	}
	x.out.Formats = append(x.out.Formats, facts.Format{
		Field: r.path, Pattern: p.pattern, Syntax: "re2",
		Pos: x.pos(c.Pos()), PatternPos: x.pos(p.at), Name: name, Branch: b,
	})
}
