package python

// Required fields: what a validation refuses its input without
// (facts.Function.Required). Read after the walk, from the flat tree of
// each function named for validation, with the file's groups, mappings
// and classes at hand: a list of required fields may be a module constant
// or a class attribute defined anywhere in the file.

import (
	"bytes"
	"slices"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// requiredFields fills Function.Required of the functions whose name says
// they validate. Functions are recorded in preorder, so one pass over the
// nodes finds each function's node by its start.
func (x *extractor) requiredFields() {
	fns := x.f.Functions
	j := 0
	var models map[string]modelClass
	for i := 0; i < len(x.nodes) && j < len(fns); i++ {
		if x.kind(i) != kFunc {
			continue
		}
		off := int(x.nodes[i].StartByte)
		for j < len(fns) && fns[j].Pos.Offset < off {
			j++
		}
		if j == len(fns) || fns[j].Pos.Offset != off {
			continue
		}
		if requiredName(fns[j].Name) {
			if models == nil {
				models = x.modelClasses()
			}
			rc := reqCtx{fn: &fns[j], node: i, models: models}
			x.requiredIn(&rc)
			// a reading cut short by the budget may lack fields, and a
			// field it lacks would be judged missing: nothing then
			if len(rc.out) > 0 && rc.work >= 0 {
				fns[j].Required = rc.out
			}
		}
		j++
		i = int(x.nodes[i].End) - 1 // nested definitions are part of it
	}
}

// requiredName tells whether a function's own name says it validates.
func requiredName(name string) bool {
	n := lowerWord([]byte(name[lastDot(name)+1:]))
	for _, w := range [...]string{"valid", "check", "verif", "require"} {
		if containsStr(n, w) {
			return true
		}
	}
	return false
}

// reqCtx is the state of one function's reading.
type reqCtx struct {
	fn     *facts.Function
	node   int
	models map[string]modelClass
	// records are the names that may hold the record validated: the
	// parameters, and locals bound from a decoder (json.loads(raw)).
	records map[string]bool
	out     []facts.Required
	// work is what is left of the function's budget of nodes visited by
	// the searches that look again at part of it (a loop's body, the uses
	// of a list of missing fields): a few times its size, so that nested
	// loops and many lists cost linear time.
	work int
}

// spend takes n from the budget, and tells whether it was there.
func (rc *reqCtx) spend(n int) bool {
	rc.work -= n
	return rc.work >= 0
}

func (rc *reqCtx) add(field string, p facts.Pos, how, recv string) {
	if field == "" || slices.ContainsFunc(rc.out, func(r facts.Required) bool { return r.Field == field }) {
		return
	}
	rc.out = append(rc.out, facts.Required{Field: field, Pos: p, How: how, Receiver: recv})
}

// decoders are the calls whose result is a record read from outside.
var decoders = map[string]bool{"loads": true, "load": true, "safe_load": true, "parse": true, "model_dump": true,
	"dict": true, "to_dict": true, "asdict": true, "json": true}

func (x *extractor) requiredIn(rc *reqCtx) {
	rc.records = make(map[string]bool, len(rc.fn.Params)+2)
	for _, p := range rc.fn.Params {
		rc.records[p] = true
	}
	end := int(x.nodes[rc.node].End)
	rc.work = 4*(end-rc.node) + 1024
	for k := rc.node + 1; k < end; k++ {
		if x.kind(k) == kAssign {
			if l, r := x.child(k, fLeft), x.child(k, fRight); x.kind(l) == kIdent && x.kind(r) == kCall &&
				decoders[string(x.lastName(x.child(r, fFunction)))] {
				rc.records[string(x.text(l))] = true
			}
		}
	}
	for k := rc.node + 1; k < end; k++ {
		switch x.kind(k) {
		case kIf:
			if x.ifBranch(x.child(k, fConsequence), x.elseOf(k)) == facts.BranchReject || x.appendsMissing(x.child(k, fConsequence), rc) {
				x.absentIn(x.child(k, fCondition), rc, 0)
			}
		case kElif:
			if body := x.child(k, fConsequence); x.outcome(body) == facts.BranchReject || x.appendsMissing(body, rc) {
				x.absentIn(x.child(k, fCondition), rc, 0)
			}
		case kAssert:
			x.presentIn(x.namedFirst(k), rc, 0)
		case kFor:
			x.requiredLoop(k, rc)
		case kAssign:
			if l := x.child(k, fLeft); x.kind(l) == kIdent && missingName(x.text(l)) && x.reportsName(x.text(l), rc) {
				x.requiredSet(x.unparen(x.child(k, fRight)), rc)
			}
		case kCall:
			x.requiredCall(k, rc)
		}
	}
}

// missingName tells whether a name says it collects what is missing or
// wrong: missing, missing_fields, errors, problems.
func missingName(b []byte) bool {
	return containsStr(lowerWord(b), "missing") || problemName(b)
}

// reportsName tells whether the function rejects or reports with the
// list bound to name: an if on it that rejects (if missing: raise), a
// return or raise that holds it (return missing, raise E(missing)).
func (x *extractor) reportsName(name []byte, rc *reqCtx) bool {
	end := int(x.nodes[rc.node].End)
	if !rc.spend(end - rc.node) {
		return false
	}
	for k := rc.node + 1; k < end; k++ {
		var in int
		switch x.kind(k) {
		case kIf:
			if x.ifBranch(x.child(k, fConsequence), x.elseOf(k)) != facts.BranchReject {
				continue
			}
			in = x.child(k, fCondition)
		case kReturn, kRaise:
			in = k
		default:
			continue
		}
		if in < 0 {
			continue
		}
		for j := in; j < int(x.nodes[in].End); j++ {
			if x.kind(j) == kIdent && bytes.Equal(x.text(j), name) {
				return true
			}
		}
	}
	return false
}

// appendsMissing tells whether block b starts by appending to a list named
// for what is missing (missing.append(f)) that the function rejects or
// reports with later (if missing: raise).
func (x *extractor) appendsMissing(b int, rc *reqCtx) bool {
	if b < 0 {
		return false
	}
	end := int(x.nodes[b].End)
	for c := x.first(b); c >= 0; c = x.next(c, end) {
		if !x.named(c) {
			continue
		}
		e := x.namedFirst(c)
		if x.kind(c) != kExprStmt || x.kind(e) != kCall {
			return false
		}
		fn := x.child(e, fFunction)
		if x.kind(fn) != kAttr {
			return false
		}
		switch string(x.text(x.child(fn, fAttribute))) {
		case "append", "add":
			name := x.lastName(x.child(fn, fObject))
			return missingName(name) && x.reportsName(name, rc)
		}
		return false
	}
	return false
}

// absentIn reads the disjuncts of a rejected condition that test a
// field's absence from a record: "x" not in msg, msg.get("x") is None,
// not msg.get("x"), any(f not in msg for f in REQUIRED). A conjunction
// ("x" in msg and not msg["x"]) tests an optional field: none of it.
func (x *extractor) absentIn(c int, rc *reqCtx, d int) {
	c = x.unparen(c)
	if c < 0 || d > maxDepth {
		return
	}
	switch x.kind(c) {
	case kBoolOp:
		if x.opKind(c) == kOpOr {
			x.absentIn(x.child(c, fLeft), rc, d+1)
			x.absentIn(x.child(c, fRight), rc, d+1)
		}
		return
	case kCall:
		// any(f not in msg for f in REQUIRED): the generator is the
		// call's arguments
		if g := x.child(c, fArguments); string(x.text(x.child(c, fFunction))) == "any" && x.kind(g) == kGenExpr {
			forIn := x.childKind(g, kForIn)
			if forIn < 0 || x.kind(x.child(forIn, fLeft)) != kIdent {
				return
			}
			if recv := x.loopVarTest(x.child(g, fBody), x.text(x.child(forIn, fLeft)), rc, 0); recv != "" {
				for _, it := range x.fieldList(x.child(forIn, fRight), rc, 0) {
					rc.add(it.name, it.pos, "list", recv)
				}
			}
		}
		return
	case kNot:
		// not all(f in msg for f in REQUIRED), not REQUIRED.issubset(msg)
		if a := x.unparen(x.child(c, fArgument)); x.kind(a) == kCall {
			fn, g := x.child(a, fFunction), x.child(a, fArguments)
			switch {
			case string(x.text(fn)) == "all" && x.kind(g) == kGenExpr:
				x.allPresent(g, rc)
				return
			case x.kind(fn) == kAttr && string(x.text(x.child(fn, fAttribute))) == "issubset":
				var buf [2]int
				if args, simple := x.callArgs(g, buf[:0]); simple && len(args) == 1 {
					if recv := x.recordKeys(args[0], rc); recv != "" {
						for _, it := range x.fieldList(x.child(fn, fObject), rc, 0) {
							rc.add(it.name, it.pos, "list", recv)
						}
					}
				}
				return
			}
		}
	}
	key, _, recv := x.absentTest(c)
	if x.kind(key) == kString && rc.records[string(recv)] {
		rc.add(x.strValue(key), x.pos(x.nodes[key].StartByte), "test", string(recv))
	}
}

// presentIn reads an assert's condition: "x" in msg, each conjunct of an
// and.
func (x *extractor) presentIn(c int, rc *reqCtx, d int) {
	c = x.unparen(c)
	if c < 0 || d > maxDepth {
		return
	}
	if x.kind(c) == kBoolOp {
		if x.opKind(c) == kOpAnd {
			x.presentIn(x.child(c, fLeft), rc, d+1)
			x.presentIn(x.child(c, fRight), rc, d+1)
		}
		return
	}
	if x.kind(c) != kCompare || x.opKind(c) != kOpIn {
		return
	}
	var buf [3]int
	ops := x.namedChildren(c, buf[:0])
	if len(ops) == 2 && x.kind(ops[0]) == kString && x.kind(ops[1]) == kIdent && rc.records[string(x.text(ops[1]))] {
		rc.add(x.strValue(ops[0]), x.pos(x.nodes[ops[0]].StartByte), "test", string(x.text(ops[1])))
	}
}

// opKind is the one operator of a comparison or boolean operation, or
// kOther when it has none or several.
func (x *extractor) opKind(c int) kind {
	op := kOther
	end := int(x.nodes[c].End)
	for k := x.first(c); k >= 0; k = x.next(k, end) {
		switch kd := x.kind(k); kd {
		case kOpNotIn, kOpIn, kOpIs, kOpEq, kOpAnd, kOpOr, kOpIsNot, kOpNe:
			if op != kOther {
				return kOther
			}
			op = kd
		}
	}
	return op
}

// absentTest reads one test of a field's absence: the key (a string, or
// the loop variable that stands for one) and the record's name.
func (x *extractor) absentTest(c int) (key int, keyName, recv []byte) {
	c = x.unparen(c)
	switch x.kind(c) {
	case kCompare:
		var buf [3]int
		ops := x.namedChildren(c, buf[:0])
		if len(ops) != 2 {
			return -1, nil, nil
		}
		switch x.opKind(c) {
		case kOpNotIn:
			r := x.unparen(ops[1])
			if x.kind(r) == kCall { // msg.keys()
				if fn := x.child(r, fFunction); x.kind(fn) == kAttr && string(x.text(x.child(fn, fAttribute))) == "keys" {
					r = x.child(fn, fObject)
				}
			}
			if x.kind(r) != kIdent {
				return -1, nil, nil
			}
			return x.keyOf(ops[0], r)
		case kOpIs, kOpEq:
			if x.kind(ops[1]) == kNone {
				return x.getCall(ops[0])
			}
		}
	case kNot:
		return x.getCall(x.child(c, fArgument))
	}
	return -1, nil, nil
}

func (x *extractor) keyOf(k, recv int) (int, []byte, []byte) {
	switch x.kind(k) {
	case kString:
		return k, nil, x.text(recv)
	case kIdent:
		return -1, x.text(k), x.text(recv)
	}
	return -1, nil, nil
}

// getCall reads msg.get(K) with one argument.
func (x *extractor) getCall(c int) (int, []byte, []byte) {
	c = x.unparen(c)
	if x.kind(c) != kCall {
		return -1, nil, nil
	}
	fn := x.child(c, fFunction)
	if x.kind(fn) != kAttr || string(x.text(x.child(fn, fAttribute))) != "get" || x.kind(x.child(fn, fObject)) != kIdent {
		return -1, nil, nil
	}
	var buf [2]int
	a, simple := x.callArgs(x.child(c, fArguments), buf[:0])
	if !simple || len(a) != 1 {
		return -1, nil, nil
	}
	return x.keyOf(a[0], x.child(fn, fObject))
}

// strValue is the value of a plain string literal.
func (x *extractor) strValue(s int) string {
	b := x.text(s)
	for len(b) > 0 && (b[0] == 'r' || b[0] == 'u' || b[0] == 'R' || b[0] == 'U') {
		b = b[1:]
	}
	if len(b) >= 2 && (b[0] == '"' || b[0] == '\'') && b[len(b)-1] == b[0] {
		b = b[1 : len(b)-1]
	}
	if bytes.ContainsAny(b, "\\\"' ") {
		return ""
	}
	return string(b)
}

// requiredLoop reads `for f in REQUIRED: if f not in msg: raise` (or
// append to a list of missing fields).
func (x *extractor) requiredLoop(k int, rc *reqCtx) {
	v := x.child(k, fLeft)
	if x.kind(v) != kIdent {
		return
	}
	body := x.child(k, fBody)
	if body < 0 {
		return
	}
	recv := x.loopTest(body, x.text(v), rc)
	if recv == "" {
		return
	}
	for _, it := range x.fieldList(x.child(k, fRight), rc, 0) {
		rc.add(it.name, it.pos, "list", recv)
	}
}

// loopTest finds in a loop's body a rejected test of the loop variable
// v's absence from a record, and returns the record's name.
func (x *extractor) loopTest(body int, v []byte, rc *reqCtx) string {
	end := int(x.nodes[body].End)
	if !rc.spend(end - body) {
		return ""
	}
	for k := body; k < end; k++ {
		switch x.kind(k) {
		case kIf:
			if x.ifBranch(x.child(k, fConsequence), x.elseOf(k)) != facts.BranchReject && !x.appendsMissing(x.child(k, fConsequence), rc) {
				continue
			}
		case kElif:
			if x.outcome(x.child(k, fConsequence)) != facts.BranchReject && !x.appendsMissing(x.child(k, fConsequence), rc) {
				continue
			}
		default:
			continue
		}
		if r := x.loopVarTest(x.child(k, fCondition), v, rc, 0); r != "" {
			return r
		}
	}
	return ""
}

func (x *extractor) loopVarTest(c int, v []byte, rc *reqCtx, d int) string {
	c = x.unparen(c)
	if c < 0 || d > maxDepth {
		return ""
	}
	if x.kind(c) == kBoolOp {
		if x.opKind(c) != kOpOr {
			return ""
		}
		if r := x.loopVarTest(x.child(c, fLeft), v, rc, d+1); r != "" {
			return r
		}
		return x.loopVarTest(x.child(c, fRight), v, rc, d+1)
	}
	_, name, recv := x.absentTest(c)
	if name != nil && bytes.Equal(name, v) && rc.records[string(recv)] {
		return string(recv)
	}
	return ""
}

// requiredSet reads a collection of the fields missing from a record:
// [f for f in REQUIRED if f not in msg] (a list, set or generator), or
// REQUIRED - set(msg), REQUIRED - msg.keys(), set(REQUIRED).difference(msg).
func (x *extractor) requiredSet(e int, rc *reqCtx) {
	switch x.kind(e) {
	case kListComp, kSetComp, kGenExpr:
		forIn, ifc := x.childKind(e, kForIn), x.childKind(e, kIfClause)
		if forIn < 0 || ifc < 0 || x.kind(x.child(forIn, fLeft)) != kIdent {
			return
		}
		recv := x.loopVarTest(x.namedFirst(ifc), x.text(x.child(forIn, fLeft)), rc, 0)
		if recv == "" {
			return
		}
		for _, it := range x.fieldList(x.child(forIn, fRight), rc, 0) {
			rc.add(it.name, it.pos, "list", recv)
		}
	case kBinaryOp:
		if !bytes.Equal(x.text(x.child(e, fOperator)), []byte("-")) {
			return
		}
		if recv := x.recordKeys(x.child(e, fRight), rc); recv != "" {
			for _, it := range x.fieldList(x.child(e, fLeft), rc, 0) {
				rc.add(it.name, it.pos, "list", recv)
			}
		}
	case kCall:
		fn := x.child(e, fFunction)
		if x.kind(fn) != kAttr || string(x.text(x.child(fn, fAttribute))) != "difference" {
			return
		}
		var buf [2]int
		a, simple := x.callArgs(x.child(e, fArguments), buf[:0])
		if !simple || len(a) != 1 {
			return
		}
		if recv := x.recordKeys(a[0], rc); recv != "" {
			for _, it := range x.fieldList(x.child(fn, fObject), rc, 0) {
				rc.add(it.name, it.pos, "list", recv)
			}
		}
	}
}

// recordKeys reads the keys of a record: msg, set(msg), msg.keys(),
// set(msg.keys()); it returns the record's name.
func (x *extractor) recordKeys(e int, rc *reqCtx) string {
	for d := 0; d < 3; d++ {
		e = x.unparen(e)
		switch x.kind(e) {
		case kIdent:
			if rc.records[string(x.text(e))] {
				return string(x.text(e))
			}
			return ""
		case kCall:
			fn := x.child(e, fFunction)
			var buf [2]int
			a, simple := x.callArgs(x.child(e, fArguments), buf[:0])
			switch {
			case x.kind(fn) == kIdent && (string(x.text(fn)) == "set" || string(x.text(fn)) == "frozenset") && simple && len(a) == 1:
				e = a[0]
			case x.kind(fn) == kAttr && string(x.text(x.child(fn, fAttribute))) == "keys" && len(a) == 0:
				e = x.child(fn, fObject)
			default:
				return ""
			}
		default:
			return ""
		}
	}
	return ""
}

type listItem struct {
	name string
	pos  facts.Pos
}

// fieldList reads a list of field names: a literal list, tuple or set of
// strings; a name bound to one in the function, its class or the module
// (REQUIRED_FIELDS, self.REQUIRED, cls.REQUIRED); either wrapped in
// set(), list(), tuple(), frozenset() or sorted().
func (x *extractor) fieldList(e int, rc *reqCtx, d int) []listItem {
	e = x.unparen(e)
	if e < 0 || d > 4 {
		return nil
	}
	switch x.kind(e) {
	case kList, kTuple, kSet:
		var out []listItem
		end := int(x.nodes[e].End)
		for c := x.first(e); c >= 0; c = x.next(c, end) {
			if !x.named(c) {
				continue
			}
			if x.kind(c) != kString {
				return nil
			}
			s := x.strValue(c)
			if s == "" {
				return nil
			}
			out = append(out, listItem{s, x.pos(x.nodes[c].StartByte)})
		}
		return out
	case kCall:
		switch string(x.text(x.child(e, fFunction))) {
		case "set", "list", "tuple", "frozenset", "sorted":
			var buf [2]int
			if a, simple := x.callArgs(x.child(e, fArguments), buf[:0]); simple && len(a) == 1 {
				return x.fieldList(a[0], rc, d+1)
			}
		}
	case kIdent:
		return x.groupItems(string(x.text(e)), rc, false)
	case kAttr:
		obj := x.child(e, fObject)
		if x.kind(obj) == kIdent {
			return x.groupItems(string(x.text(x.child(e, fAttribute))), rc, true)
		}
	}
	return nil
}

// groupItems returns the strings of the group named name that the
// function sees: its own, its class's (an attribute), the module's.
func (x *extractor) groupItems(name string, rc *reqCtx, attr bool) []listItem {
	cls := ""
	if i := lastDot(rc.fn.Name); i >= 0 {
		cls = rc.fn.Name[:i]
	}
	best, rank := -1, 0
	for g := range x.f.Groups {
		gr := &x.f.Groups[g]
		if gr.Kind != facts.GroupSet || gr.Name != name {
			continue
		}
		r := 0
		switch {
		case !attr && gr.Scope == rc.fn.Name:
			r = 3
		case attr && cls != "" && (gr.Scope == cls || len(gr.Scope) > len(cls) && gr.Scope[:len(cls)+1] == cls+"."):
			r = 2
		case gr.Scope == "":
			r = 1
		}
		if r > rank {
			best, rank = g, r
		}
	}
	if best < 0 {
		return nil
	}
	var out []listItem
	for _, m := range x.f.Groups[best].Members {
		s := &x.f.Strings[m]
		out = append(out, listItem{s.Value, s.Pos})
	}
	return out
}

// requiredCall reads a record built into a model (Handback(**msg),
// Handback.model_validate(msg), Handback.parse_obj(msg)) or validated
// against a JSON schema written in code (jsonschema.validate(msg, SCHEMA),
// Draft7Validator(SCHEMA).validate(msg)).
func (x *extractor) requiredCall(c int, rc *reqCtx) {
	fn := x.child(c, fFunction)
	args := x.child(c, fArguments)
	if x.kind(args) != kArgList {
		return
	}
	var model string
	var recv string
	switch x.kind(fn) {
	case kIdent:
		model = string(x.text(fn))
		if _, ok := rc.models[model]; ok {
			end := int(x.nodes[args].End)
			for a := x.first(args); a >= 0; a = x.next(a, end) {
				if x.kind(a) == kDictSplat {
					if r := x.namedFirst(a); x.kind(r) == kIdent && rc.records[string(x.text(r))] {
						recv = string(x.text(r))
					}
				}
			}
		}
	case kAttr:
		switch string(x.text(x.child(fn, fAttribute))) {
		case "model_validate", "parse_obj", "validate", "from_dict":
			if obj := x.child(fn, fObject); x.kind(obj) == kIdent {
				model = string(x.text(obj))
				var buf [2]int
				if a, simple := x.callArgs(args, buf[:0]); simple && len(a) == 1 && x.kind(a[0]) == kIdent && rc.records[string(x.text(a[0]))] {
					recv = string(x.text(a[0]))
				}
			}
		}
	}
	if mc, ok := rc.models[model]; ok && recv != "" {
		for _, f := range mc.fields {
			rc.add(f.name, f.pos, "model", recv)
		}
		return
	}
	switch string(x.lastName(fn)) {
	case "validate", "iter_errors", "is_valid":
	default:
		return
	}
	// the schema and the record among the arguments, positional or named,
	// or the schema given to the validator's constructor
	var schema []listItem
	recv = ""
	end := int(x.nodes[args].End)
	look := func(a int) {
		if x.kind(a) == kKwarg {
			a = x.child(a, fValue)
		}
		if x.kind(a) != kIdent {
			return
		}
		name := string(x.text(a))
		if rc.records[name] && recv == "" {
			recv = name
		} else if s := x.schemaRequired(name, rc); s != nil {
			schema = s
		}
	}
	for a := x.first(args); a >= 0; a = x.next(a, end) {
		look(a)
	}
	if schema == nil && x.kind(fn) == kAttr {
		if ctor := x.child(fn, fObject); x.kind(ctor) == kCall {
			if ca := x.child(ctor, fArguments); x.kind(ca) == kArgList {
				cend := int(x.nodes[ca].End)
				for a := x.first(ca); a >= 0; a = x.next(a, cend) {
					look(a)
				}
			}
		}
	}
	for _, it := range schema {
		if recv != "" {
			rc.add(it.name, it.pos, "schema", recv)
		}
	}
}

// schemaRequired returns the top-level required fields of a JSON schema
// bound to name in the function or the module: a dict with "required"
// beside "type" or "properties".
func (x *extractor) schemaRequired(name string, rc *reqCtx) []listItem {
	for i := range x.f.Mappings {
		m := &x.f.Mappings[i]
		if m.Name != name || (m.Scope != "" && m.Scope != rc.fn.Name) {
			continue
		}
		schema := false
		for _, e := range m.Entries {
			if e.Key == "type" || e.Key == "properties" {
				schema = true
			}
		}
		if !schema {
			continue
		}
		var out []listItem
		for s := range x.f.Strings {
			st := &x.f.Strings[s]
			if st.Mapping == i && st.Key == "required" && st.Role == facts.RoleValue {
				out = append(out, listItem{st.Value, st.Pos})
			}
		}
		return out
	}
	return nil
}

// modelClass is a dataclass or pydantic model of the file and its fields
// without a default.
type modelClass struct {
	fields []listItem
}

// modelClasses finds the module-level dataclasses (@dataclass,
// @dataclasses.dataclass) and pydantic models (a BaseModel base) and their
// fields without a default: x: T, or pydantic's x: T = Field(...). A
// pydantic field typed Optional or `| None` is left out (pydantic v1
// gives it the default None).
func (x *extractor) modelClasses() map[string]modelClass {
	out := map[string]modelClass{}
	for i := 0; i < len(x.nodes); i++ {
		k := x.kind(i)
		if k != kClass && k != kDecorated {
			if k == kFunc {
				i = int(x.nodes[i].End) - 1
			}
			continue
		}
		cls, dataclass := i, false
		if k == kDecorated {
			cls = x.child(i, fDefinition)
			if x.kind(cls) != kClass {
				continue
			}
			dataclass = bytes.Contains(x.src[x.nodes[i].StartByte:x.nodes[cls].StartByte], []byte("dataclass"))
		}
		pydantic := false
		if sup := x.child(cls, fSuperclasses); sup >= 0 {
			pydantic = bytes.Contains(x.text(sup), []byte("BaseModel"))
		}
		i = int(x.nodes[cls].End) - 1
		if !dataclass && !pydantic {
			continue
		}
		var mc modelClass
		body := x.child(cls, fBody)
		if body < 0 {
			continue
		}
		end := int(x.nodes[body].End)
		for s := x.first(body); s >= 0; s = x.next(s, end) {
			a := x.namedFirst(s)
			if x.kind(s) != kExprStmt || x.kind(a) != kAssign {
				continue
			}
			l, t, r := x.child(a, fLeft), x.child(a, fType), x.child(a, fRight)
			if x.kind(l) != kIdent || t < 0 {
				continue
			}
			tt := x.text(t)
			if bytes.HasPrefix(tt, []byte("ClassVar")) || bytes.Contains(tt, []byte("ClassVar[")) {
				continue
			}
			if r >= 0 && !(pydantic && x.requiredField(r)) {
				continue
			}
			if pydantic && (bytes.Contains(tt, []byte("Optional[")) || bytes.Contains(tt, []byte("None"))) {
				continue
			}
			mc.fields = append(mc.fields, listItem{string(x.text(l)), x.pos(x.nodes[l].StartByte)})
		}
		if len(mc.fields) > 0 {
			out[string(x.text(x.child(cls, fName)))] = mc
		}
	}
	return out
}

// requiredField tells whether a pydantic default is Field(...): required.
func (x *extractor) requiredField(r int) bool {
	if x.kind(r) != kCall || string(x.lastName(x.child(r, fFunction))) != "Field" {
		return false
	}
	first := x.namedFirst(x.child(r, fArguments))
	return first >= 0 && string(x.text(first)) == "..."
}

// allPresent reads all(f in msg for f in REQUIRED), negated under a
// rejecting branch.
func (x *extractor) allPresent(g int, rc *reqCtx) {
	forIn := x.childKind(g, kForIn)
	if forIn < 0 || x.kind(x.child(forIn, fLeft)) != kIdent {
		return
	}
	v := x.text(x.child(forIn, fLeft))
	body := x.unparen(x.child(g, fBody))
	var buf [3]int
	ops := x.namedChildren(body, buf[:0])
	if x.kind(body) != kCompare || x.opKind(body) != kOpIn || len(ops) != 2 || !bytes.Equal(x.text(ops[0]), v) {
		return
	}
	if recv := x.recordKeys(ops[1], rc); recv != "" {
		for _, it := range x.fieldList(x.child(forIn, fRight), rc, 0) {
			rc.add(it.name, it.pos, "list", recv)
		}
	}
}
