package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// Containers parses src as a Go file and lists, in source order, the
// places whose constant members the compiler requires to be distinct: the
// cases of each switch with a tag (duplicate case), and the keys of each
// composite literal (duplicate key in a map, duplicate index in an array or
// slice). A member is a basic literal or the name of a constant declared
// with one in the same file (`case StatusFailure:`); a constant of another
// file, or a computed one, is not seen. A parse error is returned as is,
// with no containers.
func Containers(src []byte) ([]facts.Container, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	consts := fileConsts(f)
	key := func(e ast.Expr) (facts.Key, bool) {
		for {
			p, ok := e.(*ast.ParenExpr)
			if !ok {
				break
			}
			e = p.X
		}
		switch e := e.(type) {
		case *ast.BasicLit:
			k, ok := litKey(e)
			k.Line = fset.Position(e.Pos()).Line
			return k, ok
		case *ast.Ident:
			k, ok := consts[e.Name]
			k.Line = fset.Position(e.Pos()).Line
			return k, ok
		}
		return facts.Key{}, false
	}
	var out []facts.Container
	ast.Inspect(f, func(n ast.Node) bool {
		var c facts.Container
		switch n := n.(type) {
		case *ast.SwitchStmt:
			if n.Tag == nil {
				return true // case conditions, not constants
			}
			c.Kind = "switch"
			for _, s := range n.Body.List {
				cc, _ := s.(*ast.CaseClause)
				if cc == nil {
					continue
				}
				for _, e := range cc.List {
					if k, ok := key(e); ok {
						c.Keys = append(c.Keys, k)
					}
				}
			}
		case *ast.CompositeLit:
			c.Kind = "composite literal"
			if _, ok := n.Type.(*ast.MapType); ok {
				c.Kind = "map literal"
			}
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if k, ok := key(kv.Key); ok {
						c.Keys = append(c.Keys, k)
					}
				}
			}
		default:
			return true
		}
		c.Line = fset.Position(n.Pos()).Line
		out = append(out, c)
		return true
	})
	return out, nil
}

// fileConsts maps the names of the file's constants whose value is a basic
// literal (given, or repeated from the spec above in a const block) to
// their keys.
func fileConsts(f *ast.File) map[string]facts.Key {
	consts := map[string]facts.Key{}
	ast.Inspect(f, func(n ast.Node) bool {
		d, ok := n.(*ast.GenDecl)
		if !ok || d.Tok != token.CONST {
			return true
		}
		var last []ast.Expr
		for _, s := range d.Specs {
			vs, ok := s.(*ast.ValueSpec)
			if !ok {
				continue
			}
			if len(vs.Values) > 0 {
				last = vs.Values
			}
			for i, name := range vs.Names {
				if i >= len(last) {
					break
				}
				if lit, ok := last[i].(*ast.BasicLit); ok {
					if k, ok := litKey(lit); ok {
						consts[name.Name] = k
					}
				}
			}
		}
		return false
	})
	return consts
}

// litKey is the key of a basic literal: a string by its value, any other
// literal by its kind and text.
func litKey(lit *ast.BasicLit) (facts.Key, bool) {
	if lit.Kind == token.STRING {
		v, err := strconv.Unquote(lit.Value)
		if err != nil {
			return facts.Key{}, false
		}
		return facts.Key{Value: "s:" + v, Text: strconv.Quote(v)}, true
	}
	return facts.Key{Value: lit.Kind.String() + ":" + lit.Value, Text: lit.Value}, true
}
