package msgcheck_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/protoscan-dev/protoscan/jsonmsg"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// indent prefixes every line of s with pre.
func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pre + l
		}
	}
	return strings.Join(lines, "\n")
}

// fieldSpecSource is a one-kind spec ("msg") whose field v has the given
// schema, with optional definitions.
func fieldSpecSource(defs, schema string) string {
	src := "version: \"2.0\"\nprotocol: test\n"
	if defs != "" {
		src += "definitions:\n" + indent(defs, "  ") + "\n"
	}
	src += "msg:\n  signature: [v]\n  core_fields:\n    v:\n" + indent(schema, "      ") + "\n"
	return src
}

func mustParse(t testing.TB, name, src string) *msgcheck.Spec {
	t.Helper()
	sp, err := msgcheck.ParseSpec(name, []byte(src))
	if err != nil {
		t.Fatalf("ParseSpec:\n%s\nerror: %v", src, err)
	}
	return sp
}

// ---------------------------------------------------------------------------
// keywords

func TestSpecKeywords(t *testing.T) {
	const node = `node:
  type: object
  required: [name]
  properties:
    name: {type: string}
    children:
      type: array
      items: {$ref: "#/definitions/node"}
`
	type tc struct {
		value any
		errs  []string
	}
	ok := func(v any) tc { return tc{value: v} }
	bad := func(v any, errs ...string) tc { return tc{value: v, errs: errs} }
	const p = "msgcheck/msg-v-"
	rows := []struct {
		name   string
		defs   string
		schema string
		cases  []tc
	}{
		{"type string", "", "type: string", []tc{ok("x"), ok(""), bad(int64(1), p+"type | v: must be a string (got integer)")}},
		{"type list", "", `type: [string, "null"]`, []tc{ok("x"), ok(nil), bad(1.5, p+"type | v: must be a string or null (got number)")}},
		{"type list of integer and boolean", "", "type: [integer, boolean]", []tc{ok(true), ok(int64(1)), bad("1", p+"type | v: must be an integer or a boolean (got string)")}},
		{"type integer", "", "type: integer", []tc{ok(int64(2)), ok(2.0), ok(-7), bad(2.5, p+"type | v: must be an integer (got number)"), bad("2", p+"type | v: must be an integer (got string)")}},
		{"type number", "", "type: number", []tc{ok(int64(2)), ok(0.5), bad(true, p+"type | v: must be a number (got boolean)")}},
		{"type boolean", "", "type: boolean", []tc{ok(false), bad("false", p+"type | v: must be a boolean (got string)")}},
		{"type array", "", "type: array", []tc{ok([]any{}), bad(map[string]any{}, p+"type | v: must be an array (got object)")}},
		{"type object", "", "type: object", []tc{ok(map[string]any{}), bad([]any{}, p+"type | v: must be an object (got array)")}},
		{"type null", "", "type: \"null\"", []tc{ok(nil), bad("", p+"type | v: must be null (got string)")}},

		{"enum", "", "enum: [a, b, 3]", []tc{ok("a"), ok(int64(3)), ok(3.0),
			bad("3", p+"enum | v: invalid v '3' (must be one of [a, b, 3])"),
			bad("c", p+"enum | v: invalid v 'c' (must be one of [a, b, 3])")}},
		{"numeric enum", "", "enum: [1, 2]", []tc{ok(int64(2)), bad(1.5, p+"enum | v: invalid v 1.5 (must be one of [1, 2])")}},
		{"enum of true and null", "", "enum: [true, null]", []tc{ok(nil), ok(true), bad(false, p+"enum | v: invalid v false (must be one of [true, null])")}},
		{"enum on array items names the field", "", "items: {enum: [a, b]}", []tc{ok([]any{"a", "b"}), bad([]any{"a", "c"}, p+"enum | v[1]: invalid v 'c' (must be one of [a, b])")}},
		{"enum with errorMessage", "", "enum: [a]\nerrorMessage: must be a", []tc{bad("b", p+"enum | v: must be a (got 'b')")}},

		{"const string", "", "const: fixed", []tc{ok("fixed"), bad("other", p+"const | v: must be 'fixed'")}},
		{"const number", "", "const: 5", []tc{ok(int64(5)), ok(5.0), bad("5", p+"const | v: must be 5")}},

		{"pattern", "", `pattern: "^[A-Z]+$"`, []tc{ok("ABC"), bad("AbC", p+"format | v: must match ^[A-Z]+$ (got 'AbC')")}},
		{"pattern is a search, not anchored", "", `pattern: "b+"`, []tc{ok("abbbc"), bad("ac", p+"format | v: must match b+ (got 'ac')")}},
		{"pattern ignores non-strings", "", `pattern: "^x"`, []tc{ok(int64(5)), ok(nil)}},

		{"minLength", "", "minLength: 3", []tc{ok("abc"), ok("日本語"), ok(int64(1)), bad("ab", p+"length | v: must be at least 3 characters (got 'ab')")}},
		{"maxLength", "", "maxLength: 3", []tc{ok("abc"), ok("日本語"), ok(""), bad("abcd", p+"length | v: must be at most 3 characters (got 4)")}},

		{"minimum", "", "minimum: 1", []tc{ok(int64(1)), ok(1.0), ok("abc"), bad(0.5, p+"range | v: must be >= 1 (got 0.5)")}},
		{"negative minimum", "", "minimum: -2.5", []tc{ok(-2.5), bad(int64(-3), p+"range | v: must be >= -2.5 (got -3)")}},
		{"maximum", "", "maximum: 10", []tc{ok(int64(10)), bad(10.5, p+"range | v: must be <= 10 (got 10.5)")}},
		{"minimum and maximum", "", "minimum: 1\nmaximum: 10", []tc{ok(int64(5)), bad(int64(11), p+"range | v: must be 1-10 (got 11)"), bad(int64(0), p+"range | v: must be 1-10 (got 0)")}},
		{"exclusiveMinimum", "", "exclusiveMinimum: 0", []tc{ok(0.001), bad(int64(0), p+"range | v: must be > 0 (got 0)")}},
		{"exclusiveMaximum", "", "exclusiveMaximum: 5", []tc{ok(4.999), bad(int64(5), p+"range | v: must be < 5 (got 5)")}},
		{"exclusiveMinimum and maximum", "", "exclusiveMinimum: 0\nmaximum: 1", []tc{ok(int64(1)), bad(0.0, p+"range | v: must be > 0 and <= 1 (got 0)")}},
		{"range with errorMessage", "", "minimum: 0\nerrorMessage: must not be negative", []tc{bad(int64(-1), p+"range | v: must not be negative (got -1)")}},

		{"minItems", "", "minItems: 2", []tc{ok([]any{1, 2}), ok("x"), bad([]any{1}, p+"items | v: must have >=2 items (1 provided)")}},
		{"maxItems", "", "maxItems: 2", []tc{ok([]any{}), bad([]any{1, 2, 3}, p+"items | v: must have <=2 items (3 provided)")}},
		{"items", "", "items: {type: string}", []tc{ok([]any{"a"}), bad([]any{"a", int64(1)}, p+"type | v[1]: must be a string (got integer)")}},
		{"nested items", "", "items: {items: {type: integer}}", []tc{bad([]any{[]any{int64(1)}, []any{int64(2), "x"}}, p+"type | v[1][1]: must be an integer (got string)")}},

		{"required and properties", "", "type: object\nrequired: [a]\nproperties: {a: {type: string}, b: {type: integer}}", []tc{
			ok(map[string]any{"a": "x"}),
			ok(map[string]any{"a": "x", "zz": "extra is fine"}),
			bad(map[string]any{}, "msgcheck/msg-v-a-required | v.a: required field is missing"),
			bad(map[string]any{"a": "x", "b": "y"}, "msgcheck/msg-v-b-type | v.b: must be an integer (got string)"),
		}},
		{"required without properties", "", "required: [z]", []tc{ok("not an object"), bad(map[string]any{}, "msgcheck/msg-v-z-required | v.z: required field is missing")}},
		{"nested properties", "", "properties: {a: {properties: {b: {minimum: 1}}}}", []tc{bad(map[string]any{"a": map[string]any{"b": int64(0)}}, "msgcheck/msg-v-a-b-range | v.a.b: must be >= 1 (got 0)")}},

		{"additionalProperties false", "", "properties: {a: {}}\nadditionalProperties: false", []tc{
			ok(map[string]any{"a": 1}),
			ok("not an object"),
			bad(map[string]any{"a": 1, "z": 1, "y": 2}, p+"additional | v.y: field is not allowed here", p+"additional | v.z: field is not allowed here"),
		}},
		{"additionalProperties schema", "", "properties: {a: {}}\nadditionalProperties: {type: integer}", []tc{
			ok(map[string]any{"a": "x", "z": int64(1)}),
			bad(map[string]any{"a": "x", "z": "no"}, "msgcheck/msg-v-z-type | v.z: must be an integer (got string)"),
		}},
		{"additionalProperties true", "", "additionalProperties: true", []tc{ok(map[string]any{"q": 1})}},

		{"oneOf", "", "oneOf: [{type: string}, {type: integer}]", []tc{ok("x"), ok(int64(1)), bad(true, p+"type | v: must be a string or an integer (got boolean)")}},
		{"oneOf matching two", "", "oneOf: [{type: number}, {type: integer}]", []tc{ok(1.5), bad(int64(1), p+"one-of | v: matches 2 alternatives, must match exactly one")}},
		{"oneOf reports the fitting alternative", "", "oneOf: [{type: string, minLength: 3}, {type: integer}]", []tc{bad("ab", p+"length | v: must be at least 3 characters (got 'ab')")}},
		{"anyOf", "", "anyOf: [{type: number}, {type: integer}]", []tc{ok(int64(1)), ok(1.5)}},
		{"anyOf reports the fitting alternative", "", `anyOf: [{type: string, pattern: "^a"}, {type: integer, minimum: 5}]`, []tc{
			ok("abc"), ok(int64(7)),
			bad("b", p+"format | v: must match ^a (got 'b')"),
			bad(int64(3), p+"range | v: must be >= 5 (got 3)"),
			bad(nil, p+"type | v: must be a string or an integer (got null)"),
		}},
		{"allOf", "", `allOf: [{minLength: 2}, {pattern: "^a"}]`, []tc{ok("ab"), bad("b",
			p+"length | v: must be at least 2 characters (got 'b')",
			p+"format | v: must match ^a (got 'b')")}},
		{"not", "", "not: {type: string}", []tc{ok(int64(1)), bad("x", p+"not | v: must not match the excluded form")}},

		{"uniqueItems", "", "uniqueItems: true", []tc{
			ok([]any{int64(1), int64(2), "1"}),
			bad([]any{int64(1), int64(2), int64(1)}, p+"unique | v[2]: repeats item 0 (1)"),
			bad([]any{int64(1), 1.0}, p+"unique | v[1]: repeats item 0 (1)"),
			bad([]any{map[string]any{"a": int64(1)}, map[string]any{"a": 1.0}}, p+"unique | v[1]: repeats item 0 (an object)"),
			bad([]any{"a", "b", "a", "b"}, p+"unique | v[2]: repeats item 0 ('a')", p+"unique | v[3]: repeats item 1 ('b')"),
		}},
		{"uniqueItems false", "", "uniqueItems: false", []tc{ok([]any{int64(1), int64(1)})}},

		{"$ref", "name: {type: string, minLength: 2}", `$ref: "#/definitions/name"`, []tc{ok("ab"), bad("a", p+"length | v: must be at least 2 characters (got 'a')")}},
		{"$ref chain", "a: {$ref: \"#/definitions/b\"}\nb: {type: integer}", `$ref: "#/definitions/a"`, []tc{ok(int64(1)), bad("x", p+"type | v: must be an integer (got string)")}},
		{"recursive $ref", node, `$ref: "#/definitions/node"`, []tc{
			ok(map[string]any{"name": "a", "children": []any{map[string]any{"name": "b", "children": []any{}}}}),
			bad(map[string]any{"name": "a", "children": []any{map[string]any{"name": "b", "children": []any{map[string]any{"name": int64(3)}, map[string]any{}}}}},
				"msgcheck/msg-v-children-children-name-type | v.children[0].children[0].name: must be a string (got integer)",
				"msgcheck/msg-v-children-children-name-required | v.children[0].children[1].name: required field is missing"),
		}},

		{"minWords", "", "minWords: 3", []tc{ok("a b c"), ok("a\u00a0b\u3000c"), bad("a b", p+"words | v: must be >=3 words (2 provided)")}},
		{"minWords on items", "", "items: {minWords: 2}", []tc{ok([]any{"a b"}), bad([]any{"a b", "c"}, p+"words | v[1]: must be >=2 words (1 provided)")}},
		{"minWords 0", "", "minWords: 0", []tc{ok("")}},

		{"errorMessage on pattern", "", "type: string\npattern: \"^x\"\nerrorMessage: must start with x", []tc{ok("xy"), bad("y", p+"format | v: must start with x (got 'y')")}},
		{"errorMessage on words", "", "minWords: 2\nerrorMessage: needs words", []tc{bad("a", p+"words | v: needs words (got 'a')")}},

		{"boolean schema false", "", "false", []tc{bad("x", p+"not-allowed | v: no value is allowed here")}},
		{"boolean schema true", "", "true", []tc{ok("x"), ok(nil)}},
		{"empty schema", "", "{}", []tc{ok([]any{map[string]any{}})}},
		{"annotations are ignored", "", "type: string\ndescription: d\ntitle: t\nx-ui: {widget: text}\nx-anything: [1, 2]\n$comment: c\ndefault: x\nexamples: [a]\nformat: email\nreadOnly: true", []tc{ok("not an email"), bad(int64(1), p+"type | v: must be a string (got integer)")}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			sp := mustParse(t, "kw.yaml", fieldSpecSource(r.defs, r.schema))
			v := newValidator(t, "", sp)
			for _, c := range r.cases {
				res := v.Validate("msg", map[string]any{"v": c.value})
				if got := describe(res.Errors); !slices.Equal(got, orEmpty(c.errs)) {
					t.Errorf("v = %#v:\n got  %q\n want %q", c.value, got, c.errs)
				}
				if len(res.Warnings) > 0 {
					t.Errorf("v = %#v: warnings %q", c.value, describe(res.Warnings))
				}
				if res.Valid != (len(c.errs) == 0) {
					t.Errorf("v = %#v: Valid = %v", c.value, res.Valid)
				}
			}
		})
	}
}

// JSON Schema: a schema with both oneOf and anyOf must satisfy both.
func TestSpecOneOfAndAnyOfTogether(t *testing.T) {
	sp := mustParse(t, "both.yaml", fieldSpecSource("", "oneOf: [{type: string}, {type: integer}]\nanyOf: [{const: abc}, {const: 1}]"))
	v := newValidator(t, "", sp)
	for _, ok := range []any{"abc", int64(1)} {
		if res := v.Validate("msg", map[string]any{"v": ok}); !res.Valid {
			t.Errorf("v = %#v rejected: %q", ok, describe(res.Errors))
		}
	}
	for _, bad := range []any{"xyz", int64(2)} {
		if res := v.Validate("msg", map[string]any{"v": bad}); res.Valid {
			t.Errorf("v = %#v matches oneOf but no anyOf alternative, yet it is valid (anyOf ignored beside oneOf)", bad)
		}
	}
	if res := v.Validate("msg", map[string]any{"v": true}); res.Valid {
		t.Error("v = true accepted")
	}
}

// When no alternative fits by type and some are untyped, the message must
// not claim the value "must be any value".
func TestSpecUntypedAlternativesMessage(t *testing.T) {
	for _, schema := range []string{
		`anyOf: [{minLength: 5}, {pattern: "^x"}]`,
		`oneOf: [{minLength: 5}, {pattern: "^x"}]`,
		`anyOf: [{type: string, minLength: 5}, {pattern: "^x"}]`,
	} {
		sp := mustParse(t, "alt.yaml", fieldSpecSource("", schema))
		res := newValidator(t, "", sp).Validate("msg", map[string]any{"v": "ab"})
		if res.Valid || len(res.Errors) == 0 {
			t.Errorf("%s: 'ab' accepted", schema)
			continue
		}
		for _, e := range res.Errors {
			if strings.Contains(e.Message, "any value") || strings.HasSuffix(e.Rule, "-type") {
				t.Errorf("%s: 'ab' is a string, which fits; got the type error %q (%s)", schema, e.Message, e.Rule)
			}
		}
	}
}

// ---------------------------------------------------------------------------
// deprecated

const deprecatedSpec = `version: "2.0"
definitions:
  old: {deprecated: "see MIGRATION-GUIDE.md"}
msg:
  signature: [id]
  core_fields:
    id: {type: string}
    old_core: {type: string, deprecated: true}
  extensions:
    x: {type: string, deprecated: "hint"}
    y: {$ref: "#/definitions/old"}
    nested:
      type: object
      properties:
        inner: {deprecated: "use other"}
    kept: {type: string, deprecated: false}
`

func TestSpecDeprecated(t *testing.T) {
	v := newValidator(t, "", mustParse(t, "dep.yaml", deprecatedSpec))
	for _, tc := range []struct {
		name  string
		msg   map[string]any
		warns []string
	}{
		{"absent", map[string]any{"id": "a"}, nil},
		{"extension with hint", map[string]any{"id": "a", "x": "v"}, []string{"msgcheck/msg-x-deprecated | Extension field 'x' is no longer recommended (hint)"}},
		{"extension through $ref", map[string]any{"id": "a", "y": "v"}, []string{"msgcheck/msg-y-deprecated | Extension field 'y' is no longer recommended (see MIGRATION-GUIDE.md)"}},
		{"core field, deprecated: true", map[string]any{"id": "a", "old_core": "v"}, []string{"msgcheck/msg-old-core-deprecated | Field 'old_core' is no longer recommended (deprecated)"}},
		{"nested", map[string]any{"id": "a", "nested": map[string]any{"inner": 1}}, []string{"msgcheck/msg-nested-inner-deprecated | Field 'nested.inner' is no longer recommended (use other)"}},
		{"deprecated: false", map[string]any{"id": "a", "kept": "v"}, nil},
		{"deprecated and wrong", map[string]any{"id": "a", "x": int64(5)}, []string{
			"msgcheck/msg-x-deprecated | Extension field 'x' is no longer recommended (hint)",
			"msgcheck/msg-x-type | x: must be a string (got integer)",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, v.Validate("msg", tc.msg), nil, tc.warns)
		})
	}
	t.Run("points at the key", func(t *testing.T) {
		res, err := v.ValidateNode("msg", parseYAML(t, "id: a\nx:   v\n"))
		if err != nil {
			t.Fatal(err)
		}
		if got := located(res.Warnings); !slices.Equal(got, []string{"2:1 msgcheck/msg-x-deprecated | Extension field 'x' is no longer recommended (hint)"}) {
			t.Errorf("warnings = %q", got)
		}
	})
}

// ---------------------------------------------------------------------------
// spec errors

func TestSpecUnknownKeywordFixture(t *testing.T) {
	data, err := os.ReadFile("testdata/specs/unknown-keyword.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = msgcheck.ParseSpec("unknown-keyword.yaml", data)
	if err == nil || err.Error() != `unknown-keyword.yaml:9:7: unknown keyword "minimun" (did you mean "minimum"?)` {
		t.Errorf("ParseSpec error = %v", err)
	}
	var se *msgcheck.SpecError
	if !errors.As(err, &se) || se.File != "unknown-keyword.yaml" || se.Line != 9 || se.Column != 7 {
		t.Errorf("SpecError = %+v", se)
	}
	_, err = msgcheck.LoadSpec("testdata/specs/unknown-keyword.yaml")
	if err == nil || err.Error() != `testdata/specs/unknown-keyword.yaml:9:7: unknown keyword "minimun" (did you mean "minimum"?)` {
		t.Errorf("LoadSpec error = %v", err)
	}
}

func TestSpecErrors(t *testing.T) {
	const head = "version: \"1\"\nmsg:\n  signature: [v]\n  core_fields:\n" // v is on line 5
	rows := []struct {
		name string
		src  string
		want string // the full error text; a trailing * matches a prefix
	}{
		{"unknown keyword nested", head + "    v: {properties: {a: {maxLenght: 3}}}\n", `bad.yaml:5:26: unknown keyword "maxLenght" (did you mean "maxLength"?)`},
		{"unresolvable $ref", head + "    v: {$ref: \"#/definitions/nope\"}\n", `bad.yaml:5:15: unresolvable $ref "#/definitions/nope" (only #/definitions/NAME and #/$defs/NAME are supported)`},
		{"external $ref", head + "    v: {$ref: \"other.yaml#/definitions/x\"}\n", `bad.yaml:5:15: unresolvable $ref "other.yaml#/definitions/x" (only #/definitions/NAME and #/$defs/NAME are supported)`},
		{"bad pattern", head + "    v: {pattern: \"(\"}\n", `bad.yaml:5:18: pattern "(" does not compile: *`},
		{"bad type name", head + "    v: {type: strng}\n", `bad.yaml:5:15: unknown type "strng" (want string, number, integer, boolean, array, object or null)`},
		{"bad type name in a list", head + "    v: {type: [string, nmber]}\n", `bad.yaml:5:24: unknown type "nmber" (want string, number, integer, boolean, array, object or null)`},
		{"minimum > maximum", head + "    v: {minimum: 5, maximum: 1}\n", `bad.yaml:5:8: minimum 5 is greater than maximum 1`},
		{"alias outside the enum", head + "    v:\n      enum: [a, b]\n      aliases: {old: c}\n", `bad.yaml:7:22: alias "old" maps to "c", which is not in the enum`},
		{"aliases without enum", head + "    v:\n      aliases: {old: c}\n", `bad.yaml:6:16: aliases needs a string enum beside it`},
		{"required field not defined", "version: \"1\"\nmsg:\n  required: [v, w]\n  core_fields:\n    v: {}\n", `bad.yaml:3:13: msg: required field "w" is not defined in core_fields, extensions or properties`},
		{"signature field not defined", "version: \"1\"\nmsg:\n  signature: [w]\n  core_fields:\n    v: {}\n", `bad.yaml:3:3: msg: signature field "w" is not defined`},
		{"field defined twice", head + "    v: {}\n  extensions:\n    v: {}\n", `bad.yaml:7:5: msg: field "v" is defined twice`},
		{"no version", "# comment\nprotocol: x\nmsg:\n  core_fields: {v: {}}\n", `bad.yaml:2:1: spec has no version`},
		{"empty version", "version: \"\"\nmsg:\n  core_fields: {v: {}}\n", `bad.yaml:1:1: spec has no version`},
		{"no kind", "version: \"1\"\nprotocol: x\n", `bad.yaml:1:1: spec defines no message kind (a top-level block with core_fields or properties)`},
		{"unknown top-level key", "version: \"1\"\nmsg:\n  core_fields: {v: {}}\nfoo: 1\n", `bad.yaml:4:1: unknown top-level key "foo" (a message kind needs core_fields or properties)`},
		{"unknown key in a kind", "version: \"1\"\nmsg:\n  core_fields: {v: {}}\n  requird: [v]\n", `bad.yaml:4:3: unknown key "requird" in message kind "msg" (did you mean "required"?)`},
		{"non-mapping spec", "- a\n- b\n", `bad.yaml:1:1: spec must be a mapping`},
		{"scalar spec", "just text\n", `bad.yaml:1:1: spec must be a mapping`},
		{"invalid YAML", "version: [1\n", `bad.yaml:1: did not find expected ',' or ']'`},
		{"negative minLength", head + "    v: {minLength: -1}\n", `bad.yaml:5:20: minLength must be a non-negative integer (got "-1")`},
		{"fractional minItems", head + "    v: {minItems: 1.5}\n", `bad.yaml:5:19: minItems must be a non-negative integer (got "1.5")`},
		{"minimum not a number", head + "    v: {minimum: abc}\n", `bad.yaml:5:18: minimum must be a number (got "abc")`},
		{"draft-04 exclusiveMinimum", head + "    v: {exclusiveMinimum: true}\n", `bad.yaml:5:27: exclusiveMinimum must be a number (draft-04 boolean form is not supported)`},
		{"empty oneOf", head + "    v: {oneOf: []}\n", `bad.yaml:5:16: oneOf must be a non-empty list of schemas`},
		{"empty enum", head + "    v: {enum: []}\n", `bad.yaml:5:15: enum must be a non-empty list`},
		{"schema not a mapping", head + "    v: [string]\n", `bad.yaml:5:8: schema must be a mapping`},
		{"bad CEL severity", head + "    v: {}\n  x-protoscan-validations:\n    - {rule: \"true\", severity: fatal}\n", `bad.yaml:7:32: severity must be error or warning (got "fatal")`},
		{"CEL rule missing", head + "    v: {}\n  x-protoscan-validations:\n    - {message: m}\n", `bad.yaml:7:7: x-protoscan-validations[0] has no rule`},
		{"CEL unknown key", head + "    v: {}\n  x-protoscan-validations:\n    - {rule: \"true\", messsage: m}\n", `bad.yaml:7:22: unknown key "messsage" in a validation rule (want rule, message, fieldPath, reason, severity)`},
		{"CEL not a list", head + "    v: {}\n  x-protoscan-validations: {rule: \"true\"}\n", `bad.yaml:6:28: x-protoscan-validations must be a list of {rule, message}`},
		// existsIn names directories of the repository: every entry that
		// leaves it is the same error, decided on the text, so a spec of
		// the tree learns nothing of the disk outside
		{"existsIn up", head + "    v: {existsIn: [../outside/secret]}\n", `bad.yaml:5:20: existsIn entries are directories of the repository, relative to its root and inside it`},
		{"existsIn far up", head + "    v: {existsIn: [skills, ../../../../root]}\n", `bad.yaml:5:28: existsIn entries are directories of the repository, relative to its root and inside it`},
		{"existsIn absolute", head + "    v: {existsIn: [/etc]}\n", `bad.yaml:5:20: existsIn entries are directories of the repository, relative to its root and inside it`},
		{"existsIn up inside", head + "    v: {existsIn: [a/../../b]}\n", `bad.yaml:5:20: existsIn entries are directories of the repository, relative to its root and inside it`},
		{"existsIn backslash", head + "    v: {existsIn: ['..\\x']}\n", `bad.yaml:5:20: existsIn entries are directories of the repository, relative to its root and inside it`},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			sp, err := msgcheck.ParseSpec("bad.yaml", []byte(r.src))
			if err == nil {
				t.Fatalf("spec accepted:\n%s", r.src)
			}
			if sp != nil {
				t.Errorf("a spec is returned beside the error")
			}
			got := err.Error()
			if prefix, ok := strings.CutSuffix(r.want, "*"); ok {
				if !strings.HasPrefix(got, prefix) {
					t.Errorf("error:\n got  %s\n want %s", got, r.want)
				}
			} else if got != r.want {
				t.Errorf("error:\n got  %s\n want %s", got, r.want)
			}
			var se *msgcheck.SpecError
			if !errors.As(err, &se) || se.File != "bad.yaml" {
				t.Errorf("not a *SpecError naming the file: %#v", err)
			}
		})
	}
}

func TestSpecEmptyDocument(t *testing.T) {
	for _, src := range []string{"", "# only a comment\n", "---\n"} {
		_, err := msgcheck.ParseSpec("empty.yaml", []byte(src))
		if err == nil || !strings.HasPrefix(err.Error(), "empty.yaml") {
			t.Errorf("%q: err = %v", src, err)
		}
	}
}

func TestSpecRefCycle(t *testing.T) {
	src := `version: "1"
definitions:
  a: {$ref: "#/definitions/b"}
  b: {$ref: "#/definitions/a"}
msg:
  signature: [v]
  core_fields:
    v: {$ref: "#/definitions/a"}
`
	_, err := msgcheck.ParseSpec("cycle.yaml", []byte(src))
	if err == nil {
		t.Fatal("a $ref cycle is accepted")
	}
	lines := strings.Split(err.Error(), "\n")
	if lines[0] != `cycle.yaml:3:6: $ref "#/definitions/b" forms a cycle (through $ref, allOf, anyOf, oneOf or not) that never moves into a property or item` {
		t.Errorf("first error = %q", lines[0])
	}
	for _, l := range lines {
		if !strings.Contains(l, "forms a cycle") {
			t.Errorf("unexpected error %q", l)
		}
	}
	// a self-reference is a cycle too
	_, err = msgcheck.ParseSpec("self.yaml", []byte(fieldSpecSource("a: {$ref: \"#/definitions/a\"}", `$ref: "#/definitions/a"`)))
	if err == nil || !strings.Contains(err.Error(), "forms a cycle") {
		t.Errorf("self reference: err = %v", err)
	}
}

// A $ref cycle that passes through other keywords but never descends into
// the value (properties, items) must be rejected too, or validation must
// terminate: it is a stack overflow, which kills the process. Each case runs
// in a child process so that a crash fails the test instead of the binary.
func TestSpecRefCycleThroughKeywords(t *testing.T) {
	cases := map[string]string{
		"type_and_self_ref": "a: {type: string, $ref: \"#/definitions/a\"}",
		"allOf_cycle":       "a: {allOf: [{$ref: \"#/definitions/b\"}]}\nb: {allOf: [{$ref: \"#/definitions/a\"}]}",
		"anyOf_self":        "a: {anyOf: [{$ref: \"#/definitions/a\"}, {type: integer}]}",
		"not_self":          "a: {not: {$ref: \"#/definitions/a\"}}",
	}
	const env = "MSGCHECK_REF_CYCLE_CHILD"
	if name := os.Getenv(env); name != "" {
		debug.SetMaxStack(16 << 20) // fail fast; real validation needs a few KB
		sp, err := msgcheck.ParseSpec("cycle.yaml", []byte(fieldSpecSource(cases[name], `$ref: "#/definitions/a"`)))
		if err != nil {
			return
		}
		v := newValidator(t, "", sp)
		v.Validate("msg", map[string]any{"v": "x"})
		v.Validate("msg", map[string]any{"v": int64(1)})
		sp.Enum("msg", "v")
		fmt.Println("child done")
		return
	}
	for name, defs := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := msgcheck.ParseSpec("cycle.yaml", []byte(fieldSpecSource(defs, `$ref: "#/definitions/a"`)))
			if err != nil {
				if !strings.Contains(err.Error(), "cycle") {
					t.Errorf("rejected, but not as a cycle: %v", err)
				}
				return
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestSpecRefCycleThroughKeywords$", "-test.count=1")
			cmd.Env = append(os.Environ(), env+"="+name)
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "child done") {
				first, _, _ := strings.Cut(string(out), "\n\n")
				t.Errorf("the spec is accepted and validating with it does not terminate: %v\n%s", err, first)
			}
		})
	}
}

func TestSpecSeveralErrorsAllReported(t *testing.T) {
	src := "version: \"1\"\nmsg:\n  core_fields:\n    a: {type: strng}\n    b: {minimun: 1}\n"
	_, err := msgcheck.ParseSpec("two.yaml", []byte(src))
	if err == nil {
		t.Fatal("accepted")
	}
	want := "two.yaml:4:15: unknown type \"strng\" (want string, number, integer, boolean, array, object or null)\n" +
		"two.yaml:5:9: unknown keyword \"minimun\" (did you mean \"minimum\"?)"
	if err.Error() != want {
		t.Errorf("error:\n%s\nwant:\n%s", err, want)
	}
}

// ---------------------------------------------------------------------------
// CEL

func TestCELRules(t *testing.T) {
	sp, err := msgcheck.LoadSpec("testdata/specs/cel-rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	v := newValidator(t, "", sp)
	const low = "msgcheck/handback-low-quality-success | metrics.quality: a successful task needs quality >= 0.5"
	const noNotes = "msgcheck/handback-rule-3 | failed rule: self.status == 'success' || has(self.notes)"
	const longNotes = "msgcheck/handback-rule-2 | notes: notes should be short"
	q := func(x any) map[string]any { return map[string]any{"quality": x} }
	for _, tc := range []struct {
		name        string
		msg         map[string]any
		errs, warns []string
	}{
		{"passes", map[string]any{"task_id": "t", "status": "success", "metrics": q(0.7)}, nil, nil},
		{"boundary passes", map[string]any{"task_id": "t", "status": "success", "metrics": q(0.5)}, nil, nil},
		{"integer quality passes", map[string]any{"task_id": "t", "status": "success", "metrics": q(int64(1))}, nil, nil},
		{"low quality success fails", map[string]any{"task_id": "t", "status": "success", "metrics": q(0.3)}, []string{low}, nil},
		{"integer zero quality fails", map[string]any{"task_id": "t", "status": "success", "metrics": q(int64(0))}, []string{low}, nil},
		{"low quality failure passes", map[string]any{"task_id": "t", "status": "failure", "metrics": q(0.1), "notes": "n"}, nil, nil},
		{"missing metrics does not fire", map[string]any{"task_id": "t", "status": "success"}, nil, nil},
		{"missing quality does not fire", map[string]any{"task_id": "t", "status": "success", "metrics": map[string]any{}}, nil, nil},
		{"warning severity", map[string]any{"task_id": "t", "status": "success", "notes": "far too long a note"}, nil, []string{longNotes}},
		{"rule without message or fieldPath", map[string]any{"task_id": "t", "status": "failure"}, []string{noNotes}, nil},
		{"schema findings come before rule findings", map[string]any{"task_id": "t", "status": "success", "metrics": q(0.1), "notes": "far too long a note", "zz": 1}, []string{low},
			[]string{"msgcheck/handback-unknown-field | Unknown field 'zz' in HANDBACK (will be ignored)", longNotes}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, v.Validate("handback", tc.msg), tc.errs, tc.warns)
		})
	}
	t.Run("position", func(t *testing.T) {
		res, err := v.ValidateNode("", parseYAML(t, "task_id: t\nstatus: success\nmetrics:\n  quality: 0.25\n"))
		if err != nil {
			t.Fatal(err)
		}
		if got := located(res.Errors); !slices.Equal(got, []string{"4:12 " + low}) {
			t.Errorf("errors = %q", got)
		}
	})
}

// A rule over a field the message already got wrong has nothing to add:
// the schema finding says it. "could not be evaluated" warnings are for
// spec bugs, and a mistyped field in a message is not one.
func TestCELMistypedFieldDoesNotWarn(t *testing.T) {
	sp, err := msgcheck.LoadSpec("testdata/specs/cel-rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	v := newValidator(t, "", sp)
	res := v.Validate("handback", map[string]any{"task_id": "t", "status": "success", "metrics": map[string]any{"quality": 0.9}, "notes": int64(5)})
	expect(t, res, nil, []string{"msgcheck/handback-notes-type | notes: must be a string (got integer)"})
	res = v.Validate("handback", map[string]any{"task_id": "t", "status": "success", "metrics": map[string]any{"quality": "high"}})
	expect(t, res, []string{"msgcheck/handback-metrics-quality-type | metrics.quality: must be a number (got string)"}, nil)
}

func TestCELSpecErrors(t *testing.T) {
	data, err := os.ReadFile("testdata/specs/bad-cel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = msgcheck.ParseSpec("bad-cel.yaml", data)
	if err == nil {
		t.Fatal("accepted")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 2 {
		t.Fatalf("errors = %q", lines)
	}
	if !strings.HasPrefix(lines[0], `bad-cel.yaml:8:13: CEL rule "self.v ===" does not compile: `) {
		t.Errorf("compile error = %q", lines[0])
	}
	if lines[1] != `bad-cel.yaml:10:13: CEL rule "size(self)" must be a boolean expression (it is int)` {
		t.Errorf("type error = %q", lines[1])
	}
}

func celSpec(t testing.TB, rules string) *msgcheck.Spec {
	t.Helper()
	return mustParse(t, "cel.yaml", "version: \"1\"\nmsg:\n  signature: [v]\n  core_fields:\n    v: {}\n  x-protoscan-validations:\n"+indent(rules, "    ")+"\n")
}

func TestCELEvaluationErrorIsAWarning(t *testing.T) {
	v := newValidator(t, "", celSpec(t, "- rule: \"self.v / 0 == 1\""))
	res := v.Validate("msg", map[string]any{"v": int64(1)})
	if !res.Valid || len(res.Warnings) != 1 || res.Warnings[0].Rule != "msgcheck/msg-rule-1" ||
		!strings.HasPrefix(res.Warnings[0].Message, `rule "self.v / 0 == 1" could not be evaluated: `) {
		t.Errorf("valid=%v errors=%q warnings=%q", res.Valid, describe(res.Errors), describe(res.Warnings))
	}
}

// A rule typed dyn that yields a non-boolean at run time is a spec bug, like
// any other evaluation problem: a warning, not a failure of the message.
func TestCELNonBooleanResultIsAWarning(t *testing.T) {
	v := newValidator(t, "", celSpec(t, "- rule: \"self.v\""))
	if res := v.Validate("msg", map[string]any{"v": true}); !res.Valid || len(res.Warnings) != 0 {
		t.Errorf("true: %q %q", describe(res.Errors), describe(res.Warnings))
	}
	if res := v.Validate("msg", map[string]any{"v": false}); res.Valid {
		t.Errorf("false passes")
	}
	res := v.Validate("msg", map[string]any{"v": "not a boolean"})
	if !res.Valid || len(res.Warnings) != 1 {
		t.Errorf("a rule yielding a string fails the message: errors %q warnings %q", describe(res.Errors), describe(res.Warnings))
	}
}

// ---------------------------------------------------------------------------
// loading

func specWithVersion(t *testing.T, version string) []byte {
	t.Helper()
	src, err := msgcheck.EmbeddedSpecSource(msgcheck.DefaultSpecName)
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Replace(string(src), `version: "1.0"`, `version: "`+version+`"`, 1)
	if version != "1.0" && out == string(src) {
		t.Fatal("version line not found in the embedded spec")
	}
	return []byte(out)
}

func TestDiscover(t *testing.T) {
	t.Run("numeric order", func(t *testing.T) {
		root := t.TempDir()
		mkdir(t, root, "docs/specs")
		for _, ver := range []string{"1.0", "1.9", "1.10"} {
			if err := os.WriteFile(filepath.Join(root, "docs", "specs", "protocol-core-v"+ver+".yaml"), specWithVersion(t, ver), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		touch(t, root, "docs/specs/other-v9.yaml") // not a protocol-core spec
		specs, err := msgcheck.Discover(root)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range specs {
			got = append(got, s.Version)
		}
		if !slices.Equal(got, []string{"1.10", "1.9", "1.0"}) {
			t.Errorf("versions = %q", got)
		}
		if !strings.HasSuffix(specs[0].Source, "protocol-core-v1.10.yaml") {
			t.Errorf("Source = %q", specs[0].Source)
		}
		v := newValidator(t, "", specs...)
		m := validHandback()
		if res := v.Validate("handback", m); res.SpecVersion != "1.10" {
			t.Errorf("default spec = %q", res.SpecVersion)
		}
		m["protocol_version"] = "1.9"
		if res := v.Validate("handback", m); res.SpecVersion != "1.9" || len(res.Warnings) != 0 {
			t.Errorf("1.9 picks %q, warnings %q", res.SpecVersion, describe(res.Warnings))
		}
	})
	t.Run("1.0 and 1.10", func(t *testing.T) {
		root := t.TempDir()
		mkdir(t, root, "docs/specs")
		for _, ver := range []string{"1.10", "1.0"} {
			if err := os.WriteFile(filepath.Join(root, "docs", "specs", "protocol-core-v"+ver+".yaml"), specWithVersion(t, ver), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		specs, err := msgcheck.Discover(root)
		if err != nil || len(specs) != 2 || specs[0].Version != "1.10" || specs[1].Version != "1.0" {
			t.Errorf("Discover = %v, %v", specs, err)
		}
	})
	t.Run("none gives the embedded spec", func(t *testing.T) {
		specs, err := msgcheck.Discover(t.TempDir())
		if err != nil || len(specs) != 1 || specs[0] != msgcheck.DefaultSpec() {
			t.Errorf("Discover = %v, %v", specs, err)
		}
		if specs[0].Source != "embedded:protocol-core-v1.0.yaml" || specs[0].Protocol != "protocol-core" || specs[0].Version != "1.0" {
			t.Errorf("embedded spec = %+v", specs[0])
		}
	})
	t.Run("a broken spec is an error", func(t *testing.T) {
		root := t.TempDir()
		mkdir(t, root, "docs/specs")
		if err := os.WriteFile(filepath.Join(root, "docs", "specs", "protocol-core-v2.0.yaml"), []byte("version: \"2.0\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := msgcheck.Discover(root); err == nil || !strings.Contains(err.Error(), "protocol-core-v2.0.yaml") {
			t.Errorf("err = %v", err)
		}
	})
}

// TestDiscoverBoundedReads: a spec of the tree is read only if it is a
// regular file inside the tree, of at most 4 MiB; a spec named by the
// user may lie anywhere.
func TestDiscoverBoundedReads(t *testing.T) {
	spec := func(t *testing.T, root string) string {
		mkdir(t, root, "docs/specs")
		return filepath.Join(root, "docs", "specs", "protocol-core-v2.0.yaml")
	}
	t.Run("a link to /dev/zero", func(t *testing.T) {
		if _, err := os.Stat("/dev/zero"); err != nil {
			t.Skip("no /dev/zero")
		}
		root := t.TempDir()
		p := spec(t, root)
		if err := os.Symlink("/dev/zero", p); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
		// refused unopened: nothing of the device is read (a read with
		// no limit would never return, and go test's timeout says so)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := msgcheck.Discover(root)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.HasPrefix(err.Error(), p+": ") {
			t.Errorf("err = %v, want one naming %s", err, p)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
			t.Errorf("Discover allocated %d bytes on /dev/zero, want under 1 MiB: it read the device", n)
		}
	})
	t.Run("a link out of the tree", func(t *testing.T) {
		outside := filepath.Join(t.TempDir(), "spec.yaml")
		if err := os.WriteFile(outside, specWithVersion(t, "2.0"), 0o644); err != nil {
			t.Fatal(err)
		}
		root := t.TempDir()
		p := spec(t, root)
		if err := os.Symlink(outside, p); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
		if _, err := msgcheck.Discover(root); err == nil || !strings.HasPrefix(err.Error(), p+": ") || strings.Contains(err.Error(), outside) {
			t.Errorf("err = %v, want one naming %s and not its target", err, p)
		}
		if s, err := msgcheck.LoadSpec(p); err != nil || s.Version != "2.0" {
			t.Errorf("LoadSpec of a path the user named: %v", err)
		}
	})
	t.Run("a link inside the tree", func(t *testing.T) {
		root := t.TempDir()
		p := spec(t, root)
		if err := os.WriteFile(filepath.Join(root, "spec.yaml"), specWithVersion(t, "2.0"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join("..", "..", "spec.yaml"), p); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
		if specs, err := msgcheck.Discover(root); err != nil || specs[0].Version != "2.0" {
			t.Errorf("Discover = %v", err)
		}
	})
	t.Run("too large", func(t *testing.T) {
		root := t.TempDir()
		p := spec(t, root)
		if err := os.WriteFile(p, append(specWithVersion(t, "2.0"), strings.Repeat("#", 4<<20)...), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := msgcheck.Discover(root); err == nil || err.Error() != p+": larger than 4 MiB" {
			t.Errorf("err = %v", err)
		}
	})
}

func TestLoadSpecCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "spec.yaml")
	if err := os.WriteFile(path, specWithVersion(t, "1.1"), 0o644); err != nil {
		t.Fatal(err)
	}
	s1, err := msgcheck.LoadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := msgcheck.LoadSpec(path)
	if err != nil || s2 != s1 {
		t.Errorf("unchanged file compiled again: %p %p %v", s1, s2, err)
	}
	if s1.Source != path || s1.Version != "1.1" {
		t.Errorf("Source, Version = %q, %q", s1.Source, s1.Version)
	}

	// a different size
	if err := os.WriteFile(path, specWithVersion(t, "1.10"), 0o644); err != nil {
		t.Fatal(err)
	}
	s3, err := msgcheck.LoadSpec(path)
	if err != nil || s3 == s1 || s3.Version != "1.10" {
		t.Errorf("rewritten file: %p (version %q), %v", s3, s3.Version, err)
	}

	// the same size, a different modification time
	if err := os.WriteFile(path, specWithVersion(t, "1.20"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	s4, err := msgcheck.LoadSpec(path)
	if err != nil || s4 == s3 || s4.Version != "1.20" {
		t.Errorf("same-size rewrite: %p (version %q), %v", s4, s4.Version, err)
	}

	if _, err := msgcheck.LoadSpec(filepath.Join(t.TempDir(), "missing.yaml")); err == nil || !strings.HasPrefix(err.Error(), "spec: ") {
		t.Errorf("missing file: err = %v", err)
	}
}

func TestEmbeddedSpec(t *testing.T) {
	s, err := msgcheck.EmbeddedSpec(msgcheck.DefaultSpecName)
	if err != nil || s != msgcheck.DefaultSpec() {
		t.Errorf("EmbeddedSpec = %p, %v", s, err)
	}
	if _, err := msgcheck.EmbeddedSpec("nope.yaml"); err == nil {
		t.Error("EmbeddedSpec of a missing name succeeds")
	}
}

func TestSpecEnum(t *testing.T) {
	sp := msgcheck.DefaultSpec()
	values, aliases, ok := sp.Enum("handback", "status")
	if !ok || !slices.Equal(values, []string{"success", "failure", "partial", "blocked", "escalate"}) {
		t.Errorf("values = %q, ok = %v", values, ok)
	}
	want := map[string]string{"complete": "success", "failed": "failure", "escalated": "escalate"}
	if len(aliases) != len(want) {
		t.Errorf("aliases = %v", aliases)
	}
	for k, w := range want {
		if aliases[k] != w {
			t.Errorf("aliases[%q] = %q, want %q", k, aliases[k], w)
		}
	}
	// callers get copies
	aliases["done"] = "success"
	values[0] = "mutated"
	values2, aliases2, _ := sp.Enum("handback", "status")
	if _, leaked := aliases2["done"]; leaked || values2[0] != "success" {
		t.Error("Enum hands out the spec's own map or slice")
	}

	values, aliases, ok = sp.Enum("delegate", "agent")
	if !ok || len(values) != 8 || values[0] != "orchestrator" || len(aliases) != 0 {
		t.Errorf("agent: %q %v %v", values, aliases, ok)
	}
	for _, c := range [][2]string{{"delegate", "scope"}, {"handback", "metrics"}, {"handback", "output"}, {"nope", "status"}, {"handback", "nope"}} {
		if _, _, ok := sp.Enum(c[0], c[1]); ok {
			t.Errorf("Enum(%q, %q) ok", c[0], c[1])
		}
	}
	// an enum written on the field itself, and a numeric one
	custom := mustParse(t, "e.yaml", "version: \"1\"\nmsg:\n  core_fields:\n    s: {enum: [x, y], aliases: {old: x}}\n    n: {enum: [1, 2]}\n")
	if v, a, ok := custom.Enum("msg", "s"); !ok || !slices.Equal(v, []string{"x", "y"}) || a["old"] != "x" {
		t.Errorf("s: %q %v %v", v, a, ok)
	}
	if _, _, ok := custom.Enum("msg", "n"); ok {
		t.Error("a numeric enum is reported as a string enum")
	}
}

// A small spec that reuses YAML anchors must not expand exponentially: it
// is an error, found after compiling at most maxSchemas schemas (this one
// would compile to 10^5 schemas and more).
func TestSpecAliasExpansionIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: \"1\"\ndefinitions:\n  x0: &x0 {type: string}\n")
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&b, "  x%d: &x%d {allOf: [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*x%d", i-1)
		}
		b.WriteString("]}\n")
	}
	b.WriteString("msg:\n  core_fields:\n    f: *x5\n")
	_, compiled, _, err := msgcheck.SpecWork("bomb.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "spec expands to more than 10000 schemas") {
		t.Errorf("err = %v", err)
	}
	if compiled > msgcheck.MaxSchemas {
		t.Errorf("%d schemas compiled, want at most %d", compiled, msgcheck.MaxSchemas)
	}
}

// The same bomb in $ref form: each definition is compiled once, but one
// that names the next twice, twenty levels down, would check a value 2^20
// times. Loading the spec is an error that names the file, found by
// checks that visit each schema a few times (once per $ref, allOf...
// naming it), not once per path to it.
func TestSpecRefExpansionIsBounded(t *testing.T) {
	for _, key := range []string{"allOf", "anyOf", "oneOf"} {
		var b strings.Builder
		b.WriteString("version: \"1\"\ndefinitions:\n  d20: {type: string}\n")
		for i := 19; i >= 0; i-- {
			fmt.Fprintf(&b, "  d%d: {%s: [{$ref: '#/definitions/d%d'}, {$ref: '#/definitions/d%d'}]}\n", i, key, i+1, i+1)
		}
		b.WriteString("msg:\n  core_fields:\n    f: {$ref: '#/definitions/d0'}\n")
		_, compiled, visited, err := msgcheck.SpecWork("laughs.yaml", []byte(b.String()))
		if err == nil || !strings.HasPrefix(err.Error(), "laughs.yaml:") ||
			!strings.Contains(err.Error(), "expands to more than 10000 schemas checking one value") {
			t.Errorf("%s: err = %v", key, err)
		}
		// two checks, each visiting a schema once from the list of all
		// and once from each schema naming it: a few times the 62
		// schemas (186 for allOf), not once per path to them (2^20)
		if visited > 4*compiled {
			t.Errorf("%s: %d schemas visited, more than 4 times the %d compiled", key, visited, compiled)
		}
	}
	// shared definitions within the budget load, each compiled once
	var b strings.Builder
	b.WriteString("version: \"1\"\ndefinitions:\n  d8: {type: string}\n")
	for i := 7; i >= 0; i-- {
		fmt.Fprintf(&b, "  d%d: {allOf: [{$ref: '#/definitions/d%d'}, {$ref: '#/definitions/d%d'}]}\n", i, i+1, i+1)
	}
	b.WriteString("msg:\n  signature: [f]\n  core_fields:\n    f: {$ref: '#/definitions/d0'}\n")
	v := newValidator(t, "", mustParse(t, "shared.yaml", b.String()))
	if res := v.Validate("msg", map[string]any{"f": 5.0}); res.Valid || len(res.Errors) == 0 {
		t.Errorf("a number passes as a string: %q", describe(res.Warnings))
	}
}

// Schemas that apply two schemas to one value, and again under each
// nested property (a $ref back to themselves), double at every level of a
// nested message: 2^24 checks for one of twenty-two levels, eight times
// the budget. The walk stops at its budget with a warning, on either
// decoder's form.
func TestSchemaCheckBudget(t *testing.T) {
	spec := mustParse(t, "nest.yaml", `version: "1"
definitions:
  node:
    allOf:
      - {properties: {p: {$ref: '#/definitions/node'}}}
      - {properties: {p: {$ref: '#/definitions/node'}}}
msg:
  signature: [f]
  core_fields:
    f: {$ref: '#/definitions/node'}
`)
	v := newValidator(t, "", spec)
	msg := map[string]any{}
	for range 22 {
		msg = map[string]any{"p": msg}
	}
	want := []string{"msgcheck/schema-budget | the spec's schemas take more than 2097152 checks on this message; the rest of it is not checked"}
	res, checks, _ := v.ValidateWork("msg", map[string]any{"f": msg})
	if !res.Valid || !slices.Equal(describe(res.Warnings), want) {
		t.Errorf("valid=%v errors=%q warnings=%q", res.Valid, describe(res.Errors), describe(res.Warnings))
	}
	if checks > msgcheck.MaxChecks+100 {
		t.Errorf("%d schema checks, want at most the budget, %d, and the few the walk's open levels make after it", checks, msgcheck.MaxChecks)
	}
	data, err := json.Marshal(map[string]any{"f": msg})
	if err != nil {
		t.Fatal(err)
	}
	var tape jsonmsg.Tape
	if err := tape.Parse(string(data)); err != nil {
		t.Fatal(err)
	}
	if res, ok := v.ValidateTape("msg", &tape); ok && (!res.Valid || !slices.Equal(describe(res.Warnings), want)) {
		t.Errorf("tape: valid=%v errors=%q warnings=%q", res.Valid, describe(res.Errors), describe(res.Warnings))
	}
	// a message of a few levels is checked in full
	if res := v.Validate("msg", map[string]any{"f": map[string]any{"p": map[string]any{"p": map[string]any{}}}}); !res.Valid || len(res.Warnings) > 0 {
		t.Errorf("valid=%v errors=%q warnings=%q", res.Valid, describe(res.Errors), describe(res.Warnings))
	}
}

func TestKindNamed(t *testing.T) {
	spec := msgcheck.DefaultSpec()
	for in, want := range map[string]string{
		"DELEGATE": "delegate", " handback\n": "handback", "Delegate": "delegate",
		"delegate ": "delegate", "HANDBACKS": "", "": "", "NEXUS": "",
	} {
		if got := spec.KindNamed(in); got != want {
			t.Errorf("KindNamed(%q) = %q, want %q", in, got, want)
		}
	}
	// a name whose upper case does not fold back to it (dotless ı upper
	// cases to I, which folds to i): only the folding spellings name it
	odd, err := msgcheck.ParseSpec("odd.yaml", []byte(`version: "1.0"
protocol: p
taskı:
  signature: [a]
  core_fields:
    a: {type: integer}
`))
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{"taskı": "taskı", " TASKı": "taskı", "TASKI": "", "": ""} {
		if got := odd.KindNamed(in); got != want {
			t.Errorf("odd spec: KindNamed(%q) = %q, want %q", in, got, want)
		}
	}
}

// An error about an enum lists its first ten values, each shortened,
// then says how many more there are.
func TestEnumTextIsCapped(t *testing.T) {
	var vals []string
	for i := range 5000 {
		vals = append(vals, fmt.Sprintf("v%d", i))
	}
	vals[1] = strings.Repeat("w", 100)
	spec := mustParse(t, "enum.yaml", "version: \"1\"\nmsg:\n  signature: [f]\n  core_fields:\n    f: {enum: ["+strings.Join(vals, ", ")+"]}\n")
	res := newValidator(t, "", spec).Validate("msg", map[string]any{"f": "x"})
	want := "msgcheck/msg-f-enum | f: invalid f 'x' (must be one of [v0, " + strings.Repeat("w", 57) + "..., v2, v3, v4, v5, v6, v7, v8, v9, and 4990 more])"
	if got := describe(res.Errors); len(got) != 1 || got[0] != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// uniqueItems on a long list is linear: 5,000 items are checked with one
// comparison each (by pairs, 12.5 million), and repeats are found as in a
// short list, the first earlier equal item named.
func TestUniqueItemsLongList(t *testing.T) {
	v := newValidator(t, "", mustParse(t, "u.yaml", "version: \"1\"\nmsg:\n  signature: [v]\n  core_fields:\n    v: {uniqueItems: true}\n"))
	list := make([]any, 5_000)
	for i := range list {
		list[i] = map[string]any{"n": float64(i), "s": []any{"x", int64(i % 7)}}
	}
	list[7] = math.NaN() // equal to nothing, and no reason to compare pairs
	res, _, compared := v.ValidateWork("msg", map[string]any{"v": list})
	if !res.Valid {
		t.Errorf("distinct items repeat: %q", describe(res.Errors))
	}
	if compared > len(list) {
		t.Errorf("%d comparisons for %d items, want at most one per item", compared, len(list))
	}
	long := []any{"a", int64(1), -0.0, nil, true, []any{"a"}, map[string]any{"k": "v"}}
	for i := range 20 {
		long = append(long, fmt.Sprint("filler ", i))
	}
	long = append(long, 1.0, 0.0, nil, false, []any{"a"}, map[string]any{"k": "v"}, "a", "s1:a")
	want := []string{
		"msgcheck/msg-v-unique | v[27]: repeats item 1 (1)",
		"msgcheck/msg-v-unique | v[28]: repeats item 2 (0)",
		"msgcheck/msg-v-unique | v[29]: repeats item 3 (null)",
		"msgcheck/msg-v-unique | v[31]: repeats item 5 (an array)",
		"msgcheck/msg-v-unique | v[32]: repeats item 6 (an object)",
		"msgcheck/msg-v-unique | v[33]: repeats item 0 ('a')",
	}
	// NaN equals nothing, not even itself, and no list holding one; a
	// value of a type decoders do not produce is compared by pairs
	type other struct{ n int }
	for _, list := range [][]any{long, append(long, math.NaN(), math.NaN(), []any{math.NaN()}, []any{math.NaN()}), append(long, other{1}, other{2})} {
		res := v.Validate("msg", map[string]any{"v": list})
		if got := describe(res.Errors); !slices.Equal(got, want) {
			t.Errorf("got  %q\nwant %q", got, want)
		}
	}
}
