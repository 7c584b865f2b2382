package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestDeterministic: the same flags write the same tree, byte for byte,
// so that growth figures measured on different days compare.
func TestDeterministic(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "gentree")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	read := func(dir string) map[string]string {
		if out, err := exec.Command(bin, "-lines", "3000", "-out", dir).CombinedOutput(); err != nil {
			t.Fatalf("gentree: %v\n%s", err, out)
		}
		files := map[string]string{}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			files[rel] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return files
	}
	a, b := read(filepath.Join(t.TempDir(), "a")), read(filepath.Join(t.TempDir(), "b"))
	if len(a) < 20 || len(a) != len(b) {
		t.Fatalf("%d and %d files", len(a), len(b))
	}
	for name, text := range a {
		if b[name] != text {
			t.Errorf("%s differs between two runs", name)
		}
	}
}
