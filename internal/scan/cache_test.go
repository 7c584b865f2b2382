package scan_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/protoscan-dev/protoscan/analyzers/divergence"
	"github.com/protoscan-dev/protoscan/internal/messages"
	"github.com/protoscan-dev/protoscan/internal/scan"
	"github.com/protoscan-dev/protoscan/internal/scan/cache"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// allAnalyzers are the options of the default scan of root: every
// analyzer on, skills looked up under root.
func allAnalyzers(t testing.TB, root string) scan.Options {
	spec := msgcheck.DefaultSpec()
	v, err := msgcheck.New(msgcheck.Options{Root: root}, spec)
	if err != nil {
		t.Fatal(err)
	}
	return scan.Options{Vocabulary: vocabulary(t), Divergence: divergence.NewModel(spec, divergence.Options{}),
		Messages: messages.New(v, spec), CacheKey: v.RepoKey()}
}

// copyTree copies the files under src into dst/prefix.
func copyTree(t testing.TB, dst, src string) {
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o777); err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// plantedTree is a temporary repository with every kind of result a file
// can have: the planted drift, divergence clusters (computed across
// files), messages (skills looked up in the tree), suppressions, a binary
// file and one that does not parse.
func plantedTree(t testing.TB) string {
	dir := t.TempDir()
	for _, d := range []string{"polyglot", "divergence", "example"} {
		copyTree(t, filepath.Join(dir, d), filepath.Join("..", "..", "testdata", d))
	}
	plant(t, dir, "fixtures/suppressed.yaml", "# protoscan:ignore enumdrift/legacy-status -- kept for the v0 reader\nstatus: done\ntask_id: a-1\noutput: {}\n")
	plant(t, dir, "fixtures/bin.py", "status = 'x'\x00\x01")
	plant(t, dir, "fixtures/bad.yaml", "task_id: a-1\noutput: {}\nstatus: [unclosed\n")
	return dir
}

func plant(t testing.TB, dir, name, text string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustScan(t testing.TB, root string, opts scan.Options) *scan.Result {
	t.Helper()
	res, err := scan.Run(context.Background(), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// sameResult fails unless got is what want is, the cache counters aside.
func sameResult(t *testing.T, what string, got, want *scan.Result) {
	t.Helper()
	g, w := got.Stats, want.Stats
	g.Extracted, g.Cached, g.Unread = 0, 0, 0
	w.Extracted, w.Cached, w.Unread = 0, 0, 0
	if g != w {
		t.Errorf("%s: stats %+v, want %+v", what, g, w)
	}
	if !reflect.DeepEqual(got.Findings, want.Findings) {
		t.Errorf("%s: findings\n%s\nwant\n%s", what, dump(got.Findings), dump(want.Findings))
	}
	if !reflect.DeepEqual(got.Messages, want.Messages) {
		t.Errorf("%s: messages\n%s\nwant\n%s", what, dump(got.Messages), dump(want.Messages))
	}
	if !reflect.DeepEqual(got.Statuses, want.Statuses) {
		t.Errorf("%s: statuses\n%s\nwant\n%s", what, dump(got.Statuses), dump(want.Statuses))
	}
	if !reflect.DeepEqual(got.Directives, want.Directives) {
		t.Errorf("%s: directives %v, want %v", what, got.Directives, want.Directives)
	}
}

func openCache(t testing.TB) *cache.Dir {
	d, err := cache.Open(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestCacheWarm: a warm scan returns exactly the cold scan's result,
// divergence clusters included, without parsing any file; a changed,
// added or removed file is all a later scan parses.
func TestCacheWarm(t *testing.T) {
	dir := plantedTree(t)
	opts := allAnalyzers(t, dir)
	cold := mustScan(t, dir, opts)
	if cold.Stats.Extracted == 0 || cold.Stats.Candidates == 0 || len(cold.Messages) == 0 || len(cold.Statuses) == 0 || len(cold.Directives) == 0 {
		t.Fatalf("the tree does not exercise the scan: %+v", cold.Stats)
	}
	clusters := 0
	for _, f := range cold.Findings {
		if strings.HasPrefix(f.Rule, "divergence/") && len(f.Related) > 1 {
			clusters++
		}
	}
	if clusters == 0 {
		t.Fatal("no divergence cluster in the tree")
	}

	c := openCache(t)
	opts.Cache = c
	first := mustScan(t, dir, opts)
	sameResult(t, "first scan with a cache", first, cold)
	if first.Stats.Extracted != cold.Stats.Extracted || first.Stats.Cached != 0 {
		t.Errorf("first scan: %+v", first.Stats)
	}
	warm := mustScan(t, dir, opts)
	t.Logf("cold %+v\nwarm %+v", cold.Stats, warm.Stats)
	sameResult(t, "warm scan", warm, cold)
	if warm.Stats.Extracted != 0 || warm.Stats.Cached != cold.Stats.Files {
		t.Errorf("warm scan parsed %d files and took %d of %d from the cache", warm.Stats.Extracted, warm.Stats.Cached, cold.Stats.Files)
	}

	// one divergence member changes its threshold (same size, so only the
	// content hash can tell), a file is removed and one added
	member := filepath.Join(dir, "divergence", "legacy", "helpers.py")
	src, err := os.ReadFile(member)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(src, []byte("0.6")) {
		t.Fatal("setup: no 0.6 in helpers.py")
	}
	if err := os.WriteFile(member, bytes.Replace(src, []byte("0.6"), []byte("0.5"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "polyglot", "workers", "worker.py")); err != nil {
		t.Fatal(err)
	}
	plant(t, dir, "fixtures/new.yaml", "task_id: a-2\nstatus: failed\noutput: {}\n")
	opts.Cache = nil
	want := mustScan(t, dir, opts)
	if reflect.DeepEqual(want.Findings, cold.Findings) {
		t.Fatal("setup: the changes change no finding")
	}
	opts.Cache = c
	got := mustScan(t, dir, opts)
	sameResult(t, "after changes", got, want)
	if got.Stats.Extracted != 2 {
		t.Errorf("after changing one file and adding one, %d files parsed, want 2", got.Stats.Extracted)
	}
}

// TestCacheCorrupt: cache files that are garbage are ignored and
// rewritten; the result is the cold one.
func TestCacheCorrupt(t *testing.T) {
	dir := plantedTree(t)
	opts := allAnalyzers(t, dir)
	cold := mustScan(t, dir, opts)
	opts.Cache = openCache(t)
	mustScan(t, dir, opts)
	ents, err := os.ReadDir(opts.Cache.Path())
	if err != nil || len(ents) != 1 {
		t.Fatalf("cache directory: %v, %v", ents, err)
	}
	name := filepath.Join(opts.Cache.Path(), ents[0].Name())
	data, _ := os.ReadFile(name)
	for i, bad := range [][]byte{nil, data[:len(data)/2], append(bytes.Clone(data[:len(data)-1]), data[len(data)-1]^1)} {
		if err := os.WriteFile(name, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		res := mustScan(t, dir, opts)
		sameResult(t, fmt.Sprint("corrupt cache ", i), res, cold)
		if res.Stats.Extracted != cold.Stats.Extracted {
			t.Errorf("corrupt cache %d: %d files parsed, want %d", i, res.Stats.Extracted, cold.Stats.Extracted)
		}
		if res := mustScan(t, dir, opts); res.Stats.Extracted != 0 {
			t.Errorf("corrupt cache %d not rewritten: %d files parsed", i, res.Stats.Extracted)
		}
	}
}

// TestCacheStat: files that have not changed for a while are not even
// read on a warm scan. The repository's own testdata is old enough
// (files written less than two seconds ago are always read).
func TestCacheStat(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "divergence")
	opts := allAnalyzers(t, root)
	cold := mustScan(t, root, opts)
	opts.Cache = openCache(t)
	mustScan(t, root, opts)
	warm := mustScan(t, root, opts)
	t.Logf("cold %+v\nwarm %+v", cold.Stats, warm.Stats)
	sameResult(t, "warm scan", warm, cold)
	if warm.Stats.Cached != cold.Stats.Files || warm.Stats.Extracted != 0 {
		t.Errorf("warm scan: %+v", warm.Stats)
	}
	settled := time.Now().Add(-3 * time.Second)
	fresh := false
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if fi, err := d.Info(); err == nil && fi.ModTime().After(settled) {
			fresh = true
		}
		return nil
	})
	if _, ok := cacheIdentity(root); ok && !fresh && warm.Stats.Unread != cold.Stats.Files {
		t.Errorf("warm scan read %d of %d unchanged files", cold.Stats.Files-warm.Stats.Unread, cold.Stats.Files)
	}
	opts.Cache.Verify = true
	verified := mustScan(t, root, opts)
	sameResult(t, "verified warm scan", verified, cold)
	if verified.Stats.Unread != 0 || verified.Stats.Cached != cold.Stats.Files {
		t.Errorf("Verify: %+v", verified.Stats)
	}
}

// cacheIdentity reports whether the system gives files an identity the
// cache may trust (not on every platform).
func cacheIdentity(p string) (cache.FileID, bool) {
	fi, err := os.Lstat(p)
	if err != nil {
		return cache.FileID{}, false
	}
	return cache.Identify(fi)
}
