package main

import (
	"io"
	"os"
	"path/filepath"

	"github.com/protoscan-dev/protoscan/internal/safefile"
)

// outFile is a file a command writes (a report, a baseline, verdicts,
// events): Close puts it in place, Abort drops it.
type outFile interface {
	io.Writer
	Close() error
	Abort()
}

// stdoutFile is "-": the command's stdout, which Close leaves open.
type stdoutFile struct{ io.Writer }

func (stdoutFile) Close() error { return nil }
func (stdoutFile) Abort()       {}

// create starts writing the file path, mode 0644, or stdout for "-". It
// is written through package safefile: a symbolic link at path is
// replaced, not followed, and a directory of path that is a link in one
// of roots leading out of them is refused.
func (e *env) create(path string, roots []string) (outFile, error) {
	if path == "-" {
		return stdoutFile{e.stdout}, nil
	}
	f, err := safefile.Create(path, 0o644, roots...)
	if err != nil {
		return nil, err // not a nil *safefile.File in a non-nil interface
	}
	return f, nil
}

// writeRoots is the tree a command's writes must not leave through a
// link: every tree it reads (the scanned PATHs, a file PATH standing for
// its directory; the --root of audit and validate) and the working
// directory, which is the checkout in a CI job and where relative report
// paths point. What the command line names outside them (--format
// sarif=/tmp/r.sarif, ../out.json) is the user's and written as given.
func writeRoots(paths ...string) []string {
	return append([]string{"."}, treeRoots(paths...)...)
}

// treeRoots is the trees the command reads: each of paths but "" and "-"
// (stdin), a file standing for its directory.
func treeRoots(paths ...string) []string {
	var roots []string
	for _, p := range paths {
		if p == "" || p == "-" {
			continue
		}
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			p = filepath.Dir(p)
		}
		roots = append(roots, p)
	}
	return roots
}
