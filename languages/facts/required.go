package facts

// Required is a field a function requires of the record it validates: the
// function refuses the record (raises, returns an error or False, appends
// to a list of problems) when the field is absent.
type Required struct {
	// Field is the field's name as the record spells it: the key
	// ("task_id"), or a Go struct field's JSON name (its json tag, else
	// its Go name).
	Field string
	// Pos is where the source names the field as required: the literal of
	// the key, the member of the list of required fields, the model's or
	// struct's field.
	Pos Pos
	// How is how the requirement is written: "test" (if "x" not in msg:
	// raise; msg.get("x") is None; if not msg.get("x"); if m.X == "";
	// if _, ok := m["x"]; !ok), "list" (a loop, comprehension or set
	// difference over a list of fields), "model" (a field without a default
	// of a dataclass or pydantic model the record is built into), "tag" (a
	// Go struct field tagged required, the struct validated), "schema" (a
	// JSON schema's required, written in code, the record validated
	// against it).
	How string
	// Receiver is the variable that holds the record ("msg", "h"), as the
	// source names it.
	Receiver string
}
