// Package gitdiff tells which lines of a git working tree changed since a
// revision, so that a scan can report only the findings on new code.
//
// FindRepo is the one place protoscan learns where its repository is: git
// is asked once, from the process's working directory, with implicit bare
// repositories refused (safe.bareRepository=explicit). The scanned tree is
// untrusted, so no directory inside it is ever taken as a repository and
// never becomes git's working directory. Every later command names the git
// directory and the work tree explicitly, and runs with the configuration
// that could execute something switched off: no fsmonitor, no hooks, no
// external diff, no textconv, and every filter driver the user's
// configuration defines emptied, so that a .gitattributes in the tree
// cannot make git run one.
//
// Repo.ChangedLines diffs the working tree (committed, staged and unstaged
// changes alike) against the merge base of HEAD and the revision, as a pull
// request is reviewed: changes made on the revision's side since the
// branch forked do not count. Untracked files that .gitignore does not
// exclude count as entirely new. Lines are those added or modified, with
// their new line numbers; a renamed file counts under its new path;
// deleted files and submodules are left out. Every file is diffed as text
// (--text), so a .gitattributes of the tree that marks files -diff or
// binary cannot hide their changes; a changed file git still reports as
// binary, and an untracked binary file, count as wholly changed.
//
// Repo.ReadFile and Repo.ReadDir read a commit's files out of git's
// object store (git ls-tree, git cat-file), never from the work tree and
// never onto the disk: a regular blob of at most the caller's size, a
// directory's entries up to MaxDirEntries; symbolic links, submodules and
// larger files are refused before any content is read.
//
// The diff is read as it streams out of git, line by line, so a large diff
// is never held in memory. git is run with the options that make its
// output independent of the user's configuration (no colour, standard a/
// b/ prefixes, paths from the top level, core.quotePath off).
package gitdiff

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// LineRange is the lines Start..End (1-based, inclusive) of a file.
type LineRange struct{ Start, End int }

// Changes maps the slash path of every changed file, relative to the
// directory ChangedLines was given, to its changed lines: sorted, disjoint,
// non-adjacent ranges. A file that changed without added or modified lines
// (lines only deleted, a pure rename, a mode change, an empty new file)
// has an empty, non-nil slice.
type Changes map[string][]LineRange

// Contains tells whether line of path changed. Line 0 (a finding about a
// whole file) counts as changed when the file has any change.
func (m Changes) Contains(path string, line int) bool {
	rs, ok := m[path]
	if !ok {
		return false
	}
	if line <= 0 {
		return true
	}
	i, _ := slices.BinarySearchFunc(rs, line, func(r LineRange, line int) int {
		if r.End < line {
			return -1
		}
		return 1
	})
	return i < len(rs) && rs[i].Start <= line
}

// Repo is the git repository of the process's working directory, as
// FindRepo found it. Its commands never run anywhere else.
type Repo struct {
	// Root is the absolute path of the work tree's top level.
	Root string
	// GitDir is the absolute path of the git directory.
	GitDir string

	// noFilters are the options that empty every filter driver the
	// configuration defines.
	noFilters []string
}

// Names of the environment variables --config-env reads its values from.
const (
	envEmpty = "PROTOSCAN_GIT_EMPTY"
	envFalse = "PROTOSCAN_GIT_FALSE"
)

// FindRepo asks git, from the process's working directory, for the top
// level of its work tree and its git directory. The user's environment
// (GIT_DIR, GIT_WORK_TREE, GIT_CEILING_DIRECTORIES...) is honoured: it is
// the user's. A bare repository is taken only when the environment names
// it, never because a directory looks like one.
//
// Errors include git's own message: git not installed, the working
// directory in no git repository, a repository without a work tree.
func FindRepo(ctx context.Context) (*Repo, error) {
	args := []string{"-c", "safe.bareRepository=explicit", "rev-parse", "--show-toplevel", "--absolute-git-dir"}
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	var stderr cappedBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, gitError(ctx, "the working directory", args[2:], err, stderr.Bytes())
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 2 || !filepath.IsAbs(lines[0]) || !filepath.IsAbs(lines[1]) {
		return nil, fmt.Errorf("gitdiff: git rev-parse --show-toplevel --absolute-git-dir: unexpected output %q", out)
	}
	r := &Repo{Root: filepath.Clean(lines[0]), GitDir: filepath.Clean(lines[1])}
	if err := r.readFilters(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// readFilters lists the filter drivers the configuration defines (in every
// scope git reads for this repository, includes followed) and prepares
// their emptying: an empty clean, smudge or process command is no command,
// and a driver no longer required cannot fail the diff.
func (r *Repo) readFilters(ctx context.Context) error {
	out, err := r.output(ctx, "config", "-z", "--get-regexp", `^filter\.`)
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 {
			return nil // none defined
		}
		return err
	}
	seen := map[string]bool{}
	for _, entry := range strings.Split(string(out), "\x00") {
		key, _, _ := strings.Cut(entry, "\n")
		// filter.<name>.<variable>; the name may hold dots
		first, last := strings.IndexByte(key, '.'), strings.LastIndexByte(key, '.')
		if first < 0 || last <= first {
			continue
		}
		name := key[first+1 : last]
		if seen[name] {
			continue
		}
		seen[name] = true
		for _, v := range []string{"clean", "smudge", "process"} {
			r.noFilters = append(r.noFilters, override("filter."+name+"."+v, envEmpty, "")...)
		}
		r.noFilters = append(r.noFilters, override("filter."+name+".required", envFalse, "false")...)
	}
	return nil
}

// override returns the options that set key to value, which the
// environment variable env holds: -c, which any git has, unless key holds
// a '=' that -c would split at; then --config-env (git 2.31 and later).
func override(key, env, value string) []string {
	if strings.Contains(key, "=") {
		return []string{"--config-env=" + key + "=" + env}
	}
	return []string{"-c", key + "=" + value}
}

// ErrNoRevision is the error of a revision the repository does not have
// (errors.Is finds it in the error of Verify and ChangedLines): in a CI
// clone, most often a branch that was not fetched.
var ErrNoRevision = errors.New("no such revision here")

// Verify checks that rev names a commit of the repository, before a scan
// spends its time: the error wraps ErrNoRevision when it names none.
// A name of something else (a blob) is git's error.
func (r *Repo) Verify(ctx context.Context, rev string) error {
	if err := checkRev(rev); err != nil {
		return err
	}
	out, err := r.output(ctx, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 && len(bytes.TrimSpace(out)) == 0 {
		return fmt.Errorf("gitdiff: %s: %w", rev, ErrNoRevision)
	}
	return err
}

// checkRev refuses what cannot be a revision: nothing, or an option.
func checkRev(rev string) error {
	switch {
	case rev == "":
		return errors.New("gitdiff: no revision to compare with")
	case strings.HasPrefix(rev, "-"):
		return fmt.Errorf("gitdiff: invalid revision %q", rev)
	}
	return nil
}

// ChangedLines returns the lines of the working tree under dir that
// changed since the merge base of HEAD and rev (a branch, tag, commit or
// any revision git accepts). dir is the repository's top level or a
// directory under it: only its files are reported, with paths relative to
// it. git runs at the top level, never in dir.
//
// Errors are clear and include git's own message: dir outside the
// repository, rev unknown (ErrNoRevision), no common history (and
// whether the clone is shallow, which cuts it).
func (r *Repo) ChangedLines(ctx context.Context, dir, rev string) (Changes, error) {
	if err := checkRev(rev); err != nil {
		return nil, err
	}
	if st, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("gitdiff: %w", err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("gitdiff: %s is not a directory", dir)
	}
	rel, err := r.relDir(dir)
	if err != nil {
		return nil, err
	}
	if err := r.Verify(ctx, rev); err != nil {
		return nil, err
	}
	out, err := r.output(ctx, "merge-base", rev, "HEAD")
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 && len(bytes.TrimSpace(out)) == 0 {
			why := "git merge-base found no merge base"
			if sh, _ := r.output(ctx, "rev-parse", "--is-shallow-repository"); strings.TrimSpace(string(sh)) == "true" {
				why += "; the clone is shallow: fetch the history (in CI, actions/checkout with fetch-depth: 0)"
			}
			return nil, fmt.Errorf("gitdiff: %s and HEAD have no common history (%s)", rev, why)
		}
		return nil, err
	}
	base := strings.TrimSpace(string(out))
	var pathspec []string
	if rel != "" {
		pathspec = []string{rel}
	}
	m := Changes{}
	if err := r.diff(ctx, base, pathspec, m); err != nil {
		return nil, err
	}
	if err := r.untracked(ctx, pathspec, m); err != nil {
		return nil, err
	}
	if rel == "" {
		return m, nil
	}
	// git names paths from the top level; the caller's are relative to dir
	sub := make(Changes, len(m))
	for p, rs := range m {
		if q, ok := strings.CutPrefix(p, rel+"/"); ok {
			sub[q] = rs
		}
	}
	return sub, nil
}

// Tracked is the files git tracks under a directory (Repo.Tracked).
type Tracked struct {
	files map[string]bool // slash paths relative to the directory
	dirs  map[string]bool // the directories that hold them
}

// Has reports whether rel (relative to the directory) is a tracked file,
// or with dir a directory that holds one.
func (t *Tracked) Has(rel string, dir bool) bool {
	if dir {
		return t.dirs[rel]
	}
	return t.files[rel]
}

// Tracked lists the files of the index under dir (git ls-files), as git
// has them: a .gitignore never hides a tracked file from git, nor, with
// this list, from the scan. dir outside the work tree is an error.
func (r *Repo) Tracked(ctx context.Context, dir string) (*Tracked, error) {
	rel, err := r.relDir(dir)
	if err != nil {
		return nil, err
	}
	args := []string{"ls-files", "-z", "--full-name", "--"}
	if rel != "" {
		args = append(args, ":(literal)"+rel)
	}
	t := &Tracked{files: map[string]bool{}, dirs: map[string]bool{}}
	err = r.stream(ctx, func(rd io.Reader) error {
		br := bufio.NewReader(rd)
		for {
			p, err := br.ReadString(0)
			if p = strings.TrimSuffix(p, "\x00"); p != "" {
				if rel != "" {
					var ok bool
					if p, ok = strings.CutPrefix(p, rel+"/"); !ok {
						continue
					}
				}
				t.files[p] = true
				for d := path.Dir(p); d != "." && !t.dirs[d]; d = path.Dir(d) {
					t.dirs[d] = true
				}
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("gitdiff: reading git ls-files: %w", err)
			}
		}
	}, args...)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// relDir returns the slash path of dir relative to the top level ("" for
// the top level itself), both with their symbolic links resolved; a dir
// outside the work tree is an error, not a repository of its own.
func (r *Repo) relDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("gitdiff: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("gitdiff: %w", err)
	}
	root, err := filepath.EvalSymlinks(r.Root)
	if err != nil {
		return "", fmt.Errorf("gitdiff: %w", err)
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("gitdiff: %s is outside the git work tree of the working directory (%s): run protoscan from inside the repository it scans", dir, r.Root)
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel), nil
}

// command prepares git args: at the top level, on the repository found,
// with everything that could run a program of the tree's choosing off.
func (r *Repo) command(ctx context.Context, args ...string) *exec.Cmd {
	full := []string{
		"--git-dir=" + r.GitDir, "--work-tree=" + r.Root,
		"--no-pager", "--literal-pathspecs",
		"-c", "core.fsmonitor=false",
		"-c", "core.hooksPath=" + os.DevNull,
		"-c", "core.quotePath=false",
	}
	full = append(full, r.noFilters...)
	full = append(full, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Dir = r.Root
	cmd.Env = append(os.Environ(),
		"GIT_OPTIONAL_LOCKS=0", // read-only: never take the index lock a concurrent git may need
		envEmpty+"=", envFalse+"=false")
	return cmd
}

// cappedBuffer keeps the first 64 KiB written to it: git's stderr.
type cappedBuffer struct{ bytes.Buffer }

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := 64<<10 - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// gitError describes a failed git command with its stderr.
func gitError(ctx context.Context, dir string, args []string, err error, stderr []byte) error {
	if ctx.Err() != nil {
		return fmt.Errorf("gitdiff: git %s: %w", args[0], ctx.Err())
	}
	if errors.Is(err, exec.ErrNotFound) {
		return fmt.Errorf("gitdiff: git is not installed or not in PATH: %w", err)
	}
	msg := strings.TrimSpace(string(stderr))
	if msg == "" {
		msg = err.Error()
	}
	return fmt.Errorf("gitdiff: git %s (in %s): %s", strings.Join(args, " "), dir, msg)
}

// output runs a short git command and returns its stdout.
func (r *Repo) output(ctx context.Context, args ...string) ([]byte, error) {
	cmd := r.command(ctx, args...)
	var stderr cappedBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 && stderr.Len() == 0 {
			return out, err // a plain "no" (merge-base without a base)
		}
		return out, gitError(ctx, r.Root, args, err, stderr.Bytes())
	}
	return out, nil
}

// stream runs git args and hands its stdout to read; the command is
// stopped if read fails.
func (r *Repo) stream(ctx context.Context, read func(io.Reader) error, args ...string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := r.command(ctx, args...)
	var stderr cappedBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("gitdiff: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return gitError(ctx, r.Root, args, err, nil)
	}
	rerr := read(stdout)
	if rerr != nil {
		cancel()
		_, _ = io.Copy(io.Discard, stdout)
	}
	werr := cmd.Wait()
	if rerr != nil {
		return rerr
	}
	if werr != nil {
		return gitError(ctx, r.Root, args, werr, stderr.Bytes())
	}
	return nil
}

// diff adds to m the changes of the working tree under pathspec against
// base, with paths from the top level.
func (r *Repo) diff(ctx context.Context, base string, pathspec []string, m Changes) error {
	args := []string{"diff", "--text", "--unified=0", "--no-color", "--no-ext-diff", "--no-textconv", "--no-relative",
		"--find-renames", "--ignore-submodules=all", "--submodule=short", "--src-prefix=a/", "--dst-prefix=b/", base, "--"}
	return r.stream(ctx, func(rd io.Reader) error { return parseDiff(rd, m) }, append(args, pathspec...)...)
}

// wholeFile is every line of a file: the change of a binary file, whose
// lines are not counted (it may be large, and no finding is on a line of
// it but line 0).
var wholeFile = []LineRange{{1, math.MaxInt}}

// lineReader reads lines of any length; of a line longer than its buffer
// only the head is kept (hunk bodies are skipped, headers are short).
type lineReader struct {
	br   *bufio.Reader
	head []byte
}

// next returns the next line without its "\n", or io.EOF.
func (lr *lineReader) next() ([]byte, error) {
	line, err := lr.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		lr.head = append(lr.head[:0], line...)
		for err == bufio.ErrBufferFull {
			_, err = lr.br.ReadSlice('\n')
		}
		line = lr.head
	}
	switch {
	case err == io.EOF && len(line) > 0:
		err = nil
	case err != nil:
		return nil, err
	}
	return bytes.TrimSuffix(line, []byte("\n")), nil
}

// fileDiff is the file whose diff is being read.
type fileDiff struct {
	path   string // new path, "" until known
	drop   bool   // deleted
	binary bool   // binary even as text: wholly changed
}

// parseDiff reads a "git diff --unified=0" patch and adds the new-side
// lines of every hunk to m; a file git still calls binary is wholly
// changed. Hunk bodies are counted off with the hunk
// header's line counts, so no content line is mistaken for a header.
func parseDiff(r io.Reader, m Changes) error {
	lr := &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
	var cur *fileDiff
	flush := func() {
		if cur != nil && !cur.drop && cur.path != "" {
			if _, ok := m[cur.path]; !ok {
				m[cur.path] = []LineRange{}
			}
			if cur.binary {
				m[cur.path] = slices.Clone(wholeFile)
			}
		}
		cur = nil
	}
	oldLeft, newLeft := 0, 0 // lines of the current hunk still to read
	for {
		b, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("gitdiff: reading git diff: %w", err)
		}
		if oldLeft > 0 || newLeft > 0 {
			switch {
			case len(b) > 0 && b[0] == '-' && oldLeft > 0:
				oldLeft--
				continue
			case len(b) > 0 && b[0] == '+' && newLeft > 0:
				newLeft--
				continue
			case len(b) > 0 && b[0] == '\\': // "\ No newline at end of file"
				continue
			case len(b) > 0 && b[0] == ' ' && oldLeft > 0 && newLeft > 0: // context, had there been any
				oldLeft--
				newLeft--
				continue
			}
			oldLeft, newLeft = 0, 0 // not a body line after all: read it as a header
		}
		line := string(b)
		switch {
		case strings.HasPrefix(line, "\\"):
		case strings.HasPrefix(line, "diff --git "):
			flush()
			cur = &fileDiff{path: headerPath(line[len("diff --git "):])}
		case cur == nil:
			// not inside a file's diff: nothing to read
		case strings.HasPrefix(line, "deleted file mode"):
			cur.drop = true
		case strings.HasPrefix(line, "Binary files "), line == "GIT binary patch":
			cur.binary = true
		case strings.HasPrefix(line, "rename to "):
			cur.path = unquote(line[len("rename to "):])
		case strings.HasPrefix(line, "copy to "):
			cur.path = unquote(line[len("copy to "):])
		case strings.HasPrefix(line, "+++ "):
			name := unquote(strings.TrimSuffix(line[len("+++ "):], "\t"))
			if name == "/dev/null" {
				cur.drop = true
			} else {
				cur.path = strings.TrimPrefix(name, "b/")
			}
		case strings.HasPrefix(line, "@@ "):
			start, count, old, err := parseHunk(line)
			if err != nil {
				return err
			}
			oldLeft, newLeft = old, count
			if cur.drop || cur.path == "" {
				continue
			}
			rs := m[cur.path]
			if rs == nil {
				rs = []LineRange{}
			}
			if count > 0 {
				rs = addRange(rs, LineRange{start, start + count - 1})
			}
			m[cur.path] = rs
		}
	}
	flush()
	for p, rs := range m {
		m[p] = normalize(rs)
	}
	return nil
}

// addRange appends r to rs, merging it with the last range when they
// touch (git writes hunks in order).
func addRange(rs []LineRange, r LineRange) []LineRange {
	if n := len(rs); n > 0 && rs[n-1].Start <= r.Start && rs[n-1].End+1 >= r.Start {
		rs[n-1].End = max(rs[n-1].End, r.End)
		return rs
	}
	return append(rs, r)
}

// normalize sorts rs and merges the ranges that overlap or touch, in case
// hunks came out of order.
func normalize(rs []LineRange) []LineRange {
	if slices.IsSortedFunc(rs, compareRanges) {
		ok := true
		for i := 1; i < len(rs) && ok; i++ {
			ok = rs[i-1].End+1 < rs[i].Start
		}
		if ok {
			return rs
		}
	}
	slices.SortFunc(rs, compareRanges)
	out := rs[:0]
	for _, r := range rs {
		out = addRange(out, r)
	}
	return out
}

func compareRanges(a, b LineRange) int { return a.Start - b.Start }

// parseHunk reads "@@ -a[,b] +c[,d] @@ ..." and returns c, d (the new
// side) and b.
func parseHunk(line string) (start, count, oldCount int, err error) {
	f := strings.Fields(line)
	if len(f) < 4 || f[3] != "@@" || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, 0, fmt.Errorf("gitdiff: malformed hunk header %q", line)
	}
	_, oldCount, err1 := parseSpan(f[1][1:])
	start, count, err2 := parseSpan(f[2][1:])
	if err1 != nil || err2 != nil || count > 0 && start < 1 {
		return 0, 0, 0, fmt.Errorf("gitdiff: malformed hunk header %q", line)
	}
	return start, count, oldCount, nil
}

// parseSpan reads "start[,count]"; count defaults to 1.
func parseSpan(s string) (start, count int, err error) {
	a, b, found := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil || start < 0 {
		return 0, 0, errors.New("bad start")
	}
	count = 1
	if found {
		if count, err = strconv.Atoi(b); err != nil || count < 0 {
			return 0, 0, errors.New("bad count")
		}
	}
	return start, count, nil
}

// headerPath returns the new path of a "diff --git a/X b/Y" header, or ""
// when it cannot be told (an unquoted name with spaces that changed): the
// ---/+++ or "rename to" lines that follow give it then.
func headerPath(s string) string {
	if strings.HasPrefix(s, `"`) {
		_, rest, ok := cutQuoted(s)
		if !ok || !strings.HasPrefix(rest, " ") {
			return ""
		}
		return strings.TrimPrefix(unquote(rest[1:]), "b/")
	}
	// unquoted: "a/X b/X" for the same name X
	if n := len(s); n%2 == 1 {
		a, b := s[:n/2], s[n/2+1:]
		if s[n/2] == ' ' && strings.HasPrefix(a, "a/") && strings.HasPrefix(b, "b/") && a[2:] == b[2:] {
			return b[2:]
		}
	}
	return ""
}

// unquote undoes git's C-style quoting of a path, if it is quoted.
func unquote(s string) string {
	if !strings.HasPrefix(s, `"`) {
		return s
	}
	name, rest, ok := cutQuoted(s)
	if !ok || rest != "" {
		return s
	}
	return name
}

// cutQuoted reads the C-quoted string at the start of s (\a \b \t \n \v
// \f \r \" \\ and \ooo octal bytes, as git writes them) and returns its
// bytes and what follows it.
func cutQuoted(s string) (name, rest string, ok bool) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			return b.String(), s[i+1:], true
		case '\\':
			i++
			if i >= len(s) {
				return "", "", false
			}
			switch e := s[i]; e {
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'v':
				b.WriteByte('\v')
			case 'f':
				b.WriteByte('\f')
			case 'r':
				b.WriteByte('\r')
			case '"', '\\':
				b.WriteByte(e)
			default:
				if i+3 > len(s) {
					return "", "", false
				}
				v, err := strconv.ParseUint(s[i:i+3], 8, 8)
				if err != nil {
					return "", "", false
				}
				b.WriteByte(byte(v))
				i += 2
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", "", false
}

// untracked adds the untracked, not ignored files under pathspec to m,
// each as entirely new, with paths from the top level (binary files too);
// a special file (a symlink) counts as changed without lines.
func (r *Repo) untracked(ctx context.Context, pathspec []string, m Changes) error {
	var paths []string
	err := r.stream(ctx, func(rd io.Reader) error {
		br := bufio.NewReader(rd)
		for {
			p, err := br.ReadString(0)
			p = strings.TrimSuffix(p, "\x00")
			// a nested repository is listed as a directory: not a file
			if p != "" && !strings.HasSuffix(p, "/") {
				paths = append(paths, p)
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("gitdiff: reading git ls-files: %w", err)
			}
		}
	}, append([]string{"ls-files", "-z", "--others", "--exclude-standard", "--"}, pathspec...)...)
	if err != nil {
		return err
	}
	for _, p := range paths {
		n, binary, err := countLines(filepath.Join(r.Root, filepath.FromSlash(p)))
		switch {
		case errors.Is(err, os.ErrNotExist):
			continue // gone since git listed it
		case err != nil:
			return fmt.Errorf("gitdiff: untracked file: %w", err)
		case binary:
			m[p] = slices.Clone(wholeFile)
		case n == 0:
			m[p] = []LineRange{}
		default:
			m[p] = []LineRange{{1, n}}
		}
	}
	return nil
}

// sniffLen is how much of a file git reads to tell text from binary.
const sniffLen = 8000

// countLines returns the number of lines of a regular file (0 for an empty
// one or another kind of file), and whether it is binary as git tells it:
// a NUL byte in its first 8000 bytes.
func countLines(path string) (lines int, binary bool, err error) {
	st, err := os.Lstat(path)
	if err != nil {
		return 0, false, err
	}
	if !st.Mode().IsRegular() {
		return 0, false, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	// only the regular file Lstat saw is read, not one put in its place
	if fst, err := f.Stat(); err != nil || !fst.Mode().IsRegular() || !os.SameFile(st, fst) {
		return 0, false, err
	}
	buf := make([]byte, 64<<10)
	read, last := 0, byte('\n')
	for {
		n, err := f.Read(buf)
		if read < sniffLen && bytes.IndexByte(buf[:min(n, sniffLen-read)], 0) >= 0 {
			return 0, true, nil
		}
		lines += bytes.Count(buf[:n], []byte{'\n'})
		if n > 0 {
			last = buf[n-1]
		}
		read += n
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, false, err
		}
	}
	if last != '\n' {
		lines++ // a last line without an ending
	}
	return lines, false, nil
}
