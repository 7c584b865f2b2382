package facts

// Format is a regular expression code matches a field's value with:
// re.fullmatch(P, msg["task_id"]), TASK_ID_RE.match(task_id),
// taskIDRe.MatchString(d.TaskID). Extractors list a file's formats in
// File.Formats, in source order; a pattern bound to a name (TASK_ID_RE =
// re.compile(...), var taskIDRe = regexp.MustCompile(...)) is looked up
// in the file.
type Format struct {
	// Field is the normalized path of the value matched, as Const.Field
	// gives it ("task_id", "parent_task_id", a bare variable's name).
	Field string
	// Pattern is the pattern's value, escapes of the string literal
	// decoded, in the dialect Syntax names.
	Pattern string
	// Syntax is the pattern's dialect: "python" (the re module) or "re2"
	// (Go's regexp).
	Syntax string
	// Flags are the flags the call or the compilation passes, as Python's
	// inline flags spell them ("i", "m", "s", "x", "a"); "?" when the
	// source computes them.
	Flags string
	// Start and End tell whether the call anchors the match at the start
	// and at the end of the value: fullmatch both, re.match the start, a
	// search (re.search, MatchString) neither. The pattern's own anchors
	// are in Pattern.
	Start, End bool
	// Pos is where the call applies the pattern; PatternPos where the
	// pattern is written.
	Pos, PatternPos Pos
	// Name is the variable the pattern or its compiled form is bound to;
	// "" when the call writes it.
	Name string
	// Branch is what the code does when the value matches, where it says
	// so: accept for a validation that lets only matching values through
	// (if not ID_RE.fullmatch(x): raise; if !re.MatchString(id) { return
	// err }), reject for one that refuses them.
	Branch Branch
}
