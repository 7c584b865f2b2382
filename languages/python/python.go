// Package python extracts language-neutral facts (package
// languages/facts) from Python source: string literals in the contexts
// that can make them protocol values, the groups they are defined in, and
// literal mappings.
//
// A literal becomes a fact only in a context, and is reported once, with
// the most specific role:
//
//   - dict literals: values (RoleValue, Key the string key) and string keys
//     (RoleKey); the dict becomes a Mapping of its string-keyed entries.
//   - calls with keyword arguments, dict(...) included: values (RoleValue,
//     Key the keyword); the call becomes a Mapping whose TypeName is the
//     called name. The default of x.get("k", "d") is a RoleValue of k.
//     A dict literal or dict(...) that is the value of an assignment to a
//     name (annotated or not) gets that Name, and the Scope it is made in.
//   - assignments to names, attributes and string subscripts (RoleAssign),
//     and parameter defaults. An assignment to a local variable that the
//     function never reads is dropped: it is a dead store, not a value
//     (msg = "status").
//   - comparisons (==, !=, is, is not, in, not in) against x.k, x["k"],
//     x.get("k"), getattr(x, "k"), a name, or a local bound from one of
//     those (RoleCompare); each string of an `in` tuple/list/set is a fact.
//   - match/case (RoleCase), one GroupCases per match statement.
//   - return statements (RoleReturn).
//   - Enum subclasses (GroupEnum), sets, lists, tuples and frozensets of
//     strings assigned to a name (GroupSet; displays, or one wrapped in
//     frozenset/set/tuple/list(...); at module, class or function level),
//     and Literal[...] (GroupLiteral), whose strings are RoleMember. A
//     group's Scope is that of its strings (an enum's, that of its class);
//     a local set the function never reads is dropped with its strings.
//
// A field or variable looked up in a collection bound to a name is a
// Test: `s in NAME` and `not in` (NAME, mod.NAME, self.NAME, NAME.keys()),
// NAME[s] read (not assigned or deleted) and NAME.get(s[, d]), where s is
// what a comparison would take as its subject (Key and Receiver as there,
// a bare name included); a call, literal or other expression is not.
//
// Docstrings, other bare strings, f-strings with placeholders and byte
// strings are never facts. Implicitly concatenated strings are one literal.
//
// Every module-level function and every method (decorated or not) is a
// Function named "f" or "Class.f" (the innermost class), whose Params leave
// out a method's self or cls. Its body is written as the language-neutral
// tokens of package languages/shape (nested functions and lambdas are Func
// ... End inside it; docstrings write nothing), fingerprinted into Shape.
// Consts are the literals the body compares with (module-level names bound
// once to a number or string count as literals), with the compared field
// as a path without its root variable (h["metrics"]["quality"],
// h.metrics.quality and h.get("metrics", {}).get("quality") are all
// "metrics.quality"; a local bound from a field read stands for it), the
// operator turned so that the field is on the left, and a measure for
// len(x) and len(x.split()). Fields are the paths the body reads (not the
// attributes of imported modules or module-level classes), Calls the last
// names of what it calls.
//
// The value of a mapping entry is built once and shared: the map of a dict
// nested in another is both the value of the outer dict's entry and the
// values of its own Mapping. A value nested more than 32 levels below the
// entry that first asks for it is computed (facts.Unknown) there, and one
// extraction (a file, or a Markdown block) builds at most 1,000,000
// values, as many nodes as a YAML or JSON document may hold: past that
// budget every value not yet built is computed, and the strings, groups
// and mappings of the rest of the source are extracted all the same.
//
// Parsing is done by tree-sitter through package languages/treesitter; the
// tree is flattened with one cgo call and walked once, iteratively, so deep
// nesting costs heap, not stack. Syntax errors do not stop extraction:
// constructs that contain an error are skipped, the rest is extracted.
package python

import (
	"bytes"
	"context"
	"sort"
	"strings"
	"sync"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/treesitter"
)

var (
	poolOnce sync.Once
	pool     *treesitter.Pool
)

func parserPool() *treesitter.Pool {
	poolOnce.Do(func() { pool = treesitter.NewPool(language, treesitter.Options{}) })
	return pool
}

// Extract returns the facts of Python source src, named path in the result.
// It fails only when the source cannot be parsed at all: larger than the
// parser's size cap (treesitter.ErrTooLarge) or over its budget of
// operations (treesitter.ErrBudget). Syntax errors are not failures.
func Extract(path string, src []byte) (*facts.File, error) {
	return ExtractContext(context.Background(), path, src)
}

// ExtractContext is Extract with a context that cancels the parse.
func ExtractContext(ctx context.Context, path string, src []byte) (*facts.File, error) {
	f := &facts.File{Path: path, Lang: "python"}
	x := extractors.Get().(*extractor)
	defer x.release()
	err := parserPool().Parse(ctx, src, func(t *treesitter.Tree) error {
		x.nodes = t.Flatten(x.nodes)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The tree is closed; the flat copy is ours.
	x.extract(f, src)
	return f, nil
}

// MayHaveStrings reports whether src can contain any string literal. When
// it returns false, Extract finds no Strings and no Groups (but may still
// find Mappings: f(status=DONE) has no quote). It is exact for that
// purpose: every Python string literal has a quote character.
func MayHaveStrings(src []byte) bool {
	return bytes.IndexByte(src, '"') >= 0 || bytes.IndexByte(src, '\'') >= 0
}

var extractors = sync.Pool{New: func() any { return new(extractor) }}

// extractor holds the state of one extraction; its slices are reused.
type extractor struct {
	src   []byte
	nodes []treesitter.Node
	lines treesitter.Lines
	f     *facts.File

	// stack holds the open ancestors of the node being visited.
	stack  []int32
	scopes []scope
	// drop marks Strings (by index) removed before the result is returned.
	drop []bool
	// fs is the state of the Function being extracted (funcs.go).
	fs funcState
	// vs holds the values built so far (literals.go).
	vs valueState
	// failing caches, by function node, whether a test function expects
	// failure (rejected.go); reset per file.
	failing map[int32]bool
	// fmt is what the file binds to compiled patterns (formats.go).
	fmt formatState
}

// release returns x to the pool, dropping references to the caller's data
// and very large buffers.
func (x *extractor) release() {
	x.src, x.f = nil, nil
	x.drop = x.drop[:0]
	if cap(x.nodes) > 1<<20 {
		x.nodes = nil
	}
	x.stack = x.stack[:0]
	x.scopes = x.scopes[:0]
	x.fs.release()
	x.vs.release()
	extractors.Put(x)
}

type scopeKind uint8

const (
	scopeModule scopeKind = iota
	scopeClass
	scopeFunc
)

type scope struct {
	node int32 // the class or function node; -1 for the module
	kind scopeKind
	name string // qualified: "Class.method"
	// enum: this class subclasses an Enum; group is its GroupEnum, or -1
	// until its first member.
	enum  bool
	group int
	// bindings maps locals bound from a field read (s = msg.get("status"))
	// to that field.
	bindings map[string]binding
	// pending are RoleAssign Strings to local names, kept only if the
	// function reads the name.
	pending []pendingAssign
}

type binding struct{ key, recv string }

type pendingAssign struct {
	str  int
	name string
}

func (x *extractor) extract(f *facts.File, src []byte) {
	x.src, x.f = src, f
	x.vs.reset()
	x.drop = x.drop[:0]
	x.fs.mod.ready = false
	x.fmt.ready = false
	x.lines.Reset(src)
	x.stack = x.stack[:0]
	clear(x.failing)
	x.scopes = append(x.scopes[:0], scope{node: -1, kind: scopeModule, group: -1})
	n := x.nodes
	for i := 0; i < len(n); i++ {
		for len(x.stack) > 0 && int32(i) >= n[x.stack[len(x.stack)-1]].End {
			x.pop()
		}
		x.visit(i)
		if n[i].End > int32(i+1) {
			x.stack = append(x.stack, int32(i))
		}
	}
	for len(x.stack) > 0 {
		x.pop()
	}
	x.finish()
	x.requiredFields()
}

func (x *extractor) pop() {
	top := x.stack[len(x.stack)-1]
	x.stack = x.stack[:len(x.stack)-1]
	if s := &x.scopes[len(x.scopes)-1]; s.node == top {
		x.leaveScope(s)
		x.scopes = x.scopes[:len(x.scopes)-1]
	}
}

func (x *extractor) scope() *scope { return &x.scopes[len(x.scopes)-1] }

func (x *extractor) visit(i int) {
	nd := &x.nodes[i]
	switch kindOf[nd.Kind] {
	case kFunc:
		x.function(i)
		x.enterScope(i, scopeFunc)
	case kClass:
		x.enterScope(i, scopeClass)
	case kDict:
		x.dict(i)
	case kCall:
		x.call(i)
	case kAssign:
		x.assign(i)
	case kNamedExpr:
		x.namedExpr(i)
	case kCompare:
		x.compare(i)
	case kReturn:
		x.ret(i)
	case kMatch:
		x.match(i)
	case kDefaultParam, kTypedDefaultParam:
		x.paramDefault(i)
	case kGenericType:
		x.literalType(i)
	case kSubscript:
		x.literalType(i)
		x.lookup(i)
	}
}

func (x *extractor) enterScope(i int, k scopeKind) {
	name := ""
	if c := x.child(i, fName); c >= 0 {
		name = string(x.text(c))
	}
	if outer := x.scope().name; outer != "" {
		name = outer + "." + name
	}
	s := scope{node: int32(i), kind: k, name: name, group: -1}
	if k == scopeClass {
		s.enum = x.isEnumClass(i)
	}
	x.scopes = append(x.scopes, s)
}

// isEnumClass reports whether class i subclasses an Enum: a base named
// Enum, StrEnum, IntEnum, Flag, IntFlag or ending in "Enum", plain or
// qualified (enum.Enum).
func (x *extractor) isEnumClass(i int) bool {
	sup := x.child(i, fSuperclasses)
	if sup < 0 {
		return false
	}
	end := int(x.nodes[sup].End)
	for c := x.first(sup); c >= 0; c = x.next(c, end) {
		var name []byte
		switch x.kind(c) {
		case kIdent:
			name = x.text(c)
		case kAttr:
			if a := x.child(c, fAttribute); a >= 0 {
				name = x.text(a)
			}
		default:
			continue
		}
		if bytes.HasSuffix(name, []byte("Enum")) || string(name) == "Flag" || string(name) == "IntFlag" {
			return true
		}
	}
	return false
}

func (x *extractor) leaveScope(s *scope) {
	if len(s.pending) == 0 || s.node < 0 {
		return
	}
	// Keep an assignment to a local only if the function reads the name
	// somewhere: identifiers in target or name position are not reads. One
	// pass over the function, whatever the number of candidates.
	names := make(map[string]bool, len(s.pending))
	for _, p := range s.pending {
		names[p.name] = false
	}
	start, end := int(s.node)+1, int(x.nodes[s.node].End)
	for j := start; j < end; j++ {
		nd := &x.nodes[j]
		if kindOf[nd.Kind] != kIdent || nd.Field == fLeft || nd.Field == fName || nd.Field == fAttribute {
			continue
		}
		if _, ok := names[string(x.text(j))]; ok {
			names[string(x.text(j))] = true
		}
	}
	for _, p := range s.pending {
		if !names[p.name] {
			x.markDrop(p.str)
		}
	}
}

func (x *extractor) markDrop(str int) {
	for len(x.drop) <= str {
		x.drop = append(x.drop, false)
	}
	x.drop[str] = true
}

// finish puts Strings and Tests in source order, drops dead stores (and
// the groups they leave empty) and renumbers group members.
func (x *extractor) finish() {
	f := x.f
	if len(f.Tests) > 0 && !x.fs.mod.ready {
		x.scanModule()
	}
	for i := range f.Tests {
		// from .constants import VALID: the collection is another file's
		if ref, ok := x.fs.mod.imports[f.Tests[i].Collection]; ok {
			if mod, name, ok := strings.Cut(ref, ":"); ok && name == f.Tests[i].Collection {
				f.Tests[i].From = mod
			}
		}
	}
	if !sort.SliceIsSorted(f.Tests, func(a, b int) bool { return f.Tests[a].Pos.Offset < f.Tests[b].Pos.Offset }) {
		sort.SliceStable(f.Tests, func(a, b int) bool { return f.Tests[a].Pos.Offset < f.Tests[b].Pos.Offset })
	}
	n := len(f.Strings)
	dropped := false
	for k := range x.drop {
		if k < n && x.drop[k] {
			dropped = true
		}
	}
	sorted := sort.SliceIsSorted(f.Strings, func(a, b int) bool { return f.Strings[a].Pos.Offset < f.Strings[b].Pos.Offset })
	if sorted && !dropped {
		x.drop = x.drop[:0]
		return
	}
	order := make([]int, n)
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(a, b int) bool { return f.Strings[order[a]].Pos.Offset < f.Strings[order[b]].Pos.Offset })
	remap := make([]int, n)
	out := make([]facts.String, 0, n)
	for _, old := range order {
		if old < len(x.drop) && x.drop[old] {
			remap[old] = -1
			continue
		}
		remap[old] = len(out)
		out = append(out, f.Strings[old])
	}
	f.Strings = out
	groups := f.Groups[:0]
	var gremap []int // old group index -> new, when a group is dropped
	for g := range f.Groups {
		m := f.Groups[g].Members[:0]
		for _, old := range f.Groups[g].Members {
			if r := remap[old]; r >= 0 {
				m = append(m, r)
			}
		}
		if len(m) == 0 {
			// A local set never read: all its members were dead stores.
			if gremap == nil {
				gremap = make([]int, len(f.Groups))
				for k := range gremap {
					gremap[k] = k
				}
			}
			gremap[g] = -1
			continue
		}
		sort.Ints(m)
		if gremap != nil {
			gremap[g] = len(groups)
		}
		f.Groups[g].Members = m
		groups = append(groups, f.Groups[g])
	}
	f.Groups = groups
	if gremap != nil {
		for k := range f.Strings {
			if g := f.Strings[k].Group; g >= 0 {
				f.Strings[k].Group = gremap[g]
			}
		}
	}
	x.drop = x.drop[:0]
}
