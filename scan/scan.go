// Package scan runs protoscan over a repository: it walks the tree (see
// scan/walk), reads and parses files on all cores, runs the analyzers over
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
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/protoscan/protoscan/analyzers/divergence"
	"github.com/protoscan/protoscan/analyzers/enumdrift"
	"github.com/protoscan/protoscan/baseline"
	"github.com/protoscan/protoscan/finding"
	"github.com/protoscan/protoscan/languages/extract"
	"github.com/protoscan/protoscan/messages"
	"github.com/protoscan/protoscan/scan/walk"
	"github.com/protoscan/protoscan/suppress"
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
	// relative to the root); a scan of several roots sets it per root.
	Prefix string
}

// Stats count what a scan did.
type Stats struct {
	Files      int // files of a language protoscan reads
	Parsed     int // of those, files the prefilter let through
	OtherFiles int // files of other types, not read
	Candidates int // functions divergence found to implement a protocol decision
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

// Rules for the scan's own notices, beside those of scan/walk.
const (
	RuleParseError = "protoscan/parse-error"
	RuleBinary     = "protoscan/binary"
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
	files := make(chan walk.File, 4*workers)
	results := make([][]finding.Finding, workers)
	cands := make([][]divergence.Candidate, workers)
	outs := make([]fileOut, workers)
	stats := make([]Stats, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for f := range files {
				if ctx.Err() != nil {
					continue // drain
				}
				var out []finding.Finding
				var cs []divergence.Candidate
				out, cs, buf = scanFile(f, opts, pre, maxSize, buf, &stats[w], &outs[w])
				if opts.Progress != nil {
					opts.Progress.Add(1)
				}
				results[w] = append(results[w], out...)
				cands[w] = append(cands[w], cs...)
			}
		}()
	}
	var notices []finding.Finding
	err := walk.Stream(ctx, root, opts.Walk, walk.Handler{
		File: func(f walk.File) error {
			select {
			case files <- f:
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
	})
	close(files)
	wg.Wait()
	res := &Result{Findings: notices, Directives: map[string][]suppress.Directive{}}
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
	}
	res.Stats.Candidates = len(all)
	if opts.Divergence != nil {
		// divergence compares functions across files, so it runs once
		// every file is read; Cluster does not depend on the order of all
		clusters := divergence.Cluster(all, opts.Divergence)
		stampFromFiles(clusters, root, opts.Prefix, maxSize)
		res.Findings = append(res.Findings, clusters...)
	}
	for i := range res.Findings {
		if f := &res.Findings[i]; f.Fingerprint == "" { // notices about whole files
			f.Fingerprint = baseline.Fingerprint(f.Rule, f.Path, nil)
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

// fileOut collects, per worker, what files yield besides findings.
type fileOut struct {
	messages   []messages.Outcome
	statuses   []enumdrift.StatusUse
	directives map[string][]suppress.Directive
}

// stamp gives the findings of one file their fingerprints, from the text
// of the lines they flag.
func stamp(fs []finding.Finding, src []byte) {
	for i := range fs {
		fs[i].Fingerprint = baseline.Fingerprint(fs[i].Rule, fs[i].Path, baseline.LineText(src, fs[i].Line))
	}
}

// stampFromFiles stamps findings made after the files were read (the
// divergence clusters), reading each flagged file once more.
func stampFromFiles(fs []finding.Finding, root, prefix string, maxSize int64) {
	srcs := map[string][]byte{}
	for i := range fs {
		p := fs[i].Path
		src, ok := srcs[p]
		if !ok {
			rel := strings.TrimPrefix(strings.TrimPrefix(p, prefix), "/")
			src, _ = readFile(filepath.Join(root, filepath.FromSlash(rel)), maxSize)
			srcs[p] = src
		}
		fs[i].Fingerprint = baseline.Fingerprint(fs[i].Rule, p, baseline.LineText(src, fs[i].Line))
	}
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

// scanFile reads, filters, parses and analyzes one file: it returns the
// file's findings and its divergence candidates.
func scanFile(f walk.File, opts Options, pre *enumdrift.Prefilter, maxSize int64, buf []byte, st *Stats, fo *fileOut) ([]finding.Finding, []divergence.Candidate, []byte) {
	rel := join(opts.Prefix, f.Rel)
	lang := extract.Language(f.Rel)
	if lang == "" {
		st.OtherFiles++
		return nil, nil, buf
	}
	st.Files++
	src, err := readFile(f.Path, maxSize)
	if err != nil {
		var tooLarge *tooLargeError
		if errors.As(err, &tooLarge) {
			return []finding.Finding{{Rule: walk.RuleTooLarge, Severity: finding.Warning, Location: finding.Location{Path: rel},
				Message: walk.TooLargeMessage(tooLarge.size, maxSize)}}, nil, buf
		}
		return []finding.Finding{notice(opts.Prefix, walk.UnreadableNotice(f.Rel, err))}, nil, buf
	}
	if walk.IsBinary(src) {
		return []finding.Finding{{Rule: RuleBinary, Severity: finding.Note, Location: finding.Location{Path: rel},
			Message: "binary file with a source file name; not scanned"}}, nil, buf
	}
	if bytes.Contains(src, suppressMarker) {
		if fo.directives == nil {
			fo.directives = map[string][]suppress.Directive{}
		}
		fo.directives[rel] = suppress.Parse(lang, src)
	}
	drift, diverge, validate := false, false, false
	if pre != nil {
		drift, buf = pre.Match(f.Rel, src, buf) // leaves src lower-cased in buf
	} else {
		buf = lowerASCII(buf, src)
	}
	if opts.Divergence != nil && (lang == "go" || lang == "python" || lang == "markdown") {
		diverge = opts.Divergence.MayHaveCandidates(f.Rel, buf)
	}
	if opts.Messages != nil && lang != "go" {
		validate = opts.Messages.MayHaveMessages(f.Rel, buf)
	}
	if !drift && !diverge && !validate {
		return nil, nil, buf
	}
	st.Parsed++
	facts, err := extract.File(rel, src)
	var out []finding.Finding
	if err != nil {
		out = append(out, finding.Finding{Rule: RuleParseError, Severity: finding.Warning, Location: finding.Location{Path: rel},
			Message: fmt.Sprintf("cannot parse all of the file, findings may be missing: %v", err)})
	}
	if drift {
		found, uses := enumdrift.Survey(facts, opts.Vocabulary)
		out = append(out, found...)
		fo.statuses = append(fo.statuses, uses...)
	}
	if validate {
		found, outcomes := opts.Messages.Check(facts)
		out = append(out, sameProblemOnce(out, found)...)
		fo.messages = append(fo.messages, outcomes...)
	}
	stamp(out, src)
	var cands []divergence.Candidate
	if diverge {
		cands = divergence.Candidates(facts, opts.Divergence)
		st.Candidates += len(cands)
	}
	return out, cands, buf
}

// sameProblemOnce drops the message findings at the place of an
// enumdrift finding: a drifted status in a HANDBACK fixture is one
// problem, reported once, by the rule that knows the canonical spelling
// and offers the fix.
func sameProblemOnce(drift, msgs []finding.Finding) []finding.Finding {
	if len(drift) == 0 {
		return msgs
	}
	at := map[finding.Location]bool{}
	for _, d := range drift {
		at[finding.Location{Line: d.Line, Col: d.Col}] = true
	}
	kept := msgs[:0]
	for _, m := range msgs {
		if !at[finding.Location{Line: m.Line, Col: m.Col}] {
			kept = append(kept, m)
		}
	}
	return kept
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

// readFile reads a whole file but never more than limit bytes: a file may
// have grown since the walk measured it.
func readFile(name string, limit int64) ([]byte, error) {
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
