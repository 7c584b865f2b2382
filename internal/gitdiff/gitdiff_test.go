package gitdiff

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// gitEnv isolates the tests from the user's and the system's git setup.
func gitEnv(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	tmp := t.TempDir()
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(tmp))
	t.Setenv("HOME", tmp)
	t.Setenv("GIT_AUTHOR_NAME", "t")
	t.Setenv("GIT_AUTHOR_EMAIL", "t@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "t")
	t.Setenv("GIT_COMMITTER_EMAIL", "t@example.com")
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func numbered(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s %d\n", prefix, i)
	}
	return b.String()
}

// newRepo makes a repository with one commit on main.
func newRepo(t *testing.T) string {
	t.Helper()
	gitEnv(t)
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	git(t, dir, "checkout", "-q", "-b", "main")
	return dir
}

// changedLines finds the repository from cwd, as protoscan does from its
// working directory, and asks it for the changes under dir.
func changedLines(t *testing.T, ctx context.Context, cwd, dir, rev string) (Changes, error) {
	t.Helper()
	t.Chdir(cwd)
	r, err := FindRepo(ctx)
	if err != nil {
		return nil, err
	}
	return r.ChangedLines(ctx, dir, rev)
}

const quoted = "quo\"te ü.go"

// A pull request that marks its files -diff or binary in .gitattributes
// does not hide their changes: they are diffed as text.
func TestChangedLinesAttributes(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "queue/a.yaml", "task_id: a-1\nstatus: success\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "base")
	git(t, dir, "branch", "base")
	write(t, dir, ".gitattributes", "*.yaml -diff\nqueue/** binary\n")
	write(t, dir, "queue/a.yaml", "task_id: a-1\nstatus: done\n")
	write(t, dir, "queue/b.yaml", "task_id: b-1\nstatus: done\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "hide the change")
	got, err := changedLines(t, context.Background(), dir, dir, "base")
	if err != nil {
		t.Fatal(err)
	}
	want := Changes{".gitattributes": {{1, 2}}, "queue/a.yaml": {{2, 2}}, "queue/b.yaml": {{1, 2}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ChangedLines:\n got %v\nwant %v", got, want)
	}
}

func TestChangedLines(t *testing.T) {
	dir := newRepo(t)
	// settings that change git diff's output must not matter
	for _, kv := range [][2]string{
		{"diff.noprefix", "true"}, {"diff.mnemonicPrefix", "true"}, {"color.ui", "always"},
		{"core.quotePath", "true"}, {"diff.renames", "false"}, {"diff.context", "5"},
		{"diff.external", "false"},
	} {
		git(t, dir, "config", kv[0], kv[1])
	}
	write(t, dir, "a.go", numbered("l", 10))
	write(t, dir, "keep.py", "x = 1\n")
	write(t, dir, "dir with space/c d.yaml", "a: 1\nb: 2\n")
	write(t, dir, "old.txt", numbered("line", 20))
	write(t, dir, "del.go", "package del\n")
	write(t, dir, "bin.dat", "\x00\x01\x02\n")
	write(t, dir, "sub/s.go", "package s\nvar a = 1\n")
	write(t, dir, ".gitignore", "*.log\n")
	write(t, dir, quoted, "package q\n")
	write(t, dir, "mode.sh", "echo\n")
	write(t, dir, "tail.go", "a\nb\nc\nd\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "base")
	git(t, dir, "branch", "feature")

	// main moves on: not a change of the feature branch
	write(t, dir, "keep.py", "x = 2\n")
	git(t, dir, "commit", "-q", "-am", "main moves")
	git(t, dir, "checkout", "-q", "feature")

	// committed on the branch
	write(t, dir, "a.go", strings.Replace(numbered("l", 10), "l 3\n", "l 3 changed\n", 1))
	git(t, dir, "commit", "-q", "-am", "feature")

	// unstaged: two lines inserted after line 7, line 10 deleted
	write(t, dir, "a.go", "l 1\nl 2\nl 3 changed\nl 4\nl 5\nl 6\nl 7\nn 1\nn 2\nl 8\nl 9\n")
	// staged
	write(t, dir, "dir with space/c d.yaml", "a: 1\nb: 3\n")
	git(t, dir, "add", "dir with space/c d.yaml")
	// renamed and edited
	git(t, dir, "mv", "old.txt", "new.txt")
	write(t, dir, "new.txt", strings.Replace(numbered("line", 20), "line 5\n", "line five\n", 1))
	// deleted, binary changed, awkward name, subdirectory
	git(t, dir, "rm", "-q", "del.go")
	write(t, dir, "bin.dat", "\x00\x01\x03\n")
	write(t, dir, quoted, "package q\n\nvar x = 1\n")
	write(t, dir, "sub/s.go", "package s\nvar a = 2\n")
	// mode change only; lines deleted only
	if err := os.Chmod(filepath.Join(dir, "mode.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "tail.go", "a\nd\n")
	// untracked: text without a final newline, empty, binary, ignored, in sub
	write(t, dir, "u.go", "a\nb\nc")
	write(t, dir, "empty.go", "")
	write(t, dir, "ubin.dat", "\x00x\n")
	write(t, dir, "debug.log", "ignored\n")
	write(t, dir, "sub/new.py", "x = 1\n")
	write(t, dir, "new dir/ü x.yaml", "a: 1\nb: 2\n")

	got, err := changedLines(t, context.Background(), dir, dir, "main")
	if err != nil {
		t.Fatal(err)
	}
	want := Changes{
		"a.go":                    {{3, 3}, {8, 9}},
		"dir with space/c d.yaml": {{2, 2}},
		"new.txt":                 {{5, 5}},
		quoted:                    {{2, 3}},
		"sub/s.go":                {{2, 2}},
		"mode.sh":                 {},
		"tail.go":                 {},
		"u.go":                    {{1, 3}},
		"empty.go":                {},
		"sub/new.py":              {{1, 1}},
		"new dir/ü x.yaml":        {{1, 2}},
		// diffed as text, whatever attributes say; a binary untracked
		// file is wholly new
		"bin.dat":  {{1, 1}},
		"ubin.dat": wholeFile,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ChangedLines:\n got %v\nwant %v", got, want)
	}

	// a subdirectory sees its own files, relative to itself
	got, err = changedLines(t, context.Background(), dir, filepath.Join(dir, "sub"), "main")
	if err != nil {
		t.Fatal(err)
	}
	want = Changes{"s.go": {{2, 2}}, "new.py": {{1, 1}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ChangedLines(sub):\n got %v\nwant %v", got, want)
	}

	// against HEAD itself only the working tree counts
	got, err = changedLines(t, context.Background(), dir, dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got["a.go"], []LineRange{{8, 9}}) {
		t.Errorf("against HEAD, a.go: %v", got["a.go"])
	}
}

// The diff is streamed: many hunks and a line far longer than any buffer.
func TestChangedLinesLarge(t *testing.T) {
	dir := newRepo(t)
	const n = 50000
	write(t, dir, "big.txt", numbered("line", n))
	write(t, dir, "long.txt", "short\n"+strings.Repeat("x", 1<<20)+"\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "base")

	var b strings.Builder
	var want []LineRange
	for i := 1; i <= n; i++ {
		if i%10 == 0 {
			fmt.Fprintf(&b, "changed %d\n", i)
			want = append(want, LineRange{i, i})
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	write(t, dir, "big.txt", b.String())
	write(t, dir, "long.txt", "short\n"+strings.Repeat("y", 1<<20)+"\n+++ b/fake\n")
	got, err := changedLines(t, context.Background(), dir, dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got["big.txt"], want) {
		t.Errorf("big.txt: %d ranges, want %d", len(got["big.txt"]), len(want))
	}
	if !reflect.DeepEqual(got["long.txt"], []LineRange{{2, 3}}) {
		t.Errorf("long.txt: %v", got["long.txt"])
	}
	if len(got) != 2 {
		t.Errorf("files: %v", got)
	}
}

func TestChangedLinesErrors(t *testing.T) {
	gitEnv(t)
	ctx := context.Background()
	notRepo := t.TempDir()
	if _, err := changedLines(t, ctx, notRepo, notRepo, "main"); err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Errorf("not a repository: %v", err)
	}

	dir := newRepo(t)
	if _, err := changedLines(t, ctx, dir, filepath.Join(dir, "missing"), "main"); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing directory: %v", err)
	}
	// a directory outside the repository is not looked at, even when it is
	// a repository itself
	if _, err := changedLines(t, ctx, dir, newRepo(t), "main"); err == nil || !strings.Contains(err.Error(), "outside the git work tree") {
		t.Errorf("directory outside the repository: %v", err)
	}
	// no commit yet: main is not a revision, and HEAD is none either
	if _, err := changedLines(t, ctx, dir, dir, "main"); !errors.Is(err, ErrNoRevision) {
		t.Errorf("unborn HEAD: %v", err)
	}
	write(t, dir, "a.go", "package a\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "base")

	_, err := changedLines(t, ctx, dir, dir, "nosuch")
	if !errors.Is(err, ErrNoRevision) || err.Error() != "gitdiff: nosuch: no such revision here" {
		t.Errorf("unknown revision: %v", err)
	}
	// a name of something that is not a commit is git's error
	blob := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD:a.go"))
	if _, err := changedLines(t, ctx, dir, dir, blob); err == nil || errors.Is(err, ErrNoRevision) {
		t.Errorf("a blob as the revision: %v", err)
	}
	// with HEAD unborn, the merge base is what fails
	git(t, dir, "checkout", "-q", "--orphan", "unborn")
	if _, err := changedLines(t, ctx, dir, dir, "main"); err == nil || !strings.Contains(err.Error(), "merge-base") {
		t.Errorf("unborn HEAD: %v", err)
	}
	git(t, dir, "checkout", "-q", "main")
	for _, rev := range []string{"", "--output=/tmp/x", "-h"} {
		if _, err := changedLines(t, ctx, dir, dir, rev); err == nil {
			t.Errorf("revision %q accepted", rev)
		}
	}

	// unrelated history
	git(t, dir, "checkout", "-q", "--orphan", "other")
	git(t, dir, "commit", "-q", "-m", "other root")
	if _, err := changedLines(t, ctx, dir, dir, "main"); err == nil || !strings.Contains(err.Error(), "no common history") {
		t.Errorf("unrelated histories: %v", err)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := changedLines(t, cancelled, dir, dir, "HEAD"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}

	t.Setenv("PATH", t.TempDir())
	if _, err := changedLines(t, ctx, dir, dir, "HEAD"); err == nil || !strings.Contains(err.Error(), "git is not installed") {
		t.Errorf("without git: %v", err)
	}
}

func TestParseDiff(t *testing.T) {
	long := strings.Repeat("z", 200<<10)
	patch := strings.Join([]string{
		"diff --git a/x.go b/x.go",
		"index 1..2 100644",
		"--- a/x.go",
		"+++ b/x.go",
		"@@ -1,2 +1,3 @@ func f() {",
		"--- not a header",
		"-diff --git a/evil b/evil",
		"++++ b/evil",
		"+@@ -1 +1 @@",
		"+" + long,
		`\ No newline at end of file`,
		"@@ -10 +11,0 @@",
		"-gone",
		"@@ -20 +20 @@",
		"-a",
		"+b",
		"@@ -21,0 +21,2 @@",
		"+c",
		"+d",
		`diff --git "a/t\tab\303\274.go" "b/t\tab\303\274.go"`,
		"--- \"a/t\\tab\\303\\274.go\"",
		"+++ \"b/t\\tab\\303\\274.go\"",
		"@@ -0,0 +1 @@",
		"+x",
		"diff --git a/sp ace.go b/sp ace.go",
		"new file mode 100644",
		"index 0000000..e69de29",
		"diff --git a/old name.go b/new name.go",
		"similarity index 100%",
		"rename from old name.go",
		"rename to new name.go",
		"diff --git a/m.sh b/m.sh",
		"old mode 100644",
		"new mode 100755",
		"diff --git a/bin b/bin",
		"index 1..2 100644",
		"Binary files a/bin and b/bin differ",
		"diff --git a/gone.go b/gone.go",
		"deleted file mode 100644",
		"--- a/gone.go",
		"+++ /dev/null",
		"@@ -1 +0,0 @@",
		"-package gone",
		"diff --git a/p q.go b/p q.go",
		"--- a/p q.go\t",
		"+++ b/p q.go\t",
		"@@ -3 +3 @@",
		"-a",
		"+b",
	}, "\n") + "\n"
	m := Changes{}
	if err := parseDiff(strings.NewReader(patch), m); err != nil {
		t.Fatal(err)
	}
	want := Changes{
		"x.go":        {{1, 3}, {20, 22}},
		"t\tabü.go":   {{1, 1}},
		"sp ace.go":   {},
		"new name.go": {},
		"m.sh":        {},
		"p q.go":      {{3, 3}},
		"bin":         wholeFile,
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got  %v\nwant %v", m, want)
	}

	for _, bad := range []string{
		"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +x @@\n",
		"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 @@\n",
		"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1,-2 @@\n",
	} {
		if err := parseDiff(strings.NewReader(bad), Changes{}); err == nil || !strings.Contains(err.Error(), "malformed hunk header") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestHeaderPath(t *testing.T) {
	for in, want := range map[string]string{
		"a/x.go b/x.go":                 "x.go",
		"a/a b/c b/a b/c":               "a b/c",
		"a/x.go b/y.go":                 "",
		"a/x y b/z":                     "",
		`"a/q\"x" "b/q\"x"`:             `q"x`,
		`"a/\303\274" "b/\303\274"`:     "ü",
		`"a/broken`:                     "",
		`"a/x\7" "b/x"`:                 "",
		`"a/x\777" "b/x"`:               "",
		`"a/x\a\b\f\v\r\n\\" "b/x\a\\"`: "x\a\\",
	} {
		if got := headerPath(in); got != want {
			t.Errorf("headerPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestContains(t *testing.T) {
	m := Changes{
		"a.go":     {{3, 3}, {8, 9}, {20, 30}},
		"empty.go": {},
	}
	for _, c := range []struct {
		path string
		line int
		want bool
	}{
		{"a.go", 0, true}, {"a.go", 1, false}, {"a.go", 3, true}, {"a.go", 4, false},
		{"a.go", 7, false}, {"a.go", 8, true}, {"a.go", 9, true}, {"a.go", 10, false},
		{"a.go", 19, false}, {"a.go", 20, true}, {"a.go", 25, true}, {"a.go", 30, true}, {"a.go", 31, false},
		{"empty.go", 0, true}, {"empty.go", 1, false},
		{"other.go", 0, false}, {"other.go", 3, false},
	} {
		if got := m.Contains(c.path, c.line); got != c.want {
			t.Errorf("Contains(%s, %d) = %v, want %v", c.path, c.line, got, c.want)
		}
	}
	var none Changes
	if none.Contains("a.go", 0) {
		t.Error("nil Changes contains a file")
	}
}

func TestCountLines(t *testing.T) {
	dir := t.TempDir()
	for content, want := range map[string]int{
		"": 0, "a": 1, "a\n": 1, "a\nb": 2, "\n\n": 2,
		strings.Repeat("x\n", 100000): 100000,
	} {
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		n, binary, err := countLines(p)
		if err != nil || binary || n != want {
			t.Errorf("countLines(%d bytes) = %d, %v, %v; want %d", len(content), n, binary, err, want)
		}
	}
	// NUL within the first 8000 bytes is binary, after them it is not
	for content, want := range map[string]bool{
		"a\x00": true, strings.Repeat("a", 7999) + "\x00": true, strings.Repeat("a", 8000) + "\x00": false,
	} {
		p := filepath.Join(dir, "b")
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, binary, _ := countLines(p); binary != want {
			t.Errorf("binary(%d bytes) = %v, want %v", len(content), binary, want)
		}
	}
}

func FuzzParseDiff(f *testing.F) {
	f.Add("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n-a\n-b\n+c\n+d\n+e\n")
	f.Add("diff --git \"a/\\303\" \"b/\\303\"\nrename to \"x\\ty\"\n@@ -0,0 +5,2 @@\n+a\n")
	f.Add("diff --git a/x b/x\nBinary files a/x and b/x differ\n")
	f.Fuzz(func(t *testing.T, patch string) {
		m := Changes{}
		if err := parseDiff(strings.NewReader(patch), m); err != nil {
			return
		}
		for p, rs := range m {
			if rs == nil {
				t.Fatalf("%q: nil ranges", p)
			}
			for i, r := range rs {
				if r.Start > r.End || i > 0 && rs[i-1].End+1 >= r.Start {
					t.Fatalf("%q: ranges not sorted and disjoint: %v", p, rs)
				}
			}
		}
	})
}

// The repository is the working directory's, found from any directory of
// its work tree; an implicit bare repository is refused.
func TestFindRepo(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "sub/deep/a.go", "package a\n")
	t.Chdir(filepath.Join(dir, "sub", "deep"))
	r, err := FindRepo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if r.Root != real || r.GitDir != filepath.Join(real, ".git") {
		t.Errorf("FindRepo = %+v, want root %s", r, real)
	}

	bare := filepath.Join(t.TempDir(), "b.git")
	git(t, filepath.Dir(bare), "init", "-q", "--bare", bare)
	t.Chdir(bare)
	if _, err := FindRepo(context.Background()); err == nil || !strings.Contains(err.Error(), "bare") {
		t.Errorf("implicit bare repository: %v", err)
	}

	// the user's environment names the repository: it is the user's to name
	t.Chdir(t.TempDir())
	t.Setenv("GIT_DIR", filepath.Join(dir, ".git"))
	t.Setenv("GIT_WORK_TREE", dir)
	if r, err := FindRepo(context.Background()); err != nil || r.Root != real {
		t.Errorf("GIT_DIR and GIT_WORK_TREE: %+v, %v", r, err)
	}
}

// marker is a command that leaves the file path behind if it ever runs, and
// passes its input through (so a filter that runs still filters).
func marker(path string) string { return "touch '" + path + "'; cat" }

func assertNoMarker(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); err == nil {
		t.Errorf("%s exists: git ran a command the scanned tree chose", filepath.Base(path))
	}
}

// A repository inside the scanned directory is data: git never runs in
// it, so its configuration (a core.fsmonitor command) is never read, and
// its files are the enclosing repository's, changed lines and all.
func TestRepositoryInsideTreeIsNotUsed(t *testing.T) {
	dir := newRepo(t)
	mark := filepath.Join(t.TempDir(), "ran")
	evil := "[core]\n\tbare = false\n\tworktree = .\n\tfsmonitor = \"" + marker(mark) + "\"\n"
	// a committed directory laid out as a bare repository (HEAD, config,
	// objects, refs) and a nested .git directory beside it
	write(t, dir, "pr/fake/HEAD", "ref: refs/heads/main\n")
	write(t, dir, "pr/fake/config", evil)
	write(t, dir, "pr/fake/objects/.keep", "")
	write(t, dir, "pr/fake/refs/heads/.keep", "")
	write(t, dir, "pr/fake/h.yaml", "a: 1\n")
	write(t, dir, "pr/nested/h.yaml", "a: 1\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "base")
	git(t, filepath.Join(dir, "pr", "nested"), "init", "-q")
	git(t, filepath.Join(dir, "pr", "nested"), "add", "-A")
	git(t, filepath.Join(dir, "pr", "nested"), "commit", "-q", "-m", "inner")
	write(t, dir, "pr/nested/.git/config", strings.Replace(evil, "worktree = .", "worktree = ..", 1))
	write(t, dir, "pr/fake/h.yaml", "a: 1\nb: 2\n")
	write(t, dir, "pr/nested/h.yaml", "a: 1\nb: 2\nc: 3\n")

	for _, c := range []struct {
		dir  string
		want Changes
	}{
		{"pr/fake", Changes{"h.yaml": {{2, 2}}}},
		{"pr/nested", Changes{"h.yaml": {{2, 3}}}},
	} {
		// from the top, and from inside the directory itself
		for _, cwd := range []string{dir, filepath.Join(dir, "pr")} {
			got, err := changedLines(t, context.Background(), cwd, filepath.Join(dir, c.dir), "HEAD")
			if err != nil {
				t.Errorf("%s from %s: %v", c.dir, cwd, err)
				continue
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s from %s:\n got %v\nwant %v", c.dir, cwd, got, c.want)
			}
		}
	}
	// a working directory inside the bare layout finds no repository at all
	t.Chdir(filepath.Join(dir, "pr", "fake"))
	if _, err := FindRepo(context.Background()); err == nil {
		t.Error("a directory that looks like a bare repository was taken as one")
	}
	assertNoMarker(t, mark)
}

// Attributes in the tree may name any driver the user's configuration
// defines: a filter (clean, process), a diff command or textconv. None
// runs, whatever its name, and the diff is still right.
func TestTreeAttributesRunNoDriver(t *testing.T) {
	dir := newRepo(t)
	marks := t.TempDir()
	m := func(name string) string { return marker(filepath.Join(marks, name)) }
	for _, kv := range [][2]string{
		{"filter.evil.clean", m("clean")},
		{"filter.evil.smudge", m("smudge")},
		{"filter.evil.required", "true"},
		{"filter.proc.process", m("process")},
		{"filter.we=ird.na.me.clean", m("weird")},
		{"diff.evil.command", m("diffcmd")},
		{"diff.evil.textconv", m("textconv")},
	} {
		git(t, dir, "config", kv[0], kv[1])
	}
	for _, f := range []string{"a.txt", "b.txt", "c.txt", "d.txt"} {
		write(t, dir, f, "one\n")
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "base")
	// the pull request brings the attributes; the user's config has the drivers
	write(t, dir, ".gitattributes", "a.txt filter=evil\nb.txt filter=proc\nc.txt filter=we=ird.na.me\nd.txt diff=evil\n")
	for _, f := range []string{"a.txt", "b.txt", "c.txt", "d.txt"} {
		write(t, dir, f, "one\ntwo\n")
	}
	git(t, dir, "config", "core.fsmonitor", m("fsmonitor")) // after the test's own git commands
	got, err := changedLines(t, context.Background(), dir, dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	want := Changes{".gitattributes": {{1, 4}}, "a.txt": {{2, 2}}, "b.txt": {{2, 2}}, "c.txt": {{2, 2}}, "d.txt": {{2, 2}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	entries, _ := os.ReadDir(marks)
	for _, e := range entries {
		t.Errorf("%s ran", e.Name())
	}
}

// TestShallowClone: in a shallow clone (a CI checkout's default), the
// merge base is cut off; the error says to fetch the history.
func TestShallowClone(t *testing.T) {
	up := newRepo(t)
	write(t, up, "a.go", "package a\n")
	git(t, up, "add", "-A")
	git(t, up, "commit", "-q", "-m", "base")
	git(t, up, "checkout", "-q", "-b", "feature")
	write(t, up, "b.go", "package a\n")
	git(t, up, "add", "-A")
	git(t, up, "commit", "-q", "-m", "feature")
	git(t, up, "checkout", "-q", "main")
	write(t, up, "c.go", "package a\n")
	git(t, up, "add", "-A")
	git(t, up, "commit", "-q", "-m", "main moves on")

	clone := filepath.Join(t.TempDir(), "clone")
	git(t, up, "clone", "-q", "--depth", "1", "--no-single-branch", "--branch", "feature", "file://"+up, clone)
	_, err := changedLines(t, context.Background(), clone, clone, "origin/main")
	if err == nil || !strings.Contains(err.Error(), "no common history") || !strings.Contains(err.Error(), "the clone is shallow: fetch the history") {
		t.Errorf("shallow clone: %v", err)
	}
	// the full history: the merge base is found
	git(t, clone, "fetch", "-q", "--unshallow")
	ch, err := changedLines(t, context.Background(), clone, clone, "origin/main")
	if err != nil || !reflect.DeepEqual(ch, Changes{"b.go": {{1, 1}}}) {
		t.Errorf("after fetching the history: %v, %v", ch, err)
	}
}
