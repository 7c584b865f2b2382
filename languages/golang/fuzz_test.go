package golang

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzExtract: Extract never panics, and its facts hold the invariants of
// checkInvariants on any input. Crashers found are kept under
// testdata/fuzz/FuzzExtract and run as regression cases by go test.
func FuzzExtract(f *testing.F) {
	for _, tt := range extractTests {
		f.Add([]byte(tt.src))
	}
	if src, err := os.ReadFile(filepath.Join("testdata", "handback.go")); err == nil {
		f.Add(src)
	}
	f.Add([]byte(typedSrc))
	for _, s := range []string{
		"package p; var s = \"\xff\x00\"",
		"package p; func f() { switch x := m[\"status\"].(string); strings.ToLower(x) { case \"a\": } }",
		"package p; var _ = [][]map[string][]any{{{\"k\": {1, \"v\", -2.5, 'c', nil}}}}",
		"package p; const ( A, B Status = \"a\", Status(\"b\"); C; D = iota )",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ff, _ := Extract("fuzz.go", src)
		if ff == nil {
			t.Fatal("nil File")
		}
		checkInvariants(t, src, ff)
	})
}
