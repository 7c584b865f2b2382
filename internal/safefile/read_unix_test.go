//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within fails the test when f has not returned after 5 s: a read that
// blocks must not hang the suite. A watchdog: each test here takes at
// most 10 ms under -race.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("ReadFile blocked")
	}
}

func TestReadFileFIFO(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "spec.yaml")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	within(t, func() {
		_, err := ReadFile(p, ReadOptions{Root: root})
		if err == nil || err.Error() != p+": not a regular file (a named pipe)" {
			t.Errorf("err = %v", err)
		}
	})
	// nor through a link, named on the command line
	link := filepath.Join(root, "link.yaml")
	symlink(t, p, link)
	within(t, func() {
		if _, err := ReadFile(link, ReadOptions{Explicit: true}); err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestReadFileDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	root := t.TempDir()
	link := filepath.Join(root, "spec.yaml")
	symlink(t, "/dev/zero", link)
	within(t, func() {
		// refused as out of the root
		if _, err := ReadFile(link, ReadOptions{Root: root}); err == nil || !strings.HasPrefix(err.Error(), link+": ") {
			t.Errorf("in a tree: err = %v", err)
		}
		// and, named on the command line, as a device
		_, err := ReadFile(link, ReadOptions{Root: root, Explicit: true})
		if err == nil || err.Error() != link+": not a regular file (a device)" {
			t.Errorf("explicit: err = %v", err)
		}
	})
}
