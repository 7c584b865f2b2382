package gitdiff

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// revRepo makes a repository whose first commit holds a config, a spec
// directory with a link and a file with a tab and a newline in its name,
// and a submodule entry; the work tree then changes all of them.
func revRepo(t *testing.T) (dir, commit string, r *Repo) {
	t.Helper()
	dir = newRepo(t)
	write(t, dir, ".protoscan.yaml", "fail-on: error\n")
	write(t, dir, "docs/specs/protocol-core-v1.1.yaml", "protocol: protocol-core\n")
	write(t, dir, "docs/specs/big.yaml", strings.Repeat("x", 100)+"\n")
	write(t, dir, "docs/specs/odd\tname\n.yaml", "odd\n")
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "docs/specs/protocol-core-v9.yaml")); err != nil {
		t.Skip("no symbolic links here")
	}
	git(t, dir, "add", "-A")
	// a submodule: a commit entry in the tree (any hash will do)
	git(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("1", 40)+",vendor/sub")
	git(t, dir, "commit", "-q", "-m", "base")
	git(t, dir, "branch", "base")
	// the pull request: what the work tree holds is never what is read
	write(t, dir, ".protoscan.yaml", "fail-on: never\n")
	write(t, dir, "docs/specs/protocol-core-v99.yaml", "protocol: mine\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "pr")
	write(t, dir, ".protoscan.yaml", "rules: {\"*/*\": off}\n")
	t.Chdir(dir)
	r, err := FindRepo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	commit, err = r.Commit(context.Background(), "base")
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSpace(git(t, dir, "rev-parse", "base")); commit != want {
		t.Fatalf("Commit(base) = %q, want %q", commit, want)
	}
	return dir, commit, r
}

func TestReadFile(t *testing.T) {
	_, commit, r := revRepo(t)
	ctx := context.Background()

	got, err := r.ReadFile(ctx, commit, ".protoscan.yaml", 1<<20)
	if err != nil || string(got) != "fail-on: error\n" {
		t.Errorf("ReadFile(.protoscan.yaml) = %q, %v; want the revision's content", got, err)
	}
	got, err = r.ReadFile(ctx, commit, "docs/specs/odd\tname\n.yaml", 1<<20)
	if err != nil || string(got) != "odd\n" {
		t.Errorf("ReadFile(a name with a tab and a newline) = %q, %v", got, err)
	}
	// exactly at the limit, and one byte over: refused before reading
	if got, err = r.ReadFile(ctx, commit, "docs/specs/big.yaml", 101); err != nil || len(got) != 101 {
		t.Errorf("ReadFile at the limit: %d bytes, %v", len(got), err)
	}
	for _, c := range []struct{ path, want string }{
		{"docs/specs/big.yaml", ":docs/specs/big.yaml: 101 bytes, over the limit of 100"},
		{"docs/specs/protocol-core-v9.yaml", ":docs/specs/protocol-core-v9.yaml: a symbolic link, not a regular file"},
		{"vendor/sub", ":vendor/sub: a submodule, not a regular file"},
		{"docs/specs", ":docs/specs: a directory, not a regular file"},
	} {
		_, err := r.ReadFile(ctx, commit, c.path, 100)
		var fe *FileError
		if !errors.As(err, &fe) || !strings.HasSuffix(err.Error(), c.want) || !strings.HasPrefix(err.Error(), commit[:7]+":") {
			t.Errorf("ReadFile(%q): %v, want a *FileError ending %q", c.path, err, c.want)
		}
	}
	// what the revision lacks, though the work tree has it
	for _, p := range []string{"docs/specs/protocol-core-v99.yaml", "nope/.protoscan.yaml", ".protoscan.yaml/x"} {
		if _, err := r.ReadFile(ctx, commit, p, 100); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("ReadFile(%q): %v, want fs.ErrNotExist", p, err)
		}
	}
	for _, p := range []string{"../x", "/etc/passwd", ""} {
		if _, err := r.ReadFile(ctx, commit, p, 100); err == nil || errors.Is(err, fs.ErrNotExist) {
			t.Errorf("ReadFile(%q): %v, want a refusal", p, err)
		}
	}
	// only full hashes: a revision name is Commit's to resolve
	if _, err := r.ReadFile(ctx, "base", ".protoscan.yaml", 100); err == nil {
		t.Errorf("ReadFile with a branch name: no error")
	}
}

func TestReadDir(t *testing.T) {
	_, commit, r := revRepo(t)
	ctx := context.Background()
	es, err := r.ReadDir(ctx, commit, "docs/specs")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name)
	}
	want := []string{"docs/specs/big.yaml", "docs/specs/odd\tname\n.yaml", "docs/specs/protocol-core-v1.1.yaml", "docs/specs/protocol-core-v9.yaml"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("ReadDir(docs/specs) = %q, want %q", names, want)
	}
	if !es[0].Regular() || es[0].Size != 101 || es[3].Regular() || es[3].Mode != 0o120000 {
		t.Errorf("entries %+v: want big.yaml regular of 101 bytes, the link not regular", es)
	}
	top, err := r.ReadDir(ctx, commit, "")
	if err != nil || len(top) != 3 || top[0].Name != ".protoscan.yaml" || !top[1].Dir() {
		t.Errorf("ReadDir(top) = %+v, %v; want .protoscan.yaml, docs, vendor", top, err)
	}
	if _, err := r.ReadDir(ctx, commit, "docs/nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadDir(docs/nope): %v, want fs.ErrNotExist", err)
	}
	if _, err := r.ReadDir(ctx, commit, ".protoscan.yaml"); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("ReadDir(a file): %v", err)
	}
}

// A directory of more entries than MaxDirEntries is an error, not a list
// that grows with the tree under review.
func TestReadDirBounded(t *testing.T) {
	dir := newRepo(t)
	// one blob under many names, written straight into the index
	write(t, dir, "f", "x\n")
	oid := strings.TrimSpace(git(t, dir, "hash-object", "-w", "f"))
	var b strings.Builder
	for i := 0; i <= MaxDirEntries; i++ {
		b.WriteString("100644 " + oid + "\tmany/f" + fmt.Sprintf("%06d", i) + "\n")
	}
	cmd := exec.Command("git", "update-index", "--index-info")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(b.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("update-index: %v\n%s", err, out)
	}
	git(t, dir, "commit", "-q", "-m", "many")
	t.Chdir(dir)
	r, err := FindRepo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	commit, err := r.Commit(context.Background(), "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadDir(context.Background(), commit, "many"); err == nil || !strings.Contains(err.Error(), "more than 10000 entries") {
		t.Errorf("ReadDir(many): %v, want the cap", err)
	}
}

func TestCommitMissing(t *testing.T) {
	_, _, r := revRepo(t)
	ctx := context.Background()
	if _, err := r.Commit(ctx, "origin/main"); !errors.Is(err, ErrNoRevision) {
		t.Errorf("Commit(origin/main): %v, want ErrNoRevision", err)
	}
	if _, err := r.Commit(ctx, "--all"); err == nil || errors.Is(err, ErrNoRevision) {
		t.Errorf("Commit(--all): %v, want a refusal", err)
	}
	// a blob is no commit
	if _, err := r.Commit(ctx, "HEAD:.protoscan.yaml"); !errors.Is(err, ErrNoRevision) {
		t.Errorf("Commit(a blob): %v, want ErrNoRevision", err)
	}
}
