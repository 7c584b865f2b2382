package golang

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// constDecl emits the string constants of a const declaration as members;
// their groups are made by groupConsts once the whole file is seen, because
// with types.Info a later use can tell the named type of an untyped constant.
func (x *extractor) constDecl(d *ast.GenDecl) {
	block := -1
	for _, s := range d.Specs {
		vs, ok := s.(*ast.ValueSpec)
		if !ok {
			continue
		}
		specType := typeNameOf(vs.Type)
		for i, v := range vs.Values {
			if i >= len(vs.Names) || vs.Names[i] == nil {
				x.expr(v, lits)
				continue
			}
			name := vs.Names[i]
			lit, conv := x.constLit(v)
			if lit == nil {
				x.expr(v, lits)
				continue
			}
			typ := specType
			if typ == "" {
				typ = conv
			}
			var obj *types.Const
			if x.info != nil {
				if c, ok := x.info.Defs[name].(*types.Const); ok {
					obj = c
					typ = namedTypeName(c.Type())
					if x.inFunc > 0 {
						x.watchConst(name) // file-level ones were watched by prepare
					}
				}
			}
			if block < 0 {
				block = len(x.blockPos)
				x.blockPos = append(x.blockPos, d.Pos())
			}
			str := x.emit(lit, facts.RoleMember, name.Name, "", -1, -1)
			x.consts = append(x.consts, pendingConst{str: str, typ: typ, block: block, obj: obj})
		}
	}
}

// constLit returns the string literal a constant's value spells, looking
// through parentheses and conversions, and the name of the outermost
// conversion's type. In a constant declaration a call with one argument is a
// conversion unless it names a builtin function.
func (x *extractor) constLit(e ast.Expr) (*ast.BasicLit, string) {
	conv := ""
	for {
		switch v := e.(type) {
		case *ast.BasicLit:
			if v.Kind == token.STRING {
				return v, conv
			}
			return nil, ""
		case *ast.ParenExpr:
			e = v.X
		case *ast.CallExpr:
			if len(v.Args) != 1 || v.Ellipsis.IsValid() || !x.constConversion(v.Fun) {
				return nil, ""
			}
			if conv == "" {
				conv = typeNameOf(v.Fun)
			}
			e = v.Args[0]
		default:
			return nil, ""
		}
	}
}

func (x *extractor) constConversion(fun ast.Expr) bool {
	if x.info != nil {
		if tv, ok := x.info.Types[fun]; ok {
			return tv.IsType()
		}
	}
	switch f := unparen(fun).(type) {
	case *ast.Ident:
		switch f.Name {
		case "len", "cap", "real", "imag", "complex", "min", "max":
			return false
		}
		return true
	case *ast.SelectorExpr:
		id, ok := f.X.(*ast.Ident)
		return !ok || id.Name != "unsafe"
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// groupConsts makes the const groups: one per named type over the file, one
// per declaration for the other constants.
func (x *extractor) groupConsts() {
	if len(x.consts) == 0 {
		return
	}
	byType := map[string]int{}
	byBlock := make([]int, len(x.blockPos))
	for i := range byBlock {
		byBlock[i] = -1
	}
	for i := range x.consts {
		c := &x.consts[i]
		if c.typ == "" && c.obj != nil {
			c.typ = x.usedAs[c.obj]
		}
		var g int
		if c.typ != "" {
			var ok bool
			if g, ok = byType[c.typ]; !ok {
				g = x.newGroup(facts.GroupConst, c.typ, x.blockPos[c.block])
				byType[c.typ] = g
			}
		} else {
			if g = byBlock[c.block]; g < 0 {
				g = x.newGroup(facts.GroupConst, "", x.blockPos[c.block])
				byBlock[c.block] = g
			}
		}
		x.out.Groups[g].Members = append(x.out.Groups[g].Members, c.str)
		x.out.Strings[c.str].Group = g
	}
	var names []string
	for _, g := range byBlock {
		if g < 0 {
			continue
		}
		names = names[:0]
		for _, m := range x.out.Groups[g].Members {
			names = append(names, x.out.Strings[m].Key)
		}
		x.out.Groups[g].Name = commonPrefix(names)
	}
}

// commonPrefix returns the longest prefix shared by two or more names that
// ends at a word boundary in each (camel case or underscore), without
// trailing underscores: "Status" for StatusSuccess and StatusSkipped,
// "STATUS" for STATUS_OK and STATUS_FAILED, "" for a single name.
func commonPrefix(names []string) string {
	if len(names) < 2 {
		return ""
	}
	p := names[0]
	for _, n := range names[1:] {
		i := 0
		for i < len(p) && i < len(n) && p[i] == n[i] {
			i++
		}
		p = p[:i]
	}
	for l := len(p); l > 0; l-- {
		ok := true
		for _, n := range names {
			if !wordBoundary(n, l) {
				ok = false
				break
			}
		}
		if ok {
			return strings.TrimRight(p[:l], "_")
		}
	}
	return ""
}

// wordBoundary reports whether a word of name ends at byte l.
func wordBoundary(name string, l int) bool {
	if l >= len(name) {
		return true
	}
	a, b := name[l-1], name[l]
	switch {
	case a == '_' || b == '_':
		return true
	case (isLower(a) || isDigit(a)) && isUpper(b):
		return true
	case isUpper(a) && isUpper(b) && l+1 < len(name) && isLower(name[l+1]): // HTTP|Server
		return true
	}
	return false
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// namedTypeName returns the name of a named or alias type (without package
// or type arguments), "" for other types.
func namedTypeName(t types.Type) string {
	switch t := t.(type) {
	case *types.Named:
		return t.Obj().Name()
	case *types.Alias:
		return t.Obj().Name()
	}
	return ""
}

// typeNameOf returns the name a type expression spells: "Status" for
// Status, pkg.Status, Status[T], *Status; "" for string and type literals.
func typeNameOf(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.Ident:
			if t.Name == "string" {
				return ""
			}
			return t.Name
		case *ast.SelectorExpr:
			if t.Sel == nil {
				return ""
			}
			return t.Sel.Name
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.StarExpr:
			e = t.X
		default:
			return ""
		}
	}
}

// baseTypeName returns the type name of a method receiver: T for T, *T,
// T[K], (*T).
func baseTypeName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.Ident:
			return t.Name
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		default:
			return ""
		}
	}
}

// guessPackageName guesses the name of an imported package from its path
// (the last element, skipping a major version element and a "go-" prefix or
// ".vN" suffix). Only used without types.Info.
func guessPackageName(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		last := path[i+1:]
		if len(last) >= 2 && last[0] == 'v' && allDigits(last[1:]) {
			path = path[:i]
		}
	}
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		path = path[i+1:]
	}
	path = strings.TrimPrefix(path, "go-")
	if i := strings.IndexByte(path, '.'); i > 0 {
		path = path[:i]
	}
	return strings.ReplaceAll(path, "-", "_")
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}
