// Package semantic holds the built-in validators of the pipeline's
// semantic stage (package msgcheck/pipeline): hallucinated file paths,
// unsafe shell commands in plans, and contradictory claims.
//
// They read only the artifact and a Snapshot of the repository's paths,
// taken once: no exec, no network, no writes, and no file system access
// while validating. Symbolic links are resolved inside the snapshot,
// lexically, and never followed out of the root.
package semantic

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// Snapshot is a frozen view of a repository's paths. It is immutable
// after FromFS and safe for concurrent use.
type Snapshot struct {
	root    string              // absolute root, to make absolute claims relative; may be ""
	entries map[string]bool     // path -> is a directory
	links   map[string]string   // symlink -> its target, inside the root
	outside map[string]bool     // symlinks that lead out of the root (or cannot be read)
	bases   map[string]struct{} // base names of the files
}

// SnapshotOptions configure FromFS.
type SnapshotOptions struct {
	// Root is the absolute directory fsys reads, if it is one: absolute
	// paths under it are judged as relative ones; other absolute paths are
	// outside the repository.
	Root string
	// MaxEntries bounds the paths recorded (default 1,000,000).
	MaxEntries int
	// Skip names directories not recorded nor descended (default: .git).
	Skip []string
}

// ErrTooManyEntries is returned by FromFS for a repository larger than
// SnapshotOptions.MaxEntries.
var ErrTooManyEntries = errors.New("repository has too many entries for a snapshot")

// FromFS records every path of fsys once. Symbolic links are not followed:
// a link's target is read (when fsys implements fs.ReadLinkFS) and kept
// only when it stays inside the root.
func FromFS(fsys fs.FS, opts SnapshotOptions) (*Snapshot, error) {
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = 1_000_000
	}
	if opts.Skip == nil {
		opts.Skip = []string{".git"}
	}
	s := &Snapshot{root: strings.TrimSuffix(opts.Root, "/"), entries: map[string]bool{}, links: map[string]string{},
		outside: map[string]bool{}, bases: map[string]struct{}{}}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			return nil // unreadable: recorded as absent
		}
		if p == "." {
			return nil
		}
		if len(s.entries)+len(s.links)+len(s.outside) >= opts.MaxEntries {
			return fmt.Errorf("%w (more than %d)", ErrTooManyEntries, opts.MaxEntries)
		}
		if d.IsDir() {
			for _, skip := range opts.Skip {
				if d.Name() == skip {
					return fs.SkipDir
				}
			}
		}
		if d.Type()&fs.ModeSymlink != 0 {
			s.link(fsys, p)
			return nil
		}
		s.entries[p] = d.IsDir()
		if !d.IsDir() {
			s.bases[d.Name()] = struct{}{}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// link records the symlink at p, lexically resolved.
func (s *Snapshot) link(fsys fs.FS, p string) {
	target, err := fs.ReadLink(fsys, p)
	if err != nil {
		s.outside[p] = true // cannot tell where it leads: never followed
		return
	}
	if path.IsAbs(target) {
		rel, ok := s.relative(target)
		if !ok {
			s.outside[p] = true
			return
		}
		s.links[p] = rel
		return
	}
	t := path.Join(path.Dir(p), target)
	if t == ".." || strings.HasPrefix(t, "../") {
		s.outside[p] = true
		return
	}
	s.links[p] = t
}

// relative makes an absolute path relative to the root, if it is under it.
func (s *Snapshot) relative(abs string) (string, bool) {
	abs = path.Clean(abs)
	if s.root == "" {
		return "", false
	}
	if abs == s.root {
		return ".", true
	}
	rest, ok := strings.CutPrefix(abs, s.root+"/")
	return rest, ok
}

// Status is what a Snapshot knows of a path.
type Status uint8

// The statuses of a path.
const (
	Missing Status = iota // not in the repository
	Exists                // a file or directory of the repository
	Outside               // outside the root (absolute elsewhere, ../, or through a link out)
)

// maxLinkHops bounds the symlinks one lookup resolves (a loop ends there).
const maxLinkHops = 40

// Lookup tells whether a slash-separated path, relative to the root (or
// absolute under it), exists. It reads only the snapshot.
func (s *Snapshot) Lookup(p string) Status {
	p = strings.TrimPrefix(p, "./")
	if path.IsAbs(p) {
		rel, ok := s.relative(p)
		if !ok {
			return Outside
		}
		p = rel
	}
	if !isClean(p) {
		p = path.Clean(p)
	}
	for hop := 0; hop <= maxLinkHops; hop++ {
		if p == "." {
			return Exists
		}
		if p == ".." || strings.HasPrefix(p, "../") {
			return Outside
		}
		if _, ok := s.entries[p]; ok {
			return Exists
		}
		next, resolved := "", false
		for i := 0; i <= len(p); i++ {
			if i < len(p) && p[i] != '/' {
				continue
			}
			prefix := p[:i]
			if s.outside[prefix] {
				return Outside
			}
			if t, ok := s.links[prefix]; ok {
				next, resolved = path.Join(t, p[i:]), true
				break
			}
			if _, ok := s.entries[prefix]; !ok {
				return Missing // a missing directory on the way
			}
		}
		if !resolved {
			return Missing
		}
		p = next
	}
	return Missing // a loop of links
}

// HasBase reports whether some file of the repository has the base name.
func (s *Snapshot) HasBase(name string) bool {
	_, ok := s.bases[name]
	return ok
}

// Len is the number of paths recorded.
func (s *Snapshot) Len() int { return len(s.entries) + len(s.links) + len(s.outside) }

// isClean reports whether path.Clean would return the relative path p
// unchanged, as it does for nearly every path a message claims; Clean
// itself costs more than the lookup.
func isClean(p string) bool {
	if p == "" || p[0] == '/' || p[len(p)-1] == '/' {
		return false
	}
	for start := 0; start <= len(p); {
		end := strings.IndexByte(p[start:], '/')
		if end < 0 {
			end = len(p)
		} else {
			end += start
		}
		switch p[start:end] {
		case "", ".", "..":
			return false
		}
		start = end + 1
	}
	return true
}
