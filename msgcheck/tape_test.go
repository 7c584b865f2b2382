package msgcheck_test

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/jsonmsg"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// tapeEdgeCases are messages whose tape walk differs from the common
// path: alternatives, nesting, duplicates, escapes, versions, wrong types
// at every level.
var tapeEdgeCases = []string{
	`{}`,
	`[]`,
	`"DELEGATE"`,
	`{"task_id": "a-b-c", "status": "success", "output": "x", "metrics": {"quality": 0.5, "tokens": 1, "cost": 0, "duration_seconds": 1}}`,
	`{"task_id": "a-b-c", "status": "complete", "output": null, "metrics": {"quality": 1.5, "tokens": -1, "cost": "x"}}`,
	`{"task_id": "a-b-c", "status": "SUCCESS", "output": {}, "metrics": []}`,
	`{"task_id": "a-b-c", "status": "success", "output": 1, "metrics": {"quality": 0.5, "quality": 2, "tokens": 1.5, "cost": 0, "duration_seconds": 1}}`,
	`{"task_id": "a-b-c", "task_id": "d-e-f", "status": "success"}`,
	`{"task_id": "a-b-c", "status": "success", "bogus": 1, "bogus": 2}`,
	`{"task_id": "a-b-c", "status": "success", "zeta": 1, "alpha": [1, {"x": null}]}`,
	`{"task_id": "a\u002db-c", "status": "succ\u0065ss", "output": "\ud83d\ude00", "metrics": {}}`,
	`{"task_id": "TaskID001", "skill": "code-review", "agent": "engineer", "scope": "Update the parser so that empty tokens are rejected with a clear error message and tests that cover it", "success_criteria": ["Empty tokens are rejected"], "plan": ["Read the parser code", "Test it"], "context": "short"}`,
	`{"task_id": "t-1-2", "skill": "nope", "agent": "wizard", "scope": 5, "success_criteria": [], "plan": "x", "context": ["a", 1]}`,
	`{"task_id": "t-1-2", "skill": "", "agent": null, "scope": "a b", "success_criteria": [""], "plan": ["a b c d", "one two three"], "context": {}}`,
	`{"task_id": "t-1-2", "skill": "code-review", "agent": "engineer", "scope": "x", "success_criteria": ["ok"], "plan": ["a", "b"], "context": 7, "protocol_version": "2.0"}`,
	`{"task_id": "t-1-2", "protocol_version": 1, "spec_version": "v1.0", "scope": "y"}`,
	`{"task_id": "t-1-2", "spec_version": 9, "scope": "y", "dependencies": ["ok-id", "Bad_ID", 3], "priority": 1.5, "budget": true}`,
	`{"task_id": "t-1-2", "status": "failure", "children_created": "x", "retry_count": -1, "flags": "f", "error": 1}`,
	`{"handoff_type": "HANDBACK", "task_id": "t-1-2", "status": "partial"}`,
	`{"type": "handback", "task_id": "t-1-2", "status": "partial", "worker": "w"}`,
	`{"type": "Delegate", "task_id": "t-1-2", "scope": "y"}`,
	`{"type": 3, "task_id": "t-1-2", "status": "partial"}`,
	`{"task_id": "t-1-2", "scope": "y", "status": "blocked"}`,
	"{\"task_id\": \"t-1-2\", \"scope\": \"one\u00a0two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen\"}",
	`{"task_id": "t-1-2", "status": "success", "output": "ok", "metrics": {"quality": 1e400}}`,
	// role, agent's former name: alone, drifted, beside agent, twice
	`{"task_id": "t-1-2", "skill": "code-review", "role": "engineer", "scope": "x", "success_criteria": ["ok"], "plan": ["a", "b"], "context": 7}`,
	`{"task_id": "t-1-2", "skill": "code-review", "role": "Senior Engineer", "scope": "x", "success_criteria": ["ok"], "plan": ["a", "b"], "context": 7}`,
	`{"task_id": "t-1-2", "skill": "code-review", "role": 3, "zeta": 1, "scope": "x"}`,
	`{"task_id": "t-1-2", "skill": "code-review", "role": "engineer", "agent": "wizard", "scope": "x", "alpha": 2}`,
	`{"task_id": "t-1-2", "skill": "code-review", "role": "engineer", "role": "orchestrator", "scope": "x"}`,
	`{"task_id": "t-1-2", "status": "success", "role": "engineer", "output": "ok"}`,
	`{"task_id": "t-1-2", "status": "success", "output": "ok", "metrics": {"quality": 0.1, "tokens": 1e2, "cost": -0, "duration_seconds": 1E-3}}`,
}

func tapeValidator(t testing.TB) *msgcheck.Validator {
	root := t.TempDir()
	for _, s := range []string{"queue-management", "code-review", "refactor", "write-docs", "data-pipeline"} {
		if err := os.MkdirAll(filepath.Join(root, "skills", s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	v, err := msgcheck.New(msgcheck.Options{Root: root}, msgcheck.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// compareTape checks that ValidateTape gives what Validate gives for the
// decoded text, for each way of naming the kind.
func compareTape(t *testing.T, v *msgcheck.Validator, tape *jsonmsg.Tape, text string) (walked int) {
	t.Helper()
	val, decErr := jsonmsg.Decode([]byte(text))
	tapeErr := tape.Parse(text)
	if (decErr == nil) != (tapeErr == nil) || decErr != nil && decErr.Error() != tapeErr.Error() {
		t.Fatalf("%s:\nDecode error %v, Tape error %v", text, decErr, tapeErr)
	}
	if decErr != nil {
		return 0
	}
	for _, kind := range []string{"", "delegate", "handback"} {
		got, ok := v.ValidateTape(kind, tape)
		if !ok {
			continue
		}
		walked++
		want := v.Validate(kind, val)
		if got.Kind != want.Kind || got.SpecVersion != want.SpecVersion || got.Valid != want.Valid ||
			!sameFindings(got.Errors, want.Errors) || !sameFindings(got.Warnings, want.Warnings) {
			t.Fatalf("kind %q, %s:\nValidateTape: %+v\nValidate:     %+v", kind, text, got, want)
		}
	}
	return walked
}

func sameFindings(a, b []msgcheck.Finding) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Field != y.Field || x.Rule != y.Rule || x.Message != y.Message || x.Line != y.Line || x.Column != y.Column {
			return false
		}
	}
	return true
}

// TestValidateTapeMatchesValidate: on a sample of the audit corpus (every
// rule broken, unknown fields, no-break spaces, skills present and not)
// and on edge cases, the tape walk and Validate agree exactly, and the
// tape walk handles the ordinary messages itself.
func TestValidateTapeMatchesValidate(t *testing.T) {
	v := tapeValidator(t)
	var tape jsonmsg.Tape
	f, err := os.Open(filepath.Join("testdata", "tape-corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	lines, walked := 0, 0
	for sc.Scan() {
		lines++
		walked += compareTape(t, v, &tape, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines < 300 || walked < 3*lines*9/10 {
		t.Errorf("the tape walk took %d of %d validations; want nearly all", walked, 3*lines)
	}
	for _, text := range tapeEdgeCases {
		compareTape(t, v, &tape, text)
	}
}

// TestValidateTapeDeclines: what only Validate does is left to it.
func TestValidateTapeDeclines(t *testing.T) {
	v := tapeValidator(t)
	var tape jsonmsg.Tape
	for _, text := range []string{
		`[]`, `"x"`, `null`,
		`{"task_id": "a-b-c", "task_id": "d-e-f", "status": "success"}`,
		`{"task_id": "a-b-c", "status": "success", "bogus": 1, "bogus": 2}`,
	} {
		if err := tape.Parse(text); err != nil {
			t.Fatal(err)
		}
		if _, ok := v.ValidateTape("", &tape); ok {
			t.Errorf("%s: walked, want declined", text)
		}
	}
	if err := tape.Parse(`{"task_id": "a-b-c"}`); err != nil {
		t.Fatal(err)
	}
	if _, ok := v.ValidateTape("", &tape); ok {
		t.Errorf("a message of no detectable kind: walked, want declined (unknown-kind is Validate's)")
	}
}

func TestValidateTapeAllocs(t *testing.T) {
	v := tapeValidator(t)
	var tape jsonmsg.Tape
	text := `{"task_id": "fix-parser-12", "skill": "code-review", "agent": "engineer", "scope": "Update the parser so that empty tokens are rejected with a clear error message and tests that cover it", "success_criteria": ["Empty tokens are rejected", "Tests cover it"], "plan": ["Read the parser code", "Reject empty tokens early", "Write the table tests"], "context": ["The parser lives in src/parser.py"]}`
	allocs := testing.AllocsPerRun(100, func() {
		if err := tape.Parse(text); err != nil {
			t.Fatal(err)
		}
		if res, ok := v.ValidateTape("delegate", &tape); !ok || !res.Valid {
			t.Fatalf("ok %v, %+v", ok, res)
		}
	})
	if allocs > 0 {
		t.Errorf("%v allocations per valid message, want 0", allocs)
	}
}

// ValidateTapeInto reuses one Result's lists from message to message:
// each Result equals ValidateTape's for its message, whatever came before,
// and once its lists and text buffer have grown, the findings' texts
// cost no allocation.
func TestValidateTapeInto(t *testing.T) {
	v := tapeValidator(t)
	var tape jsonmsg.Tape
	data, err := os.ReadFile(filepath.Join("testdata", "tape-corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var res msgcheck.Result
	invalid := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if err := tape.Parse(line); err != nil {
			continue
		}
		want, wantOK := v.ValidateTape("", &tape)
		ok := v.ValidateTapeInto("", &tape, &res)
		if ok != wantOK {
			t.Fatalf("%s: ok %v, want %v", line, ok, wantOK)
		}
		if !ok {
			if len(res.Errors)+len(res.Warnings) != 0 {
				t.Errorf("%s: declined, yet %d findings left in res", line, len(res.Errors)+len(res.Warnings))
			}
			continue
		}
		if !res.Valid {
			invalid++
		}
		// what a caller sees (the memory behind the texts differs)
		got := msgcheck.Result{Kind: res.Kind, SpecVersion: res.SpecVersion, Valid: res.Valid, Errors: res.Errors, Warnings: res.Warnings}
		want = msgcheck.Result{Kind: want.Kind, SpecVersion: want.SpecVersion, Valid: want.Valid, Errors: want.Errors, Warnings: want.Warnings}
		if len(got.Errors) == 0 {
			got.Errors = nil // reused lists are empty, not nil
		}
		if len(got.Warnings) == 0 {
			got.Warnings = nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got  %+v\n want %+v", line, got, want)
		}
	}
	if invalid < 50 {
		t.Errorf("only %d invalid messages: the corpus does not exercise reuse", invalid)
	}
	if benchRace() {
		return // sync.Pool drops items at random under -race: allocation counts vary
	}
	bad := `{"task_id": "Bad Id", "skill": "code-review", "agent": "engineer", "scope": "x", "success_criteria": [], "plan": []}`
	if err := tape.Parse(bad); err != nil {
		t.Fatal(err)
	}
	fresh := testing.AllocsPerRun(100, func() {
		if res, ok := v.ValidateTape("delegate", &tape); !ok || res.Valid {
			t.Fatalf("%+v", res)
		}
	})
	reused := testing.AllocsPerRun(100, func() {
		if !v.ValidateTapeInto("delegate", &tape, &res) || res.Valid {
			t.Fatalf("%+v", res)
		}
	})
	if reused >= fresh {
		t.Errorf("%v allocations per invalid message with a reused Result, %v with a new one: want fewer", reused, fresh)
	}
	// the usual findings on strings (a format that quotes the value, too
	// few words) and missing fields cost nothing once the Result's text
	// buffer has grown
	if err := tape.Parse(`{"handoff_type": "DELEGATE", "task_id": "Bad Id", "scope": "two words"}`); err != nil {
		t.Fatal(err)
	}
	usual := testing.AllocsPerRun(100, func() {
		if !v.ValidateTapeInto("delegate", &tape, &res) || len(res.Errors) < 4 || res.Errors[0].Message == "" {
			t.Fatalf("%+v", res)
		}
	})
	if usual != 0 {
		t.Errorf("%v allocations per message with the usual findings, with a reused Result: want none", usual)
	}
}

func FuzzValidateTape(f *testing.F) {
	v := tapeValidator(f)
	for _, s := range tapeEdgeCases {
		f.Add(s)
	}
	if data, err := os.ReadFile(filepath.Join("testdata", "tape-corpus.jsonl")); err == nil {
		for _, line := range strings.SplitN(string(data), "\n", 40)[:39] {
			f.Add(line)
		}
	}
	var tape jsonmsg.Tape
	// one Result for every input, as the audit keeps one per worker: its
	// lists and text buffer carry over from input to input
	var reused msgcheck.Result
	f.Fuzz(func(t *testing.T, text string) {
		if compareTape(t, v, &tape, text) == 0 {
			return
		}
		want, wantOK := v.ValidateTape("", &tape)
		ok := v.ValidateTapeInto("", &tape, &reused)
		if ok != wantOK || ok && (reused.Valid != want.Valid ||
			!sameFindings(reused.Errors, want.Errors) || !sameFindings(reused.Warnings, want.Warnings)) {
			t.Fatalf("%s:\nValidateTapeInto: %v %+v\nValidateTape:     %v %+v", text, ok, reused, wantOK, want)
		}
	})
}

// BenchmarkCorpus validates the corpus sample (300 mixed messages) from
// JSON text, decoded into maps or walked on a tape (and the tape's parse
// alone); ns/op is per message.
//
//	go test -run='^$' -bench=Corpus -benchmem ./msgcheck/
func BenchmarkCorpus(b *testing.B) {
	v := tapeValidator(b)
	data, err := os.ReadFile(filepath.Join("testdata", "tape-corpus.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	b.Run("decode+validate", func(b *testing.B) {
		dec := jsonmsg.Decoder{Reuse: true}
		for i := 0; b.Loop(); i++ {
			m, err := dec.DecodeString(lines[i%len(lines)])
			if err != nil {
				b.Fatal(err)
			}
			v.Validate("", m)
		}
	})
	b.Run("tape-parse", func(b *testing.B) {
		var tape jsonmsg.Tape
		for i := 0; b.Loop(); i++ {
			if err := tape.Parse(lines[i%len(lines)]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("tape", func(b *testing.B) {
		var tape jsonmsg.Tape
		dec := jsonmsg.Decoder{Reuse: true}
		for i := 0; b.Loop(); i++ {
			line := lines[i%len(lines)]
			if err := tape.Parse(line); err != nil {
				b.Fatal(err)
			}
			if _, ok := v.ValidateTape("", &tape); !ok {
				m, _ := dec.DecodeString(line)
				v.Validate("", m)
			}
		}
	})
}

// TestValidateTapeAdditional: members a nested schema does not name, with
// additionalProperties false or a schema, named once or twice, give the
// same findings on both paths.
func TestValidateTapeAdditional(t *testing.T) {
	v := specValidator(t, "add.yaml", `version: "1"
msg:
  signature: [v]
  core_fields:
    v:
      type: object
      properties: {a: {type: string}}
      additionalProperties: false
    w:
      type: object
      additionalProperties: {type: integer}
`)
	var tape jsonmsg.Tape
	walked := 0
	for _, text := range []string{
		`{"v": {"a": "x"}, "w": {"n": 1}}`,
		`{"v": {"a": "x", "b": 1, "c": 2}, "w": {"n": 1.5, "m": "s"}}`,
		`{"v": {"b": 1, "b": 2}, "w": {"n": "x", "n": 3}}`,
	} {
		walked += compareTape(t, v, &tape, text)
	}
	if walked == 0 {
		t.Error("the tape walk declined every message")
	}
}

// TestValidateTapeLeafStrings: strings that need only str take a short
// cut on the tape; each keyword that must keep a string off it
// (deprecated, enum, const, allOf, anyOf, oneOf, not, a type that is not
// string, the schema false, a $ref beside other keywords) gets the same
// findings as Validate, at the top level, in items and in properties.
func TestValidateTapeLeafStrings(t *testing.T) {
	v := specValidator(t, "leaf.yaml", `version: "1"
definitions:
  short: {type: string, maxLength: 3}
msg:
  signature: [plain]
  core_fields:
    plain: {type: string, minWords: 2, minLength: 5, pattern: "^[a-z ]+$"}
    untyped: {minLength: 3}
    old: {type: string, deprecated: "use plain"}
    pick: {type: string, enum: [a, b]}
    fixed: {type: string, const: "x"}
    both: {allOf: [{type: string, minLength: 2}, {pattern: "^z"}]}
    either: {anyOf: [{type: string, maxLength: 1}, {type: integer}]}
    one: {oneOf: [{type: string, minWords: 2}, {type: string, pattern: "^q"}]}
    notq: {type: string, not: {pattern: "^q"}}
    num: {type: integer}
    list: {type: array, items: {type: string, minWords: 2, deprecated: true}}
    obj: {type: object, properties: {s: {type: string, maxLength: 2}, e: {type: string, enum: [x]}}}
    nope: false
    refd: {$ref: "#/definitions/short", minLength: 2}
`)
	var tape jsonmsg.Tape
	walked, warned := 0, false
	for _, text := range []string{
		`{"plain": "two words", "untyped": "abc", "pick": "a", "fixed": "x", "both": "zz", "either": "1", "one": "two words", "notq": "ok", "num": 1, "list": ["a b"], "obj": {"s": "ab", "e": "x"}, "refd": "abc"}`,
		`{"plain": "one", "untyped": "ab", "old": "still here", "pick": "c", "fixed": "y", "both": "a", "either": "12", "one": "q", "notq": "quit", "num": "1", "list": ["a", "b c"], "obj": {"s": "abc", "e": "y"}, "nope": "x", "refd": "abcd"}`,
		`{"plain": "Two Words", "untyped": 1, "old": 3, "pick": 1, "fixed": "x", "both": "z", "either": 2, "one": "q r", "notq": "", "list": [1, "x y"], "obj": {"s": 1}, "nope": 1, "refd": "a"}`,
	} {
		walked += compareTape(t, v, &tape, text)
		if err := tape.Parse(text); err == nil {
			if res, ok := v.ValidateTape("msg", &tape); ok && len(res.Warnings) > 0 {
				warned = true
			}
		}
	}
	if walked == 0 || !warned {
		t.Errorf("the tape walk declined every message (%d) or warned of no deprecated field (%v)", walked, warned)
	}
}

// specValidator is a Validator of the spec text src alone, with no root.
func specValidator(t *testing.T, name, src string) *msgcheck.Validator {
	t.Helper()
	sp, err := msgcheck.ParseSpec(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	v, err := msgcheck.New(msgcheck.Options{}, sp)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
