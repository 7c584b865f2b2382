package golang

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strconv"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// strCtx is the role the string elements of a slice literal take: values
// of the mapping entry the slice is the value of, or members of the set the
// slice is assigned to.
type strCtx struct {
	role    facts.Role
	key     string
	mapping int
	group   int // the set's group, made at its first member
	isSet   bool
	set     string
	setPos  token.Pos
}

func (x *extractor) emitCtx(l *ast.BasicLit, sc *strCtx) {
	if sc.isSet && sc.group < 0 {
		sc.group = x.newGroup(facts.GroupSet, sc.set, sc.setPos)
	}
	x.emit(l, sc.role, sc.key, "", sc.mapping, sc.group)
}

type litKind uint8

const (
	kindUnknown litKind = iota // a named type seen without types.Info, or an elided type
	kindStruct
	kindMap
	kindList // slice or array
)

// litType tells what a composite literal builds and the name of its type.
// typ is the literal's type expression, or the one its parent implies for
// an elided type ([]Handback{{...}}).
func (x *extractor) litType(lit *ast.CompositeLit, typ ast.Expr) (litKind, string, *types.Struct) {
	if x.info != nil {
		if t := x.info.Types[lit].Type; t != nil {
			if p, ok := types.Unalias(t).(*types.Pointer); ok { // elided &T in []*T{{...}}
				t = p.Elem()
			}
			name := namedTypeName(t)
			switch u := t.Underlying().(type) {
			case *types.Struct:
				return kindStruct, name, u
			case *types.Map:
				return kindMap, name, nil
			case *types.Slice, *types.Array:
				return kindList, name, nil
			}
			return kindUnknown, name, nil
		}
	}
	t := unparen(typ)
	if s, ok := t.(*ast.StarExpr); ok {
		t = unparen(s.X)
	}
	switch t.(type) {
	case *ast.ArrayType:
		return kindList, "", nil
	case *ast.MapType:
		return kindMap, "", nil
	case *ast.StructType:
		return kindStruct, "", nil
	}
	return kindUnknown, typeNameOf(t), nil
}

// elemTypes returns the key and element types a slice, array or map type
// expression gives the elided types of its literal's elements.
func elemTypes(typ ast.Expr) (key, elem ast.Expr) {
	t := unparen(typ)
	if s, ok := t.(*ast.StarExpr); ok {
		t = unparen(s.X)
	}
	switch t := t.(type) {
	case *ast.ArrayType:
		return nil, t.Elt
	case *ast.MapType:
		return t.Key, t.Value
	}
	return nil, nil
}

func hasKeys(lit *ast.CompositeLit) bool {
	for _, el := range lit.Elts {
		if _, ok := el.(*ast.KeyValueExpr); ok {
			return true
		}
	}
	return false
}

// litView makes the literal facts' view lv of a composite literal: a
// struct or map literal becomes a Mapping; the string elements of a slice
// literal take the role sc gives them, if any, and litView returns the sc
// that applies. elided is the type implied by the parent for a literal
// without one.
func (x *extractor) litView(lv *litView, lit *ast.CompositeLit, elided ast.Expr, sc *strCtx) *strCtx {
	typ := lit.Type
	if typ == nil {
		typ = elided
	}
	kind, name, st := x.litType(lit, typ)
	keyT, elemT := elemTypes(typ)
	hasKV := hasKeys(lit)
	switch {
	case kind == kindList:
		lv.elemT = elemT
		return sc
	case kind == kindUnknown && !hasKV:
		lv.elemT = elemT
		if sc != nil && sc.isSet && lit.Type == nil {
			// a row of a table ([]want{{"done", "status"}}), not a
			// nested list: its strings are no members of the set
			return nil
		}
		return sc
	case hasKV || kind == kindStruct && st != nil && len(lit.Elts) > 0:
		lv.mapping, lv.kind, lv.st, lv.keyT, lv.elemT = true, kind, st, keyT, elemT
		lv.mi = len(x.out.Mappings)
		x.out.Mappings = append(x.out.Mappings, facts.Mapping{Pos: x.pos(lit.Pos()), TypeName: name, InCode: true})
	}
	return nil // a mapping, or a positional struct literal without types.Info
}

// entryKey returns the key of a mapping entry, emitting a string key as a
// RoleKey fact (see keyName for the other keys), and whether the literal
// facts walk the key: an identifier may be an untyped constant used as a
// named type, a key without a name may hold literals. The keys of a list
// ([...]string{2: "x"}) are walked, and no keys of an entry.
func (x *extractor) entryKey(k ast.Expr, lv *litView) (key string, keyed, walk bool) {
	if !lv.mapping {
		return "", false, true
	}
	if l := x.strLit(k); l != nil {
		i := x.emit(l, facts.RoleKey, "", "", lv.mi, -1)
		return x.out.Strings[i].Value, true, false
	}
	key, keyed = x.keyName(k, lv.kind)
	_, isID := unparen(k).(*ast.Ident)
	return key, keyed, isID || !keyed
}

// keyName returns the key of a mapping entry: the value of a string key, the
// name of a field, the text of a number. An identifier key of a map literal
// is a constant or a variable: with types.Info it gives the constant's value
// and a variable gives no key; without, the identifier as spelled. Other
// keys have no name.
func (x *extractor) keyName(k ast.Expr, kind litKind) (string, bool) {
	if l := x.strLit(k); l != nil {
		return unquote(l.Value), true
	}
	name := ""
	switch v := unparen(k).(type) {
	case *ast.Ident:
		name = v.Name
	case *ast.SelectorExpr:
		if v.Sel == nil {
			return "", false
		}
		name = v.Sel.Name
	case *ast.BasicLit:
		return v.Value, true
	default:
		return "", false
	}
	if kind == kindMap && x.info != nil {
		if tv, ok := x.info.Types[k]; ok {
			switch {
			case tv.Value == nil:
				return "", false
			case tv.Value.Kind() == constant.String:
				return constant.StringVal(tv.Value), true
			default:
				return tv.Value.ExactString(), true
			}
		}
	}
	return name, true
}

// value returns the literal value of an expression for facts.Entry.Value.
func (x *extractor) value(e ast.Expr, depth int) any {
	if e == nil || depth > maxValueDepth {
		return facts.Unknown{}
	}
	if x.info != nil {
		if tv, ok := x.info.Types[e]; ok {
			if tv.Value != nil {
				return constValue(tv.Value)
			}
			if tv.IsNil() {
				return nil
			}
		}
	}
	switch v := e.(type) {
	case *ast.BasicLit:
		return basicValue(v)
	case *ast.Ident:
		switch v.Name {
		case "true":
			return true
		case "false":
			return false
		case "nil":
			return nil
		}
	case *ast.ParenExpr:
		return x.value(v.X, depth+1)
	case *ast.UnaryExpr:
		switch v.Op {
		case token.SUB:
			switch n := x.value(v.X, depth+1).(type) {
			case int64:
				if n != math.MinInt64 {
					return -n
				}
			case float64:
				return -n
			}
		case token.ADD:
			switch n := x.value(v.X, depth+1).(type) {
			case int64, float64:
				return n
			}
		case token.AND:
			if cl, ok := unparen(v.X).(*ast.CompositeLit); ok {
				return x.value(cl, depth+1)
			}
		}
	case *ast.CompositeLit:
		return x.litValue(v, depth+1)
	case *ast.CallExpr:
		if len(v.Args) == 1 && !v.Ellipsis.IsValid() && x.isType(v.Fun) {
			return x.value(v.Args[0], depth+1)
		}
	}
	return facts.Unknown{}
}

// litValue converts a nested composite literal: []any for a slice or array
// (or a positional literal of unknown type), map[string]any otherwise.
func (x *extractor) litValue(lit *ast.CompositeLit, depth int) any {
	kind, _, st := x.litType(lit, lit.Type)
	if kind == kindList || kind == kindUnknown && !hasKeys(lit) && len(lit.Elts) > 0 {
		out := make([]any, 0, len(lit.Elts))
		for _, el := range lit.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			out = append(out, x.value(el, depth))
		}
		return out
	}
	out := make(map[string]any, len(lit.Elts))
	for i, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if k, ok := x.keyName(kv.Key, kind); ok {
				out[k] = x.value(kv.Value, depth)
			}
		} else if st != nil && i < st.NumFields() {
			out[st.Field(i).Name()] = x.value(el, depth)
		}
	}
	return out
}

func basicValue(v *ast.BasicLit) any {
	switch v.Kind {
	case token.STRING:
		return unquote(v.Value)
	case token.INT:
		if i, err := strconv.ParseInt(v.Value, 0, 64); err == nil {
			return i
		}
	case token.FLOAT:
		if f, err := strconv.ParseFloat(v.Value, 64); err == nil {
			return f
		}
	case token.CHAR:
		if n := len(v.Value); n >= 3 && v.Value[0] == '\'' && v.Value[n-1] == '\'' {
			r, _, tail, err := strconv.UnquoteChar(v.Value[1:n-1], '\'')
			if err == nil && tail == "" {
				return int64(r)
			}
		}
	}
	return facts.Unknown{}
}

func constValue(v constant.Value) any {
	switch v.Kind() {
	case constant.String:
		return constant.StringVal(v)
	case constant.Bool:
		return constant.BoolVal(v)
	case constant.Int:
		if i, exact := constant.Int64Val(v); exact {
			return i
		}
	case constant.Float:
		if f, _ := constant.Float64Val(v); !math.IsInf(f, 0) {
			return f
		}
	}
	return facts.Unknown{}
}

// isMapLit reports whether cl builds a map: a map type, or without
// types.Info a named type whose first key is a string literal (a struct
// literal's keys are field names).
func (x *extractor) isMapLit(cl *ast.CompositeLit) bool {
	kind, _, _ := x.litType(cl, cl.Type)
	switch kind {
	case kindMap:
		return true
	case kindUnknown:
		if len(cl.Elts) > 0 {
			if kv, ok := cl.Elts[0].(*ast.KeyValueExpr); ok {
				return x.strLit(kv.Key) != nil
			}
		}
	}
	return false
}

// listLit returns e as a slice or array literal, or nil.
func (x *extractor) listLit(e ast.Expr) *ast.CompositeLit {
	cl, ok := unparen(e).(*ast.CompositeLit)
	if !ok {
		return nil
	}
	if kind, _, _ := x.litType(cl, cl.Type); kind != kindList {
		return nil
	}
	return cl
}
