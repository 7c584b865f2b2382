package golang

// Holders of a field's values that are not literals at the place of use:
// a slice or array read through an index (agents[1]), a slice set on a
// field of a struct (Router{validAgents: []string{...}},
// r.validAgents = []string{...}) that the type's methods test.

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// heldCompare records d.Agent == agents[1] (either way round) as a Test
// of the field in the collection, as slices.Contains would give.
func (x *extractor) heldCompare(a, b ast.Expr) {
	if x.strLit(a) != nil || x.strLit(b) != nil {
		return
	}
	x.heldTest(a, b)
	x.heldTest(b, a)
	x.constTest(a, b)
	x.constTest(b, a)
}

// otherFiles marks the tests of collections the file does not define
// (facts.Test.From "."): another file of the package may.
func (x *extractor) otherFiles() {
	if len(x.out.Tests) == 0 {
		return
	}
	defined := map[string]bool{}
	for _, g := range x.out.Groups {
		defined[g.Name] = true
	}
	for _, m := range x.out.Mappings {
		defined[m.Name] = true
	}
	for i := range x.out.Tests {
		if t := &x.out.Tests[i]; !t.Equal && t.Collection != "" && !defined[t.Collection] {
			t.From = "."
		}
	}
}

// constTest records d.Agent == AgentSenior (and case AgentSenior: of a
// switch over d.Agent) as a Test of the field against the constant
// (facts.Test.Equal): v is a field read, or a variable bound from one,
// and c a name, which the file may define as a string constant.
func (x *extractor) constTest(v, c ast.Expr) {
	id, ok := unparen(c).(*ast.Ident)
	if !ok || id.Name == "nil" || id.Name == "true" || id.Name == "false" || id.Name == "_" {
		return
	}
	if s := x.subjectOf(v, true); s.key != "" && s.recv != "" {
		x.out.Tests = append(x.out.Tests, facts.Test{Collection: id.Name, Key: s.key, Receiver: s.recv, Scope: x.scope, Pos: x.pos(v.Pos()), Equal: true})
	}
}

// heldTest records that v, a field read (or a variable bound from one),
// takes the value of an item of coll, when coll is a collection bound to
// a name read at a constant index. b[0] == c, between plain variables,
// is no field's.
func (x *extractor) heldTest(v, coll ast.Expr) {
	ix, ok := unparen(coll).(*ast.IndexExpr)
	if !ok || !isIndexLit(ix.Index) {
		return
	}
	name := collection(ix.X)
	if name == "" {
		return
	}
	if s := x.subjectOf(v, true); s.key != "" && s.recv != "" {
		x.out.Tests = append(x.out.Tests, facts.Test{Collection: name, Key: s.key, Receiver: s.recv, Scope: x.scope, Pos: x.pos(v.Pos())})
	}
}

func isIndexLit(e ast.Expr) bool {
	l, ok := unparen(e).(*ast.BasicLit)
	return ok && l.Kind == token.INT
}

// receiverName returns the name of a method's receiver, "" for a
// function or an unnamed receiver.
func receiverName(d *ast.FuncDecl) string {
	if d.Recv != nil && len(d.Recv.List) == 1 && len(d.Recv.List[0].Names) == 1 {
		if n := d.Recv.List[0].Names[0].Name; n != "_" {
			return n
		}
	}
	return ""
}

// setName returns the name and scope of a set of strings assigned to lhs:
// a variable where it is declared; for a field of a method's receiver
// (r.validAgents), its name in the receiver's type ("Router" of
// Router.init), which all the type's methods share.
func (x *extractor) setName(lhs ast.Expr) (name, scope string) {
	if sel, ok := unparen(lhs).(*ast.SelectorExpr); ok && sel.Sel != nil && x.recv != "" {
		if id, isID := unparen(sel.X).(*ast.Ident); isID && id.Name == x.recv {
			if i := strings.IndexByte(x.scope, '.'); i > 0 {
				return sel.Sel.Name, x.scope[:i]
			}
		}
	}
	return x.render(lhs), x.scope
}

// fieldSet returns the type whose field a list literal val is the value
// of, in the element el of a keyed struct literal (Router{validAgents:
// []string{...}}): the strings are a set named for the field, which the
// type's methods test as r.validAgents. "" when val is no list, or el's
// key no field name (Header{"Accept": {...}} is a map's).
func (x *extractor) fieldSet(lv *litView, el, val ast.Expr) string {
	kv, ok := el.(*ast.KeyValueExpr)
	if !ok || lv.kind == kindMap || x.listLit(val) == nil {
		return ""
	}
	if _, isID := unparen(kv.Key).(*ast.Ident); !isID {
		return ""
	}
	return x.out.Mappings[lv.mi].TypeName
}
