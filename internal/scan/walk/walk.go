// Package walk is the repository walk of protoscan scan: it turns a scan root
// into the list of files the scanner reads, and reports everything it skipped.
//
// The walk applies, in this order, the default excludes (.git, node_modules,
// virtualenvs, ...), the user's --exclude globs, .gitignore files (nested,
// with git's semantics, plus .git/info/exclude), the --include globs and the
// size limit. Ignored and excluded paths are dropped silently but listed in
// [Result.Excluded] for a verbose mode; files the user would expect to be
// scanned but that cannot be (too large, unreadable, behind a symlink) become
// [Notice]s with a protoscan/... rule ID.
//
// Symbolic links are never followed, as git does not follow them: following
// links is how walks escape the repository or loop forever. Each link is
// classified (inside the root, outside it, broken, a loop) and reported.
//
// The walk never reads file contents (except ignore files); the scanner does,
// and uses [IsBinary] on the head of each file.
//
// Output is deterministic: [Stream] delivers files in the order of their
// slash-separated relative path, and [Walk] returns files, notices and
// exclusions sorted by that path.
package walk

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/protoscan-dev/protoscan/internal/glob"
)

// Rule IDs of the notices the walk emits (a contract: see DESIGN.md).
const (
	RuleTooLarge           = "protoscan/too-large"
	RuleUnreadable         = "protoscan/unreadable"
	RuleSymlinkOutsideRoot = "protoscan/symlink-outside-root"
	RuleSymlinkLoop        = "protoscan/symlink-loop"
	RuleSymlinkBroken      = "protoscan/symlink-broken"
	RuleSymlinkSkipped     = "protoscan/symlink-skipped"
)

// DefaultMaxFileSize is the size limit used when Options.MaxFileSize is 0.
const DefaultMaxFileSize int64 = 2 << 20

// defaultExcludedDirs are skipped at any depth unless NoDefaultExcludes is
// set: version control metadata, dependency trees, tool caches and
// recorded HTTP (vcrpy's and go-vcr's cassettes, often megabytes each),
// which are not the project's own code and can dwarf it.
var defaultExcludedDirs = map[string]bool{
	".git":          true,
	".hg":           true,
	".svn":          true,
	"node_modules":  true,
	"vendor":        true,
	"__pycache__":   true,
	".venv":         true,
	"venv":          true,
	".tox":          true,
	".mypy_cache":   true,
	".pytest_cache": true,
	"site-packages": true,
	"cassettes":     true,
}

// Options configure a walk. The zero value walks everything with the
// defaults.
type Options struct {
	// Include and Exclude are doublestar globs matched against the slash
	// path relative to the root ("src/**/*.py"; "*.py" matches only at the
	// top). A pattern that matches a directory covers everything under it:
	// an excluded directory is not entered, and an included one includes
	// all its files. Leading "/" or "./" and a trailing "/" are dropped.
	// When Include is empty every file is included.
	Include, Exclude []string
	// MaxFileSize is the largest file scanned, in bytes: 0 means
	// DefaultMaxFileSize, a negative value means no limit.
	MaxFileSize int64
	// NoDefaultExcludes walks into .git, node_modules, virtualenvs, ...
	NoDefaultExcludes bool
	// NoGitignore ignores .gitignore and .git/info/exclude files.
	NoGitignore bool
	// Tracked, when set, reports whether git tracks the file rel, or a
	// file under the directory rel (dir). As in git, .gitignore never
	// leaves out a tracked file: a pull request cannot hide its files
	// from the scan by ignoring them. An ignored directory that holds
	// tracked files is entered for them alone.
	Tracked func(rel string, dir bool) bool
}

// File is a file to scan.
type File struct {
	Path string // OS path to open: the root joined with Rel
	Rel  string // slash-separated path relative to the root
	Size int64  // size in bytes when walked
	// Info is the file's Lstat, taken during the walk (the scan's cache
	// compares it with the one it recorded, see package internal/scan/cache).
	Info fs.FileInfo
}

// Notice reports a path the user would expect to be scanned but that is not.
type Notice struct {
	Rel     string // slash-separated path relative to the root
	Rule    string // one of the Rule* constants
	Message string
}

// Reason says why a path was excluded silently.
type Reason string

const (
	ReasonDefault   Reason = "default-exclude" // Detail: the directory name, or "pyvenv.cfg"
	ReasonExclude   Reason = "exclude"         // Detail: the --exclude pattern
	ReasonGitignore Reason = "gitignore"       // Detail: "source:line:pattern", as git check-ignore -v
	ReasonSpecial   Reason = "not-regular"     // Detail: the file mode (named pipe, socket, device)
)

// Excluded is a path skipped on purpose, listed for a verbose mode. An
// excluded directory stands for everything under it. Files left out because
// they match no Include pattern are not listed (there would be too many).
type Excluded struct {
	Rel    string
	Dir    bool
	Reason Reason
	Detail string
}

// Result is the outcome of Walk.
type Result struct {
	Files    []File     // sorted by Rel
	Notices  []Notice   // sorted by Rel, then Rule
	Excluded []Excluded // sorted by Rel
}

// Handler receives the walk's output as it is found, on the walking
// goroutine. Files arrive sorted by Rel; notices and exclusions arrive in
// walk order, which can differ slightly (a directory's own notice comes
// after siblings such as "dir.txt"). Nil fields are not called.
type Handler struct {
	// File is called for every file to scan. A non-nil error stops the
	// walk and is returned by Stream. A scanner typically sends the file to
	// its worker pool here, returning ctx.Err() if the context is done.
	File func(File) error
	// Notice is called for every notice.
	Notice func(Notice)
	// Excluded is called for every silently excluded path.
	Excluded func(Excluded)
}

// Walk walks root and collects its files, notices and exclusions, sorted.
func Walk(ctx context.Context, root string, opts Options) (*Result, error) {
	res := &Result{}
	err := Stream(ctx, root, opts, Handler{
		File:     func(f File) error { res.Files = append(res.Files, f); return nil },
		Notice:   func(n Notice) { res.Notices = append(res.Notices, n) },
		Excluded: func(e Excluded) { res.Excluded = append(res.Excluded, e) },
	})
	if err != nil {
		return nil, err
	}
	// Files already come sorted; the others need it (see Handler).
	slices.SortStableFunc(res.Files, func(a, b File) int { return strings.Compare(a.Rel, b.Rel) })
	slices.SortStableFunc(res.Notices, func(a, b Notice) int {
		return cmp.Or(strings.Compare(a.Rel, b.Rel), strings.Compare(a.Rule, b.Rule))
	})
	slices.SortStableFunc(res.Excluded, func(a, b Excluded) int { return strings.Compare(a.Rel, b.Rel) })
	return res, nil
}

// Stream walks root and reports what it finds to h as it goes. root may be
// a directory or a single file; a symlink given as root is followed, since
// the user named it. A root that is a file is always scanned (no include,
// exclude or ignore rule applies to what the user names), with Rel set to
// its base name. Stream returns an error for invalid options, a missing or
// unreadable root, a cancelled context (ctx.Err()) or an error from
// h.File; problems below the root are notices and the walk goes on.
func Stream(ctx context.Context, root string, opts Options, h Handler) error {
	return stream(ctx, root, opts, h, osFS{})
}

// fileSystem is the seam tests use to simulate permission errors when they
// run as root, where chmod 000 denies nothing.
type fileSystem interface {
	ReadDir(name string) ([]fs.DirEntry, error)
	Open(name string) (*os.File, error)
}

type osFS struct{}

func (osFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }
func (osFS) Open(name string) (*os.File, error)         { return os.Open(name) }

type walker struct {
	ctx      context.Context
	done     <-chan struct{}
	fsys     fileSystem
	h        Handler
	opts     Options
	include  []*glob.Glob
	exclude  []*glob.Glob
	limit    int64
	realRoot string // absolute, symlinks resolved: to classify links
	ignores  ignoreStack
	// badIgnores are ignore files already reported unreadable: not handed
	// to the scanner too, which would report them a second time.
	badIgnores map[string]bool
	// ignoredDirs are the directories .gitignore excludes that were
	// entered for their tracked files (Options.Tracked), with the rule
	// that excludes them: their other entries are excluded by it.
	ignoredDirs map[string]string
	// ahead bounds the directories read at once (see readAhead), and
	// readers counts the goroutines reading them.
	ahead   chan struct{}
	readers sync.WaitGroup
}

// aheadWindow is how many subdirectories of one directory are read
// ahead of the one the walk is in.
const aheadWindow = 16

// aheadLimit is how many directories are read at once. The calls mostly
// hit the kernel's caches and use CPU, so a few per core suffice; more
// would only help file systems with latency (network mounts).
var aheadLimit = max(4, 2*runtime.GOMAXPROCS(0))

func stream(ctx context.Context, root string, opts Options, h Handler, fsys fileSystem) error {
	include, exclude, err := opts.patterns()
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// Directories read ahead stop with the walk: none outlives Stream.
	ctx, cancel := context.WithCancel(ctx)
	w := &walker{
		ctx: ctx, done: ctx.Done(), fsys: fsys, h: h, opts: opts,
		include: include, exclude: exclude, limit: opts.MaxFileSize,
		ahead: make(chan struct{}, aheadLimit),
	}
	if w.limit == 0 {
		w.limit = DefaultMaxFileSize
	}
	defer w.readers.Wait()
	defer cancel()
	fi, err := os.Stat(root)
	if err != nil {
		return fmt.Errorf("walk: %w", err)
	}
	switch {
	case fi.Mode().IsRegular():
		return w.file(root, filepath.Base(root), fi)
	case !fi.IsDir():
		return fmt.Errorf("walk: %s is not a regular file or directory (%s)", root, fi.Mode().Type())
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return fmt.Errorf("walk: %w", err)
	}
	if w.realRoot, err = filepath.EvalSymlinks(abs); err != nil {
		return fmt.Errorf("walk: %w", err)
	}
	entries, err := fsys.ReadDir(root)
	if err != nil {
		// Nothing can be scanned: that is the caller's error, not a notice.
		return fmt.Errorf("walk: cannot read %s: %w", root, err)
	}
	if !opts.NoGitignore && !hasGitEntry(entries) {
		w.loadEnclosingIgnores()
	}
	// File.Path is built by appending to the root, so "repo/" must not
	// give "repo//a.go".
	sortEntries(entries)
	return w.dir(filepath.Clean(root), "", entries, nil, false)
}

// loadEnclosingIgnores applies, when the root is inside a git work tree but
// not its top, the info/exclude and .gitignore files between the top and the
// root, as git would.
func (w *walker) loadEnclosingIgnores() {
	top, between := enclosingWorkTree(w.realRoot)
	if top == "" {
		return
	}
	relToTop := func(dir string) string {
		r, err := filepath.Rel(dir, w.realRoot)
		if err != nil {
			return ""
		}
		return filepath.ToSlash(r)
	}
	label := func(p string) string {
		r, err := filepath.Rel(w.realRoot, p)
		if err != nil {
			return filepath.ToSlash(p)
		}
		return filepath.ToSlash(r)
	}
	if gd := gitDir(top, top); gd != "" {
		if p := infoExcludePath(gd, top); p != "" {
			w.pushIgnore(p, label(p), "", relToTop(top))
		}
	}
	for _, d := range append([]string{top}, between...) {
		p := filepath.Join(d, ".gitignore")
		w.pushIgnore(p, label(p), "", relToTop(d))
	}
}

// pushIgnore reads an ignore file and pushes it on the stack. An unreadable
// ignore file is a notice: silently scanning what the user ignored would be
// worse.
func (w *walker) pushIgnore(osPath, source, dirRel, above string) {
	rules, err := readIgnoreFile(w.fsys, osPath)
	if err != nil {
		w.notice(source, RuleUnreadable, "cannot read ignore file: "+errText(err)+"; its patterns are not applied")
		if w.badIgnores == nil {
			w.badIgnores = map[string]bool{}
		}
		w.badIgnores[source] = true
		return
	}
	if len(rules) > 0 {
		w.ignores = append(w.ignores, &ignoreFile{source: source, dir: dirRel, above: above, rules: rules})
	}
}

// dir walks the entries of the directory at osPath (rel relative to the
// root, "" for the root), sorted as compareKeys orders them; infos holds
// the Lstat of the regular files among them when read ahead (see
// readAhead), else nil. covered means an Include pattern matched this
// directory or one above it.
//
// The directory is walked in two passes. The first decides what becomes
// of each entry, which only needs the ignore rules in force here; the
// second reports the entries in order, reading the next subdirectories to
// be entered ahead (aheadWindow of them) and descending into each as its
// read completes. Decisions and reports stay on this goroutine, so the output
// is the same as a serial walk's; only the system calls run in parallel.
func (w *walker) dir(osPath, rel string, entries []fs.DirEntry, infos []infoResult, covered bool) error {
	if !w.opts.NoGitignore {
		saved := w.ignores
		defer func() { w.ignores = saved }()
		if hasGitEntry(entries) {
			// The top of a work tree: the root's, or a nested repository's
			// (a submodule), inside which git applies only its own ignores.
			w.ignores = nil
			// a .git inside the tree may point anywhere: only what lies
			// within the scan root is read
			if gd := gitDir(osPath, w.realRoot); gd != "" {
				if p := infoExcludePath(gd, w.realRoot); p != "" {
					w.pushIgnore(p, join(rel, ".git/info/exclude"), rel, "")
				}
			}
		}
		for _, e := range entries {
			if e.Name() == ".gitignore" && e.Type().IsRegular() {
				w.pushIgnore(osJoin(osPath, ".gitignore"), join(rel, ".gitignore"), rel, "")
				break
			}
		}
	}

	// First pass: decide, and start reading the subdirectories.
	type decision struct {
		reason Reason // set: excluded silently
		detail string
		enter  bool     // a subdirectory to enter
		ahead  *dirRead // its read, once started
	}
	decisions := make([]decision, len(entries))
	for i, e := range entries {
		name := e.Name()
		childRel := join(rel, name)
		typ := e.Type()
		isDir := typ.IsDir()
		d := &decisions[i]
		switch {
		case !w.opts.NoDefaultExcludes && (defaultExcludedDirs[name] && (isDir || typ&fs.ModeSymlink != 0) || name == ".git"):
			d.reason, d.detail = ReasonDefault, name
		case w.matchExcludeInto(childRel, &d.detail):
			d.reason = ReasonExclude
		default:
			if !w.opts.NoGitignore {
				detail, ignored := w.ignoredDirs[rel]
				if !ignored {
					if f, r := w.ignores.match(childRel, name, isDir); r != nil && !r.negate {
						detail, ignored = sourceLabel(f, r), true
					}
				}
				if ignored && w.opts.Tracked != nil && w.opts.Tracked(childRel, isDir) {
					// git never ignores a tracked file
					if isDir {
						if w.ignoredDirs == nil {
							w.ignoredDirs = map[string]string{}
						}
						w.ignoredDirs[childRel] = detail
					}
					ignored = false
				}
				if ignored {
					d.reason, d.detail = ReasonGitignore, detail
					break
				}
			}
			d.enter = isDir
		}
	}
	// Subdirectories are read ahead in a window: a directory of a
	// hundred thousand subdirectories must not start as many goroutines.
	next, ahead := 0, 0 // the next entry to start reading; reads started and not entered
	readAhead := func() {
		for ; next < len(entries) && ahead < aheadWindow; next++ {
			if d := &decisions[next]; d.enter {
				name := entries[next].Name()
				childRel := join(rel, name)
				d.ahead = w.readAhead(osJoin(osPath, name), childRel, w.coveredBelow(childRel, covered))
				ahead++
			}
		}
	}

	// Second pass: report in order.
	for i, e := range entries {
		select {
		case <-w.done:
			return w.ctx.Err()
		default:
		}
		readAhead()
		name := e.Name()
		childRel := join(rel, name)
		childPath := osJoin(osPath, name)
		typ := e.Type()
		isDir := typ.IsDir()
		if d := decisions[i]; d.reason != "" {
			w.excluded(childRel, isDir, d.reason, d.detail)
			continue
		}

		switch {
		case isDir:
			ahead--
			if err := w.subdir(decisions[i].ahead, childPath, childRel); err != nil {
				return err
			}
		case typ&fs.ModeSymlink != 0:
			w.symlink(childPath, childRel, rel, covered)
		case typ.IsRegular():
			if !covered && !w.included(childRel) || w.badIgnores[childRel] {
				continue
			}
			var info fs.FileInfo
			var err error
			if infos != nil && infos[i].done {
				info, err = infos[i].info, infos[i].err
			} else {
				info, err = e.Info()
			}
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					continue // removed while we walked
				}
				w.notice(childRel, RuleUnreadable, "cannot stat file: "+errText(err))
				continue
			}
			if err := w.file(childPath, childRel, info); err != nil {
				return err
			}
		default:
			// Opening a named pipe would block the scanner forever.
			w.excluded(childRel, false, ReasonSpecial, typ.String())
		}
	}
	return nil
}

// coveredBelow is covered for the entries of the directory rel: true when
// an Include pattern matches the directory or one above it.
func (w *walker) coveredBelow(rel string, covered bool) bool {
	return covered || (len(w.include) > 0 && w.included(rel))
}

// infoResult is the Lstat of a regular file, taken ahead of the walk.
type infoResult struct {
	done bool // false: not taken (the file is not included)
	info fs.FileInfo
	err  error
}

// dirRead is a directory being read ahead of the walk: its entries,
// sorted, and the Lstat of the regular files among them that Include
// selects.
type dirRead struct {
	covered bool          // coveredBelow of the directory, decided when the read started
	ready   chan struct{} // closed when the fields below are set
	entries []fs.DirEntry
	infos   []infoResult
	err     error
}

// readAhead starts reading the directory at osPath on another goroutine,
// at most aheadLimit of them at a time. A file's Lstat is taken even when
// a .gitignore turns out to exclude it: the rules are known only once the
// walk enters the directory, and an extra Lstat is cheaper than waiting.
func (w *walker) readAhead(osPath, rel string, covered bool) *dirRead {
	d := &dirRead{covered: covered, ready: make(chan struct{})}
	w.readers.Add(1)
	go func() {
		defer w.readers.Done()
		defer close(d.ready)
		select {
		case w.ahead <- struct{}{}:
			defer func() { <-w.ahead }()
		case <-w.done:
			d.err = w.ctx.Err()
			return
		}
		d.entries, d.err = w.fsys.ReadDir(osPath)
		sortEntries(d.entries)
		d.infos = make([]infoResult, len(d.entries))
		for i, e := range d.entries {
			if e.Type().IsRegular() && (covered || w.included(join(rel, e.Name()))) {
				info, err := e.Info()
				d.infos[i] = infoResult{done: true, info: info, err: err}
			}
		}
	}()
	return d
}

// sortEntries sorts a directory so that a depth-first walk yields files
// in the order of their slash paths: a directory "a" sorts as "a/", after
// "a.txt".
func sortEntries(entries []fs.DirEntry) {
	slices.SortFunc(entries, func(a, b fs.DirEntry) int {
		return compareKeys(a.Name(), a.IsDir(), b.Name(), b.IsDir())
	})
}

// subdir enters a subdirectory once ahead has read it.
func (w *walker) subdir(ahead *dirRead, osPath, rel string) error {
	select {
	case <-ahead.ready:
	case <-w.done:
		return w.ctx.Err()
	}
	entries, err := ahead.entries, ahead.err
	if err != nil {
		w.notice(rel, RuleUnreadable, "cannot read directory: "+errText(err))
		if len(entries) == 0 {
			return nil
		}
		// os.ReadDir returns what it read before the error: walk it.
	}
	if !w.opts.NoDefaultExcludes {
		for _, e := range entries {
			if e.Name() == "pyvenv.cfg" {
				w.excluded(rel, true, ReasonDefault, "pyvenv.cfg")
				return nil
			}
		}
	}
	// A pattern covering this directory covers its files: pass that down
	// so that no file tests every one of its ancestors.
	return w.dir(osPath, rel, entries, ahead.infos, ahead.covered)
}

// file checks a regular file's size and readability and hands it over.
func (w *walker) file(osPath, rel string, info fs.FileInfo) error {
	size := info.Size()
	if w.limit > 0 && size > w.limit {
		w.notice(rel, RuleTooLarge, TooLargeMessage(size, w.limit))
		return nil
	}
	if maybeUnreadable(info) {
		// The permission bits say we may not read it: find out now, so the
		// notice has a stable place in the output.
		f, err := w.fsys.Open(osPath)
		if err != nil {
			w.notice(rel, RuleUnreadable, "cannot open file: "+errText(err))
			return nil
		}
		f.Close()
	}
	if w.h.File == nil {
		return nil
	}
	return w.h.File(File{Path: osPath, Rel: rel, Size: size, Info: info})
}

// symlink classifies a link without following it. parentRel is the
// directory holding it.
func (w *walker) symlink(osPath, rel, parentRel string, covered bool) {
	target, err := os.Readlink(osPath)
	if err != nil {
		w.notice(rel, RuleUnreadable, "cannot read symbolic link: "+errText(err))
		return
	}
	fi, err := os.Stat(osPath)
	if err != nil {
		switch {
		case errors.Is(err, syscall.ELOOP):
			w.notice(rel, RuleSymlinkLoop, fmt.Sprintf("symbolic link to %q is part of a loop of links; not followed", target))
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			w.notice(rel, RuleSymlinkBroken, fmt.Sprintf("symbolic link to %q points to nothing", target))
		default:
			w.notice(rel, RuleSymlinkBroken, fmt.Sprintf("symbolic link to %q cannot be resolved: %s", target, errText(err)))
		}
		return
	}
	// resolved from an absolute path, as realRoot is: a relative root (".")
	// would give a relative real path, outside everything
	abs, err := filepath.Abs(osPath)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		w.notice(rel, RuleSymlinkBroken, fmt.Sprintf("symbolic link to %q cannot be resolved: %s", target, errText(err)))
		return
	}
	real := abs
	// A link to a file that no Include pattern selects is of no interest;
	// a link to a directory might hide included files, so it is reported.
	if !fi.IsDir() && !covered && !w.included(rel) {
		return
	}
	// The walk never follows links, so the real path of the directory
	// holding this one is the real root joined with its relative path.
	realParent := filepath.Join(w.realRoot, filepath.FromSlash(parentRel))
	if fi.IsDir() && within(real, realParent) {
		w.notice(rel, RuleSymlinkLoop, fmt.Sprintf("symbolic link to %q points to a directory that contains it; following it would loop", target))
		return
	}
	if !within(w.realRoot, real) {
		w.notice(rel, RuleSymlinkOutsideRoot, fmt.Sprintf("symbolic link to %q points outside the scan root; not followed", target))
		return
	}
	inside, _ := filepath.Rel(w.realRoot, real)
	w.notice(rel, RuleSymlinkSkipped, fmt.Sprintf("symbolic link to %q not followed: its target %q is walked at its own path", target, filepath.ToSlash(inside)))
}

func (w *walker) notice(rel, rule, msg string) {
	if w.h.Notice != nil {
		w.h.Notice(Notice{Rel: rel, Rule: rule, Message: msg})
	}
}

func (w *walker) excluded(rel string, dir bool, reason Reason, detail string) {
	if w.h.Excluded != nil {
		w.h.Excluded(Excluded{Rel: rel, Dir: dir, Reason: reason, Detail: detail})
	}
}

// matchExcludeInto reports whether an Exclude pattern matches rel, and
// stores the pattern in *pat when one does.
func (w *walker) matchExcludeInto(rel string, pat *string) bool {
	for _, p := range w.exclude {
		if p.Match(rel) {
			*pat = p.String()
			return true
		}
	}
	return false
}

// included reports whether an Include pattern matches rel (true when there
// are no Include patterns).
func (w *walker) included(rel string) bool {
	if len(w.include) == 0 {
		return true
	}
	for _, p := range w.include {
		if p.Match(rel) {
			return true
		}
	}
	return false
}

// within reports whether path is dir or below it (both clean and absolute).
func within(dir, p string) bool {
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}

// osJoin appends a name to a clean OS path; cheaper than filepath.Join,
// which cleans again, for every entry of the walk.
func osJoin(dir, name string) string {
	if os.IsPathSeparator(dir[len(dir)-1]) { // "/" or `C:\`
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

// join joins slash paths where dir may be "".
func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// compareKeys orders entries as their slash paths sort: a directory's name
// compares as if followed by '/'.
func compareKeys(a string, aDir bool, b string, bDir bool) int {
	n := min(len(a), len(b))
	if c := strings.Compare(a[:n], b[:n]); c != 0 {
		return c
	}
	return cmp.Compare(keyByte(a, aDir, n), keyByte(b, bDir, n))
}

func keyByte(s string, dir bool, i int) int {
	switch {
	case i < len(s):
		return int(s[i])
	case dir:
		return '/'
	}
	return -1
}

// errText is the OS error without the path (which the notice already names
// and which would make reports differ between checkouts).
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	var se *os.SyscallError
	if errors.As(err, &se) {
		return se.Err.Error()
	}
	return err.Error()
}

// UnreadableNotice is the notice for a file that cannot be opened or read;
// the scanner uses it for errors it meets after the walk, so that they read
// the same as the walk's own.
func UnreadableNotice(rel string, err error) Notice {
	return Notice{Rel: rel, Rule: RuleUnreadable, Message: "cannot read file: " + errText(err)}
}

// TooLargeMessage is the message of a protoscan/too-large notice; the
// scanner uses it too when a file grew past the limit after the walk.
func TooLargeMessage(size, limit int64) string {
	s, l := humanSize(size), humanSize(limit)
	if strings.Replace(s, ".0 ", " ", 1) == l {
		// Rounding made them look equal ("2.0 MiB, over the 2 MiB
		// limit"): give exact figures.
		s, l = strconv.FormatInt(size, 10)+" bytes", strconv.FormatInt(limit, 10)+"-byte"
	}
	return fmt.Sprintf("file is %s, over the %s limit; raise --max-file-size to scan it", s, l)
}

// humanSize formats a byte count in binary units with at most one decimal.
func humanSize(n int64) string {
	units := []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}}
	for _, u := range units {
		if n >= u.size {
			if n%u.size == 0 {
				return strconv.FormatInt(n/u.size, 10) + " " + u.name
			}
			return strconv.FormatFloat(float64(n)/float64(u.size), 'f', 1, 64) + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// binarySniffLen is how much of a file git inspects to call it binary.
const binarySniffLen = 8000

// IsBinary reports whether a file whose first bytes are head is binary: git's
// rule, a NUL byte in the first 8000 bytes. Pass at least that many bytes
// (or the whole file if shorter).
func IsBinary(head []byte) bool {
	if len(head) > binarySniffLen {
		head = head[:binarySniffLen]
	}
	return bytes.IndexByte(head, 0) >= 0
}

// patterns validates, normalizes and compiles Include and Exclude.
func (o Options) patterns() (include, exclude []*glob.Glob, err error) {
	if include, err = normalizePatterns("include", o.Include); err != nil {
		return nil, nil, err
	}
	if exclude, err = normalizePatterns("exclude", o.Exclude); err != nil {
		return nil, nil, err
	}
	return include, exclude, nil
}

// Validate checks the Include and Exclude patterns, so that a configuration
// loader can reject a bad pattern before any walking starts.
func (o Options) Validate() error {
	_, _, err := o.patterns()
	return err
}

func normalizePatterns(kind string, pats []string) ([]*glob.Glob, error) {
	var out []*glob.Glob
	for _, p := range pats {
		q := p
		for {
			if s, ok := strings.CutPrefix(q, "./"); ok {
				q = s
			} else if s, ok := strings.CutPrefix(q, "/"); ok {
				q = s
			} else {
				break
			}
		}
		q = strings.TrimRight(q, "/")
		if q == "" {
			return nil, fmt.Errorf("walk: invalid %s pattern %q: it matches nothing", kind, p)
		}
		g, err := glob.Compile(q)
		if errors.Is(err, glob.ErrBadPattern) {
			return nil, fmt.Errorf("walk: invalid %s pattern %q: %w", kind, p, err)
		}
		if err != nil {
			return nil, fmt.Errorf("walk: %s pattern: %w", kind, err)
		}
		out = append(out, g)
	}
	return out, nil
}
