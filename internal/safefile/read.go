package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// DefaultMax is the size limit of ReadOptions with no Max: 4 MiB, a
// thousand times a real spec.
const DefaultMax = 4 << 20

// ReadOptions says what ReadFile accepts.
type ReadOptions struct {
	// Root is the tree the file belongs to. Unless Explicit is set, a
	// path that resolves outside it (through a symbolic link or "..") is
	// refused. Empty for no tree: the path may then resolve anywhere.
	Root string
	// Max is the largest size read, in bytes; DefaultMax when not
	// positive.
	Max int64
	// Explicit marks a path the user gave on the command line: it may
	// resolve outside Root.
	Explicit bool
}

// Error is a file ReadFile refused: it names the file and says why,
// never quoting the file.
type Error struct {
	Path   string // the path as given
	Reason string // "not a regular file (a named pipe)"
}

func (e *Error) Error() string { return e.Path + ": " + e.Reason }

// ReadFile reads a regular file of at most opt.Max bytes. A directory,
// named pipe, device or socket is refused without being read (a named
// pipe is never waited on), and so is a larger file, after reading at
// most opt.Max+1 bytes of it. Problems with the file are *Error values,
// failures of the system *fs.PathError values; both name path as given.
func ReadFile(path string, opt ReadOptions) ([]byte, error) {
	limit := opt.Max
	if limit <= 0 {
		limit = DefaultMax
	}
	target := path
	if opt.Root != "" && !opt.Explicit {
		var err error
		if target, err = inside(path, opt.Root); err != nil {
			return nil, err
		}
	}
	// stat first, so a named pipe or device is never opened
	fi, err := os.Stat(target)
	if err != nil {
		return nil, renamed("open", path, err)
	}
	if err := regular(path, fi); err != nil {
		return nil, err
	}
	// non-blocking: a named pipe swapped in since the stat must not
	// hang the open; a regular file reads the same either way
	f, err := os.OpenFile(target, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, renamed("open", path, err)
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, renamed("open", path, err)
	}
	if err := regular(path, fi); err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, tooLarge(path, limit)
	}
	// the size may have changed since the stat: never trust it to stop
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, renamed("read", path, err)
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(path, limit)
	}
	return data, nil
}

// inside resolves every link of path and returns the result when it lies
// within root (also resolved), else an *Error. Nothing outside root is
// looked at: the path is checked as written first, then each link as it
// is met, so a path or a link that leads out gets the same error whether
// or not its target exists.
func inside(path, root string) (string, error) {
	realRoot, err := resolve(root)
	if err != nil {
		return "", renamed("open", root, err)
	}
	absRoot, err1 := filepath.Abs(root)
	abs, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return "", &Error{Path: path, Reason: "cannot be resolved"}
	}
	rel, ok := relIn(absRoot, abs)
	if !ok {
		return "", leadsOut(path, root)
	}
	target, out, err := walkIn(realRoot, rel)
	switch {
	case out:
		return "", leadsOut(path, root)
	case err != nil:
		return "", renamed("open", path, err)
	}
	return target, nil
}

// leadsOut is the one error of every path that leaves root: the target
// is not named, it is no business of whoever reads the report of a tree.
func leadsOut(path, root string) error {
	return &Error{Path: path, Reason: "leads out of " + root + " (only a file named on the command line may)"}
}

// relIn is p relative to dir, when p lies in it (both absolute and
// clean, links not followed).
func relIn(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// maxLinks bounds the links walkIn follows, as the system's ELOOP does.
const maxLinks = 40

// walkIn resolves rel under root (resolved) one name at a time, with
// Lstat and Readlink of names inside root only; out reports a link or
// ".." that leaves root, before anything outside it is looked at.
func walkIn(root, rel string) (target string, out bool, err error) {
	parts := strings.Split(rel, string(filepath.Separator))
	cur, links := root, 0
	for len(parts) > 0 {
		name := parts[0]
		parts = parts[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			if cur == root {
				return "", true, nil
			}
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, name)
		fi, err := os.Lstat(next)
		if err != nil {
			return "", false, err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if links++; links > maxLinks {
			return "", false, syscall.ELOOP
		}
		link, err := os.Readlink(next)
		if err != nil {
			return "", false, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(cur, link)
		}
		r, ok := relIn(root, filepath.Clean(link))
		if !ok {
			return "", true, nil
		}
		parts = append(strings.Split(r, string(filepath.Separator)), parts...)
		cur = root
	}
	return cur, false, nil
}

func resolve(p string) (string, error) {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	return filepath.Abs(r)
}

// regular refuses what is not a regular file, saying what it is.
func regular(path string, fi fs.FileInfo) error {
	m := fi.Mode()
	if m.IsRegular() {
		return nil
	}
	what := "not a regular file"
	switch {
	case m.IsDir():
		what = "a directory, not a file"
	case m&fs.ModeNamedPipe != 0:
		what = "not a regular file (a named pipe)"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		what = "not a regular file (a device)"
	case m&fs.ModeSocket != 0:
		what = "not a regular file (a socket)"
	}
	return &Error{Path: path, Reason: what}
}

func tooLarge(path string, limit int64) error {
	if limit%(1<<20) == 0 {
		return &Error{Path: path, Reason: fmt.Sprintf("larger than %d MiB", limit>>20)}
	}
	return &Error{Path: path, Reason: fmt.Sprintf("larger than %d bytes", limit)}
}

// renamed gives a system error the path as the caller gave it: the
// resolved one may name a place outside the tree.
func renamed(op, path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &fs.PathError{Op: op, Path: path, Err: err}
}

// Within reports whether path, every link followed, lies inside root: a
// file the command line names there is still the tree's, and so is
// whatever it names in turn.
func Within(root, path string) bool {
	_, err := inside(path, root)
	return err == nil
}
