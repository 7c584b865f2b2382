// Package facts holds the small, language-neutral facts the language
// extractors produce from source files and the analyzers consume: string
// literals with the context that may make them protocol values, the groups
// (const blocks, enums, sets) they belong to, literal mappings with a
// position for every key and value, literal lists with a position for
// every item, and function definitions with their structural fingerprint
// and the constants they compare fields with.
//
// Extractors fill a File; nothing here parses or judges anything.
package facts

// Pos is a place in a source file: 1-based line and column (in bytes, as
// go/token counts), and the 0-based byte offset.
type Pos struct {
	Line, Col int
	Offset    int
}

// Role is how a string literal is used.
type Role uint8

const (
	RoleOther   Role = iota
	RoleValue        // the value of a mapping key, struct field or keyword argument: {"status": "x"}, Status: "x", f(status="x")
	RoleAssign       // assigned to a variable, attribute or subscript: status = "x", h.status = "x", h["status"] = "x"
	RoleCompare      // compared with an expression: x.status == "x", status in ("a", "b")
	RoleCase         // a case of a switch or match over an expression
	RoleMember       // a member of a group (const block, enum, set, Literal[...])
	RoleKey          // a key of a mapping (a routing table keyed by statuses)
	RoleReturn       // returned from a function
)

var roleNames = [...]string{"other", "value", "assign", "compare", "case", "member", "key", "return"}

func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return "role?"
}

// String is a string literal and its context.
type String struct {
	Value string
	Pos   Pos
	End   Pos // just past the literal, quotes included: Pos..End is what a fix replaces
	Role  Role
	// Key is the field the literal is about: the mapping key, struct field
	// or keyword argument it is the value of ("status", "Status"); the
	// field assigned to or compared with (h.status = "x", x["status"] ==
	// "x", x.get("status") in (...), and a variable bound from one of those,
	// all give "status"); the constant or enum member name for a group
	// member ("StatusFailure").
	Key string
	// Receiver is the object the field is read from: "h" in h.status or
	// h["status"] or h.Status; empty for a bare name or a mapping value.
	Receiver string
	// Scope is the enclosing function or method ("Router.route",
	// "make_handback"), empty at file level. Analyzers correlate literals
	// within one scope.
	Scope string
	// Mapping is the index in File.Mappings of the mapping this literal is
	// a key or value of, or -1.
	Mapping int
	// Group is the index in File.Groups of the group this literal is a
	// member of, or -1.
	Group int
}

// GroupKind says what defines a group of literals.
type GroupKind uint8

const (
	GroupConst   GroupKind = iota // a Go const block, or constants of one named type
	GroupEnum                     // a Python Enum subclass
	GroupSet                      // a set/list/tuple/frozenset of strings assigned to a name
	GroupLiteral                  // a typing.Literal[...] annotation
	GroupCases                    // the cases of one switch/match
)

var groupNames = [...]string{"const", "enum", "set", "literal", "cases"}

func (k GroupKind) String() string {
	if int(k) < len(groupNames) {
		return groupNames[k]
	}
	return "group?"
}

// Group is a set of string literals defined together.
type Group struct {
	Kind GroupKind
	Name string // the type, class or variable name; the subject for GroupCases
	Pos  Pos
	// Scope is the function a local group is defined in (as String.Scope);
	// empty for a group at file level.
	Scope string
	// Members are indices in File.Strings, in source order.
	Members []int
	// Note is the comment the source writes about the group, where the
	// extractor reads one: the comment lines just above its first line
	// and a comment at the end of it ("# legacy spellings, still
	// accepted"); empty otherwise.
	Note string
}

// Mapping is a literal mapping: a YAML/JSON object, a Python dict literal
// or dict(...) call, a Go map or struct literal.
type Mapping struct {
	Pos     Pos
	Entries []Entry
	// TypeName is the struct type or constructor of the mapping when the
	// source names one (Handback{...}, Handback(...)); empty otherwise.
	TypeName string
	// Call is set when the mapping is the keyword arguments of a call of
	// TypeName (Python's make_handback(task_id=...)), not a literal of a
	// type: such arguments are a message only when the call is named for
	// a kind.
	Call bool
	// Name is the variable or constant a literal of code is bound to
	// (ALIASES = {...}, var legacy = map[string]string{...}, x := ...);
	// empty when it is not bound to a name. Scope is the function a local
	// binding is made in, empty at file level.
	Name, Scope string
	// InCode is set for a literal of program code (a Python dict, a Go
	// literal), as opposed to a data document (YAML, JSON): code may add
	// fields after the literal, so a field it lacks is not judged missing.
	InCode bool
	// AsWritten is set for a literal of code whose keys are the record's
	// own, serialized as written (a TypeScript or JavaScript object:
	// {taskId: ...} is a record of its own, not a HANDBACK's task_id);
	// its keys are matched as a data document's are.
	AsWritten bool
	// Root is set for a record of a data document: the document itself,
	// or an item of a document that is a list of mappings (a queue file's
	// messages), as opposed to a mapping nested in one.
	Root bool
	// Rejected is set for a literal of code that a test expects to be
	// refused: an item of a row that holds False ((msg, False, "effort")),
	// a literal under pytest.raises or assertRaises, or in a test named
	// for invalid input (test_rejects_..., test_invalid_...). Its values
	// are no drift, and it is no message to validate.
	Rejected bool
}

// Entry is one key of a mapping.
type Entry struct {
	Key    string
	KeyPos Pos
	ValPos Pos
	// Value is the literal value: string, int64, float64, bool, nil,
	// []any, map[string]any; Unknown when the source computes it.
	Value any
}

// Unknown stands for a value the source computes at run time. Validators
// must treat it as "could be anything", never as an error.
type Unknown struct{}

// Keys returns the mapping's keys in source order.
func (m *Mapping) Keys() []string {
	out := make([]string, len(m.Entries))
	for i, e := range m.Entries {
		out[i] = e.Key
	}
	return out
}

// Values returns the value of each key, in the order of Keys.
func (m *Mapping) Values() []any {
	out := make([]any, len(m.Entries))
	for i, e := range m.Entries {
		out[i] = e.Value
	}
	return out
}

// CommentSyntax is how a language writes comments, which is where
// suppression directives live (internal/suppress lexes each).
type CommentSyntax uint8

const (
	NoComments       CommentSyntax = iota
	CComments                      // "//" and "/* */"; strings "...", '...' and raw `...` (Go)
	JSONComments                   // JSON has none; JSONC's "//" and "/* */" are read
	PythonComments                 // "#" outside strings, triple-quoted ones included
	YAMLComments                   // "#" outside quoted scalars
	MarkdownComments               // "<!-- -->", and the comments of each fenced block's language
	MDXComments                    // "{/* */}", and fenced blocks that may be indented deeper
	JSComments                     // "//", "/* */" and JSX's "{/* */}"; strings "...", '...' and templates `...` (TypeScript, JavaScript)
)

// File is everything extracted from one source file.
type File struct {
	Path     string // slash path relative to the scan root
	Lang     string // "python", "go", "yaml", "json", "markdown"
	Strings  []String
	Groups   []Group
	Mappings []Mapping
	// Lists are the literal lists whose items have positions: a finding
	// on plan[1] is placed at the item, not at the list.
	Lists     []List
	Functions []Function
	// Tests are the lookups of a field's value in a named collection, in
	// source order.
	Tests []Test
	// Unions are the collections built as the union of named ones.
	Unions []Union
	// Formats are the regular expressions code matches fields with.
	Formats []Format
}

// Union is a collection bound to a name as the union of collections
// bound to names: ACCEPTED = CANONICAL | LEGACY, CANONICAL.union(OLD),
// {*CANONICAL, *OLD}. A set unioned with the canonical one holds the
// spellings accepted beside it.
type Union struct {
	Name  string
	Parts []string // the names united, as Group.Name spells them
	Scope string
	Pos   Pos
}

// Test is a membership test or lookup of a field's value in a collection
// bound to a name: status in TERMINAL, h["status"] not in done,
// ROUTES[h.status], ROUTES.get(h.status), slices.Contains(terminal,
// h.Status), isTerminal[h.Status]. It ties the collection (a Group or a
// Mapping of that Name) to the field, so its strings are values of it.
type Test struct {
	// Collection is the name the collection is bound to, as Group.Name or
	// Mapping.Name spell it (the last name of a qualified one: TERMINAL for
	// states.TERMINAL).
	Collection string
	// Key, Receiver and Scope are the field tested and the enclosing
	// function, as in String.
	Key, Receiver, Scope string
	Pos                  Pos
	// Branch is what the code does when the value is in the collection,
	// where it says so: accept for a validation that lets the collection's
	// values through (if status not in VALID: raise; assert status in
	// ALLOWED; if !slices.Contains(valid, s) { return err }), reject for
	// one that refuses them (if status in BLOCKED: raise). A lookup, a
	// test whose outcome routes (if agent in ENGINEERS: assign(...)) and
	// the answer of a predicate not named for validity (is_done's if
	// status in TERMINAL: return True) are BranchUnknown.
	Branch Branch
	// Equal says Collection names a constant the field is compared with
	// (d["agent"] == AGENT_SENIOR, case AgentSenior:): one value, which
	// the file may define, not a collection.
	Equal bool
	// From is the module a collection of another file is imported from,
	// as the import spells it (Python's from .constants import VALID
	// gives ".constants"; Go's "." for another file of the package);
	// empty for the file's own or an unknown one.
	From string
	// In is the file of a test another file makes of this file's
	// collection, as the scan names it; empty for the file's own tests.
	In string
}

// List is a literal list (a YAML or JSON sequence) and where each of its
// items starts. An item that is a mapping or a list is also in
// File.Mappings or File.Lists at the same position.
type List struct {
	Pos   Pos
	Items []Pos
}

// Function is a function or method definition: who it is, what its body
// looks like with names and values erased, and which protocol fields and
// constants it uses. The divergence analyzer compares functions by these.
type Function struct {
	// Name is the function name, qualified by its receiver type or class
	// ("Router.route", "Validator.ValidateDelegate"); nested functions are
	// part of the function that encloses them.
	Name     string
	Pos, End Pos
	Params   []string // parameter names, in order (the receiver excluded; Python's self/cls excluded)
	// Shape is the structural fingerprint of the body: the winnowed k-gram
	// hashes of its language-neutral token sequence (see languages/shape),
	// sorted and unique. Two functions that differ only in identifier names
	// and literal values have the same Shape, whatever their language.
	Shape []uint32
	// Size is the number of shape tokens of the body.
	Size int
	// Consts are the literals the body compares fields or variables with.
	Consts []Const
	// Fields are the fields the body reads, as normalized paths (snake
	// case, lower case, without the root variable: "metrics.quality",
	// "retry_count", "status"), sorted and unique.
	Fields []string
	// Calls are the names of the functions and methods the body calls
	// (the last name: "escalate", "split", "Fields"), sorted and unique.
	Calls []string
	// ParamTypes are the types the parameters are declared with, where
	// the source writes one: the type's last name in Go (Handback for
	// *protocol.Handback), the annotation as written in Python
	// ("Optional[Handback]"); in order, without the parameters that have
	// none.
	ParamTypes []string
	// Required are the fields the body refuses its input without, in
	// source order (see Required); read only in functions whose name says
	// they validate (validate, check, verify, valid, require).
	Required []Required
}

// Const is a literal a function body compares something with: quality <
// 0.5, len(scope.split()) < 15, status == "failure", status in ("a", "b").
type Const struct {
	// Value is float64 for every number (ints included), string for
	// strings, bool for booleans.
	Value any
	// Field is the normalized path of what the literal is compared with
	// ("metrics.quality", "scope", "quality" for a bare variable or
	// parameter, the field a local variable was read from when it was);
	// "" when it is not a field or variable (a call result, an expression).
	Field string
	// Measure is what of the field is compared: "" for the value itself,
	// "len" for its length, "words" for its number of words
	// (len(x.split()), len(strings.Fields(x))).
	Measure string
	// Op is the comparison with the field on the left: "<", "<=", ">",
	// ">=", "==", "!=", "in", "not in".
	Op  string
	Pos Pos
	// Name is the named constant or the parameter the value comes from
	// ("MIN_SCOPE_WORDS", "threshold" for a parameter's default value);
	// "" for a literal.
	Name string
	// Ref names a constant of another file, which the extractor cannot
	// see: Value is nil and the analyzer resolves it over the tree.
	// Python: "MODULE:NAME", MODULE as the import spells it (".config",
	// "pkg.limits"); Go: "IMPORTPATH:NAME", or ":NAME" for a constant of
	// the same package.
	Ref string
	// Branch is what the code does when the comparison holds, where it
	// says so: a validation's reject or accept.
	Branch Branch
	// Base and Scale say how the value follows from the constant Ref
	// names when the source computes it from that constant: 85 -
	// ESCALATION_GAP is Base 85, Scale -1, and the value is Base + Scale
	// × the constant. Scale 0: the value is the constant itself.
	Base, Scale float64
}

// Mirror is a comparison operator with its operands swapped: 0.5 > q
// is q < 0.5; an operator without a direction is itself.
func Mirror(op string) string {
	switch op {
	case "<":
		return ">"
	case "<=":
		return ">="
	case ">":
		return "<"
	case ">=":
		return "<="
	}
	return op
}

// Branch is what the code does when a comparison holds, read as a
// predicate's verdict: in a validation, reject means the input is
// refused; in an escalation, return True (accept) means escalate.
type Branch int8

const (
	BranchUnknown Branch = iota
	// BranchReject: raise or panic, return False or a message or an
	// error, append to a list of problems, set a validity flag False.
	BranchReject
	// BranchAccept: return True, return a nil error, set a validity flag
	// True; an assert's condition; the returned condition of a function
	// named for validity (is_valid, checkScope).
	BranchAccept
)

// Flip is the branch of the negated comparison.
func (b Branch) Flip() Branch {
	switch b {
	case BranchReject:
		return BranchAccept
	case BranchAccept:
		return BranchReject
	}
	return b
}

// Container is a place of a source file whose members must be distinct:
// the cases of a switch, the keys of a map or dict literal or of a
// mapping, the members of a set display. Extractors list a file's
// containers in source order, so that two versions of a file whose edits
// only swapped literals list them alike (package fix compares them).
type Container struct {
	Kind string // "switch", "map literal", "dict", "set", "mapping"
	Line int    // 1-based line where the container starts
	// Keys are the members that are constants, as comparable keys (a
	// string literal's value with a mark of its type); members that are
	// not constants are left out.
	Keys []Key
	// Broken, for a container that stands for a part of the file that
	// does not parse (extract.Unparsed), is why it does not.
	Broken string
}

// Key is one constant member of a Container.
type Key struct {
	Value string // the constant, tagged by type: "s:success", "i:1"
	Text  string // as the user would name it: "success", 1
	Line  int
}
