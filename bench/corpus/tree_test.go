package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/protoscan-dev/protoscan/audit"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// TestWriteTree: a tree holds one file per message, and the audit gives
// the YAML tree and the JSON tree the same verdict for every message,
// the one the generator meant.
func TestWriteTree(t *testing.T) {
	const n = 400
	lines, labels := generate(t, Options{N: n, Seed: 3, InvalidRate: 0.3})
	wantValid := 0
	for _, l := range labels {
		if l.Valid {
			wantValid++
		}
	}
	verdicts := map[string]string{}
	for _, format := range []string{"json", "yaml"} {
		dir := t.TempDir()
		if err := WriteTree(dir, lines, format); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "queue", "*", "*."+format))
		if len(files) != n {
			t.Fatalf("%s tree: %d files, want %d", format, len(files), n)
		}
		if _, err := os.Stat(filepath.Join(dir, "skills", Skills[0])); err != nil {
			t.Fatalf("%s tree: %v", format, err)
		}
		v, err := msgcheck.New(msgcheck.Options{Root: dir}, msgcheck.DefaultSpec())
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		s, err := audit.Run(context.Background(), []string{filepath.Join(dir, "queue")}, nil,
			audit.Options{Validator: v, Spec: msgcheck.DefaultSpec(), Verdicts: &out})
		if err != nil {
			t.Fatal(err)
		}
		if s.Messages != n || s.Valid != wantValid || len(s.Problems) != 0 {
			t.Errorf("%s tree: %d messages, %d valid (want %d, %d), problems %v", format, s.Messages, s.Valid, n, wantValid, s.Problems)
		}
		verdicts[format] = out.String()
	}
	if verdicts["json"] != verdicts["yaml"] {
		t.Error("the JSON and the YAML tree have different verdicts")
	}
	if err := WriteTree(t.TempDir(), lines, "toml"); err == nil {
		t.Error("a tree in TOML was written")
	}
}
