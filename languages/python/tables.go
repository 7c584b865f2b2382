package python

// Thresholds read from a table of the module keyed by task type or tier:
// THRESHOLDS = {"bugfix": {"escalate": 60, "review": 75}, ...} read as
// THRESHOLDS[kind]["escalate"] (or THRESHOLDS[kind][ESCALATE]), and
// TIERS = {"gold": (60, 75), ...} unpacked as escalate_at, review_at =
// TIERS[tier]. The use names the column (the key "escalate", the
// variable escalate_at); a comparison with it compares with every row's
// value, each a facts.Const named by its row and column.

import (
	"strconv"
	"strings"
)

// numTable is a module-level mapping of string keys to mappings of
// string keys to numbers, or to tuples of numbers.
type numTable struct {
	rows []numRow
}

type numRow struct {
	key   string
	cols  map[string]float64 // {"escalate": 60}
	tuple []float64          // (60, 75)
	flat  *float64           // 60: the table's name names the use
}

// tableRow is one row's value of a column a comparison reads.
type tableRow struct {
	v    float64
	name string
}

// maxTableRows bounds the rows a table may have to be read as one.
const maxTableRows = 64

// scanTables records the module's tables (see numTable): names assigned
// once, at the top level, a dict literal of them.
func (x *extractor) scanTables() {
	h := &x.fs.help
	clear(h.tables)
	end := int(x.nodes[0].End)
	for s := x.first(0); s >= 0; s = x.next(s, end) {
		if x.kind(s) != kExprStmt {
			continue
		}
		se := int(x.nodes[s].End)
		for a := x.first(s); a >= 0; a = x.next(a, se) {
			if x.kind(a) != kAssign {
				continue
			}
			left, right := x.child(a, fLeft), x.unparen(x.child(a, fRight))
			if x.kind(left) != kIdent || x.kind(right) != kDict {
				continue
			}
			name := x.text(left)
			if c, ok := x.fs.mod.consts[string(name)]; !ok || c.n != 1 {
				continue
			}
			if t := x.numTable(right); t != nil {
				if h.tables == nil {
					h.tables = make(map[string]*numTable)
				}
				h.tables[x.fs.intern(name)] = t
			}
		}
	}
}

// numTable reads dict d as a table, or nil.
func (x *extractor) numTable(d int) *numTable {
	t := &numTable{}
	end := int(x.nodes[d].End)
	for p := x.first(d); p >= 0; p = x.next(p, end) {
		if !x.named(p) || x.kind(p) == kComment {
			continue
		}
		if x.kind(p) != kPair || len(t.rows) == maxTableRows {
			return nil
		}
		key, ok := x.literal(x.child(p, fKey))
		if !ok {
			return nil
		}
		row := numRow{key: key}
		v := x.unparen(x.child(p, fValue))
		ve := int(x.nodes[v].End)
		switch x.kind(v) {
		case kDict:
			for q := x.first(v); q >= 0; q = x.next(q, ve) {
				if x.kind(q) != kPair {
					continue
				}
				k, ok := x.literal(x.child(q, fKey))
				f, num := x.number(x.unparen(x.child(q, fValue)))
				if ok && num {
					if row.cols == nil {
						row.cols = map[string]float64{}
					}
					row.cols[k] = f
				}
			}
		case kTuple, kList:
			for q := x.first(v); q >= 0; q = x.next(q, ve) {
				if !x.named(q) {
					continue
				}
				f, num := x.number(x.unparen(q))
				if !num {
					return nil
				}
				row.tuple = append(row.tuple, f)
			}
		default:
			f, num := x.number(v)
			if !num || len(t.rows) > 0 && t.rows[0].flat == nil {
				return nil
			}
			row.flat = &f
		}
		if row.cols == nil && row.tuple == nil && row.flat == nil || len(t.rows) > 0 && (row.flat == nil) != (t.rows[0].flat == nil) {
			return nil
		}
		t.rows = append(t.rows, row)
	}
	if len(t.rows) == 0 {
		return nil
	}
	return t
}

// tableOf returns the table and the row key of subscript s, T[k] with T
// a table of the module (not rebound in the function); key is "" when k
// is not a literal (T[kind]: every row).
func (x *extractor) tableOf(s int) (t *numTable, tname, key string, ok bool) {
	if x.kind(s) == kIdent && len(x.fs.help.tables) > 0 {
		// a local bound to a row: row = THRESHOLDS[kind]
		if l, bound := x.fs.locals[string(x.text(s))]; bound && l.row != nil {
			return l.row.t, l.row.tname, l.row.key, true
		}
		return nil, "", "", false
	}
	if x.kind(s) != kSubscript || len(x.fs.help.tables) == 0 {
		return nil, "", "", false
	}
	v := x.unparen(x.child(s, fValue))
	if x.kind(v) != kIdent {
		return nil, "", "", false
	}
	tname = string(x.text(v))
	if _, shadowed := x.fs.locals[tname]; shadowed {
		return nil, "", "", false
	}
	if t = x.fs.help.tables[tname]; t == nil {
		return nil, "", "", false
	}
	if k := x.stringKey(s); k >= 0 {
		key, _ = x.literal(k)
	}
	return t, tname, key, true
}

// tableColumn returns the rows of column col of t (the rows named key,
// or every row for ""), as a comparison reads them.
func (x *extractor) tableColumn(t *numTable, tname, key, col string, idx int) []tableRow {
	var out []tableRow
	for _, r := range t.rows {
		if key != "" && r.key != key {
			continue
		}
		var v float64
		var ok bool
		if idx >= 0 {
			if ok = len(r.tuple) > idx && len(r.cols) == 0; ok {
				v = r.tuple[idx]
			}
		} else {
			v, ok = r.cols[col]
		}
		if ok {
			out = append(out, tableRow{v: v, name: x.fs.intern([]byte(tname + "[" + strconv.Quote(r.key) + "]." + col))})
		}
	}
	return out
}

// flatConst returns the rows compared when i reads a table of numbers
// whose name says they are cut-offs: ESCALATION_THRESHOLDS[kind], or
// ESCALATION_THRESHOLDS.get(kind, ESCALATION_THRESHOLDS["default"]).
func (x *extractor) flatConst(i int) (cval, bool) {
	s := i
	if x.kind(i) == kCall {
		fn, args := x.child(i, fFunction), x.child(i, fArguments)
		if x.kind(fn) != kAttr || string(x.text(x.child(fn, fAttribute))) != "get" || args < 0 {
			return cval{}, false
		}
		s = -1
		var buf [2]int
		if a := x.namedChildren(args, buf[:0]); len(a) >= 1 {
			s = a[0]
		}
		if s < 0 {
			return cval{}, false
		}
		i = x.unparen(x.child(fn, fObject))
	} else {
		if x.kind(i) != kSubscript {
			return cval{}, false
		}
		s = x.stringKey(i)
		i = x.unparen(x.child(i, fValue))
	}
	if x.kind(i) != kIdent {
		return cval{}, false
	}
	tname := string(x.text(i))
	t := x.fs.help.tables[tname]
	if _, shadowed := x.fs.locals[tname]; shadowed || t == nil || t.rows[0].flat == nil || !cutOffName(tname) {
		return cval{}, false
	}
	key := ""
	if s >= 0 && x.kind(s) == kString {
		key, _ = x.literal(s)
	}
	var rows []tableRow
	for _, r := range t.rows {
		if key == "" || r.key == key {
			rows = append(rows, tableRow{v: *r.flat, name: x.fs.intern([]byte(tname + "[" + strconv.Quote(r.key) + "]"))})
		}
	}
	if len(rows) == 0 {
		return cval{}, false
	}
	return cval{v: rows[0].v, name: rows[0].name, rows: rows}, true
}

// cutOffName tells whether a table's name says its numbers are cut-offs
// (ESCALATION_THRESHOLDS, MIN_CONFIDENCE, quality_floor), not weights or
// prices.
func cutOffName(name string) bool {
	low := strings.ToLower(name)
	for _, w := range [...]string{"threshold", "cutoff", "cut_off", "floor", "min_", "_min", "minimum", "escalat"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// tableConst returns the rows compared when i reads a column of a table:
// T[kind]["escalate"] or T[kind][ESCALATE], ESCALATE a string constant of
// the module.
func (x *extractor) tableConst(i int) (cval, bool) {
	if x.kind(i) != kSubscript || len(x.fs.help.tables) == 0 {
		return cval{}, false
	}
	if v, ok := x.flatConst(i); ok {
		return v, true
	}
	t, tname, key, ok := x.tableOf(x.unparen(x.child(i, fValue)))
	if !ok {
		return cval{}, false
	}
	var col string
	if k := x.stringKey(i); k >= 0 {
		col, _ = x.literal(k)
	} else {
		sub := -1
		end := int(x.nodes[i].End)
		for c := x.first(i); c >= 0; c = x.next(c, end) {
			if x.nodes[c].Field == fSubscript {
				sub = c
			}
		}
		if x.kind(sub) != kIdent {
			return cval{}, false
		}
		name := x.text(sub)
		if _, shadowed := x.fs.locals[string(name)]; shadowed {
			return cval{}, false
		}
		c, found := x.fs.mod.consts[string(name)]
		s, isStr := c.val.(string)
		if !found || c.n != 1 || !isStr {
			return cval{}, false
		}
		col = s
	}
	rows := x.tableColumn(t, tname, key, col, -1)
	if len(rows) == 0 {
		return cval{}, false
	}
	return cval{v: rows[0].v, name: rows[0].name, rows: rows}, true
}

// bindTable binds the locals of an assignment from a table: x =
// T[kind]["escalate"], or a, b = T[tier] with T's rows tuples of as
// many numbers. It reports whether it did.
func (x *extractor) bindTable(left, right int) bool {
	right = x.unparen(right)
	if x.kind(left) == kIdent {
		if v, ok := x.tableConst(right); ok {
			x.bindLocal(x.text(left), local{def: &v})
			return true
		}
		if x.kind(right) == kSubscript {
			if t, tname, key, ok := x.tableOf(right); ok {
				x.bindLocal(x.text(left), local{row: &rowRef{t: t, tname: tname, key: key}})
				return true
			}
		}
		return false
	}
	switch x.kind(left) {
	case kPatternList, kTuplePattern, kTuple, kExprList:
	default:
		return false
	}
	t, tname, key, ok := x.tableOf(right)
	if !ok {
		return false
	}
	var ids [8]int
	names := ids[:0]
	end := int(x.nodes[left].End)
	for c := x.first(left); c >= 0; c = x.next(c, end) {
		if !x.named(c) {
			continue
		}
		if x.kind(c) != kIdent || len(names) == len(ids) {
			return false
		}
		names = append(names, c)
	}
	for _, r := range t.rows {
		if len(r.tuple) != len(names) {
			return false
		}
	}
	for k, c := range names {
		name := x.text(c)
		if string(name) == "_" {
			x.bindLocal(name, local{})
			continue
		}
		rows := x.tableColumn(t, tname, key, string(name), k)
		if len(rows) == 0 {
			x.bindLocal(name, local{})
			continue
		}
		x.bindLocal(name, local{def: &cval{v: rows[0].v, name: rows[0].name, rows: rows}})
	}
	return true
}

// rowRef is a row of a table a local is bound to (row = T[kind]: every
// row; row = T["bugfix"]: that one).
type rowRef struct {
	t          *numTable
	tname, key string
}
