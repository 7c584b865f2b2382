package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/protoscan-dev/protoscan/audit"
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/baseline"
	"github.com/protoscan-dev/protoscan/internal/engine"
	"github.com/protoscan-dev/protoscan/internal/report"
	"github.com/protoscan-dev/protoscan/internal/textsafe"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// audit runs `protoscan audit PATH...`: a queue audit (see package audit).
func (e *env) audit(args []string) int {
	began := time.Now()
	// An audit's Go heap stays a few megabytes whatever the queue's size
	// (the index lives off the heap), so a collection frees little and
	// costs time: with the default of 100, two or three fell in an
	// audit of 100,000 messages, mostly while its JSON report was being
	// written. Collect at 4x the live heap instead of 2x, unless GOGC
	// says otherwise.
	if _, set := os.LookupEnv("GOGC"); !set {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var outputs []output
	formatFlag(fs, &outputs)
	specPath := specFlag(fs, " (default: docs/specs/protocol-core-v*.yaml under the root, else the embedded v1.0)")
	rootFlag := fs.String("root", "", "repository root `DIR` for skills/ lookups (default: nearest ancestor with .git, else the current directory)")
	failUnder := fs.String("fail-under", "", "exit 1 when compliance is under `PCT` percent (default: exit 1 on any invalid message)")
	verdicts := fs.String("verdicts", "", "write one line per message, 1 (valid) or 0 (invalid or malformed), in input order, to `FILE`")
	workers := fs.Int("j", 0, "messages validated at once (default: one per CPU)")
	timings := fs.Bool("timings", false, "print to stderr how long setting up, auditing (read, decode, validate, aggregate) and reporting took")
	var paths []string
	usage := "usage: protoscan audit [--format text|json|sarif|markdown[=FILE]] [--fail-under PCT] [--root DIR] [--spec F] [--verdicts FILE] [-j N] [--timings] PATH... (\"-\" reads JSON Lines from stdin)"
	if code, done := parseFlags(e, fs, usage, args, func(p string) { paths = append(paths, p) }); done {
		return code
	}
	if len(paths) == 0 {
		fmt.Fprintln(e.stderr, usage)
		return exitTrouble
	}
	// a PATH that is not there is a mistake, not an empty queue: no
	// compliance figure for the rest, which would read as the whole
	missing := false
	for _, p := range paths {
		if p == "-" {
			continue
		}
		if _, err := os.Lstat(p); err != nil {
			fmt.Fprintln(e.stderr, "protoscan audit:", textsafe.Error(err))
			missing = true
		}
	}
	if missing {
		return exitTrouble
	}
	threshold := -1.0
	if *failUnder != "" {
		v, err := strconv.ParseFloat(*failUnder, 64)
		if err != nil || v < 0 || v > 100 {
			fmt.Fprintf(e.stderr, "protoscan audit: --fail-under %q: want a percentage from 0 to 100\n", *failUnder)
			return exitTrouble
		}
		threshold = v
	}
	var stdoutWriters []string // beside the reports
	if *verdicts == "-" {
		stdoutWriters = append(stdoutWriters, "--verdicts -")
	}
	outputs, err := reportsFor(outputs, stdoutWriters...)
	if err != nil {
		fmt.Fprintln(e.stderr, "protoscan audit:", textsafe.Error(err))
		return exitTrouble
	}
	root := *rootFlag
	if root == "" {
		root = engine.FindRoot()
	}
	specs, _, err := engine.ResolveSpecs(*specPath, false, root)
	if err != nil {
		fmt.Fprintln(e.stderr, "protoscan audit:", textsafe.Error(err))
		return exitTrouble
	}
	e.specWarnings("audit", specs)
	// a missing skills/ is said once below, not in every DELEGATE
	v, err := msgcheck.New(msgcheck.Options{Root: root, UncheckedOnce: true}, specs...)
	if err != nil {
		fmt.Fprintln(e.stderr, "protoscan audit:", textsafe.Error(err))
		return exitTrouble
	}
	if *workers <= 0 {
		*workers = runtime.NumCPU()
	}
	opts := audit.Options{Validator: v, Spec: specs[0], Workers: *workers}
	roots := engine.WriteRoots(append([]string{root}, paths...)...)
	var verdictFile outFile
	var verdictBuf *bufio.Writer
	if *verdicts != "" {
		if verdictFile, err = e.create(*verdicts, roots); err != nil {
			fmt.Fprintln(e.stderr, "protoscan audit:", textsafe.Error(err))
			return exitTrouble
		}
		defer verdictFile.Abort() // an early return; Close below puts it in place
		verdictBuf = bufio.NewWriter(verdictFile)
		opts.Verdicts = verdictBuf
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ready := time.Now()
	s, err := audit.Run(ctx, paths, e.stdin, opts)
	audited := time.Now()
	code := exitOK
	if err != nil {
		fmt.Fprintln(e.stderr, "protoscan audit:", textsafe.Error(err))
		code = exitTrouble
	}
	if verdictFile != nil {
		// the verdicts of an audit that failed part way are kept, as far
		// as they go
		err := verdictBuf.Flush()
		if err == nil {
			err = verdictFile.Close()
		}
		if err != nil {
			fmt.Fprintln(e.stderr, "protoscan audit:", textsafe.Error(err))
			code = exitTrouble
		}
	}
	doc := auditDoc{s: s, paths: paths}
	if slices.ContainsFunc(outputs, func(o output) bool { return o.format == "sarif" }) {
		doc.names = engine.NewPathMap(ctx, slices.DeleteFunc(slices.Clone(paths), func(p string) bool { return p == "-" }))
	}
	for _, o := range outputs {
		if err := e.render(o, roots, doc); err != nil {
			fmt.Fprintln(e.stderr, "protoscan audit:", textsafe.Error(err))
			code = exitTrouble
		}
	}
	if *timings {
		printTimings(e.stderr, s.Messages, *workers, ready.Sub(began), audited.Sub(ready), time.Since(audited))
	}
	for _, p := range s.Problems {
		if p.Check == audit.CheckUnreadable {
			code = exitTrouble
		}
	}
	for _, k := range s.Kinds {
		for _, u := range v.Unchecked(k.Kind) {
			fmt.Fprintf(e.stderr, "protoscan audit: warning: %s, in %d %s messages (--root DIR names the repository that has it)\n", textsafe.String(u), k.Messages, textsafe.String(strings.ToUpper(k.Kind)))
		}
	}
	if s.Messages == 0 && err == nil {
		// an empty queue is a real state, but so is a mistyped PATH: say it
		fmt.Fprintln(e.stderr, "protoscan audit: no message found (message files are .json, .jsonl, .ndjson, .yaml and .yml)")
		if threshold >= 0 && code == exitOK {
			// no compliance to measure is not compliance met
			fmt.Fprintf(e.stderr, "protoscan audit: --fail-under %s: no message to measure compliance on\n", *failUnder)
			code = exitFailed
		}
	}
	if code == exitOK {
		if threshold >= 0 && s.Compliance() < threshold || threshold < 0 && s.Invalid+s.Malformed > 0 {
			code = exitFailed
		}
	}
	return code
}

// printTimings writes the --timings line. The audit stage is audit.Run:
// reading, decoding and validating every message and the cross-message
// checks; setup is the flags, the spec and the validator (the process's
// own start-up comes before and is not counted); report is writing every
// output. The audit stage's messages per second are what a message costs
// once protoscan is running: the figure to set beside a validator timed
// in its own process (bench/audit.sh does, with ajv).
func printTimings(w io.Writer, messages, workers int, setup, run, report time.Duration) {
	ms := func(d time.Duration) string {
		return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + " ms"
	}
	rate := 0.0
	if run > 0 {
		rate = float64(messages) / run.Seconds()
	}
	plural := "s"
	if workers == 1 {
		plural = ""
	}
	fmt.Fprintf(w, "protoscan audit: timings: setup %s; audit %s (%d messages, %.0f msg/s on %d worker%s: read, decode, validate, aggregate); report %s\n",
		ms(setup), ms(run), messages, rate, workers, plural, ms(report))
}

// auditDoc is the audit's report; names, the repository root and the
// audited PATHs, is for SARIF.
type auditDoc struct {
	s     *audit.Summary
	paths []string
	names *engine.PathMap
}

func (d auditDoc) text(w io.Writer, _ bool) error { return report.AuditText(w, d.s) }
func (d auditDoc) json(w io.Writer) error         { return report.AuditJSON(w, d.s) }
func (d auditDoc) markdown(w io.Writer) error     { return report.AuditMarkdown(w, d.s) }

func (d auditDoc) sarif() (*report.Report, *engine.PathMap, string, string) {
	fs := report.AuditFindings(d.s)
	keyed := d.names.Keyed(fs) // files relative to the repository root
	for i := range keyed {
		if fs[i].Path == "-" {
			keyed[i].Path = "-" // stdin is no file of the repository
		}
	}
	auditFingerprints(fs, keyed, maxMessageLine)
	rep := &report.Report{Tool: "protoscan", Version: version(), Findings: keyed, Rules: engine.RuleDocs(keyed)}
	return rep, d.names, "protoscan audit", "the JSON report has them all"
}

// maxMessageLine is the longest line of a message file the audit reads
// (audit.Options.MaxLine's default), and so the longest auditFingerprints
// reads again.
const maxMessageLine = 16 << 20

// auditFingerprints gives the audit's findings, named relative to the
// repository root in keyed, the fingerprints the scan's have
// (baseline.Fingerprint): of the rule, that path and the text of the
// flagged line, read again from the file the audit read (fs names it as
// the audit did), each file once, line by line, up to the last line
// flagged. A finding on no line has the empty text, as the scan's
// notices about whole files; a line that cannot be read again (stdin, a
// line over maxLine bytes, a file gone since) is stood for by the
// finding's message.
func auditFingerprints(fs, keyed []finding.Finding, maxLine int) {
	lines := map[string]map[int][]byte{} // path -> line -> text
	for _, f := range fs {
		if f.Line > 0 && f.Path != "-" {
			if lines[f.Path] == nil {
				lines[f.Path] = map[int][]byte{}
			}
			lines[f.Path][f.Line] = nil
		}
	}
	for p, want := range lines {
		readLines(filepath.FromSlash(p), want, maxLine)
	}
	for i, f := range fs {
		var text []byte
		if f.Line > 0 {
			text = lines[f.Path][f.Line]
			if text == nil {
				text = []byte(f.Message)
			}
		}
		keyed[i].Fingerprint = baseline.Fingerprint(f.Rule, keyed[i].Path, text)
	}
}

// readLines sets the text of each line of want (1-based; with its line
// ending) that the file name has, reading it up to the last line wanted;
// a line over maxLine bytes is left nil. name must be a regular file: a
// named pipe is not waited on.
func readLines(name string, want map[int][]byte, maxLine int) {
	last := 0
	for n := range want {
		last = max(last, n)
	}
	fi, err := os.Stat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return
	}
	br := bufio.NewReaderSize(f, 64<<10)
	var text []byte
	long := false
	for line := 1; line <= last; {
		chunk, err := br.ReadSlice('\n')
		_, wanted := want[line]
		if wanted && !long {
			if len(text)+len(chunk) > maxLine {
				long, text = true, nil
			} else {
				text = append(text, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue // the line goes on
		}
		if wanted && !long && (len(text) > 0 || err == nil) {
			want[line] = text
		}
		text, long = nil, false
		line++
		if err != nil {
			return
		}
	}
}
