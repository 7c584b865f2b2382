package walk

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// mkTree creates files under root. A key ending in "/" makes an empty
// directory; a value of the file's content otherwise.
func mkTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func mustWalk(t *testing.T, root string, opts Options) *Result {
	t.Helper()
	res, err := Walk(context.Background(), root, opts)
	if err != nil {
		t.Fatalf("Walk(%s): %v", root, err)
	}
	return res
}

func rels(files []File) []string {
	out := []string{}
	for _, f := range files {
		out = append(out, f.Rel)
	}
	return out
}

func assertRels(t *testing.T, got []File, want ...string) {
	t.Helper()
	g := rels(got)
	if want == nil {
		want = []string{}
	}
	w := slices.Clone(want)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		t.Errorf("files:\n got  %q\n want %q", g, w)
	}
}

func findNotice(res *Result, rel string) (Notice, bool) {
	for _, n := range res.Notices {
		if n.Rel == rel {
			return n, true
		}
	}
	return Notice{}, false
}

func findExcluded(res *Result, rel string) (Excluded, bool) {
	for _, e := range res.Excluded {
		if e.Rel == rel {
			return e, true
		}
	}
	return Excluded{}, false
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks not supported: %v", err)
	}
}
