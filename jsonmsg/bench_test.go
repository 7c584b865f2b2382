package jsonmsg_test

// Benchmarks of decoding (and decoding + validating) protocol messages.
//
//	go test -run='^$' -bench=. -benchmem -count=6 ./jsonmsg/ | tee bench.txt
//	benchstat bench.txt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/protoscan-dev/protoscan/jsonmsg"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// benchMessages are typical one-line messages of an audit log (the valid
// messages of msgcheck/bench_test.go, as JSON Lines).
var benchMessages = []struct{ name, kind, json string }{
	{"delegate", "delegate", `{"task_id":"feature-x-001","skill":"queue-management","agent":"senior-engineer","scope":"Update the queue parser so that empty task ids are rejected with a clear error message, and cover the change with unit tests","success_criteria":["Empty task ids are rejected","The error names the offending line","All existing tests pass"],"plan":["Read the queue parser code","Write failing tests for empty ids","Reject empty ids in the parser","Run the whole test suite"],"context":"The queue parser accepts an empty task id today, which later breaks the scheduler when it tries to look the task up by its id in the index","effort":"medium","dependencies":["feature-x-000"],"protocol_version":"1.0"}`},
	{"handback", "handback", `{"task_id":"feature-x-001","status":"success","output":{"files_changed":["queue/parser.go","queue/parser_test.go"],"summary":"empty ids rejected"},"metrics":{"quality":0.92,"tokens":15234,"cost":0.41,"duration_seconds":312.5},"children_created":["feature-x-002"],"retry_count":0,"model_used":"large"}`},
	{"handback-escaped", "handback", `{"task_id": "feature-x-001", "status": "success",
	 "output": {"files_changed": ["queue/parser.go", "queue/parser_test.go"], "summary": "empty ids \"rejected\" \u2014 see the log\nfor details"},
	 "metrics": {"quality": 0.92, "tokens": 15234, "cost": 0.41, "duration_seconds": 312.5},
	 "children_created": ["feature-x-002"], "retry_count": 0, "model_used": "large"}`},
}

func BenchmarkDecode(b *testing.B) {
	for _, bm := range benchMessages {
		data := []byte(bm.json)
		b.Run(bm.name+"/jsonmsg", func(b *testing.B) {
			var d jsonmsg.Decoder
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := d.Decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bm.name+"/jsonmsg-pooled", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := jsonmsg.Decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bm.name+"/encoding-json", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				var v any
				if err := json.Unmarshal(data, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
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

func BenchmarkDecodeValidate(b *testing.B) {
	v := benchValidator(b)
	for _, bm := range benchMessages {
		data := []byte(bm.json)
		b.Run(bm.name+"/jsonmsg", func(b *testing.B) {
			var d jsonmsg.Decoder
			b.ReportAllocs()
			for b.Loop() {
				m, err := d.Decode(data)
				if err != nil {
					b.Fatal(err)
				}
				if res := v.Validate(bm.kind, m); !res.Valid {
					b.Fatal(res.Errors)
				}
			}
		})
		b.Run(bm.name+"/encoding-json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var m any
				if err := json.Unmarshal(data, &m); err != nil {
					b.Fatal(err)
				}
				if res := v.Validate(bm.kind, m); !res.Valid {
					b.Fatal(res.Errors)
				}
			}
		})
	}
}

// TestBenchMessages checks the benchmark messages are valid, with no
// warnings, decoded either way, so the benchmarks measure what they say.
func TestBenchMessages(t *testing.T) {
	v := benchValidator(t)
	for _, bm := range benchMessages {
		m, err := jsonmsg.Decode([]byte(bm.json))
		if err != nil {
			t.Fatalf("%s: %v", bm.name, err)
		}
		if res := v.Validate(bm.kind, m); !res.Valid || len(res.Warnings) > 0 {
			t.Errorf("%s: valid=%v errors=%v warnings=%v", bm.name, res.Valid, res.Errors, res.Warnings)
		}
	}
}

// BenchmarkTape parses the typical messages onto a tape, as the audit
// does, with and without UniqueKeys: what rejecting duplicate keys costs.
func BenchmarkTape(b *testing.B) {
	for _, bm := range benchMessages {
		s := bm.json
		for _, unique := range []bool{false, true} {
			name := bm.name + "/last-wins"
			if unique {
				name = bm.name + "/unique-keys"
			}
			b.Run(name, func(b *testing.B) {
				t := jsonmsg.Tape{StrictUTF8: true, UniqueKeys: unique}
				b.SetBytes(int64(len(s)))
				for b.Loop() {
					if err := t.Parse(s); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
