package msgcheck_test

// Benchmarks of message validation; BENCHMARKS.md records the figures.
//
//	go test -run=^$ -bench=. -benchmem -count=5 ./msgcheck/
//
// Requirements: a valid message under 1 µs/op with at most 2 allocs/op, an
// invalid one (several errors) under 5 µs/op.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// benchMessages are decoded as a JSON reader would: numbers as float64.
var benchMessages = []struct {
	name, kind, json string
	valid            bool
	errors           int // at least
}{
	{"valid-delegate", "delegate", `{
		"task_id": "feature-x-001",
		"skill": "queue-management",
		"agent": "senior-engineer",
		"scope": "Update the queue parser so that empty task ids are rejected with a clear error message, and cover the change with unit tests",
		"success_criteria": ["Empty task ids are rejected", "The error names the offending line", "All existing tests pass"],
		"plan": ["Read the queue parser code", "Write failing tests for empty ids", "Reject empty ids in the parser", "Run the whole test suite"],
		"context": "The queue parser accepts an empty task id today, which later breaks the scheduler when it tries to look the task up by its id in the index",
		"effort": "medium",
		"dependencies": ["feature-x-000"],
		"protocol_version": "1.0"
	}`, true, 0},
	{"valid-handback", "handback", `{
		"task_id": "feature-x-001",
		"status": "success",
		"output": {"files_changed": ["queue/parser.go", "queue/parser_test.go"], "summary": "empty ids rejected"},
		"metrics": {"quality": 0.92, "tokens": 15234, "cost": 0.41, "duration_seconds": 312.5},
		"children_created": ["feature-x-002"],
		"retry_count": 0,
		"model_used": "large"
	}`, true, 0},
	{"invalid-delegate", "delegate", `{
		"task_id": "Feature_X",
		"skill": "no-such-skill",
		"agent": "developer",
		"scope": "Fix the parser",
		"success_criteria": [],
		"plan": ["Test it", "Fix"],
		"context": 5,
		"priority": 1.5
	}`, false, 8},
	{"invalid-handback", "handback", `{
		"task_id": "feature-x-001",
		"status": "complete",
		"metrics": {"quality": 1.5, "tokens": 3.5, "cost": -1},
		"retry_count": -1,
		"surprise": true
	}`, false, 6},
}

func benchValidator(tb testing.TB) *msgcheck.Validator {
	tb.Helper()
	root := tb.TempDir()
	for _, s := range []string{"queue-management", "code-review", "refactor"} {
		if err := os.MkdirAll(filepath.Join(root, "skills", s), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	v, err := msgcheck.New(msgcheck.Options{Root: root}, msgcheck.DefaultSpec())
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

func benchDecode(tb testing.TB, s string) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		tb.Fatal(err)
	}
	return m
}

// benchCheck makes sure a benchmark measures what its name says.
func benchCheck(tb testing.TB, v *msgcheck.Validator, kind string, m map[string]any, valid bool, errors int) {
	tb.Helper()
	res := v.Validate(kind, m)
	if res.Valid != valid || len(res.Errors) < errors {
		tb.Fatalf("%s message: valid=%v with %d errors, want valid=%v with >= %d: %v", kind, res.Valid, len(res.Errors), valid, errors, res.Errors)
	}
	if valid && len(res.Warnings) > 0 {
		tb.Fatalf("valid %s message has warnings: %v", kind, res.Warnings)
	}
}

func BenchmarkValidate(b *testing.B) {
	v := benchValidator(b)
	for _, bm := range benchMessages {
		m := benchDecode(b, bm.json)
		benchCheck(b, v, bm.kind, m, bm.valid, bm.errors)
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v.Validate(bm.kind, m)
			}
		})
	}
}

func BenchmarkValidateParallel(b *testing.B) {
	v := benchValidator(b)
	for _, bm := range benchMessages {
		m := benchDecode(b, bm.json)
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					v.Validate(bm.kind, m)
				}
			})
		})
	}
}

func BenchmarkParseSpec(b *testing.B) {
	src, err := msgcheck.EmbeddedSpecSource(msgcheck.DefaultSpecName)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := msgcheck.ParseSpec("bench.yaml", src); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBenchMessages checks the benchmark messages mean what their names
// say, so the benchmarks cannot silently measure something else.
func TestBenchMessages(t *testing.T) {
	v := benchValidator(t)
	for _, bm := range benchMessages {
		benchCheck(t, v, bm.kind, benchDecode(t, bm.json), bm.valid, bm.errors)
	}
}

// TestValidateAllocs holds validation of a valid message to its allocation
// budget (timings are left to the benchmarks: they depend on the machine).
func TestValidateAllocs(t *testing.T) {
	if benchRace() {
		t.Skip("under -race, sync.Pool drops items at random, so the walk state is sometimes allocated")
	}
	v := benchValidator(t)
	for _, bm := range benchMessages {
		if !bm.valid {
			continue
		}
		m := benchDecode(t, bm.json)
		if n := testing.AllocsPerRun(200, func() { v.Validate(bm.kind, m) }); n > 2 {
			t.Errorf("%s: %v allocations per Validate, want at most 2", bm.name, n)
		}
	}
}

// benchRace reports whether the test binary was built with -race.
func benchRace() bool {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" {
				return s.Value == "true"
			}
		}
	}
	return false
}
