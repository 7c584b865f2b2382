// Package scan runs protoscan over a repository: it walks the tree (see
// internal/scan/walk), reads and parses files on all cores, runs the analyzers over
// each file's facts and returns the findings in a deterministic order.
//
// Data flows one way: walk -> per file, in parallel: read, prefilter,
// extract facts, analyze -> sort. Nothing here renders or decides exit
// codes.
package scan

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/protoscan-dev/protoscan/analyzers/divergence"
	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/baseline"
	"github.com/protoscan-dev/protoscan/internal/fix"
	"github.com/protoscan-dev/protoscan/internal/messages"
	"github.com/protoscan-dev/protoscan/internal/scan/cache"
	"github.com/protoscan-dev/protoscan/internal/scan/walk"
	"github.com/protoscan-dev/protoscan/internal/suppress"
	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/languages/facts"
)

// Options configure a scan.
type Options struct {
	Walk walk.Options
	// Workers is the number of files read and parsed at once; 0 means one
	// per CPU.
	Workers int
	// Vocabulary is the HANDBACK status enum from the spec in effect; nil
	// turns enumdrift off.
	Vocabulary *enumdrift.Vocabulary
	// Divergence is the divergence model from the spec in effect; nil
	// turns divergence off.
	Divergence *divergence.Model
	// Messages validates the protocol messages found in data files,
	// Markdown and Python literals; nil turns message validation off.
	Messages *messages.Checker
	// Progress, when set, is incremented for every file read, for a
	// progress display.
	Progress *atomic.Int64
	// Prefix is put before every path in the findings ("" for paths
	// relative to the root): the CLI names files as the user reaches
	// them, relative to the working directory.
	Prefix string
	// KeyPrefix is the root's path relative to the repository root ("" for
	// the root itself), which is put before the paths the fingerprints
	// hash: a finding keeps its fingerprint (and its baseline entry)
	// wherever the scan was started and whichever PATH reached it.
	KeyPrefix string
	// Cache, when set, keeps each file's results between runs (see
	// package internal/scan/cache): a file whose path and content hash (or
	// settled size, times and inode) are in it is not parsed again, and
	// the result is the same as without it. CacheKey must then name all
	// else the results depend on: the spec, config, analyzers and options
	// Vocabulary, Divergence and Messages were made with (Run adds the
	// root, Prefix, the size limit and which analyzers are on).
	Cache    *cache.Dir
	CacheKey string
	// AssumeEvidence takes the tree to show protocol evidence whatever
	// its files hold (see dropShared): the user declared the protocol (a
	// spec or synonyms named by flag or config), or the tree is a part of
	// a repository whose other files may show it.
	AssumeEvidence bool
	// tests are the tests other files make of a file's collections, by
	// the file's path as findings name it (see learnAliases).
	tests map[string][]facts.Test
}

// Stats count what a scan did.
type Stats struct {
	Files      int // files of a language protoscan reads
	Parsed     int // of those, files the prefilter let through
	OtherFiles int // files of other types, not read
	Candidates int // functions divergence found to implement a protocol decision
	// Walked counts the files the walk handed to the workers; when the
	// scan is cancelled, Files+OtherFiles of them were scanned, and the
	// walk had not found the rest of the tree.
	Walked int
	// Excluded counts the paths the walk left out on purpose, by reason
	// (a directory counts once): what explains a scan that read no file.
	Excluded Excluded
	// With a cache: Extracted files were parsed by this run (Parsed counts
	// those the cache answered for too), Cached had their results from
	// the cache, Unread of those without being read (the stat shortcut).
	Extracted, Cached, Unread int
}

// Excluded counts excluded paths by the walk's reason.
type Excluded struct {
	Exclude   int // an exclude glob (--exclude, the config's exclude)
	Gitignore int // .gitignore
	Default   int // the default excludes (.git, node_modules, vendor...)
	Other     int // not a regular file
}

// Add adds the counts of x to e.
func (e *Excluded) Add(x Excluded) {
	e.Exclude += x.Exclude
	e.Gitignore += x.Gitignore
	e.Default += x.Default
	e.Other += x.Other
}

// Result is the outcome of a scan.
type Result struct {
	Findings []finding.Finding // sorted by path, line, column, rule
	Stats    Stats
	// Messages holds the verdict on every message found, Statuses every
	// literal enumdrift judged a HANDBACK status; both sorted by place.
	Messages []messages.Outcome
	Statuses []enumdrift.StatusUse
	// Directives are the protoscan:ignore comments of every file read,
	// by path (as findings name it); the findings are not filtered by
	// them yet (see package suppress).
	Directives map[string][]suppress.Directive
}

// Rules for the scan's own notices, beside those of internal/scan/walk.
const (
	RuleParseError = "protoscan/parse-error"
	RuleBinary     = "protoscan/binary"
	RuleMinified   = "protoscan/minified"
)

// Run scans root. A cancelled context stops it promptly and returns the
// findings so far with ctx.Err().
func Run(ctx context.Context, root string, opts Options) (*Result, error) {
	if opts.Vocabulary == nil && opts.Divergence == nil && opts.Messages == nil {
		return nil, errors.New("scan: no analyzer")
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	maxSize := opts.Walk.MaxFileSize
	if maxSize == 0 {
		maxSize = walk.DefaultMaxFileSize
	}
	var pre *enumdrift.Prefilter
	if opts.Vocabulary != nil {
		pre = enumdrift.NewPrefilter(opts.Vocabulary)
	}
	var cs *cache.Set[fileResult]
	start := time.Now() // before the walk stats any file
	// The cache loads while the walk starts: a warm scan is mostly the
	// walk, and the workers need the cache only for their first file.
	loaded := make(chan struct{})
	if opts.Cache != nil {
		go func() {
			defer close(loaded)
			cs = cache.Load[fileResult](opts.Cache, cacheKey(root, opts, maxSize))
		}()
	} else {
		close(loaded)
	}
	// room for the files the walk finds while the cache loads
	files := make(chan walk.File, max(4*workers, 1024))
	results := make([][]finding.Finding, workers)
	cands := make([][]divergence.Candidate, workers)
	outs := make([]fileOut, workers)
	stats := make([]Stats, workers)
	var wg sync.WaitGroup
	var cut atomic.Bool // files were left unscanned after a cancellation
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-loaded
			var buf []byte
			for f := range files {
				if ctx.Err() != nil {
					cut.Store(true)
					continue // drain
				}
				var out []finding.Finding
				var fc []divergence.Candidate
				out, fc, buf = scanFile(f, opts, pre, maxSize, buf, &stats[w], &outs[w], cs, start)
				if opts.Progress != nil {
					opts.Progress.Add(1)
				}
				results[w] = append(results[w], out...)
				cands[w] = append(cands[w], fc...)
			}
		}()
	}
	var notices []finding.Finding
	walked := 0
	tree := &constTree{ctx: ctx, root: root, prefix: opts.Prefix, maxSize: maxSize}
	var excluded Excluded
	err := walk.Stream(ctx, root, opts.Walk, walk.Handler{
		File: func(f walk.File) error {
			if opts.Divergence != nil || opts.Vocabulary != nil {
				tree.add(f)
			}
			select {
			case files <- f:
				walked++
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		},
		Notice: func(n walk.Notice) {
			// a too-large file of a type protoscan never reads is not a loss
			if n.Rule == walk.RuleTooLarge && extract.Language(n.Rel) == "" {
				return
			}
			notices = append(notices, notice(opts.Prefix, n))
		},
		Excluded: func(x walk.Excluded) {
			switch x.Reason {
			case walk.ReasonExclude:
				excluded.Exclude++
			case walk.ReasonGitignore:
				excluded.Gitignore++
			case walk.ReasonDefault:
				excluded.Default++
			default:
				excluded.Other++
			}
		},
	})
	close(files)
	wg.Wait()
	<-loaded
	if err == nil && cut.Load() {
		// the walk can end before the cancellation while its files
		// still wait in the queue
		err = ctx.Err()
	}
	if cs != nil && err == nil && ctx.Err() == nil { // only a whole scan
		cs.Save() // best effort: a cache that cannot be written costs time, not results
	}
	res := &Result{Findings: notices, Directives: map[string][]suppress.Directive{}}
	res.Stats.Walked, res.Stats.Excluded = walked, excluded
	var all []divergence.Candidate
	for w := range results {
		res.Findings = append(res.Findings, results[w]...)
		all = append(all, cands[w]...)
		res.Messages = append(res.Messages, outs[w].messages...)
		res.Statuses = append(res.Statuses, outs[w].statuses...)
		for p, ds := range outs[w].directives {
			res.Directives[p] = ds
		}
		res.Stats.Files += stats[w].Files
		res.Stats.Parsed += stats[w].Parsed
		res.Stats.OtherFiles += stats[w].OtherFiles
		res.Stats.Extracted += stats[w].Extracted
		res.Stats.Cached += stats[w].Cached
		res.Stats.Unread += stats[w].Unread
	}
	res.Stats.Candidates = len(all)
	if opts.Vocabulary != nil && err == nil {
		var tables []enumdrift.AliasTable
		var unknown []unexplained
		var imported []importedTests
		for w := range outs {
			tables = append(tables, outs[w].tables...)
			unknown = append(unknown, outs[w].unknown...)
			imported = append(imported, outs[w].imported...)
		}
		learnAliases(ctx, root, opts, maxSize, res, tables, unknown, testsOfImports(imported, tree))
		shown := opts.AssumeEvidence
		for w := range outs {
			shown = shown || outs[w].evidence
		}
		if !shown && hasShared(res, opts.Vocabulary) && !lookForEvidence(ctx, opts, maxSize, outs) {
			dropShared(res, opts.Vocabulary)
		}
	}
	if opts.Divergence != nil {
		// divergence compares functions across files, so it runs once
		// every file is read; Cluster does not depend on the order of all
		if hasRefs(all) {
			divergence.Resolve(all, tree)
		}
		clusters := divergence.Cluster(all, opts.Divergence)
		stampFromFiles(clusters, root, opts, maxSize)
		res.Findings = append(res.Findings, clusters...)
	}
	for i := range res.Findings {
		if f := &res.Findings[i]; f.Fingerprint == "" { // notices about whole files
			f.Fingerprint = baseline.Fingerprint(f.Rule, KeyPath(f.Path, opts.Prefix, opts.KeyPrefix), nil)
		}
	}
	finding.Sort(res.Findings)
	slices.SortFunc(res.Messages, func(a, b messages.Outcome) int { return compareLoc(a.Location, b.Location) })
	slices.SortFunc(res.Statuses, func(a, b enumdrift.StatusUse) int { return compareLoc(a.Location, b.Location) })
	return res, err
}

func compareLoc(a, b finding.Location) int {
	return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
}

// learnAliases applies the repository's alias tables (see
// enumdrift.AliasTable) across files: a file whose spellings of an enum
// an alias table of another file explains is analyzed again with all the
// tables, and its results replace those of the first pass. Tables are
// taken in path order, so the result does not depend on which worker read
// which file. Only the files that need it are read again.
//
// tests are the tests other files make of a file's collections (see
// testsOfImports): such a file is analyzed again with them, whatever its
// prefilter says.
func learnAliases(ctx context.Context, root string, opts Options, maxSize int64, res *Result, tables []enumdrift.AliasTable, unknown []unexplained, tests map[string][]facts.Test) {
	if (len(tables) == 0 || len(unknown) == 0) && len(tests) == 0 {
		return
	}
	slices.SortFunc(tables, func(a, b enumdrift.AliasTable) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	learned := opts.Vocabulary.WithAliases(tables)
	again := opts
	again.Vocabulary = learned
	again.tests = tests
	pre := enumdrift.NewPrefilter(learned)
	var todo []string
	for _, u := range unknown {
		if len(tables) > 0 && learned.Explains(u.words) {
			todo = append(todo, u.rel)
		}
	}
	for rel := range tests {
		todo = append(todo, rel)
	}
	slices.Sort(todo)
	todo = slices.Compact(todo)
	redo := map[string]*fileResult{}
	var buf []byte
	var st Stats
	for _, rel := range todo {
		if ctx.Err() != nil {
			return
		}
		name := strings.TrimPrefix(strings.TrimPrefix(rel, opts.Prefix), "/")
		src, err := readFile(filepath.Join(root, filepath.FromSlash(name)), maxSize)
		if err != nil {
			continue // the first pass's results stand
		}
		lang := extract.ForPath(name)
		if lang == nil {
			continue
		}
		var r *fileResult
		r, buf = analyzeFile(name, rel, lang, src, again, pre, buf, &st)
		redo[rel] = r
	}
	if len(redo) == 0 {
		return
	}
	// the file's whole result is replaced: a message finding gives way to
	// the drift finding at its place (see sameProblemOnce)
	res.Findings = slices.DeleteFunc(res.Findings, func(f finding.Finding) bool { return redo[f.Path] != nil })
	res.Statuses = slices.DeleteFunc(res.Statuses, func(u enumdrift.StatusUse) bool { return redo[u.Path] != nil })
	res.Messages = slices.DeleteFunc(res.Messages, func(o messages.Outcome) bool { return redo[o.Path] != nil })
	for _, rel := range slices.Sorted(maps.Keys(redo)) {
		res.Findings = append(res.Findings, redo[rel].Findings...)
		res.Statuses = append(res.Statuses, redo[rel].Statuses...)
		res.Messages = append(res.Messages, redo[rel].Messages...)
	}
}

// hasShared reports drift of everyone's words among the results, which
// only protocol evidence somewhere in the tree keeps (see dropShared).
func hasShared(res *Result, v *enumdrift.Vocabulary) bool {
	return slices.ContainsFunc(res.Findings, v.Shared) || slices.ContainsFunc(res.Statuses, v.SharedUse)
}

// lookForEvidence reads the files the prefilters passed over for
// protocol evidence (a README's HANDBACK, a queue of messages when
// messages are not validated), on every core, until one shows it. It
// runs after the walk and only for a tree whose parsed files show none
// and whose results hold drift of everyone's words: most trees never pay
// for it.
func lookForEvidence(ctx context.Context, opts Options, maxSize int64, outs []fileOut) bool {
	var found atomic.Bool
	paths := make(chan walk.File)
	var wg sync.WaitGroup
	for range len(outs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for f := range paths {
				if found.Load() || ctx.Err() != nil {
					continue // drain
				}
				src, err := readFile(f.Path, maxSize)
				if err != nil || walk.IsBinary(src) {
					continue
				}
				buf = lowerASCII(buf, src)
				v := opts.Vocabulary
				if !v.MayShowEvidence(buf) {
					continue
				}
				ev := v.Evidence(nil, src)
				if !ev {
					facts, _ := extract.Parse(f.Rel, src)
					ev = v.Evidence(facts, nil)
				}
				if ev {
					found.Store(true)
				}
			}
		}()
	}
	for w := range outs {
		for _, f := range outs[w].unparsed {
			if found.Load() {
				break
			}
			paths <- f
		}
	}
	close(paths)
	wg.Wait()
	return found.Load()
}

// dropShared drops, from the results of a tree that shows no protocol
// evidence in any file (package msgcheck/evidence), the drift of
// everyone's words (enumdrift.Vocabulary.Shared): a task board's
// complete, partial and blocked are its own words. Findings in messages
// stay: a message is evidence.
func dropShared(res *Result, v *enumdrift.Vocabulary) {
	res.Findings = slices.DeleteFunc(res.Findings, v.Shared)
	res.Statuses = slices.DeleteFunc(res.Statuses, v.SharedUse)
}

// fileOut collects, per worker, what files yield besides findings.
type fileOut struct {
	// evidence is set when a file shows protocol evidence; unparsed are
	// the files the prefilters passed over (as findings name them), whose
	// evidence is looked for only when the tree needs it
	evidence   bool
	unparsed   []walk.File
	messages   []messages.Outcome
	statuses   []enumdrift.StatusUse
	directives map[string][]suppress.Directive
	tables     []enumdrift.AliasTable
	unknown    []unexplained
	imported   []importedTests
}

// importedTests are the tests a file makes of collections it imports
// (enumdrift.Result.Imported).
type importedTests struct {
	rel, lang string // as findings name the file; its language
	tests     []facts.Test
}

// unexplained is a file with spellings of an enum no alias explains.
type unexplained struct {
	rel   string // as findings name the file
	words []string
}

// stamp gives the findings of one file their fingerprints, from the text
// of the lines they flag. The lines are indexed once and each (rule, path,
// line) is hashed once: many findings on one long line (minified JSON)
// would otherwise cost findings x file size.
func stamp(fs []finding.Finding, src []byte, opts Options) {
	if len(fs) == 0 {
		return
	}
	lines := baseline.NewLines(src)
	type key struct {
		rule, path string
		line       int
	}
	done := map[key]string{}
	for i := range fs {
		f := &fs[i]
		k := key{f.Rule, f.Path, f.Line}
		fp, ok := done[k]
		if !ok {
			fp = baseline.Fingerprint(f.Rule, KeyPath(f.Path, opts.Prefix, opts.KeyPrefix), lines.Text(f.Line))
			done[k] = fp
		}
		f.Fingerprint = fp
	}
}

// stampFromFiles stamps findings made after the files were read (the
// divergence clusters), reading each flagged file once more.
func stampFromFiles(fs []finding.Finding, root string, opts Options, maxSize int64) {
	if fi, err := os.Stat(root); err == nil && !fi.IsDir() {
		root = filepath.Dir(root) // a file root: paths are its base name
	}
	srcs := map[string]*baseline.Lines{}
	for i := range fs {
		p := fs[i].Path
		lines, ok := srcs[p]
		if !ok {
			src, _ := readFile(filepath.Join(root, filepath.FromSlash(rootRel(p, opts.Prefix))), maxSize)
			lines = baseline.NewLines(src)
			srcs[p] = lines
		}
		fs[i].Fingerprint = baseline.Fingerprint(fs[i].Rule, KeyPath(p, opts.Prefix, opts.KeyPrefix), lines.Text(fs[i].Line))
	}
}

// rootRel is the path relative to the root of p, a path under prefix.
func rootRel(p, prefix string) string {
	if prefix == "" {
		return p
	}
	if rel, ok := strings.CutPrefix(p, prefix); ok && (rel == "" || rel[0] == '/') {
		return strings.TrimPrefix(rel, "/")
	}
	if prefix == "/" {
		return strings.TrimPrefix(p, "/")
	}
	return p
}

// KeyPath is the path fingerprints hash for p, a path findings name under
// prefix (Options.Prefix): p under keyPrefix (Options.KeyPrefix) instead.
func KeyPath(p, prefix, keyPrefix string) string {
	return join(keyPrefix, rootRel(p, prefix))
}

func notice(prefix string, n walk.Notice) finding.Finding {
	sev := finding.Warning
	if n.Rule == walk.RuleSymlinkSkipped {
		sev = finding.Note
	}
	return finding.Finding{Rule: n.Rule, Severity: sev, Location: finding.Location{Path: join(prefix, n.Rel)}, Message: n.Message}
}

func join(prefix, rel string) string {
	if prefix == "" {
		return rel
	}
	return path.Join(prefix, rel)
}

// scanFile reads, filters, parses and analyzes one file, or finds its
// results in the cache: it returns the file's findings and its divergence
// candidates.
//
// With a cache, the file's identity is the walk's Lstat, taken before the
// file is read (a change after it gives another identity) and after
// start, the clock the cache judges identities settled by.
func scanFile(f walk.File, opts Options, pre *enumdrift.Prefilter, maxSize int64, buf []byte, st *Stats, fo *fileOut, cs *cache.Set[fileResult], start time.Time) ([]finding.Finding, []divergence.Candidate, []byte) {
	rel := join(opts.Prefix, f.Rel)
	lang := extract.ForPath(f.Rel)
	if lang == nil {
		st.OtherFiles++
		return nil, nil, buf
	}
	st.Files++
	var id cache.FileID
	var hasID bool
	if cs != nil && f.Info != nil {
		id, hasID = cache.Identify(f.Info)
		if hasID {
			if r, ok := cs.Stat(rel, id); ok {
				st.Cached++
				st.Unread++
				out, cands := r.apply(rel, st, fo)
				fo.passedOver(f, r)
				return out, cands, buf
			}
		}
	}
	src, err := readFile(f.Path, maxSize)
	if err != nil {
		var tooLarge *tooLargeError
		if errors.As(err, &tooLarge) {
			return []finding.Finding{{Rule: walk.RuleTooLarge, Severity: finding.Warning, Location: finding.Location{Path: rel},
				Message: walk.TooLargeMessage(tooLarge.size, maxSize)}}, nil, buf
		}
		return []finding.Finding{notice(opts.Prefix, walk.UnreadableNotice(f.Rel, err))}, nil, buf
	}
	var sum cache.Sum
	if cs != nil {
		sum = cache.SumOf(src)
		if r, ok := cs.Hash(rel, sum, id, hasID, start); ok {
			st.Cached++
			out, cands := r.apply(rel, st, fo)
			fo.passedOver(f, r)
			return out, cands, buf
		}
	}
	r, buf := analyzeFile(f.Rel, rel, lang, src, opts, pre, buf, st)
	if cs != nil {
		keep := r
		if r.empty() {
			keep = nil
		}
		cs.Put(rel, sum, id, hasID, start, keep)
	}
	out, cands := r.apply(rel, st, fo)
	fo.passedOver(f, r)
	return out, cands, buf
}

// passedOver records f when the prefilters passed over it (r is nil or
// not parsed), for lookForEvidence.
func (fo *fileOut) passedOver(f walk.File, r *fileResult) {
	if r == nil || !r.Parsed {
		fo.unparsed = append(fo.unparsed, walk.File{Path: f.Path, Rel: f.Rel})
	}
}

// fileResult is what one file yields: what the cache keeps of it (the
// fields are exported for encoding/gob).
type fileResult struct {
	Parsed     bool // the prefilter let the file through
	Findings   []finding.Finding
	Candidates []divergence.Candidate
	Messages   []messages.Outcome
	Statuses   []enumdrift.StatusUse
	// Tables are the file's alias tables; Unknown the spellings it binds
	// to an enum that no alias explains (see enumdrift.Result).
	Tables   []enumdrift.AliasTable
	Unknown  []string
	Imported []facts.Test
	// HasDirectives is set when the file holds the suppression marker,
	// even if Directives is empty.
	HasDirectives bool
	Directives    []suppress.Directive
	// Evidence is set when the file shows protocol evidence of a kind of
	// the vocabulary's specs (enumdrift.Vocabulary.Evidence).
	Evidence bool
}

func (r *fileResult) empty() bool {
	return !r.Parsed && !r.HasDirectives && len(r.Findings) == 0 && len(r.Candidates) == 0 && len(r.Messages) == 0 && len(r.Statuses) == 0 &&
		len(r.Tables) == 0 && len(r.Unknown) == 0 && len(r.Imported) == 0 && !r.Evidence
}

// apply counts r in st and files its outcomes in fo; r may be nil (a file
// with no result) and is not modified.
func (r *fileResult) apply(rel string, st *Stats, fo *fileOut) ([]finding.Finding, []divergence.Candidate) {
	if r == nil {
		return nil, nil
	}
	if r.Parsed {
		st.Parsed++
	}
	if r.HasDirectives {
		if fo.directives == nil {
			fo.directives = map[string][]suppress.Directive{}
		}
		fo.directives[rel] = r.Directives
	}
	fo.evidence = fo.evidence || r.Evidence
	fo.messages = append(fo.messages, r.Messages...)
	fo.statuses = append(fo.statuses, r.Statuses...)
	fo.tables = append(fo.tables, r.Tables...)
	if len(r.Unknown) > 0 {
		fo.unknown = append(fo.unknown, unexplained{rel: rel, words: r.Unknown})
	}
	if len(r.Imported) > 0 {
		if l := extract.ForPath(rel); l != nil {
			fo.imported = append(fo.imported, importedTests{rel: rel, lang: l.Name, tests: r.Imported})
		}
	}
	st.Candidates += len(r.Candidates)
	return r.Findings, r.Candidates
}

// analyzeFile filters, parses and analyzes the bytes of one file; name
// is its path relative to the root, rel as findings name it.
//
// A YAML file with a line that starts with a template action (Helm's
// "{{- include ... }}", Jinja's "{% if %}") is YAML only once rendered:
// that it does not parse is expected, and not reported. A GitHub
// expression, ${{ ... }}, is inside a value and does not count.
func analyzeFile(name, rel string, lang *extract.Lang, src []byte, opts Options, pre *enumdrift.Prefilter, buf []byte, st *Stats) (*fileResult, []byte) {
	r := &fileResult{}
	if walk.IsBinary(src) {
		r.Findings = []finding.Finding{{Rule: RuleBinary, Severity: finding.Note, Location: finding.Location{Path: rel},
			Message: "binary file with a source file name; not scanned"}}
		return r, buf
	}
	if bytes.Contains(src, suppressMarker) {
		r.HasDirectives = true
		r.Directives = suppress.Parse(lang.Comments, src, extract.FenceComments)
	}
	drift, diverge, validate := false, false, false
	if pre != nil {
		drift, buf = pre.Match(name, lang.QuotedStrings, src, buf) // leaves src lower-cased in buf
	} else {
		buf = lowerASCII(buf, src)
	}
	// another file tests a collection of this one
	drift = drift || len(opts.tests[rel]) > 0
	if opts.Divergence != nil && lang.Divergence {
		diverge = opts.Divergence.MayHaveCandidates(name, buf)
	}
	if opts.Messages != nil && lang.Messages {
		validate = opts.Messages.MayHaveMessages(name, buf)
	}
	if opts.Divergence != nil && lang.Bands && divergence.MayHaveBands(buf) {
		// a document's escalation bands are compared with the code's
		r.Candidates = divergence.Bands(rel, src)
	}
	if !drift && !diverge && !validate {
		// its evidence is looked for only if the tree needs it (see
		// lookForEvidence)
		return r, buf
	}
	if lang.Minified != nil && lang.Minified(name, src) {
		// generated, not written: said only of a file that would be read
		r.Findings = []finding.Finding{{Rule: RuleMinified, Severity: finding.Note, Location: finding.Location{Path: rel},
			Message: "minified or bundled file; not scanned"}}
		return r, buf
	}
	r.Parsed = true
	st.Extracted++
	facts, broken := extract.Parse(rel, src)
	r.Evidence = opts.Vocabulary != nil && opts.Vocabulary.MayShowEvidence(buf) && opts.Vocabulary.Evidence(facts, src)
	out := parseProblems(rel, lang.Name, src, broken, opts.Messages)
	if drift {
		dr := enumdrift.AnalyzeWith(facts, opts.Vocabulary, opts.tests[rel])
		out = append(out, dr.Findings...)
		r.Statuses, r.Tables, r.Unknown, r.Imported = dr.Statuses, dr.Tables, dr.Unknown, dr.Imported
	}
	if validate {
		found, outcomes := opts.Messages.Check(facts)
		messages.KeyFixes(src, found)
		out = sameProblemOnce(out, found, outcomes)
		r.Messages = outcomes
	}
	if diverge {
		// a format is judged in its file: the spec is what it is compared with
		out = append(out, divergence.Formats(facts, opts.Divergence)...)
	}
	// a fix that would break the file is not offered, in any report
	fix.Vet(src, out, containersOf(name))
	stamp(out, src, opts)
	r.Findings = out
	if diverge {
		cands := divergence.CandidatesIn(facts, src, opts.Divergence)
		for i := range cands {
			// a document's code illustrates: compared, never a copy
			cands[i].Doc = cands[i].Doc || lang.Prose
		}
		r.Candidates = append(r.Candidates, cands...)
	}
	return r, buf
}

// parseProblems reports the broken parts of a file (see extract.Parse),
// each once, at its line: a part that looks like a message (see
// messages.Checker.LooksLikeMessage) is an error, since a message that
// cannot be read cannot pass; any other a warning, its findings may be
// missing. A part of a Markdown block is an example in prose: it is
// reported only when it looks like a message by its marker, its kind or
// a kind's fields as its own keys (messages.Checker.LooksLikeMessageAtTop),
// not by the task_id and status of records nested in it; nor is any part of a YAML file,
// or block, with template lines (see analyzeFile). A whole file (code,
// input over the size limit) is a warning.
func parseProblems(rel, lang string, src []byte, broken []extract.Broken, mc *messages.Checker) []finding.Finding {
	if len(broken) == 0 || lang == "yaml" && templateLine.Match(src) {
		return nil
	}
	var out []finding.Finding
	for _, b := range broken {
		if b.Raw == nil {
			out = append(out, finding.Finding{Rule: RuleParseError, Severity: finding.Warning, Location: finding.Location{Path: rel},
				Message: fmt.Sprintf("cannot parse all of the file, findings may be missing: %v", b.Err)})
			continue
		}
		// a document's block is an example in prose: a kind's fields
		// make it a message only as its own keys, not nested in records
		looks := mc != nil && (b.Block && mc.LooksLikeMessageAtTop(b.Raw) || !b.Block && mc.LooksLikeMessage(b.Raw))
		if b.Block && (!looks || templateLine.Match(b.Raw)) {
			continue
		}
		f := finding.Finding{Rule: RuleParseError, Severity: finding.Warning, Location: finding.Location{Path: rel, Line: b.Line, Col: b.Col},
			Message: fmt.Sprintf("cannot parse this %s, findings in it may be missing: %s", b.Part, b.Why())}
		if looks {
			f.Severity = finding.Error
			f.Message = fmt.Sprintf("cannot parse this %s, which looks like a protocol message, so it was not checked: %s", b.Part, b.Why())
		}
		out = append(out, f)
	}
	return out
}

// containersOf parses a version of the file name, for fix.Vet.
func containersOf(name string) fix.Containers {
	return func(src []byte) ([]facts.Container, error) { return extract.Containers(name, src) }
}

// cacheKey is the key of root's Set in the cache.
func cacheKey(root string, opts Options, maxSize int64) cache.Key {
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = root
	}
	on := func(b bool) string {
		if b {
			return "1"
		}
		return "0"
	}
	return cache.NewKey("scan", abs, opts.Prefix, opts.KeyPrefix, strconv.FormatInt(maxSize, 10),
		on(opts.Vocabulary != nil)+on(opts.Divergence != nil)+on(opts.Messages != nil), opts.CacheKey)
}

// sameProblemOnce merges the enumdrift and message findings of a file: a
// drifted value in a message fixture is one problem, reported once, under
// one rule id, which the messages' outcomes carry too. The drift finding
// wins when it knows the canonical spelling (it offers the fix) or is
// about the HANDBACK status, and then stands for the message finding
// (Finding.StandsFor); the message finding wins over an unknown value of
// another enum (its rule names the kind and field).
func sameProblemOnce(drift, msgs []finding.Finding, outcomes []messages.Outcome) []finding.Finding {
	if len(drift) == 0 || len(msgs) == 0 {
		return append(drift, msgs...)
	}
	type place struct{ line, col int }
	msgAt := map[place]string{}
	for _, m := range msgs {
		msgAt[place{m.Line, m.Col}] = m.Rule
	}
	driftAt := map[place]string{}
	out := drift[:0:0]
	for _, d := range drift {
		p := place{d.Line, d.Col}
		rule, clash := msgAt[p]
		if clash && d.Canonical == "" && d.Rule == enumdrift.RuleValueUnknown {
			continue
		}
		if clash {
			d.StandsFor = rule
		}
		driftAt[p] = d.Rule
		out = append(out, d)
	}
	for _, m := range msgs {
		if _, taken := driftAt[place{m.Line, m.Col}]; !taken {
			out = append(out, m)
		}
	}
	for _, o := range outcomes {
		for i, e := range o.Errors {
			if rule, taken := driftAt[place{e.Line, e.Col}]; taken {
				o.Errors[i].Rule = rule
			}
		}
	}
	return out
}

// lowerASCII copies src into buf with ASCII letters lower-cased.
func lowerASCII(buf, src []byte) []byte {
	buf = append(buf[:0], src...)
	for i, b := range buf {
		if 'A' <= b && b <= 'Z' {
			buf[i] = b + 'a' - 'A'
		}
	}
	return buf
}

// suppressMarker starts every suppression comment.
var suppressMarker = []byte("protoscan:")

type tooLargeError struct{ size int64 }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("file of %d bytes is over the limit", e.size)
}

// testHookRead, set by tests only, is called with the path of every file
// just before it is read: the seam to change the tree between the walk
// and the read (a file deleted or made unreadable during the scan).
var testHookRead func(name string)

// readFile reads a whole file but never more than limit bytes: a file may
// have grown since the walk measured it.
func readFile(name string, limit int64) ([]byte, error) {
	if testHookRead != nil {
		testHookRead(name)
	}
	fh, err := os.Open(filepath.FromSlash(name))
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var r io.Reader = fh
	if limit > 0 {
		r = io.LimitReader(fh, limit+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if limit > 0 && int64(len(data)) > limit {
		size := int64(len(data))
		if fi, err := fh.Stat(); err == nil {
			size = fi.Size()
		}
		return nil, &tooLargeError{size}
	}
	return data, nil
}

// templateLine matches a line that starts with a template action (see
// analyzeFile).
var templateLine = regexp.MustCompile(`(?m)^[ \t]*(\{\{|\{%)`)
