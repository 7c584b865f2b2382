package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrLinkOut is the error of a write whose path goes through a directory
// that is a symbolic link inside the roots leading out of them.
var ErrLinkOut = errors.New("a directory on the path is a symbolic link that leaves the tree")

// File is a file being written by Create. Close puts it in place; Abort
// drops it.
type File struct {
	name string
	f    *os.File
	tmp  string // the temporary file Close renames to name; "" when written in place
	std  bool   // os.Stdout, which Close leaves open
	done bool
}

// Create starts writing the file name with permission bits perm (set
// with chmod, so the umask does not narrow them), refusing with
// ErrLinkOut a path through a symbolic link to a directory that lies
// inside one of roots and leads out of all of them (see the package doc).
// "-" is stdout. An existing file that is not regular, or a link to one
// outside the roots or under /dev (/dev/stdout), is opened and truncated
// in place.
// Anything else is written to a temporary file in the same directory,
// renamed to name by Close: a link at name is replaced, not followed.
func Create(name string, perm os.FileMode, roots ...string) (*File, error) {
	if name == "-" {
		return &File{name: name, f: os.Stdout, std: true}, nil
	}
	dir := writeDir(name)
	inRoot, err := checkWriteDirs(dir, roots)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if writeInPlace(name, inRoot) {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return nil, err
		}
		return &File{name: name, f: f}, nil
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: writeErr(err)}
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, &fs.PathError{Op: "open", Path: name, Err: writeErr(err)}
	}
	return &File{name: name, f: f, tmp: f.Name()}, nil
}

// WriteFile writes data to the file name as Create does.
func WriteFile(name string, data []byte, perm os.FileMode, roots ...string) error {
	f, err := Create(name, perm, roots...)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.Close()
}

// Name is the name the file was created with.
func (f *File) Name() string { return f.name }

// Write writes p to the file.
func (f *File) Write(p []byte) (int, error) {
	if f.done {
		return 0, &fs.PathError{Op: "write", Path: f.name, Err: fs.ErrClosed}
	}
	n, err := f.f.Write(p)
	if err != nil {
		err = &fs.PathError{Op: "write", Path: f.name, Err: writeErr(err)}
	}
	return n, err
}

// Close finishes the file: it closes it and renames it into place. A file
// that cannot be closed or renamed is removed, and the old file at name
// (if any) is left as it was. Close after Close or Abort is an error.
func (f *File) Close() error {
	if f.done {
		return &fs.PathError{Op: "close", Path: f.name, Err: fs.ErrClosed}
	}
	f.done = true
	if f.std {
		return nil
	}
	err := f.f.Close()
	if f.tmp == "" {
		return err
	}
	if err == nil {
		err = os.Rename(f.tmp, f.name)
	}
	if err != nil {
		os.Remove(f.tmp)
		return &fs.PathError{Op: "close", Path: f.name, Err: writeErr(err)}
	}
	return nil
}

// Abort drops the file: the temporary file is removed and the old file
// at name (if any) stays as it was; a file written in place is closed as
// it is. Abort after Close or Abort does nothing, so that it can be
// deferred.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	if f.std {
		return
	}
	f.f.Close()
	if f.tmp != "" {
		os.Remove(f.tmp)
	}
}

// writeInPlace reports whether name is an existing file that is not
// regular (a device, a FIFO), to be opened rather than replaced. A link
// counts as its target only outside the roots (inRoot: name's directory
// is inside one), or under /dev (/dev/stdout is a link), which a tree
// cannot hold and a command line names on purpose; a link in the tree is
// always replaced, whatever it points to (a disk, say).
func writeInPlace(name string, inRoot bool) bool {
	fi, err := os.Lstat(name)
	if err != nil || fi.Mode().IsRegular() {
		return false
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return !fi.IsDir()
	}
	if inRoot && !writeDev(name) {
		return false
	}
	fi, err = os.Stat(name)
	return err == nil && !fi.Mode().IsRegular() && !fi.IsDir()
}

// writeDev reports whether name, made absolute, is in /dev: where a
// container whose working directory is / (a root holding everything)
// still finds /dev/stdout.
func writeDev(name string) bool {
	abs, err := filepath.Abs(name)
	return err == nil && filepath.Separator == '/' && strings.HasPrefix(abs, "/dev/")
}

// writeDir is the directory part of name as written, not cleaned: with
// a link in it, "link/.." is not the directory that holds link.
func writeDir(name string) string {
	i := len(name) - 1
	for i >= len(filepath.VolumeName(name)) && !os.IsPathSeparator(name[i]) {
		i--
	}
	switch {
	case i < len(filepath.VolumeName(name)):
		return filepath.VolumeName(name) + "."
	case i == len(filepath.VolumeName(name)):
		return name[:i+1] // the file system root
	}
	return name[:i]
}

// checkWriteDirs follows the directory dir from the file system's root
// (or the working directory) one component at a time, as the system
// will, and refuses a symbolic link that lies inside one of roots and
// resolves outside all of them. It also reports whether dir resolves to
// a place inside a root. A component that does not exist ends the walk:
// the write fails there anyway.
func checkWriteDirs(dir string, roots []string) (inRoot bool, err error) {
	if len(roots) == 0 {
		return false, nil
	}
	var real []string // the roots, resolved
	for _, r := range roots {
		if r == "" || r == "-" {
			continue
		}
		// Abs first: the working directory may be $PWD, links and all
		if rr, err := filepath.Abs(r); err == nil {
			if rr, err = filepath.EvalSymlinks(rr); err == nil {
				real = append(real, rr)
			}
		}
	}
	if len(real) == 0 {
		return false, nil
	}
	vol := filepath.VolumeName(dir)
	var cur string
	if filepath.IsAbs(dir) {
		cur = vol + string(filepath.Separator)
	} else {
		wd, err := os.Getwd()
		if err != nil {
			return false, err
		}
		if cur, err = filepath.EvalSymlinks(wd); err != nil {
			return false, err
		}
	}
	for _, c := range strings.FieldsFunc(dir[len(vol):], writeSep) {
		switch c {
		case ".":
			continue
		case "..":
			cur = filepath.Dir(cur) // cur has no links left, so .. is lexical
			continue
		}
		p := filepath.Join(cur, c)
		fi, err := os.Lstat(p)
		if err != nil {
			return false, nil
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = p
			continue
		}
		t, err := filepath.EvalSymlinks(p) // absolute, as p is
		if writeInside(cur, real) && (err != nil || !writeInside(t, real)) {
			return false, fmt.Errorf("%s: %w", p, ErrLinkOut)
		}
		if err != nil {
			return false, nil
		}
		cur = t
	}
	return writeInside(cur, real), nil
}

// writeSep reports a path separator of the system (or a slash).
func writeSep(r rune) bool { return r == '/' || r == filepath.Separator }

// writeInside reports whether the clean absolute path p is one of dirs or
// lies under one of them.
func writeInside(p string, dirs []string) bool {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, d) && (strings.HasSuffix(d, string(filepath.Separator)) || os.IsPathSeparator(p[len(d)])) {
			return true
		}
	}
	return false
}

// writeErr is the error inside a *fs.PathError, whose path would be the
// temporary file's, not the one the caller named.
func writeErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
