package scan_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/protoscan-dev/protoscan/internal/scan/walk"
)

func walkLimit(n int64) walk.Options { return walk.Options{MaxFileSize: n} }

// writeTree writes files (slash paths to contents) under a new temporary
// directory and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
