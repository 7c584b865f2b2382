package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// writeTree makes a root directory and, beside it, a directory standing for
// everything outside the tree, with a file the tests must not change.
func writeTree(t *testing.T) (root, outside, victim string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "root")
	outside = filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	victim = filepath.Join(outside, "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return root, outside, victim
}

// writeSymlink makes link point to target, or skips the test where the
// system (or its user) cannot.
func writeSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// writeUnchanged checks that writeTree's victim still holds its text.
func writeUnchanged(t *testing.T, victim string) {
	t.Helper()
	if got, err := os.ReadFile(victim); err != nil || string(got) != "precious\n" {
		t.Errorf("%s = %q, %v; want it unchanged", victim, got, err)
	}
}

// writeRegular checks that name is a regular file (not a link) holding
// want, with mode perm.
func writeRegular(t *testing.T, name, want string, perm fs.FileMode) {
	t.Helper()
	fi, err := os.Lstat(name)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.Mode().IsRegular() {
		t.Fatalf("%s is %v, want a regular file", name, fi.Mode())
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != perm {
		t.Errorf("%s has mode %v, want %v", name, fi.Mode().Perm(), perm)
	}
	if got, _ := os.ReadFile(name); string(got) != want {
		t.Errorf("%s = %q, want %q", name, got, want)
	}
}

// TestWriteLinkAtNameIsReplaced: a link at the final component, in the tree
// or outside it, is replaced by the new file; its target stays.
func TestWriteLinkAtNameIsReplaced(t *testing.T) {
	root, outside, victim := writeTree(t)
	for _, dir := range []string{root, outside} {
		link := filepath.Join(dir, "report.sarif")
		writeSymlink(t, victim, link)
		if err := WriteFile(link, []byte("report\n"), 0o644, root); err != nil {
			t.Fatal(err)
		}
		writeUnchanged(t, victim)
		writeRegular(t, link, "report\n", 0o644)
	}
}

// TestWriteDanglingLinkAtName: a link to a file that does not exist yet does
// not create it.
func TestWriteDanglingLinkAtName(t *testing.T) {
	root, outside, _ := writeTree(t)
	target := filepath.Join(outside, "new")
	link := filepath.Join(root, "out.json")
	writeSymlink(t, target, link)
	if err := WriteFile(link, []byte("x"), 0o644, root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s was created (%v)", target, err)
	}
	writeRegular(t, link, "x", 0o644)
}

// TestWriteDirLinkLeavingRootIsRefused: a directory of the path that is a link
// in the tree to a place outside it is refused, with the path named; a
// link inside the tree to a place inside it, and a link outside the tree,
// are followed.
func TestWriteDirLinkLeavingRootIsRefused(t *testing.T) {
	root, outside, _ := writeTree(t)
	writeSymlink(t, outside, filepath.Join(root, "out"))
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeSymlink(t, filepath.Join(root, "out"), filepath.Join(root, "sub", "again"))
	writeSymlink(t, "../sub", filepath.Join(root, "sub", "self"))

	for _, name := range []string{
		filepath.Join(root, "out", "victim"),
		filepath.Join(root, "out", "new"),
		filepath.Join(root, "sub", "again", "new"),         // through a link to the link
		filepath.Join(root, "sub", "self", "again", "new"), // and through a link inside
		root + "/out/../outside/new",                       // .. after the link, as the system resolves it (Join would clean it away)
	} {
		err := WriteFile(name, []byte("x"), 0o644, root)
		if !errors.Is(err, ErrLinkOut) {
			t.Errorf("WriteFile(%s) = %v, want ErrLinkOut", name, err)
			continue
		}
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != name {
			t.Errorf("WriteFile(%s) = %v, want an error naming the path", name, err)
		}
	}
	writeUnchanged(t, filepath.Join(outside, "victim"))
	if ents, _ := os.ReadDir(outside); len(ents) != 1 {
		t.Errorf("outside holds %d files, want only the victim", len(ents))
	}

	// inside to inside, and a path named outside the tree, work
	ok := []string{
		filepath.Join(root, "sub", "self", "x"),
		filepath.Join(outside, "y"),
	}
	for _, name := range ok {
		if err := WriteFile(name, []byte("ok"), 0o644, root); err != nil {
			t.Errorf("WriteFile(%s): %v", name, err)
		}
	}
	// with no roots, nothing is refused: the paths are all trusted
	if err := WriteFile(filepath.Join(root, "out", "z"), []byte("ok"), 0o644); err != nil {
		t.Errorf("WriteFile with no roots: %v", err)
	}
}

// TestWriteRelativeRootAndName: the roots and the name may be relative to the
// working directory, also when the working directory was reached through
// a link (os.Getwd then gives $PWD, link and all).
func TestWriteRelativeRootAndName(t *testing.T) {
	root, outside, _ := writeTree(t)
	writeSymlink(t, outside, filepath.Join(root, "out"))
	via := filepath.Join(t.TempDir(), "via")
	writeSymlink(t, root, via)
	for _, wd := range []string{root, via} {
		t.Chdir(wd)
		if err := WriteFile("out/x", []byte("x"), 0o644, "."); !errors.Is(err, ErrLinkOut) {
			t.Errorf("in %s: WriteFile(out/x) = %v, want ErrLinkOut", wd, err)
		}
		if err := WriteFile("x", []byte("x"), 0o644, "."); err != nil {
			t.Errorf("in %s: WriteFile(x) = %v", wd, err)
		}
		writeRegular(t, filepath.Join(root, "x"), "x", 0o644)
	}
}

// TestWriteMode: a new file and a replaced one get the mode asked for, whatever
// the umask and the old file's mode.
func TestWriteMode(t *testing.T) {
	root, _, _ := writeTree(t)
	name := filepath.Join(root, "f")
	if err := WriteFile(name, []byte("a"), 0o644, root); err != nil {
		t.Fatal(err)
	}
	writeRegular(t, name, "a", 0o644)
	if err := os.Chmod(name, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(name, []byte("b"), 0o644, root); err != nil {
		t.Fatal(err)
	}
	writeRegular(t, name, "b", 0o644)
	if err := WriteFile(name, []byte("c"), 0o600, root); err != nil {
		t.Fatal(err)
	}
	writeRegular(t, name, "c", 0o600)
}

// TestWriteAbortLeavesNothing: an aborted file leaves no file behind, and the
// old file as it was; Close after Abort is an error, Abort after Close
// does nothing.
func TestWriteAbortLeavesNothing(t *testing.T) {
	root, _, _ := writeTree(t)
	name := filepath.Join(root, "f")
	f, err := Create(name, 0o644, root)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name() != name {
		t.Errorf("Name() = %q, want %q", f.Name(), name)
	}
	f.Write([]byte("half"))
	f.Abort()
	if err := f.Close(); err == nil {
		t.Error("Close after Abort succeeded")
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Errorf("root holds %v after Abort, want nothing", ents)
	}

	if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err = Create(name, 0o644, root)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new"))
	if got, _ := os.ReadFile(name); string(got) != "old" {
		t.Errorf("before Close, %s = %q, want the old content", name, got)
	}
	f.Abort()
	writeRegular(t, name, "old", 0o644)
	if ents, _ := os.ReadDir(root); len(ents) != 1 {
		t.Errorf("root holds %v after Abort, want only the old file", ents)
	}

	f, err = Create(name, 0o644, root)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new"))
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	f.Abort()
	writeRegular(t, name, "new", 0o644)
}

// TestWriteNotRegularInPlace: "-", /dev/stdout (a link to the process's stdout)
// and /dev/null are written in place, not replaced.
func TestWriteNotRegularInPlace(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev")
	}
	out := filepath.Join(t.TempDir(), "stdout")
	fo, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer fo.Close()
	old := os.Stdout
	os.Stdout = fo
	defer func() { os.Stdout = old }()

	if err := WriteFile("-", []byte("dash\n"), 0o644, "/"); err != nil {
		t.Errorf("WriteFile(-): %v", err)
	}
	if err := WriteFile("/dev/null", []byte("null\n"), 0o644, "/dev"); err != nil {
		t.Errorf("WriteFile(/dev/null): %v", err)
	}
	if fi, err := os.Lstat("/dev/null"); err != nil || fi.Mode().IsRegular() {
		t.Fatalf("/dev/null is now %v, %v", fi.Mode(), err)
	}
	if got, _ := os.ReadFile(out); string(got) != "dash\n" {
		t.Errorf("stdout holds %q, want dash", got)
	}
	// /dev/stdout is the test process's own, which the file stands for
	// only through a child; here: it is opened, not replaced
	fi, err := os.Lstat("/dev/stdout")
	if err != nil {
		t.Skip(err)
	}
	// also with / as a root (a container's working directory)
	for _, root := range []string{t.TempDir(), "/"} {
		f, err := Create("/dev/stdout", 0o644, root)
		if err != nil {
			t.Fatalf("Create(/dev/stdout): %v", err)
		}
		if f.tmp != "" {
			f.Abort()
			t.Fatalf("root %s: Create(/dev/stdout) writes %s, to be renamed over it", root, f.tmp)
		}
		f.Abort()
	}
	if fi2, err := os.Lstat("/dev/stdout"); err != nil || fi2.Mode() != fi.Mode() {
		t.Errorf("/dev/stdout changed: %v, %v", fi2.Mode(), err)
	}
}
