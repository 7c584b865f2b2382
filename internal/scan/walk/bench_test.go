package walk

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// gorootSrc returns $(go env GOROOT)/src, or "" if it is missing.
func gorootSrc() string {
	root := os.Getenv("GOROOT")
	if root == "" {
		if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
			root = strings.TrimSpace(string(out))
		}
	}
	if root == "" {
		root = runtime.GOROOT() //nolint:staticcheck // last resort
	}
	src := filepath.Join(root, "src")
	if fi, err := os.Stat(src); err != nil || !fi.IsDir() {
		return ""
	}
	return src
}

// BenchmarkWalkGoroot walks the Go standard library (about 10k files),
// with the default options (default excludes, .gitignore, size limit).
func BenchmarkWalkGoroot(b *testing.B) {
	src := gorootSrc()
	if src == "" {
		b.Skip("GOROOT/src not found")
	}
	files := 0
	for b.Loop() {
		res, err := Walk(context.Background(), src, Options{})
		if err != nil {
			b.Fatal(err)
		}
		files = len(res.Files)
	}
	b.ReportMetric(float64(files), "files")
}

// BenchmarkWalkGorootGlobs is BenchmarkWalkGoroot with the globs a
// configuration typically holds, matched against every path.
func BenchmarkWalkGorootGlobs(b *testing.B) {
	src := gorootSrc()
	if src == "" {
		b.Skip("GOROOT/src not found")
	}
	opts := Options{
		Include: []string{"**/*.go", "**/*.md", "docs/**/*.{yaml,yml}"},
		Exclude: []string{"**/testdata/**", "vendor/**", "**/*_test.go", "cmd/*/internal/**"},
	}
	files := 0
	for b.Loop() {
		res, err := Walk(context.Background(), src, opts)
		if err != nil {
			b.Fatal(err)
		}
		files = len(res.Files)
	}
	b.ReportMetric(float64(files), "files")
}

// The walk of a large real tree must equal a plain filepath.WalkDir that
// applies the same rules (without .gitignore, which git itself checks in
// the tests of gitdiff_test.go).
func TestWalkGorootMatchesWalkDir(t *testing.T) {
	if testing.Short() {
		t.Skip("walks GOROOT")
	}
	src := gorootSrc()
	if src == "" {
		t.Skip("GOROOT/src not found")
	}
	res := mustWalk(t, src, Options{NoGitignore: true})
	var want []string
	var links int
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && defaultExcludedDirs[d.Name()] {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "pyvenv.cfg")); err == nil && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			links++
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && d.Name() != ".git" && info.Size() <= DefaultMaxFileSize {
			want = append(want, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	got := rels(res.Files)
	if !slices.Equal(got, want) {
		t.Fatalf("walk of %s: %d files, WalkDir: %d\n walk only %q\n WalkDir only %q",
			src, len(got), len(want), first(minus(got, want), 10), first(minus(want, got), 10))
	}
	if len(got) < 1000 {
		t.Errorf("only %d files in %s", len(got), src)
	}
	t.Logf("%d files, %d notices, %d excluded, %d symlinks", len(got), len(res.Notices), len(res.Excluded), links)
}

func first(s []string, n int) []string { return s[:min(n, len(s))] }
