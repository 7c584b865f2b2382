package gitdiff

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"path"
	"strconv"
	"strings"
)

// Reading files of a revision (--config-from-rev): what a commit holds is
// read out of git's object store, never checked out and never written to
// disk. Every command runs as the others do (Repo.command), on a commit
// named by its full hash (Repo.Commit), so that a branch moving meanwhile
// changes nothing. A file is read only when it is a regular blob of at
// most the caller's size, which git's tree listing tells before a byte
// of it is read: a symbolic link is a blob holding its target's name and
// is refused, as are submodules (commits) and directories.

// Entry is one entry of a commit's tree (git ls-tree).
type Entry struct {
	// Name is the entry's slash path from the top level.
	Name string
	// Mode is git's mode: 0o100644 or 0o100755 for a regular file,
	// 0o120000 for a symbolic link, 0o040000 for a directory, 0o160000
	// for a submodule.
	Mode uint32
	// Size is the blob's size in bytes; -1 for what is not a blob.
	Size int64
	// OID is the object's hash.
	OID string
}

// Regular reports whether e is a regular file (not a link, directory or
// submodule).
func (e Entry) Regular() bool { return e.Mode == 0o100644 || e.Mode == 0o100755 }

// Dir reports whether e is a directory.
func (e Entry) Dir() bool { return e.Mode == 0o040000 }

// kind names what e is, for errors.
func (e Entry) kind() string {
	switch {
	case e.Regular():
		return "a file"
	case e.Dir():
		return "a directory"
	case e.Mode == 0o120000:
		return "a symbolic link"
	case e.Mode == 0o160000:
		return "a submodule"
	}
	return fmt.Sprintf("an entry of mode %o", e.Mode)
}

// MaxDirEntries bounds the entries ReadDir lists.
const MaxDirEntries = 10_000

// maxEntryLen bounds one record of git ls-tree -z: mode, type, hash, size
// and a path (Linux allows 4096 bytes).
const maxEntryLen = 8 << 10

// Commit returns the full hash of the commit rev names; the error wraps
// ErrNoRevision when it names none.
func (r *Repo) Commit(ctx context.Context, rev string) (string, error) {
	if err := checkRev(rev); err != nil {
		return "", err
	}
	out, err := r.output(ctx, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 && len(bytes.TrimSpace(out)) == 0 {
		return "", fmt.Errorf("gitdiff: %s: %w", rev, ErrNoRevision)
	}
	if err != nil {
		return "", err
	}
	h := strings.TrimSpace(string(out))
	if !isHash(h) {
		return "", fmt.Errorf("gitdiff: git rev-parse %s: unexpected output %q", rev, out)
	}
	return h, nil
}

// isHash reports whether s is a full SHA-1 or SHA-256 hash in lower-case
// hex.
func isHash(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	return strings.Trim(s, "0123456789abcdef") == ""
}

// RelDir returns the slash path of dir relative to the top level ("" for
// the top level), with symbolic links resolved; a dir outside the work
// tree is an error.
func (r *Repo) RelDir(dir string) (string, error) { return r.relDir(dir) }

// treePath checks a slash path from the top level for the commands below:
// clean, relative, not above the top level.
func treePath(p string) (string, error) {
	c := path.Clean(p)
	if p == "" || c == "." {
		return "", nil
	}
	if path.IsAbs(c) || c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("gitdiff: %q is not a path inside the repository", p)
	}
	return c, nil
}

// notExist is the error of a path commit does not have: errors.Is finds
// fs.ErrNotExist in it.
func notExist(commit, p string) error {
	return &fs.PathError{Op: "read", Path: shortHash(commit) + ":" + p, Err: fs.ErrNotExist}
}

// shortHash is the first 7 digits of a hash, as git abbreviates it.
func shortHash(h string) string { return h[:min(len(h), 7)] }

// Stat returns the entry at p (a slash path from the top level) in
// commit, a full hash Commit returned; an error wrapping fs.ErrNotExist
// when commit has nothing there.
func (r *Repo) Stat(ctx context.Context, commit, p string) (Entry, error) {
	clean, err := treePath(p)
	if err != nil {
		return Entry{}, err
	}
	if clean == "" {
		return Entry{Name: "", Mode: 0o040000, Size: -1}, nil
	}
	es, err := r.lsTree(ctx, commit, clean, 2)
	if err != nil {
		return Entry{}, err
	}
	for _, e := range es {
		if e.Name == clean {
			return e, nil
		}
	}
	return Entry{}, notExist(commit, clean)
}

// ReadDir lists the entries of the directory dir (a slash path from the
// top level, "" for the top level itself) in commit, in git's order (by
// name); at most MaxDirEntries, more is an error. A dir commit does not
// have is an error wrapping fs.ErrNotExist.
func (r *Repo) ReadDir(ctx context.Context, commit, dir string) ([]Entry, error) {
	clean, err := treePath(dir)
	if err != nil {
		return nil, err
	}
	if clean != "" {
		e, err := r.Stat(ctx, commit, clean)
		if err != nil {
			return nil, err
		}
		if !e.Dir() {
			return nil, fmt.Errorf("gitdiff: %s:%s is %s, not a directory", shortHash(commit), clean, e.kind())
		}
		clean += "/"
	}
	es, err := r.lsTree(ctx, commit, clean, MaxDirEntries)
	if err != nil {
		return nil, err
	}
	return es, nil
}

// ReadFile returns the content of the regular file p (a slash path from
// the top level) in commit, which must be at most maxBytes long. It is
// read from git's object store, never from the work tree. A path commit
// does not have is an error wrapping fs.ErrNotExist; a symbolic link, a
// submodule, a directory or a larger file is an error saying which,
// before any of its content is read.
func (r *Repo) ReadFile(ctx context.Context, commit, p string, maxBytes int64) ([]byte, error) {
	e, err := r.Stat(ctx, commit, p)
	if err != nil {
		return nil, err
	}
	where := shortHash(commit) + ":" + e.Name
	if !e.Regular() {
		return nil, &FileError{Path: where, Reason: e.kind() + ", not a regular file"}
	}
	if e.Size > maxBytes {
		return nil, &FileError{Path: where, Reason: fmt.Sprintf("%d bytes, over the limit of %d", e.Size, maxBytes)}
	}
	var data []byte
	err = r.stream(ctx, func(rd io.Reader) error {
		b, err := io.ReadAll(io.LimitReader(rd, maxBytes+1))
		if err != nil {
			return fmt.Errorf("gitdiff: reading %s: %w", where, err)
		}
		if int64(len(b)) > maxBytes {
			return &FileError{Path: where, Reason: fmt.Sprintf("over the limit of %d bytes", maxBytes)}
		}
		data = b
		return nil
	}, "cat-file", "blob", e.OID)
	if err != nil {
		return nil, err
	}
	return data, nil
}

// FileError is a file of a revision ReadFile refuses: Path is
// "COMMIT:PATH" (the commit's first 7 digits), Reason what it is.
type FileError struct {
	Path, Reason string
}

func (e *FileError) Error() string { return e.Path + ": " + e.Reason }

// lsTree lists the entries git ls-tree gives for the path spec p (a path,
// or a directory with a trailing slash for its entries) in commit, at
// most max of them.
func (r *Repo) lsTree(ctx context.Context, commit, p string, max int) ([]Entry, error) {
	if !isHash(commit) {
		return nil, fmt.Errorf("gitdiff: %q is not a commit hash (Repo.Commit gives one)", commit)
	}
	args := []string{"ls-tree", "-z", "-l", "--full-tree", commit, "--"}
	if p != "" {
		args = append(args, p)
	}
	var es []Entry
	err := r.stream(ctx, func(rd io.Reader) error {
		br := bufio.NewReaderSize(rd, 4<<10)
		for {
			rec, err := readRecord(br)
			if len(rec) > 0 {
				if len(es) == max {
					return fmt.Errorf("gitdiff: %s:%s holds more than %d entries", shortHash(commit), strings.TrimSuffix(p, "/"), max)
				}
				e, perr := parseEntry(rec)
				if perr != nil {
					return perr
				}
				es = append(es, e)
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
		}
	}, args...)
	if err != nil {
		return nil, err
	}
	return es, nil
}

// readRecord reads one NUL-terminated record of at most maxEntryLen
// bytes.
func readRecord(br *bufio.Reader) ([]byte, error) {
	var rec []byte
	for {
		chunk, err := br.ReadSlice(0)
		rec = append(rec, chunk...)
		if len(rec) > maxEntryLen {
			return nil, fmt.Errorf("gitdiff: git ls-tree: an entry longer than %d bytes", maxEntryLen)
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			if len(rec) > 0 {
				return rec, nil
			}
			return nil, io.EOF
		case err != nil:
			return nil, fmt.Errorf("gitdiff: reading git ls-tree: %w", err)
		}
		return rec[:len(rec)-1], nil
	}
}

// parseEntry reads "MODE SP TYPE SP OID SP+ SIZE TAB PATH".
func parseEntry(rec []byte) (Entry, error) {
	meta, name, ok := strings.Cut(string(rec), "\t")
	f := strings.Fields(meta)
	if !ok || len(f) != 4 || name == "" {
		return Entry{}, fmt.Errorf("gitdiff: git ls-tree: unexpected entry %q", rec)
	}
	mode, err := strconv.ParseUint(f[0], 8, 32)
	if err != nil {
		return Entry{}, fmt.Errorf("gitdiff: git ls-tree: unexpected mode %q", f[0])
	}
	size := int64(-1)
	if f[3] != "-" {
		if size, err = strconv.ParseInt(f[3], 10, 64); err != nil || size < 0 {
			return Entry{}, fmt.Errorf("gitdiff: git ls-tree: unexpected size %q", f[3])
		}
	}
	if !isHash(f[2]) {
		return Entry{}, fmt.Errorf("gitdiff: git ls-tree: unexpected object %q", f[2])
	}
	return Entry{Name: name, Mode: uint32(mode), Size: size, OID: f[2]}, nil
}
