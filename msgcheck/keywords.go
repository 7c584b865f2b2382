package msgcheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/internal/editdist"
)

// draftKeywords are the keywords of each JSON Schema draft a spec may be
// written in, as its specification and meta-schemas define them (core,
// applicator, validation, meta-data, format and content vocabularies; the
// 2019-09 and 2020-12 meta-schemas also keep definitions and dependencies).
// A key of one of these lists is never a typo: the loader enforces it,
// ignores it as an annotation, or warns that it does not enforce it.
var draftKeywords = map[string][]string{
	"draft-07": {
		"$schema", "$id", "$ref", "$comment",
		"title", "description", "default", "readOnly", "writeOnly", "examples",
		"multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
		"maxLength", "minLength", "pattern",
		"additionalItems", "items", "maxItems", "minItems", "uniqueItems", "contains",
		"maxProperties", "minProperties", "required", "additionalProperties",
		"definitions", "properties", "patternProperties", "dependencies", "propertyNames",
		"const", "enum", "type", "format", "contentMediaType", "contentEncoding",
		"if", "then", "else", "allOf", "anyOf", "oneOf", "not",
	},
	"2019-09": {
		"$schema", "$id", "$anchor", "$ref", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "$comment", "$defs",
		"additionalItems", "unevaluatedItems", "items", "contains",
		"additionalProperties", "unevaluatedProperties", "properties", "patternProperties",
		"dependentSchemas", "propertyNames", "if", "then", "else", "allOf", "anyOf", "oneOf", "not",
		"multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
		"maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems",
		"maxContains", "minContains", "maxProperties", "minProperties", "required", "dependentRequired",
		"const", "enum", "type",
		"title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples",
		"format", "contentMediaType", "contentEncoding", "contentSchema",
		"definitions", "dependencies",
	},
	"2020-12": {
		"$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$comment", "$defs",
		"prefixItems", "items", "contains", "additionalProperties", "properties", "patternProperties",
		"dependentSchemas", "propertyNames", "if", "then", "else", "allOf", "anyOf", "oneOf", "not",
		"unevaluatedItems", "unevaluatedProperties",
		"type", "const", "enum", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
		"maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems",
		"maxContains", "minContains", "maxProperties", "minProperties", "required", "dependentRequired",
		"title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples",
		"format", "contentEncoding", "contentMediaType", "contentSchema",
		"definitions", "dependencies", "$recursiveAnchor", "$recursiveRef",
	},
}

// annotationKeywords document a schema or name a place in it and never
// constrain a value: ignoring them loses nothing, so they pass silently.
// format is an annotation too: draft-07 lets a validator skip it, and
// 2019-09 on makes it one by default.
var annotationKeywords = []string{
	"$schema", "$id", "$comment", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary",
	"title", "description", "default", "examples", "readOnly", "writeOnly", "format",
	"contentMediaType", "contentEncoding", "contentSchema",
	"definitions", "$defs", // containers: what $ref reaches in them is compiled there
}

// protoscanKeywords are protoscan's own schema keywords
// (docs/spec-format.md).
var protoscanKeywords = []string{"minWords", "errorMessage", "existsIn", "aliases", "deprecated", "formerly"}

// jsonSchemaKeywords is the union of draftKeywords.
var jsonSchemaKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, list := range draftKeywords {
		for _, k := range list {
			m[k] = true
		}
	}
	return m
}()

// isJSONSchemaKeyword reports a keyword of any supported draft.
func isJSONSchemaKeyword(key string) bool { return jsonSchemaKeywords[key] }

// isAnnotation reports keys that document and never constrain: the
// annotation keywords and every x- key but the one protoscan enforces.
func isAnnotation(key string) bool {
	if slices.Contains(annotationKeywords, key) {
		return true
	}
	return strings.HasPrefix(key, "x-") && key != celKeyword
}

// Warning is a spec problem that does not stop the spec from loading:
// most often a JSON Schema keyword protoscan does not enforce, so that
// messages are checked without it.
type Warning struct {
	File      string
	Line, Col int
	Msg       string
}

func (w Warning) String() string {
	return (&SpecError{File: w.File, Line: w.Line, Column: w.Col, Msg: w.Msg}).Error()
}

// Warnings returns what the loader warned about while compiling the spec
// (file:line:col and text, in file order), or nil. The spec is usable as
// it is; a caller shows them to the spec's author.
func (s *Spec) Warnings() []Warning { return slices.Clone(s.warnings) }

// maxWarnings bounds the warnings of one spec file; past it, one more
// says how many were left out.
const maxWarnings = 50

// didYouMean appends to msg, the error text of a key that is neither
// protoscan's nor JSON Schema's, the nearest known key when one is near.
func didYouMean(msg, key string, known []string) string {
	if near, ok := nearest(key, known); ok {
		msg += fmt.Sprintf(" (did you mean %q?)", near)
	}
	return msg
}

// nearest finds the key s is most likely a misspelling of: the same word
// but for case, "_" and "-" (minlength, core-fields), or one within an
// edit distance of a third of its length (at least 1, at most 2, 3 for
// the longest keys; a swap of two adjacent letters is one edit).
func nearest(s string, candidates []string) (string, bool) {
	norm := func(x string) string { return keyFolder.Replace(strings.ToLower(x)) }
	ns := norm(s)
	if ns == "" || len(ns) > 64 {
		return "", false
	}
	for _, c := range candidates {
		if norm(c) == ns {
			return c, true
		}
	}
	limit := min(max(len(ns)/3, 1), 2)
	if len(ns) >= 15 {
		limit = 3 // additionalProperty, a word and a half off
	}
	best, bestD := "", limit+1
	for _, c := range candidates {
		if d := editdist.Distance(ns, norm(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best, best != ""
}

// keyFolder drops what spellings of one key differ in besides case.
var keyFolder = strings.NewReplacer("_", "", "-", "", "$", "")

// schemaKeys is every key a field schema may carry, for "did you mean".
var schemaKeys = func() []string {
	out := slices.Clone(protoscanKeywords)
	for k := range jsonSchemaKeywords {
		out = append(out, k)
	}
	slices.Sort(out)
	return slices.Compact(out)
}()
