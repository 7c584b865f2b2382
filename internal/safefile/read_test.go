package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// symlink makes a link, or skips where links cannot be made.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadFileRegular(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "spec.yaml")
	write(t, p, "version: 1\n")
	data, err := ReadFile(p, ReadOptions{Root: root})
	if err != nil || string(data) != "version: 1\n" {
		t.Fatalf("ReadFile = %q, %v", data, err)
	}
}

func TestReadFileOversize(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "big.yaml")
	write(t, p, strings.Repeat("x", 1<<20+1))
	_, err := ReadFile(p, ReadOptions{Root: root, Max: 1 << 20})
	if err == nil || err.Error() != p+": larger than 1 MiB" {
		t.Fatalf("err = %v, want %s: larger than 1 MiB", err, p)
	}
	var fe *Error
	if !errors.As(err, &fe) {
		t.Errorf("err is %T, want *Error", err)
	}
	// exactly at the limit is fine
	if _, err := ReadFile(p, ReadOptions{Max: 1<<20 + 1}); err != nil {
		t.Errorf("a file of exactly Max bytes: %v", err)
	}
	_, err = ReadFile(p, ReadOptions{Max: 1000})
	if err == nil || err.Error() != p+": larger than 1000 bytes" {
		t.Errorf("err = %v, want larger than 1000 bytes", err)
	}
}

func TestReadFileDefaultMax(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.yaml")
	write(t, p, strings.Repeat("x", DefaultMax+1))
	if _, err := ReadFile(p, ReadOptions{}); err == nil || !strings.HasSuffix(err.Error(), ": larger than 4 MiB") {
		t.Fatalf("err = %v, want larger than 4 MiB", err)
	}
}

func TestReadFileDirectory(t *testing.T) {
	root := t.TempDir()
	_, err := ReadFile(root, ReadOptions{Root: root})
	if err == nil || err.Error() != root+": a directory, not a file" {
		t.Fatalf("err = %v", err)
	}
}

func TestReadFileMissing(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "docs", "none.yaml")
	_, err := ReadFile(p, ReadOptions{Root: root})
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), p) {
		t.Fatalf("err = %v, want not-exist naming %s", err, p)
	}
}

func TestReadFileLinkOutOfRoot(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.yaml")
	write(t, secret, "password: hunter2\n")
	root := t.TempDir()
	link := filepath.Join(root, "spec.yaml")
	symlink(t, secret, link)

	_, err := ReadFile(link, ReadOptions{Root: root})
	if err == nil {
		t.Fatal("a link out of the root was read")
	}
	if msg := err.Error(); !strings.HasPrefix(msg, link+": ") || strings.Contains(msg, "hunter2") || strings.Contains(msg, outside) {
		t.Errorf("err = %q: want it to name the link, and neither the target nor its content", msg)
	}
	// named on the command line, it is read
	data, err := ReadFile(link, ReadOptions{Root: root, Explicit: true})
	if err != nil || string(data) != "password: hunter2\n" {
		t.Errorf("explicit: ReadFile = %q, %v", data, err)
	}
	// with no root, anywhere goes
	if _, err := ReadFile(link, ReadOptions{}); err != nil {
		t.Errorf("no root: %v", err)
	}
}

func TestReadFileDotDotOutOfRoot(t *testing.T) {
	parent := t.TempDir()
	write(t, filepath.Join(parent, "secret.yaml"), "x: 1\n")
	root := filepath.Join(parent, "tree")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "..", "secret.yaml")
	if _, err := ReadFile(p, ReadOptions{Root: root}); err == nil {
		t.Fatal("a path out of the root by .. was read")
	}
}

func TestReadFileLinkInsideRoot(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "shared", "spec.yaml"), "version: 2\n")
	if err := os.MkdirAll(filepath.Join(root, "docs", "specs"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "docs", "specs", "spec.yaml")
	symlink(t, filepath.Join("..", "..", "shared", "spec.yaml"), link)
	data, err := ReadFile(link, ReadOptions{Root: root})
	if err != nil || string(data) != "version: 2\n" {
		t.Fatalf("ReadFile = %q, %v", data, err)
	}
	// a root that is itself reached through a link
	alias := filepath.Join(t.TempDir(), "alias")
	symlink(t, root, alias)
	if _, err := ReadFile(filepath.Join(alias, "docs", "specs", "spec.yaml"), ReadOptions{Root: alias}); err != nil {
		t.Errorf("root through a link: %v", err)
	}
	// and a relative root
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, root)
	if err == nil {
		if _, err := ReadFile(filepath.Join(rel, "docs", "specs", "spec.yaml"), ReadOptions{Root: rel}); err != nil {
			t.Errorf("relative root: %v", err)
		}
	}
}

// A path or a link of the tree that leads out gets one error, whether or
// not its target exists: the tree cannot probe the disk outside it.
func TestReadFileOutOfRootSameError(t *testing.T) {
	outside := t.TempDir()
	write(t, filepath.Join(outside, "there.yaml"), "x: 1\n")
	root := t.TempDir()
	symlink(t, filepath.Join(outside, "there.yaml"), filepath.Join(root, "there.yaml"))
	symlink(t, filepath.Join(outside, "missing.yaml"), filepath.Join(root, "missing.yaml"))
	symlink(t, outside, filepath.Join(root, "dir"))
	symlink(t, "dir/../../x", filepath.Join(root, "hop"))
	reason := func(p string) string {
		t.Helper()
		_, err := ReadFile(p, ReadOptions{Root: root})
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: err = %v, want an *Error", p, err)
		}
		return e.Reason
	}
	want := reason(filepath.Join(root, "there.yaml"))
	for _, p := range []string{
		filepath.Join(root, "missing.yaml"),
		filepath.Join(root, "dir", "there.yaml"),
		filepath.Join(root, "dir", "missing.yaml"),
		filepath.Join(root, "hop"),
		filepath.Join(root, "..", filepath.Base(outside), "there.yaml"),
		filepath.Join(root, "..", filepath.Base(outside), "missing.yaml"),
		"/nonexistent/x.yaml",
	} {
		if got := reason(p); got != want {
			t.Errorf("%s: %q, want %q as for every path that leads out", p, got, want)
		}
	}
}
