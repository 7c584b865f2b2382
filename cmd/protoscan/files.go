package main

import (
	"io"

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
