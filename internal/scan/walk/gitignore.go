package walk

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// gitignore semantics follow git's dir.c and gitignore(5):
//
//   - one pattern per line; blank lines and lines starting with '#' are
//     skipped; "\#" and "\!" escape a leading '#' or '!';
//   - trailing spaces are dropped unless escaped with a backslash;
//   - a leading '!' negates; the last matching pattern decides, and deeper
//     .gitignore files take precedence over shallower ones, which take
//     precedence over .git/info/exclude;
//   - a trailing '/' matches directories only (a symlink is not one);
//   - a pattern without a '/' (other than a trailing one) matches the base
//     name at any depth below its .gitignore; any other pattern is matched
//     against the path relative to the .gitignore's directory, with a leading
//     '/' merely anchoring it;
//   - an ignored directory is never entered, so nothing under it can be
//     re-included: the walk, not the matcher, enforces that.
//
// core.excludesFile (the user's global ignore file) is deliberately not read:
// protoscan's output must not depend on the machine it runs on.

// maxIgnoreFileSize mirrors git, which refuses ignore files over 100 MiB.
const maxIgnoreFileSize = 100 << 20

// ignoreRule is one parsed pattern line.
type ignoreRule struct {
	pattern  string // wildmatch pattern: no '!', no trailing '/', no leading '/'
	negate   bool
	dirOnly  bool
	basename bool // no '/' in the pattern: match the base name at any depth
	literal  bool // no glob characters: plain string comparison
	endsWith bool // basename pattern "*literal": suffix comparison
	line     int
	text     string // the line as written, for --verbose explanations
}

// ignoreFile is the parsed content of one .gitignore or info/exclude file.
type ignoreFile struct {
	source string // slash path shown to users, relative to the scan root
	// dir is the slash path of the file's base directory relative to the
	// scan root ("" for the root itself). For files above the root (an
	// enclosing work tree), dir is "" and above is the root's path relative
	// to the file's base directory.
	dir   string
	above string
	rules []ignoreRule
}

// parseIgnore parses gitignore content.
func parseIgnore(data []byte) []ignoreRule {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // git skips a UTF-8 BOM
	var rules []ignoreRule
	for n := 1; len(data) > 0; n++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if i := bytes.IndexByte(line, 0); i >= 0 {
			line = line[:i] // C strings end at NUL
		}
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if r, ok := parseIgnoreLine(trimTrailingSpaces(string(line))); ok {
			r.line = n
			rules = append(rules, r)
		}
	}
	return rules
}

// trimTrailingSpaces drops unescaped trailing spaces (not tabs), as git does.
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

func parseIgnoreLine(text string) (ignoreRule, bool) {
	r := ignoreRule{text: text}
	p := text
	if strings.HasPrefix(p, "!") {
		r.negate = true
		p = p[1:]
	}
	if strings.HasSuffix(p, "/") {
		r.dirOnly = true
		p = p[:len(p)-1]
	}
	if !strings.Contains(p, "/") {
		r.basename = true
	} else {
		p = strings.TrimPrefix(p, "/")
	}
	if p == "" {
		return r, false // matches no path
	}
	r.pattern = p
	r.literal = !strings.ContainsAny(p, `*?[\`)
	r.endsWith = r.basename && p[0] == '*' && !strings.ContainsAny(p[1:], `*?[\`)
	return r, true
}

// match reports whether the rule matches. path is relative to the ignore
// file's directory; name is its last element.
func (r *ignoreRule) match(path, name string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	if r.basename {
		switch {
		case r.literal:
			return name == r.pattern
		case r.endsWith:
			return strings.HasSuffix(name, r.pattern[1:])
		}
		return wildmatch(r.pattern, name)
	}
	if r.literal {
		return path == r.pattern
	}
	return wildmatch(r.pattern, path)
}

// relPath converts a path relative to the scan root into one relative to the
// ignore file's directory. The walk only consults files of ancestor
// directories, so the prefix is always there.
func (f *ignoreFile) relPath(rel string) string {
	switch {
	case f.above != "":
		return f.above + "/" + rel
	case f.dir == "":
		return rel
	}
	return rel[len(f.dir)+1:]
}

// ignoreStack holds the ignore files that apply to the directory being
// walked, shallowest (and info/exclude) first.
type ignoreStack []*ignoreFile

// match returns the deciding rule and its file, or nil when no rule matches.
func (s ignoreStack) match(rel, name string, isDir bool) (*ignoreFile, *ignoreRule) {
	for i := len(s) - 1; i >= 0; i-- {
		f := s[i]
		if len(f.rules) == 0 {
			continue
		}
		p := f.relPath(rel)
		for j := len(f.rules) - 1; j >= 0; j-- {
			if r := &f.rules[j]; r.match(p, name, isDir) {
				return f, r
			}
		}
	}
	return nil, nil
}

// readIgnoreFile reads an ignore file. A missing file, or one that is not a
// regular file (git opens them with O_NOFOLLOW), yields no rules and no
// error.
func readIgnoreFile(fsys fileSystem, path string) ([]ignoreRule, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return nil, nil
		}
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil
	}
	if fi.Size() > maxIgnoreFileSize {
		return nil, errors.New("file is over git's 100 MiB limit for ignore files")
	}
	f, err := fsys.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxIgnoreFileSize))
	if err != nil {
		return nil, err
	}
	return parseIgnore(data), nil
}

// maxGitPointerSize bounds what is read of a ".git" file or a "commondir"
// file: one path, where git writes them.
const maxGitPointerSize = 4096

// gitDir returns the git directory of the work tree whose top is dir, given
// its ".git" entry, or "" if there is none. A ".git" file ("gitdir: path")
// is how submodules and linked worktrees point at their repository.
//
// The tree is untrusted: a ".git" file is read only when it is a regular
// file of at most maxGitPointerSize bytes, and what it points at only when
// that stays within boundary (the scan root, or the top of the enclosing
// work tree), so that the walk reads nothing it was not given. Nothing
// here runs git.
func gitDir(dir, boundary string) string {
	p := filepath.Join(dir, ".git")
	fi, err := os.Lstat(p)
	if err != nil {
		return ""
	}
	if fi.IsDir() {
		return p
	}
	data, ok := readGitPointer(p, fi)
	if !ok {
		return ""
	}
	line, _, _ := strings.Cut(data, "\n")
	target, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return ""
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(dir, target)
	}
	if !realWithin(boundary, target) {
		return ""
	}
	return target
}

// readGitPointer reads the small regular file at p, which Lstat described
// as fi; ok is false for anything else (a link, a FIFO, a device, a file
// too large, or one put in its place since).
func readGitPointer(p string, fi fs.FileInfo) (string, bool) {
	if !fi.Mode().IsRegular() || fi.Size() > maxGitPointerSize {
		return "", false
	}
	f, err := os.Open(p)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !os.SameFile(fi, st) {
		return "", false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxGitPointerSize+1))
	if err != nil || len(data) > maxGitPointerSize {
		return "", false
	}
	return string(data), true
}

// infoExcludePath returns the info/exclude file of a git directory, or ""
// when it would lie outside boundary. Linked worktrees keep it in the
// common directory named by their "commondir" file, read as a ".git" file
// is.
func infoExcludePath(gd, boundary string) string {
	p := filepath.Join(gd, "commondir")
	if fi, err := os.Lstat(p); err == nil {
		if data, ok := readGitPointer(p, fi); ok {
			if common := strings.TrimSpace(data); common != "" {
				if !filepath.IsAbs(common) {
					common = filepath.Join(gd, common)
				}
				gd = common
			}
		}
	}
	// info may be a link; the exclude file itself is read only when it
	// is a regular file (readIgnoreFile)
	if !realWithin(boundary, filepath.Join(gd, "info")) {
		return ""
	}
	return filepath.Join(gd, "info", "exclude")
}

// realWithin reports whether p, its links resolved, is boundary (an
// absolute path without links) or under it. A path that does not resolve
// is not.
func realWithin(boundary, p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return false
	}
	return within(boundary, real)
}

// hasGitEntry reports whether entries contain ".git" (directory or file): the
// top of a work tree.
func hasGitEntry(entries []fs.DirEntry) bool {
	for _, e := range entries {
		if e.Name() == ".git" {
			return true
		}
	}
	return false
}

// enclosingWorkTree looks upward from the absolute directory absRoot for the
// top of the git work tree containing it. It returns the top and the
// directories strictly between the top and absRoot, top first (the ones
// whose .gitignore files apply to the walk), or top == "" if absRoot is in
// no work tree or is itself a top.
func enclosingWorkTree(absRoot string) (top string, between []string) {
	var chain []string
	dir := absRoot
	for {
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			break
		}
		chain = append(chain, dir)
	}
	// chain holds the directories below the top, nearest to absRoot first.
	for i := len(chain) - 1; i >= 0; i-- {
		between = append(between, chain[i])
	}
	return dir, between
}

// sourceLabel renders an ignore rule's origin the way git check-ignore -v
// does: "source:line:pattern".
func sourceLabel(f *ignoreFile, r *ignoreRule) string {
	return f.source + ":" + strconv.Itoa(r.line) + ":" + r.text
}
