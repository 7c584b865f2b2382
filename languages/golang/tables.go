package golang

// Thresholds read from a table of the file keyed by task type or tier:
// var thresholds = map[string]map[string]float64{"bugfix": {"escalate":
// 60, "review": 75}, ...} read as thresholds[kind]["escalate"], or
// map[string]tier{"gold": {Escalate: 60, Review: 75}} read as
// tiers[tier].Escalate. The use names the column; a comparison with it
// compares with every row's value, each a facts.Const named by its row
// and column.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// numTable is a file-level map literal of string keys to literals of
// numbers keyed by strings or field names.
type numTable struct {
	rows []numRow
}

type numRow struct {
	key  string
	cols map[string]float64
}

type tableRow struct {
	v    float64
	name string
}

const maxTableRows = 64

// prepareTables records the file's tables: package-level variables
// declared once with a map literal of them.
func (x *extractor) prepareTables(f *ast.File) {
	clear(x.fn.tables)
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			vs, ok := s.(*ast.ValueSpec)
			if !ok || len(vs.Names) != 1 || len(vs.Values) != 1 || vs.Names[0] == nil {
				continue
			}
			lit, ok := unparen(vs.Values[0]).(*ast.CompositeLit)
			if !ok {
				continue
			}
			if _, isMap := lit.Type.(*ast.MapType); !isMap {
				continue
			}
			if t := x.numTable(lit); t != nil {
				if x.fn.tables == nil {
					x.fn.tables = map[string]*numTable{}
				}
				x.fn.tables[vs.Names[0].Name] = t
			}
		}
	}
}

func (x *extractor) numTable(lit *ast.CompositeLit) *numTable {
	if len(lit.Elts) > maxTableRows {
		return nil
	}
	t := &numTable{}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return nil
		}
		k := x.strLit(kv.Key)
		if k == nil {
			return nil
		}
		row := numRow{key: unquote(k.Value)}
		v := unparen(kv.Value)
		if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
			v = u.X
		}
		inner, ok := v.(*ast.CompositeLit)
		if !ok {
			return nil
		}
		for _, ie := range inner.Elts {
			ikv, ok := ie.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			var col string
			switch ik := ikv.Key.(type) {
			case *ast.Ident:
				col = ik.Name
			default:
				if l := x.strLit(ikv.Key); l != nil {
					col = unquote(l.Value)
				}
			}
			if col == "" {
				continue
			}
			if f, ok := unparen(ikv.Value).(*ast.BasicLit); ok {
				if val, ok := basicConst(f); ok {
					if n, isNum := val.(float64); isNum {
						if row.cols == nil {
							row.cols = map[string]float64{}
						}
						row.cols[col] = n
					}
				}
			}
		}
		if row.cols == nil {
			return nil
		}
		t.rows = append(t.rows, row)
	}
	if len(t.rows) == 0 {
		return nil
	}
	return t
}

// tableConst returns the rows compared when e reads a column of a
// table: t[kind]["escalate"], t[kind][escalateKey] (a string constant)
// or t[kind].Escalate.
func (x *extractor) tableConst(e ast.Expr) (cval, bool) {
	if len(x.fn.tables) == 0 {
		return cval{}, false
	}
	var idx ast.Expr
	var col string
	switch v := unparen(e).(type) {
	case *ast.IndexExpr:
		idx = v.X
		if l := x.strLit(v.Index); l != nil {
			col = unquote(l.Value)
		} else if id, ok := unparen(v.Index).(*ast.Ident); ok {
			if c, ok := x.identConst(id); ok {
				col, _ = c.(string)
			}
		}
	case *ast.SelectorExpr:
		if v.Sel != nil {
			idx, col = v.X, v.Sel.Name
		}
	}
	if col == "" {
		return cval{}, false
	}
	row, ok := x.tableRow(idx)
	if !ok {
		return cval{}, false
	}
	var rows []tableRow
	for _, r := range x.fn.tables[row.table].rows {
		if row.key != "" && r.key != row.key {
			continue
		}
		if v, ok := r.cols[col]; ok {
			rows = append(rows, tableRow{v: v, name: row.table + "[" + strconv.Quote(r.key) + "]." + col})
		}
	}
	if len(rows) == 0 {
		return cval{}, false
	}
	return cval{v: rows[0].v, name: rows[0].name, rows: rows}, true
}

// rowRef is a row of a table a function reads: t[kind] (every row) or
// t["bugfix"], directly or through a local bound to it (r := t[kind]).
type rowRef struct{ table, key string }

// tableRow returns the row e reads, if it reads one.
func (x *extractor) tableRow(e ast.Expr) (rowRef, bool) {
	switch v := unparen(e).(type) {
	case *ast.Ident:
		r, ok := x.fn.rows[v.Name]
		return r, ok
	case *ast.IndexExpr:
		id, ok := unparen(v.X).(*ast.Ident)
		if !ok || x.fn.tables[id.Name] == nil || !x.fileVar(id) {
			return rowRef{}, false
		}
		r := rowRef{table: id.Name}
		if l := x.strLit(v.Index); l != nil {
			r.key = unquote(l.Value)
		}
		return r, true
	}
	return rowRef{}, false
}

// fileVar reports whether id names the file's variable of that name,
// not a local or parameter that shadows it.
func (x *extractor) fileVar(id *ast.Ident) bool {
	if x.info != nil {
		v, ok := x.info.Uses[id].(*types.Var)
		return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	}
	if x.fn.declared[id.Name] {
		return false
	}
	_, shadowed := x.fn.local[id.Name]
	return !shadowed
}

// bindRow notes that local name holds a row of a table after name = r
// (r := thresholds[kind]), or forgets that it did.
func (x *extractor) bindRow(name string, r ast.Expr) {
	delete(x.fn.rows, name)
	if r == nil {
		return
	}
	if row, ok := x.tableRow(r); ok {
		if _, isLocal := unparen(r).(*ast.Ident); isLocal {
			return // a copy of a row local: not followed
		}
		if x.fn.rows == nil {
			x.fn.rows = map[string]rowRef{}
		}
		x.fn.rows[name] = row
	}
}
