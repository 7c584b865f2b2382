//go:build unix

package walk

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestFifoRoot(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := Walk(context.Background(), fifo, Options{}); err == nil || !strings.Contains(err.Error(), "not a regular file or directory") {
		t.Errorf("fifo root: err = %v", err)
	}
}

// Opening a named pipe blocks: the walk must not hand one to the scanner.
func TestSpecialFilesExcluded(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{"a.go": ""})
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	res := mustWalk(t, root, Options{})
	assertRels(t, res.Files, "a.go")
	if e, ok := findExcluded(res, "pipe"); !ok || e.Reason != ReasonSpecial {
		t.Errorf("pipe: got %+v %v", e, ok)
	}
}

// A commondir that is a FIFO is not opened: reading it would wait for a
// writer that never comes.
func TestCommondirFifo(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{"sub/.git": "gitdir: g\n", "sub/g/HEAD": "", "sub/a.go": ""})
	if err := syscall.Mkfifo(filepath.Join(root, "sub/g/commondir"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	res := mustWalk(t, root, Options{})
	assertRels(t, res.Files, "sub/a.go", "sub/g/HEAD")
}
