package golang

import "go/ast"

// paramTypes returns the last name of each parameter's type (Handback for
// h *protocol.Handback, for []Handback and for ...Handback), one per
// parameter, in order; nil when no parameter has a named type.
func (x *extractor) paramTypes(ft *ast.FuncType) []string {
	if ft == nil || ft.Params == nil {
		return nil
	}
	var buf [8]string
	out := buf[:0]
	for _, f := range ft.Params.List {
		if f == nil {
			continue
		}
		name := typeName(f.Type)
		if name == "" {
			continue
		}
		for range max(len(f.Names), 1) {
			out = append(out, name)
		}
	}
	return take(&x.fn.strSlab, out)
}

// typeName is the last name of a type expression, through slices and
// variadics and then as typeNameOf reads it (pointers, qualifiers, type
// arguments); "" for other types (maps, funcs, inline structs, string).
func typeName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.ArrayType:
			e = t.Elt
		case *ast.Ellipsis:
			e = t.Elt
		default:
			return typeNameOf(e)
		}
	}
}
