package msgcheck

import (
	"slices"
)

// typeMask is a set of JSON types; zero means any type.
type typeMask uint8

const (
	tString typeMask = 1 << iota
	tNumber          // any number, integers included
	tInteger
	tBoolean
	tArray
	tObject
	tNull
)

var typeNames = []struct {
	name string
	bit  typeMask
}{
	{"string", tString}, {"number", tNumber}, {"integer", tInteger},
	{"boolean", tBoolean}, {"array", tArray}, {"object", tObject}, {"null", tNull},
}

// bound is a numeric limit, keeping the spec's own spelling ("0.0") so
// messages quote the spec as written.
type bound struct {
	set  bool
	v    float64
	text string
}

// schema is one compiled JSON Schema node. It is immutable once compiled
// and shared by every validation.
type schema struct {
	line, column int // where the spec defines it, for spec errors

	never bool // the boolean schema false
	types typeMask

	enum      []any
	enumStr   map[string]struct{} // set when every enum value is a string
	enumText  string              // "[a, b, c]" for messages
	aliases   map[string]string   // legacy spelling -> enum value
	hasConst  bool
	constVal  any
	pattern   *pattern
	minLength int // -1 when unset, as for the other counts
	maxLength int
	minWords  int
	minimum   bound
	maximum   bound
	exMinimum bound
	exMaximum bound
	rangeMsg  string // "must be 0.0-1.0", built once from the bounds
	// file and kwLine say where the spec writes each numeric bound
	// (kwLine by limitKeywords' index), for Limits
	file   string
	kwLine [len(limitKeywords)]int32

	items       *schema
	minItems    int
	maxItems    int
	uniqueItems bool

	properties   map[string]*schema
	propOrder    []string
	required     []string
	fields       []objField // properties and required names, one map lookup each
	additional   *schema    // nil: anything goes
	noAdditional bool

	oneOf, anyOf, allOf []*schema
	not                 *schema
	ref                 *schema
	refName             string

	errorMessage string
	deprecated   string
	isDeprecated bool
	existsIn     []string

	// leafString is set (by the compiler, last) when a string value needs
	// only str: no other keyword applies to one, so the tape walk skips
	// checkTok's other steps for it (most of a message's values).
	// Validate keeps the full walk: it is what the tape walk is tested
	// against, so a wrong short cut shows as a difference.
	leafString bool

	// patternLine is where the spec writes pattern, for Formats
	patternLine int32
}

func newSchema(line, column int) *schema {
	return &schema{line: line, column: column, minLength: -1, maxLength: -1, minWords: -1, minItems: -1, maxItems: -1}
}

// onlyStr reports whether str is all a string value needs of s: no
// keyword but the string ones (length, words, pattern, existsIn) applies.
func (s *schema) onlyStr() bool {
	return !s.never && !s.isDeprecated && s.ref == nil && (s.types == 0 || s.types&tString != 0) &&
		s.enum == nil && !s.hasConst && s.allOf == nil && s.oneOf == nil && s.anyOf == nil && s.not == nil
}

// pureRef reports whether s only forwards to another schema, which is what
// a $ref cycle is made of.
func (s *schema) pureRef() bool {
	return s.ref != nil && !s.never && s.types == 0 && s.enum == nil && !s.hasConst &&
		s.pattern == nil && s.minLength < 0 && s.maxLength < 0 && s.minWords < 0 &&
		!s.minimum.set && !s.maximum.set && !s.exMinimum.set && !s.exMaximum.set &&
		s.items == nil && s.minItems < 0 && s.maxItems < 0 && s.properties == nil &&
		s.required == nil && s.additional == nil && !s.noAdditional && s.oneOf == nil &&
		s.anyOf == nil && s.allOf == nil && s.not == nil && s.existsIn == nil
}

// objField is a property an object schema names: its schema (nil when it
// is only required) and whether it is required.
type objField struct {
	name     string
	schema   *schema
	required bool
}

// indexFields merges properties and required into one list, so an object
// is checked with one lookup per named field.
func (s *schema) indexFields() {
	s.fields = s.fields[:0]
	for _, name := range s.propOrder {
		s.fields = append(s.fields, objField{name: name, schema: s.properties[name], required: slices.Contains(s.required, name)})
	}
	for _, name := range s.required {
		if _, ok := s.properties[name]; !ok {
			s.fields = append(s.fields, objField{name: name, required: true})
		}
	}
}

// children lists the schemas s refers to, in a stable order (nil ones
// included), for the walks over a compiled spec.
func (s *schema) children() []*schema {
	out := []*schema{s.ref, s.items, s.additional, s.not}
	for _, name := range s.propOrder {
		out = append(out, s.properties[name])
	}
	out = append(out, s.oneOf...)
	out = append(out, s.anyOf...)
	return append(out, s.allOf...)
}
