package engine

import (
	"context"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/gitdiff"
	"github.com/protoscan-dev/protoscan/internal/safefile"
	"github.com/protoscan-dev/protoscan/internal/scan"
)

// How a scan names files (a contract, DESIGN.md): text, JSON and Markdown
// as the user reaches them, relative to the working directory (absolute
// under an absolute PATH), so that editors and problem matchers open
// them; SARIF, baselines and fingerprints relative to the repository
// root, so that code scanning annotates the right file and a baseline
// holds wherever the scan was started.

// scanRoot is one PATH of a scan and the names of its files.
type scanRoot struct {
	path string // as given
	// display is the prefix of the findings' paths: the directory the
	// PATH stands for (a file's directory), as given, cleaned and
	// slash-separated; "" for the working directory.
	display string
	// key is that directory relative to the repository root ("" for
	// the root itself, "../x" outside it), the prefix of the paths
	// fingerprints, baselines and SARIF hold.
	key string
	// scope is what the PATH names, relative to the repository root:
	// key, or the file under it
	scope string
}

// wholeTree tells whether the i-th PATH is a whole tree, whose files
// alone decide whether it shows protocol evidence: any PATH when there is
// no repository, else the repository root or a directory outside it.
func (m *PathMap) wholeTree(i int) bool {
	return m.repo == nil || m.roots[i].wholeTree()
}

// wholeTree tells whether the PATH is the repository root or a
// directory outside the repository.
func (r scanRoot) wholeTree() bool {
	if r.scope == "" {
		return true
	}
	return r.scope == r.key && (r.key == ".." || strings.HasPrefix(r.key, "../") || path.IsAbs(r.key))
}

// PathMap names the files of the PATHs of one scan.
type PathMap struct {
	roots []scanRoot
	// base is the repository root (symbolic links resolved), else the
	// working directory.
	base string
	// repo is the repository of the working directory; nil without one
	repo *gitdiff.Repo
}

// NewPathMap finds the repository root with gitdiff.FindRepo, which asks
// git from the working directory only (never from a scanned tree), and
// names each PATH's files; with no repository (or no git) the working
// directory stands for its root.
func NewPathMap(ctx context.Context, paths []string) *PathMap {
	m := &PathMap{}
	if repo, err := gitdiff.FindRepo(ctx); err == nil {
		m.base, m.repo = realPath(repo.Root), repo
	} else if wd, err := os.Getwd(); err == nil {
		m.base = realPath(wd)
	}
	for _, p := range paths {
		dir := dirOf(p)
		display := slashClean(dir)
		if display == "." {
			display = ""
		}
		r := scanRoot{path: p, display: display, key: m.rel(dir)}
		r.scope = r.key
		if dir != p {
			r.scope = path.Join(r.key, filepath.Base(p))
		}
		m.roots = append(m.roots, r)
	}
	return m
}

// tracked is Options.Tracked of the walk of dir: the files the
// repository tracks there, which no .gitignore hides; nil outside a
// repository or with git unable to list them.
func (m *PathMap) tracked(ctx context.Context, dir string) func(string, bool) bool {
	if m.repo == nil {
		return nil
	}
	t, err := m.repo.Tracked(ctx, dir)
	if err != nil {
		return nil
	}
	return t.Has
}

// realPath is p made absolute, with its symbolic links resolved when it
// exists.
func realPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// rel is the slash path of the directory dir relative to the base ("" for
// the base itself).
func (m *PathMap) rel(dir string) string {
	if m.base == "" {
		return slashClean(dir)
	}
	r, err := filepath.Rel(m.base, realPath(dir))
	if err != nil {
		return filepath.ToSlash(realPath(dir))
	}
	if r = filepath.ToSlash(r); r == "." {
		return ""
	}
	return r
}

// key is the repository-relative path of a file the findings name p: by
// the PATH whose files are named under the longest prefix of p, else
// from the file system.
func (m *PathMap) key(p string) string {
	if r := m.rootOf(p); r != nil {
		return scan.KeyPath(p, r.display, r.key)
	}
	return path.Join(m.rel(filepath.Dir(filepath.FromSlash(p))), path.Base(p))
}

// rootOf is the PATH whose files are named under the longest prefix of
// p, the path of a file as findings name it; nil for none.
func (m *PathMap) rootOf(p string) *scanRoot {
	var best *scanRoot
	for i, r := range m.roots {
		if under(p, r.display) && (best == nil || len(r.display) > len(best.display)) {
			best = &m.roots[i]
		}
	}
	return best
}

// Sources reads the files of keyed, which are fs named relative to the
// repository root (see keyed), for SARIF's UTF-16 columns: a file is read
// at the path fs name it by, as the scan read it, a regular file of at
// most maxSize bytes (no limit when negative), and only inside the tree
// of its PATH (package safefile); a file of no PATH is the user's (a
// --spec).
func (m *PathMap) Sources(fs, keyed []finding.Finding, maxSize int64) func(string) ([]byte, error) {
	files := map[string]string{} // keyed path -> path as fs name it
	for i, f := range fs {
		k := keyed[i]
		files[k.Path] = f.Path
		for j := range f.Related {
			files[k.Related[j].Path] = f.Related[j].Path
		}
		if f.Fix != nil {
			for j := range f.Fix.Edits {
				files[k.Fix.Edits[j].Path] = f.Fix.Edits[j].Path
			}
		}
	}
	if maxSize < 0 {
		maxSize = 1 << 62
	}
	return func(key string) ([]byte, error) {
		p, ok := files[key]
		if !ok {
			return nil, os.ErrNotExist
		}
		opt := safefile.ReadOptions{Max: maxSize, Explicit: true}
		if r := m.rootOf(p); r != nil {
			opt.Root, opt.Explicit = dirOf(r.path), false
		}
		return safefile.ReadFile(filepath.FromSlash(p), opt)
	}
}

// under tells whether the slash path p is named under prefix ("" holds
// every relative path).
func under(p, prefix string) bool {
	if prefix == "" {
		return !path.IsAbs(p) && p != ".." && !strings.HasPrefix(p, "../")
	}
	return p == prefix || strings.HasPrefix(p, strings.TrimSuffix(prefix, "/")+"/")
}

// SrcRoot is the file URI of the repository root, ending in "/".
func (m *PathMap) SrcRoot() string {
	if m.base == "" {
		return ""
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(m.base)}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path // a Windows drive
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u.String()
}

// Keyed returns copies of fs that name files relative to the repository
// root: their paths, related places and fix edits.
func (m *PathMap) Keyed(fs []finding.Finding) []finding.Finding {
	out := slices.Clone(fs)
	for i := range out {
		f := &out[i]
		f.Path = m.key(f.Path)
		if len(f.Related) > 0 {
			f.Related = slices.Clone(f.Related)
			for j := range f.Related {
				f.Related[j].Path = m.key(f.Related[j].Path)
			}
		}
		if f.Fix != nil {
			fx := *f.Fix
			fx.Edits = slices.Clone(fx.Edits)
			for j := range fx.Edits {
				fx.Edits[j].Path = m.key(fx.Edits[j].Path)
			}
			f.Fix = &fx
		}
	}
	return out
}

// nestedPaths leaves out of paths those a directory among them already
// holds (the same directory or file named twice, or under another), so
// that no file is scanned, and no finding reported, twice.
func nestedPaths(paths []string) []string {
	type entry struct {
		real string
		dir  bool
	}
	es := make([]entry, len(paths))
	missing := make([]bool, len(paths))
	for i, p := range paths {
		fi, err := os.Stat(p)
		es[i] = entry{realPath(p), err == nil && fi.IsDir()}
		_, err = os.Lstat(p)
		missing[i] = err != nil
	}
	var out []string
	for i, p := range paths {
		// a PATH that is not there is kept, to be the error it is, not
		// taken for a part of another PATH that holds its name
		held := false
		if missing[i] {
			out = append(out, p)
			continue
		}
		for j, e := range es {
			if j == i || !e.dir {
				continue
			}
			same := es[i].real == e.real
			inside := strings.HasPrefix(es[i].real, strings.TrimSuffix(e.real, string(filepath.Separator))+string(filepath.Separator))
			if same && j < i || inside {
				held = true
				break
			}
		}
		if !held {
			out = append(out, p)
		}
	}
	return out
}

// WriteRoots is the tree a command's writes must not leave through a
// link: every tree it reads (the scanned PATHs, a file PATH standing for
// its directory; the --root of audit and validate) and the working
// directory, which is the checkout in a CI job and where relative report
// paths point. What the command line names outside them (--format
// sarif=/tmp/r.sarif, ../out.json) is the user's and written as given.
func WriteRoots(paths ...string) []string {
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

// slashClean is a path as findings prefix it.
func slashClean(p string) string { return path.Clean(filepath.ToSlash(p)) }
