package msgcheck_test

// Fuzz targets. Run one at a time, e.g.
//
//	go test -run=^$ -fuzz=FuzzParseSpec -fuzztime=2m ./msgcheck
//	go test -run=^$ -fuzz=FuzzValidateBytes -fuzztime=2m ./msgcheck
//
// A crasher is saved under testdata/fuzz/<Target>/ and then replayed by
// every plain `go test`.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// fuzzTimeLimit is how long one input may take before it counts as a hang:
// a watchdog, 20x the slowest seed measured under -race (FuzzCELRule's
// quote of quotes, 0.5 s). The work an input may do is bounded by the
// counters and allocation the targets check.
const fuzzTimeLimit = 10 * time.Second

// fuzzWatchdog crashes the process, with every goroutine's stack, when the
// work it guards runs past fuzzTimeLimit: the fuzzer then keeps the input
// as a crasher, where a plain hang would only stall it.
func fuzzWatchdog(what string, data []byte) (stop func()) {
	start := time.Now()
	timer := time.AfterFunc(fuzzTimeLimit, func() {
		debug.SetTraceback("all")
		show := data
		if len(show) > 2000 {
			show = show[:2000]
		}
		panic(fmt.Sprintf("%s did not finish in %v (input of %d bytes): %q", what, time.Since(start), len(data), show))
	})
	return func() { timer.Stop() }
}

var fuzzSpecSeeds = []string{
	"",
	"null",
	"[]",
	"- a\n- b\n",
	"version: 1\n",
	"\xff\xfe\x00",
	"version: \"1\"\n\tbad: tab\n",
	`version: "1"
k:
  signature: [a]
  required: [a, missing]
  core_fields:
    a: {type: strin}
    b: {pattern: "("}
    c: {minimum: 2, maximum: 1}
    d: {enum: []}
    e: {type: string, enum: [x], aliases: {y: z}}
    f: {items: [{type: string}]}
    g: {minWords: -1, minLength: x}
    h: {unknownKeyword: 1}
`,
	`version: "1"
definitions:
  a: {$ref: "#/definitions/b"}
  b: {$ref: "#/definitions/a"}
k:
  core_fields:
    x: {$ref: "#/definitions/a"}
`,
	`version: "1"
definitions:
  a:
    type: string
    allOf:
      - $ref: "#/definitions/b"
  b:
    anyOf:
      - {type: string, minLength: 2}
      - not: {$ref: "#/definitions/c"}
  c:
    oneOf: [{const: 1}, {enum: [2, "3"]}]
k:
  signature: [x]
  core_fields:
    x: {$ref: "#/definitions/a"}
    y:
      type: object
      required: [z]
      properties:
        z: {$ref: "#/definitions/c"}
      additionalProperties: {type: integer, exclusiveMinimum: 0}
  extensions:
    w: {type: array, items: {$ref: "#/definitions/b"}, uniqueItems: true, maxItems: 3}
`,
	`version: "1"
base: &base
  type: string
  minLength: 1
x-note: &n {type: number}
k:
  signature: [a]
  core_fields:
    a: *base
    b:
      <<: *base
      maxLength: 3
    c: *n
`,
	`version: "2.0"
protocol: p
k:
  signature: [a]
  required: [a]
  core_fields:
    a: {type: integer, deprecated: "use b"}
    b: false
    c: true
    d:
  x-protoscan-validations:
    - rule: "self.a > 0"
      message: "a must be positive"
      fieldPath: self.a
      reason: positive
    - rule: "self.a"
      severity: warning
    - rule: "1 +"
    - rule: "'x'"
    - {message: "no rule"}
    - rule: "true"
      severity: fatal
`,
	`version: "1"
definitions:
  a:
    allOf:
      - $ref: "#/definitions/b"
  b: {type: string, $ref: "#/definitions/c"}
  c: {minLength: 1, enum: [x, y], aliases: {z: x}}
k:
  signature: [status]
  core_fields:
    status: {$ref: "#/definitions/a"}
    agent: {$ref: "#/definitions/c"}
`,
	`{"version": "1", "k": {"signature": ["a"], "core_fields": {"a": {"type": ["string", "null"]}}}}`,
	"version: \"1\"\nk:\n  core_fields:\n    a:" + strings.Repeat(" {items:", 70) + " {}" + strings.Repeat("}", 70) + "\n",
	"version: \"1\"\nk:\n  core_feilds: {a: {}}\n",
	"$defs: {a: {type: string}}\nx-protoscan-kind: k\ntype: object\nrequired: [a, b]\nproperties: {a: {$ref: \"#/$defs/a\"}, b: {if: {}, then: {}, multipleOf: 2}}\nadditionalProperties: false\n",
	"version: \"1\"\n$defs: {a: {}}\ndefinitions: {a: {}}\nk: {type: [object, null], properties: {a: {$ref: \"#/$defs/a\"}, b: {$ref: \"#/definitions/a\"}}, unevaluatedProperties: false}\n",
}

func FuzzParseSpec(f *testing.F) {
	embedded, err := msgcheck.EmbeddedSpecSource(msgcheck.DefaultSpecName)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(embedded)
	f.Add(embedded[:len(embedded)/2])
	f.Add([]byte(strings.Replace(string(embedded), "version:", "versio:", 1)))
	f.Add([]byte(strings.Replace(string(embedded), "core_fields:", "core_field:", 1)))
	f.Add([]byte(strings.ReplaceAll(string(embedded), "#/definitions/", "#/defs/")))
	f.Add([]byte(strings.ReplaceAll(string(embedded), "  ", "\t")))
	for _, s := range fuzzSpecSeeds {
		f.Add([]byte(s))
	}
	// the layouts repositories write: draft-07 and 2020-12 specs, per-kind
	// schema files (here all named fuzz.yaml, so the kind is "fuzz" unless
	// x-protoscan-kind names it)
	layouts, _ := filepath.Glob("testdata/layouts/*/*")
	for _, name := range layouts {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	messages := []any{
		map[string]any{},
		map[string]any{"a": int64(1), "x": "hello", "y": map[string]any{"z": int64(1), "q": int64(2)}, "w": []any{"ab", "ab"}},
		map[string]any{"task_id": "t-1", "status": "complete", "metrics": map[string]any{"quality": 2.0}},
		map[string]any{"task_id": "t-1", "scope": "short", "plan": []any{"Test it"}, "context": 5.0},
		[]any{"not", "a", "message"},
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer fuzzWatchdog("ParseSpec and validation", data)()
		spec, compiled, visited, err := msgcheck.SpecWork("fuzz.yaml", data)
		// the work of compiling: at most maxSchemas schemas; below that
		// limit, where every schema made is in the list of all, each is
		// visited by the two $ref checks once from that list and once
		// from each of the (at most two) schemas naming it: its parent
		// and a $ref
		if compiled > msgcheck.MaxSchemas || compiled < msgcheck.MaxSchemas && visited > 6*compiled {
			t.Fatalf("%d schemas compiled (at most %d), %d visited (at most 6 times that)", compiled, msgcheck.MaxSchemas, visited)
		}
		if err != nil {
			if spec != nil {
				t.Fatalf("ParseSpec returned a spec and an error: %v", err)
			}
			var se *msgcheck.SpecError
			if !errors.As(err, &se) {
				t.Fatalf("ParseSpec error is not a *SpecError: %T %v", err, err)
			}
			return
		}
		if spec == nil {
			t.Fatal("ParseSpec returned neither a spec nor an error")
		}
		kinds := spec.Kinds()
		if len(kinds) == 0 {
			t.Fatal("a spec without message kinds compiled")
		}
		for _, w := range spec.Warnings() {
			if w.File != "fuzz.yaml" || w.Msg == "" {
				t.Fatalf("warning without a file or a text: %+v", w)
			}
		}
		// what a user of the spec does next: read enums, validate
		for _, k := range kinds {
			for _, field := range []string{"status", "agent", "a", "x", "k"} {
				spec.Enum(k, field)
			}
		}
		v, err := msgcheck.New(msgcheck.Options{}, spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range append(kinds, "") {
			for _, m := range messages {
				res, checks, _ := v.ValidateWork(k, m)
				fuzzCheckResult(t, k, res)
				// past the budget, each level open in these small
				// messages makes a check or two more
				if checks > msgcheck.MaxChecks+100 {
					t.Fatalf("kind %q: %d schema checks, budget %d", k, checks, msgcheck.MaxChecks)
				}
			}
		}
	})
}

// fuzzCheckResult checks what every Result promises.
func fuzzCheckResult(t *testing.T, kind string, res msgcheck.Result) {
	t.Helper()
	if res.Valid && len(res.Errors) > 0 {
		t.Fatalf("kind %q: Valid=true with %d errors: %v", kind, len(res.Errors), res.Errors)
	}
	if !res.Valid && len(res.Errors) == 0 {
		t.Fatalf("kind %q: Valid=false with no error (warnings: %v)", kind, res.Warnings)
	}
	if res.Valid && kind != "" && res.Kind != kind {
		t.Fatalf("kind %q: valid as kind %q", kind, res.Kind)
	}
	for _, list := range [][]msgcheck.Finding{res.Errors, res.Warnings} {
		for _, fd := range list {
			if fd.Rule == "" || fd.Message == "" {
				t.Fatalf("kind %q: finding without a rule or a message: %+v", kind, fd)
			}
		}
	}
}

var fuzzMessageSeeds = []string{
	`task_id: feature-x-001
skill: queue-management
agent: engineer
scope: Update the parser so that empty tokens are rejected with a clear error message and tests that cover it
success_criteria: [Empty tokens are rejected]
plan:
  - Read the parser code
  - Write the failing tests
context: [The parser accepts empty tokens today]
effort: high
`,
	`task_id: feature-x-001
status: complete
output: {files: [a.go]}
metrics: {quality: 1.5, tokens: 3.5, cost: -1, duration_seconds: .nan}
children_created: [Bad_ID]
retry_count: -1
surprise: field
`,
	`{"task_id": "x", "status": "success", "output": null, "metrics": {"quality": 1.0, "tokens": 1e2, "cost": 0, "duration_seconds": -0}}`,
	"task_id: a\nscope: \"one\u00a0two\u3000three\u200bfour\"\nplan: [\"a b c\", 5, null]\ncontext: {x: 1}\n",
	"base: &b {task_id: abc, status: success}\n<<: *b\noutput: ~\nmetrics: {quality: .inf, tokens: 0x10, cost: 1_000, duration_seconds: 0o17}\n",
	"a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\ntask_id: *c\nstatus: *a\n",
	"? [complex, key]\n: value\ntask_id: abc\n",
	"task_id: abc\ntask_id: abd\n",
	"--- \ntask_id: one\n---\ntask_id: two\n",
	"!!binary aGVsbG8=",
	"[1, 2, 3]",
	"plain scalar",
	"",
	"~",
	"task_id: " + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "\n",
	"metrics: {quality: 99999999999999999999999, tokens: 9223372036854775808, cost: !!float 1, duration_seconds: !!str 1}\n",
	"protocol_version: 2\ntask_id: abc\nstatus: success\noutput: 1\nmetrics: {quality: 0, tokens: 0, cost: 0, duration_seconds: 0}\n",
}

func FuzzValidateBytes(f *testing.F) {
	root := f.TempDir()
	for _, dir := range []string{"skills/queue-management", "skills/code-review"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(dir)), 0o755); err != nil {
			f.Fatal(err)
		}
	}
	v, err := msgcheck.New(msgcheck.Options{Root: root}, msgcheck.DefaultSpec())
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range fuzzMessageSeeds {
		f.Add([]byte(s))
	}
	examples, _ := filepath.Glob(filepath.Join("..", "testdata", "example", "queue", "*"))
	for _, p := range examples {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer fuzzWatchdog("yaml.Unmarshal and ValidateNode", data)()
		var n yaml.Node
		if err := yaml.Unmarshal(data, &n); err != nil {
			return
		}
		for _, kind := range []string{"", "delegate", "handback"} {
			res, err := v.ValidateNode(kind, &n)
			if err != nil {
				continue // beyond the conversion limits: reported, not validated
			}
			fuzzCheckResult(t, kind, res)
		}
	})
}

// FuzzCELRule loads a spec with one CEL rule and validates a message with
// it: loading (constant folding included) and evaluating stay within the
// budget of any single spec and message, 200 MB allocated (a generous
// time is left to the watchdog), and a rule over its budget is a warning
// naming it.
//
//	go test -run=^$ -fuzz=FuzzCELRule -fuzztime=5m ./msgcheck
func FuzzCELRule(f *testing.F) {
	for _, seed := range []string{
		"self.v.size() > 0",
		"cel.bind(xy, self.v.split('/'), int(xy[0]) <= int(xy[1]))",
		"self.v.matches('^(a+)+$')",
		"0.05 + 1e-9 > 0.0 && self.v in ['a', 'b']",
		doublingRule(`"xx" + "xx"`, 40),
		doublingRule("self.v", 40),
		"'a'" + strings.Repeat(".replace('a', 'aaaaaaaaaa')", 12) + ".size() > 0",
		sharedListRule(30, "z == [z[0], z[1]]"),
		sharedListRule(30, "'%s'.format([z]).size() > 0"),
		strings.Repeat("strings.quote(", 40) + "self.v + '\\\\'" + strings.Repeat(")", 40) + ".size() > 0",
		"[1, 2, 3].map(a, [1, 2, 3].map(b, [1, 2, 3].map(c, self.v + self.v))).size() > 0",
		"self.v.split('').join('xx').split('').join('xxxx').size() > 0",
	} {
		f.Add(seed, "ab/12")
	}
	f.Fuzz(func(t *testing.T, rule, value string) {
		quoted, err := json.Marshal(rule) // JSON strings are YAML's double-quoted ones
		if err != nil {
			return
		}
		src := "version: \"1\"\nmsg:\n  signature: [v]\n  core_fields:\n    v: {}\n  x-protoscan-validations:\n    - rule: " + string(quoted) + "\n"
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		defer fuzzWatchdog("loading and evaluating a CEL rule", []byte(rule))()
		spec, err := msgcheck.ParseSpec("fuzz.yaml", []byte(src))
		if err != nil {
			return
		}
		v, err := msgcheck.New(msgcheck.Options{}, spec)
		if err != nil {
			t.Fatal(err)
		}
		res := v.Validate("msg", map[string]any{"v": value})
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 200<<20 {
			t.Errorf("rule %q on %q: %d MB allocated", rule, value, n>>20)
		}
		for _, w := range res.Warnings {
			if strings.Contains(w.Message, "limit exceeded") || strings.Contains(w.Message, "rule budget") {
				t.Errorf("a budget stop is not reported as one: %q", w.Message)
			}
		}
	})
}
