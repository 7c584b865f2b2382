package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/protoscan-dev/protoscan/internal/glob"
)

func TestWalkListsFilesSortedWithPathsAndSizes(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		"main.go":         "package main\n",
		"docs/README.md":  "# hi",
		"a/b/c/deep.yaml": "k: v",
		"empty/":          "",
		".hidden":         "x",
	})
	res := mustWalk(t, root, Options{})
	assertRels(t, res.Files, ".hidden", "a/b/c/deep.yaml", "docs/README.md", "main.go")
	for _, f := range res.Files {
		if want := filepath.Join(root, filepath.FromSlash(f.Rel)); f.Path != want {
			t.Errorf("%s: Path %q, want %q", f.Rel, f.Path, want)
		}
		data, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(data)) != f.Size {
			t.Errorf("%s: Size %d, want %d", f.Rel, f.Size, len(data))
		}
	}
	if len(res.Notices) != 0 || len(res.Excluded) != 0 {
		t.Errorf("unexpected notices %v / excluded %v", res.Notices, res.Excluded)
	}
}

// A depth-first walk in name order would put "a/x" before "a.txt"; the
// stream must already be in the final (slash path) order so that a scanner
// can rely on it.
func TestStreamOrderIsSlashPathOrder(t *testing.T) {
	root := t.TempDir()
	names := []string{"a/x", "a.txt", "a-b/c", "a b.txt", "ab", "a/b/c", "a/b.go", "a/b-c/d", "A", "_", "z/!", "z/a"}
	files := map[string]string{}
	for _, n := range names {
		files[n] = "x"
	}
	mkTree(t, root, files)
	var got []string
	err := Stream(context.Background(), root, Options{}, Handler{File: func(f File) error {
		got = append(got, f.Rel)
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(names)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("stream order\n got  %q\n want %q", got, want)
	}
}

func TestWalkIsDeterministic(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{"b/1": "", "a/2": "", "node_modules/x": "", ".gitignore": "*.log\n", "x.log": ""})
	symlink(t, "nowhere", filepath.Join(root, "broken"))
	symlink(t, "/", filepath.Join(root, "out"))
	first := mustWalk(t, root, Options{})
	for i := 0; i < 5; i++ {
		if again := mustWalk(t, root, Options{}); !reflect.DeepEqual(first, again) {
			t.Fatalf("walk %d differs:\n%+v\n%+v", i, first, again)
		}
	}
	if !slices.IsSortedFunc(first.Notices, func(a, b Notice) int { return strings.Compare(a.Rel, b.Rel) }) {
		t.Errorf("notices not sorted: %v", first.Notices)
	}
}

func TestIncludeExclude(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		"main.go":              "",
		"README.md":            "",
		"docs/guide.md":        "",
		"docs/api/ref.md":      "",
		"src/app.py":           "",
		"src/app_test.py":      "",
		"src/pkg/mod.py":       "",
		"src/pkg/data.yaml":    "",
		"build/gen/out.py":     "",
		"testdata/fixture.yml": "",
	})
	cases := []struct {
		name             string
		include, exclude []string
		want             []string
		excluded         []string // Excluded entries with ReasonExclude
	}{
		{"all", nil, nil, []string{"README.md", "build/gen/out.py", "docs/api/ref.md", "docs/guide.md", "main.go", "src/app.py", "src/app_test.py", "src/pkg/data.yaml", "src/pkg/mod.py", "testdata/fixture.yml"}, nil},
		{"include any depth", []string{"**/*.py"}, nil, []string{"build/gen/out.py", "src/app.py", "src/app_test.py", "src/pkg/mod.py"}, nil},
		{"include top level only", []string{"*.md"}, nil, []string{"README.md"}, nil},
		{"include a directory covers it", []string{"docs"}, nil, []string{"docs/api/ref.md", "docs/guide.md"}, nil},
		{"include dir with trailing slash and ./", []string{"./docs/"}, nil, []string{"docs/api/ref.md", "docs/guide.md"}, nil},
		{"include alternatives", []string{"src/**/*.{py,yaml}"}, nil, []string{"src/app.py", "src/app_test.py", "src/pkg/data.yaml", "src/pkg/mod.py"}, nil},
		{"exclude prunes a directory", nil, []string{"build"}, []string{"README.md", "docs/api/ref.md", "docs/guide.md", "main.go", "src/app.py", "src/app_test.py", "src/pkg/data.yaml", "src/pkg/mod.py", "testdata/fixture.yml"}, []string{"build"}},
		{"exclude files by glob", []string{"**/*.py"}, []string{"**/*_test.py"}, []string{"build/gen/out.py", "src/app.py", "src/pkg/mod.py"}, []string{"src/app_test.py"}},
		{"exclude nested dir with **", nil, []string{"**/api", "testdata/**", "build/**"}, []string{"README.md", "docs/guide.md", "main.go", "src/app.py", "src/app_test.py", "src/pkg/data.yaml", "src/pkg/mod.py"}, []string{"build", "docs/api", "testdata"}},
		{"exclude wins over include", []string{"src/**"}, []string{"src/pkg"}, []string{"src/app.py", "src/app_test.py"}, []string{"src/pkg"}},
		{"leading slash anchors at root", nil, []string{"/main.go"}, []string{"README.md", "build/gen/out.py", "docs/api/ref.md", "docs/guide.md", "src/app.py", "src/app_test.py", "src/pkg/data.yaml", "src/pkg/mod.py", "testdata/fixture.yml"}, []string{"main.go"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := mustWalk(t, root, Options{Include: c.include, Exclude: c.exclude})
			assertRels(t, res.Files, c.want...)
			var ex []string
			for _, e := range res.Excluded {
				if e.Reason != ReasonExclude {
					t.Errorf("unexpected exclusion %+v", e)
				}
				ex = append(ex, e.Rel)
			}
			if !slices.Equal(ex, c.excluded) {
				t.Errorf("excluded %q, want %q", ex, c.excluded)
			}
		})
	}
}

func TestExcludedDirectoryIsNotEntered(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{"keep.go": "", "secret/a.go": ""})
	var mu sync.Mutex // directories are read on several goroutines
	var read []string
	fsys := &fakeFS{readDir: func(name string) ([]fs.DirEntry, error) {
		mu.Lock()
		read = append(read, name)
		mu.Unlock()
		return os.ReadDir(name)
	}}
	if err := stream(context.Background(), root, Options{Exclude: []string{"secret"}}, Handler{}, fsys); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(read, []string{root}) {
		t.Errorf("read directories %q, want only the root", read)
	}
}

func TestInvalidPatterns(t *testing.T) {
	root := t.TempDir()
	for _, opts := range []Options{
		{Include: []string{"ok/**", "src/[a-"}},
		{Exclude: []string{"{a,b"}},
		{Exclude: []string{"/"}},
	} {
		_, err := Walk(context.Background(), root, opts)
		if err == nil {
			t.Fatalf("%+v: no error", opts)
		}
		bad := append(opts.Include, opts.Exclude...)[len(opts.Include)+len(opts.Exclude)-1]
		if !strings.Contains(err.Error(), fmt.Sprintf("%q", bad)) {
			t.Errorf("error %q does not name the pattern %q", err, bad)
		}
		if err2 := opts.Validate(); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("Validate() = %v, want %v", err2, err)
		}
	}
	if err := (Options{Include: []string{"**/*.go"}, Exclude: []string{"vendor/**"}}).Validate(); err != nil {
		t.Errorf("valid patterns rejected: %v", err)
	}
}

// TestPatternCaps: globs over the caps of internal/glob are refused before
// the walk starts; one just under them is compiled once, to at most
// glob.MaxAlternatives patterns, and does its work.
func TestPatternCaps(t *testing.T) {
	root := t.TempDir()
	hostile := "src/" + strings.Repeat("{*,*}{*,*}", 30) + "x" // 307 bytes
	braces := "src/" + strings.Repeat("{*,*}{*,*}", 7) + "x"   // 2^14 patterns
	for _, c := range []struct {
		opts Options
		want error
	}{
		{Options{Exclude: []string{hostile}}, glob.ErrTooLong},
		{Options{Include: []string{braces}}, glob.ErrTooManyAlternatives},
	} {
		_, err := Walk(context.Background(), root, c.opts)
		if !errors.Is(err, c.want) {
			t.Errorf("%+.60v: error %v, want %v", c.opts, err, c.want)
		}
	}
	edge := "src/" + strings.Repeat("{a,b}", 6) + "*.go"
	include, _, err := Options{Include: []string{edge}}.patterns()
	if err != nil {
		t.Fatal(err)
	}
	if n := include[0].Alternatives(); n != glob.MaxAlternatives {
		t.Errorf("%d patterns, want %d", n, glob.MaxAlternatives)
	}
	mkTree(t, root, map[string]string{"src/abababx.go": "package x\n", "src/abcbabx.go": "package x\n"})
	res := mustWalk(t, root, Options{Include: []string{edge}})
	if len(res.Files) != 1 || res.Files[0].Rel != "src/abababx.go" {
		t.Errorf("walked %+v, want src/abababx.go only", res.Files)
	}
}

func TestDefaultExcludes(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		"app.py":                                "",
		".git/config":                           "",
		".hg/store":                             "",
		".svn/entries":                          "",
		"web/node_modules/lib/index.js":         "",
		"vendor/github.com/x/x.go":              "",
		"pkg/__pycache__/m.cpython-312.pyc":     "",
		".venv/lib/site.py":                     "",
		"venv/bin/activate":                     "",
		"envs/py312/pyvenv.cfg":                 "home = /usr/bin",
		"envs/py312/lib/python3.12/x.py":        "",
		".tox/py/log.txt":                       "",
		".mypy_cache/3.12/x.json":               "",
		".pytest_cache/v/cache/lastfailed":      "",
		"opt/lib/python3/site-packages/m.py":    "",
		"tests/models/cassettes/test_chat.yaml": "",
		"src/vendor.go":                         "", // a file named like a default: kept
		"src/node_modules.md":                   "",
		"tools/pyvenv.cfg.example":              "",
		"deep/a/b/c/node_modules/x/y/index.js":  "",
	})
	res := mustWalk(t, root, Options{})
	assertRels(t, res.Files, "app.py", "src/node_modules.md", "src/vendor.go", "tools/pyvenv.cfg.example")
	want := map[string]string{
		".git":                          ".git",
		".hg":                           ".hg",
		".svn":                          ".svn",
		"web/node_modules":              "node_modules",
		"vendor":                        "vendor",
		"pkg/__pycache__":               "__pycache__",
		".venv":                         ".venv",
		"venv":                          "venv",
		"envs/py312":                    "pyvenv.cfg",
		".tox":                          ".tox",
		".mypy_cache":                   ".mypy_cache",
		".pytest_cache":                 ".pytest_cache",
		"opt/lib/python3/site-packages": "site-packages",
		"tests/models/cassettes":        "cassettes",
		"deep/a/b/c/node_modules":       "node_modules",
	}
	got := map[string]string{}
	for _, e := range res.Excluded {
		if e.Reason != ReasonDefault || !e.Dir {
			t.Errorf("unexpected exclusion %+v", e)
		}
		got[e.Rel] = e.Detail
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("excluded\n got  %v\n want %v", got, want)
	}
	if len(res.Notices) != 0 {
		t.Errorf("default excludes must be silent, got notices %v", res.Notices)
	}

	all := mustWalk(t, root, Options{NoDefaultExcludes: true})
	if len(all.Excluded) != 0 {
		t.Errorf("NoDefaultExcludes: still excluded %v", all.Excluded)
	}
	for _, rel := range []string{".git/config", "web/node_modules/lib/index.js", "envs/py312/pyvenv.cfg", "opt/lib/python3/site-packages/m.py"} {
		if !slices.Contains(rels(all.Files), rel) {
			t.Errorf("NoDefaultExcludes: %s not walked", rel)
		}
	}
}

func TestDefaultExcludesFiles(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{"app.py": "", "src/vendor.go": "", "src/node_modules.md": "", "tools/pyvenv.cfg.example": "", "sub/.git": "gitdir: ../.git/modules/sub\n"})
	res := mustWalk(t, root, Options{})
	assertRels(t, res.Files, "app.py", "src/node_modules.md", "src/vendor.go", "tools/pyvenv.cfg.example")
	if e, ok := findExcluded(res, "sub/.git"); !ok || e.Reason != ReasonDefault || e.Dir {
		t.Errorf("a .git file (submodule pointer) should be excluded by default, got %+v %v", e, ok)
	}
}

func TestTooLarge(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{"small.yaml": "a: 1", "exact.bin": ""})
	sparse := func(rel string, size int64) {
		p := filepath.Join(root, rel)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		if err := os.Truncate(p, size); err != nil {
			t.Fatal(err)
		}
	}
	sparse("big.json", 3<<20)
	sparse("bigger.json", 3<<20+100<<10)
	sparse("exact.bin", 2<<20) // at the limit: scanned

	res := mustWalk(t, root, Options{})
	assertRels(t, res.Files, "exact.bin", "small.yaml")
	want := []Notice{
		{"big.json", RuleTooLarge, "file is 3 MiB, over the 2 MiB limit; raise --max-file-size to scan it"},
		{"bigger.json", RuleTooLarge, "file is 3.1 MiB, over the 2 MiB limit; raise --max-file-size to scan it"},
	}
	if !reflect.DeepEqual(res.Notices, want) {
		t.Errorf("notices\n got  %v\n want %v", res.Notices, want)
	}

	res = mustWalk(t, root, Options{MaxFileSize: 4 << 20})
	assertRels(t, res.Files, "big.json", "bigger.json", "exact.bin", "small.yaml")
	res = mustWalk(t, root, Options{MaxFileSize: -1})
	assertRels(t, res.Files, "big.json", "bigger.json", "exact.bin", "small.yaml")
	res = mustWalk(t, root, Options{MaxFileSize: 3})
	assertRels(t, res.Files)
	if n, _ := findNotice(res, "small.yaml"); n.Message != "file is 4 bytes, over the 3 bytes limit; raise --max-file-size to scan it" {
		t.Errorf("small limit message: %q", n.Message)
	}
}

func TestTooLargeMessage(t *testing.T) {
	cases := []struct {
		size, limit int64
		want        string
	}{
		{3 << 20, 2 << 20, "file is 3 MiB, over the 2 MiB limit; raise --max-file-size to scan it"},
		{3<<20 + 100<<10, 2 << 20, "file is 3.1 MiB, over the 2 MiB limit; raise --max-file-size to scan it"},
		{5 << 30, 1 << 30, "file is 5 GiB, over the 1 GiB limit; raise --max-file-size to scan it"},
		{1536, 1024, "file is 1.5 KiB, over the 1 KiB limit; raise --max-file-size to scan it"},
		// Rounding would show "2.0 MiB, over the 2 MiB limit": exact bytes instead.
		{2<<20 + 10, 2 << 20, "file is 2097162 bytes, over the 2097152-byte limit; raise --max-file-size to scan it"},
	}
	for _, c := range cases {
		if got := TooLargeMessage(c.size, c.limit); got != c.want {
			t.Errorf("TooLargeMessage(%d, %d) = %q, want %q", c.size, c.limit, got, c.want)
		}
	}
}

// canRead reports whether this process can read p despite chmod 000, as
// root (or CAP_DAC_OVERRIDE) can.
func canRead(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		_, err = f.ReadDir(1)
		return err == nil
	}
	return true
}

func TestUnreadableWithChmod(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{"ok.go": "", "locked/inner.go": "", "secret.yaml": "k: v"})
	locked, secret := filepath.Join(root, "locked"), filepath.Join(root, "secret.yaml")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(secret, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755); os.Chmod(secret, 0o644) })
	if canRead(locked) || canRead(secret) {
		t.Skip("chmod 000 does not deny access here (running as root?); TestUnreadableSimulated covers the logic")
	}
	res := mustWalk(t, root, Options{})
	assertRels(t, res.Files, "ok.go")
	want := []Notice{
		{"locked", RuleUnreadable, "cannot read directory: permission denied"},
		{"secret.yaml", RuleUnreadable, "cannot open file: permission denied"},
	}
	if !reflect.DeepEqual(res.Notices, want) {
		t.Errorf("notices\n got  %v\n want %v", res.Notices, want)
	}
}

// fakeFS wraps the real file system, letting a test fail chosen calls.
type fakeFS struct {
	readDir func(string) ([]fs.DirEntry, error)
	open    func(string) (*os.File, error)
}

func (f *fakeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if f.readDir != nil {
		return f.readDir(name)
	}
	return os.ReadDir(name)
}

func (f *fakeFS) Open(name string) (*os.File, error) {
	if f.open != nil {
		return f.open(name)
	}
	return os.Open(name)
}

// Root can read everything, and CI runs as root: simulate the permission
// errors so that the notices are tested everywhere.
func TestUnreadableSimulated(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{"ok.go": "", "locked/inner.go": "", "secret.yaml": "k: v", "private.yaml": "k: v"})
	secret := filepath.Join(root, "secret.yaml")
	if err := os.Chmod(secret, 0); err != nil {
		t.Fatal(err)
	}
	// 0600 and ours: readable without an open; an open would fail the test.
	if err := os.Chmod(filepath.Join(root, "private.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	denied := func(op, name string) error {
		return &fs.PathError{Op: op, Path: name, Err: syscall.EACCES}
	}
	var opened []string
	fsys := &fakeFS{
		readDir: func(name string) ([]fs.DirEntry, error) {
			if filepath.Base(name) == "locked" {
				return nil, denied("open", name)
			}
			return os.ReadDir(name)
		},
		open: func(name string) (*os.File, error) {
			opened = append(opened, filepath.Base(name))
			return nil, denied("open", name)
		},
	}
	res := &Result{}
	err := stream(context.Background(), root, Options{}, Handler{
		File:   func(f File) error { res.Files = append(res.Files, f); return nil },
		Notice: func(n Notice) { res.Notices = append(res.Notices, n) },
	}, fsys)
	if err != nil {
		t.Fatal(err)
	}
	assertRels(t, res.Files, "ok.go", "private.yaml")
	want := []Notice{
		{"locked", RuleUnreadable, "cannot read directory: permission denied"},
		{"secret.yaml", RuleUnreadable, "cannot open file: permission denied"},
	}
	if !reflect.DeepEqual(res.Notices, want) {
		t.Errorf("notices\n got  %v\n want %v", res.Notices, want)
	}
	if !slices.Equal(opened, []string{"secret.yaml"}) {
		t.Errorf("opened %q: only files whose permission bits leave doubt should be opened", opened)
	}

	// An unreadable root is the caller's error, not a notice.
	fsys.readDir = func(name string) ([]fs.DirEntry, error) { return nil, denied("open", name) }
	if err := stream(context.Background(), root, Options{}, Handler{}, fsys); err == nil || !errors.Is(err, fs.ErrPermission) {
		t.Errorf("unreadable root: err = %v, want permission error", err)
	}
}

func TestUnreadableNotice(t *testing.T) {
	n := UnreadableNotice("a/b.go", &fs.PathError{Op: "read", Path: "/tmp/x/a/b.go", Err: syscall.EIO})
	if n.Rel != "a/b.go" || n.Rule != RuleUnreadable || n.Message != "cannot read file: input/output error" {
		t.Errorf("UnreadableNotice = %+v", n)
	}
}

func TestSymlinks(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	outside := filepath.Join(filepath.Dir(root), "outside")
	mkTree(t, root, map[string]string{"real/spec.yaml": "a: 1", "real/sub/x.go": ""})
	mkTree(t, outside, map[string]string{"etc.yaml": ""})

	symlink(t, "b", filepath.Join(root, "loop/a"))
	symlink(t, "a", filepath.Join(root, "loop/b"))
	symlink(t, "self", filepath.Join(root, "self"))
	symlink(t, "../outside", filepath.Join(root, "out-dir"))
	symlink(t, outside+"/etc.yaml", filepath.Join(root, "out-file.yaml"))
	symlink(t, "does/not/exist", filepath.Join(root, "broken"))
	symlink(t, "real/spec.yaml/x", filepath.Join(root, "through-file")) // ENOTDIR
	symlink(t, "real/spec.yaml", filepath.Join(root, "alias.yaml"))
	symlink(t, "../real/sub", filepath.Join(root, "links/sub"))
	symlink(t, "..", filepath.Join(root, "real/up"))
	symlink(t, ".", filepath.Join(root, "real/sub/here"))
	symlink(t, "../../node_modules", filepath.Join(root, "pkg/node_modules")) // pnpm style: silent
	mkTree(t, root, map[string]string{".gitignore": "ignored-link\n"})
	symlink(t, "/nonexistent", filepath.Join(root, "ignored-link"))

	res := mustWalk(t, root, Options{})
	assertRels(t, res.Files, ".gitignore", "real/spec.yaml", "real/sub/x.go")
	want := []Notice{
		{"alias.yaml", RuleSymlinkSkipped, `symbolic link to "real/spec.yaml" not followed: its target "real/spec.yaml" is walked at its own path`},
		{"broken", RuleSymlinkBroken, `symbolic link to "does/not/exist" points to nothing`},
		{"links/sub", RuleSymlinkSkipped, `symbolic link to "../real/sub" not followed: its target "real/sub" is walked at its own path`},
		{"loop/a", RuleSymlinkLoop, `symbolic link to "b" is part of a loop of links; not followed`},
		{"loop/b", RuleSymlinkLoop, `symbolic link to "a" is part of a loop of links; not followed`},
		{"out-dir", RuleSymlinkOutsideRoot, `symbolic link to "../outside" points outside the scan root; not followed`},
		{"out-file.yaml", RuleSymlinkOutsideRoot, fmt.Sprintf("symbolic link to %q points outside the scan root; not followed", outside+"/etc.yaml")},
		{"real/sub/here", RuleSymlinkLoop, `symbolic link to "." points to a directory that contains it; following it would loop`},
		{"real/up", RuleSymlinkLoop, `symbolic link to ".." points to a directory that contains it; following it would loop`},
		{"self", RuleSymlinkLoop, `symbolic link to "self" is part of a loop of links; not followed`},
		{"through-file", RuleSymlinkBroken, `symbolic link to "real/spec.yaml/x" points to nothing`},
	}
	if !reflect.DeepEqual(res.Notices, want) {
		t.Errorf("notices:\n got  %v\n want %v", res.Notices, want)
		for i := range max(len(want), len(res.Notices)) {
			if i < len(want) && i < len(res.Notices) && want[i] != res.Notices[i] {
				t.Logf("first difference:\n got  %+v\n want %+v", res.Notices[i], want[i])
				break
			}
		}
	}
	if e, ok := findExcluded(res, "pkg/node_modules"); !ok || e.Reason != ReasonDefault {
		t.Errorf("symlinked node_modules: got %+v %v, want a silent default exclusion", e, ok)
	}
	if e, ok := findExcluded(res, "ignored-link"); !ok || e.Reason != ReasonGitignore {
		t.Errorf("ignored link: got %+v %v, want a silent gitignore exclusion", e, ok)
	}

	// With Include, links to files that no pattern selects are not reported,
	// links to directories still are.
	res = mustWalk(t, root, Options{Include: []string{"**/*.go"}})
	var got []string
	for _, n := range res.Notices {
		got = append(got, n.Rel)
	}
	if want := []string{"broken", "links/sub", "loop/a", "loop/b", "out-dir", "real/sub/here", "real/up", "self", "through-file"}; !slices.Equal(got, want) {
		t.Errorf("with include **/*.go: notices for %q, want %q", got, want)
	}
}

// A relative root ("." in CI) classifies links the same: a link to a file
// beside it is inside the root, one to a file above it outside.
func TestSymlinksUnderRelativeRoot(t *testing.T) {
	dir := t.TempDir()
	mkTree(t, dir, map[string]string{"repo/AGENTS.md": "# a", "up.md": ""})
	symlink(t, "AGENTS.md", filepath.Join(dir, "repo/CLAUDE.md"))
	symlink(t, "../up.md", filepath.Join(dir, "repo/UP.md"))
	t.Chdir(filepath.Join(dir, "repo"))
	res := mustWalk(t, ".", Options{})
	want := []Notice{
		{"CLAUDE.md", RuleSymlinkSkipped, `symbolic link to "AGENTS.md" not followed: its target "AGENTS.md" is walked at its own path`},
		{"UP.md", RuleSymlinkOutsideRoot, `symbolic link to "../up.md" points outside the scan root; not followed`},
	}
	if !reflect.DeepEqual(res.Notices, want) {
		t.Errorf("notices:\n got  %v\n want %v", res.Notices, want)
	}
}

// A root given through a symlink is followed (the user named it), and links
// are classified against the real root.
func TestRootThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	mkTree(t, dir, map[string]string{"repo/a.go": ""})
	symlink(t, "a.go", filepath.Join(dir, "repo/alias.go"))
	symlink(t, "repo", filepath.Join(dir, "link"))
	res := mustWalk(t, filepath.Join(dir, "link"), Options{})
	assertRels(t, res.Files, "a.go")
	if n, ok := findNotice(res, "alias.go"); !ok || n.Rule != RuleSymlinkSkipped {
		t.Errorf("alias.go: got %+v, want %s", n, RuleSymlinkSkipped)
	}
	if got := res.Files[0].Path; got != filepath.Join(dir, "link", "a.go") {
		t.Errorf("Path %q should be under the root as given", got)
	}
}

func TestRootIsAFile(t *testing.T) {
	dir := t.TempDir()
	mkTree(t, dir, map[string]string{"node_modules/pkg/msg.json": "{}", ".gitignore": "*.json\n"})
	p := filepath.Join(dir, "node_modules/pkg/msg.json")
	// Excludes, ignores and includes do not apply to a file the user names.
	res := mustWalk(t, p, Options{Include: []string{"**/*.yaml"}, Exclude: []string{"**"}})
	for i := range res.Files {
		res.Files[i].Info = nil // the Lstat, not compared
	}
	if want := []File{{Path: p, Rel: "msg.json", Size: 2}}; !reflect.DeepEqual(res.Files, want) {
		t.Errorf("files %+v, want %+v", res.Files, want)
	}
	// The size limit does.
	if err := os.Truncate(p, 3<<20); err != nil {
		t.Fatal(err)
	}
	res = mustWalk(t, p, Options{})
	if len(res.Files) != 0 || len(res.Notices) != 1 || res.Notices[0].Rule != RuleTooLarge || res.Notices[0].Rel != "msg.json" {
		t.Errorf("large root file: %+v", res)
	}
}

func TestRootErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Walk(context.Background(), filepath.Join(dir, "missing"), Options{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing root: err = %v", err)
	}
}

func TestRootWithTrailingSlash(t *testing.T) {
	dir := t.TempDir()
	mkTree(t, dir, map[string]string{"a/b.go": ""})
	res := mustWalk(t, dir+"/", Options{})
	if len(res.Files) != 1 || res.Files[0].Path != filepath.Join(dir, "a", "b.go") {
		t.Errorf("files %+v", res.Files)
	}
}

func TestCancellation(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 50 {
		for j := range 20 {
			files[fmt.Sprintf("d%02d/f%02d.go", i, j)] = ""
		}
	}
	mkTree(t, root, files)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Walk(ctx, root, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("pre-cancelled: err = %v", err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	n := 0
	err := Stream(ctx, root, Options{}, Handler{File: func(File) error {
		n++
		if n == 3 {
			cancel()
		}
		return nil
	}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled mid-walk: err = %v", err)
	}
	if n != 3 {
		t.Errorf("%d files delivered after cancellation, want none", n-3)
	}

	// a deadline already past: the context is done as it is made (one of
	// a nanosecond is done only once its timer has run, which a sleep
	// cannot promise on a busy machine)
	ctx, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	if _, err := Walk(ctx, root, Options{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline: err = %v", err)
	}
}

// Directories are read ahead on other goroutines; none of them may still
// be reading once Stream has returned, however the walk ended.
func TestNoReadAheadOutlivesStream(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 30 {
		for j := range 5 {
			files[fmt.Sprintf("d%02d/e%d/f.go", i, j)] = ""
		}
	}
	mkTree(t, root, files)
	var active, after atomic.Int32
	var returned atomic.Bool
	fsys := &fakeFS{readDir: func(name string) ([]fs.DirEntry, error) {
		if returned.Load() {
			after.Add(1)
		}
		active.Add(1)
		defer active.Add(-1)
		time.Sleep(100 * time.Microsecond) // a slow disk: reads overlap
		return os.ReadDir(name)
	}}
	stop := errors.New("stop")
	for _, stopAt := range []int{1, 40, 0} {
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		err := stream(ctx, root, Options{}, Handler{File: func(File) error {
			n++
			switch {
			case n == stopAt && stopAt == 1:
				return stop
			case n == stopAt:
				cancel()
			}
			return nil
		}}, fsys)
		returned.Store(true)
		if a := active.Load(); a != 0 {
			t.Errorf("stop at %d: %d directory reads still running after Stream returned (err %v)", stopAt, a, err)
		}
		time.Sleep(5 * time.Millisecond)
		if a := after.Load(); a != 0 {
			t.Errorf("stop at %d: %d directories read after Stream returned", stopAt, a)
		}
		if stopAt == 0 && (err != nil || n != len(files)) {
			t.Errorf("whole walk: %d files, err %v", n, err)
		}
		returned.Store(false)
		cancel()
	}
}

// A directory of many subdirectories is read ahead a window at a time,
// not with a goroutine per subdirectory.
func TestReadAheadIsBounded(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 600 {
		files[fmt.Sprintf("d%03d/f.go", i)] = ""
	}
	mkTree(t, root, files)
	base := runtime.NumGoroutine()
	most, n := 0, 0
	err := Stream(context.Background(), root, Options{}, Handler{File: func(File) error {
		n++
		// a reader that has handed its directory over may not have
		// exited yet (the suite's other packages load both cores under
		// -race): let it, so that only readers still running are counted
		runtime.Gosched()
		most = max(most, runtime.NumGoroutine()-base)
		return nil
	}})
	if err != nil || n != 600 {
		t.Fatalf("%d files, err %v", n, err)
	}
	if most > 2*aheadWindow {
		t.Errorf("%d goroutines beside the walk's, want at most %d: the read-ahead is not bounded", most, 2*aheadWindow)
	}
}

// The walk stats files on other goroutines (see readAhead): what it hands
// over must be the file's own Lstat, at every depth.
func TestFileInfoIsTheLstat(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{"top.go": "1", "a/b.go": "22", "a/c/d.go": "333"})
	res := mustWalk(t, root, Options{})
	assertRels(t, res.Files, "top.go", "a/b.go", "a/c/d.go")
	for _, f := range res.Files {
		want, err := os.Lstat(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		if f.Info == nil || !os.SameFile(f.Info, want) || f.Info.Size() != want.Size() || f.Info.Mode() != want.Mode() || !f.Info.ModTime().Equal(want.ModTime()) || f.Size != want.Size() {
			t.Errorf("%s: Info %v, want the Lstat %v", f.Rel, f.Info, want)
		}
	}
}

func TestHandlerErrorStopsWalk(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{"a": "", "b": "", "c": ""})
	stop := errors.New("stop")
	var seen []string
	err := Stream(context.Background(), root, Options{}, Handler{File: func(f File) error {
		seen = append(seen, f.Rel)
		if f.Rel == "b" {
			return stop
		}
		return nil
	}})
	if !errors.Is(err, stop) || !slices.Equal(seen, []string{"a", "b"}) {
		t.Errorf("err = %v, seen %q", err, seen)
	}
}

func TestIsBinary(t *testing.T) {
	text := []byte(strings.Repeat("status: SUCCESS\n", 1000))
	cases := []struct {
		name string
		head []byte
		want bool
	}{
		{"empty", nil, false},
		{"text", text, false},
		{"utf8", []byte("statut: réussi ✓\n"), false},
		{"invalid utf8 is not binary", []byte{0xff, 0xfe, 'a'}, false},
		{"nul at start", []byte("\x00abc"), true},
		{"png header", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), true},
		{"nul at 7999", append(append([]byte{}, text[:7999]...), 0), true},
		{"nul at 8000 is past git's window", append(append([]byte{}, text[:8000]...), 0), false},
	}
	for _, c := range cases {
		if got := IsBinary(c.head); got != c.want {
			t.Errorf("%s: IsBinary = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestCompareKeys(t *testing.T) {
	// Sorting names with directories as "name/" must equal sorting paths.
	type ent struct {
		name string
		dir  bool
	}
	ents := []ent{{"a", true}, {"a.txt", false}, {"a-b", true}, {"a0", false}, {"a", false}, {"ab", true}, {"", false}, {"a/", false}}
	slices.SortFunc(ents, func(x, y ent) int { return compareKeys(x.name, x.dir, y.name, y.dir) })
	var got []string
	for _, e := range ents {
		k := e.name
		if e.dir {
			k += "/"
		}
		got = append(got, k)
	}
	if !slices.IsSorted(got) {
		t.Errorf("keys not in path order: %q", got)
	}
}
