package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/protoscan-dev/protoscan/audit"
	"github.com/protoscan-dev/protoscan/internal/baseline"
	"github.com/protoscan-dev/protoscan/internal/engine"
	"github.com/protoscan-dev/protoscan/internal/report"
	"github.com/protoscan-dev/protoscan/internal/textsafe"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// audit runs `protoscan audit PATH...`: a queue audit (see package audit).
func (e *env) audit(args []string) int {
	began := time.Now()
	defer auditGC()()
	var outputs []output
	var paths []string
	var f auditFlags
	fs := f.define(e, &outputs)
	usage := "usage: protoscan audit [--format text|json|sarif|markdown[=FILE]] [--fail-under PCT] [--root DIR] [--spec F] [--verdicts FILE] [-j N] [--timings] PATH... (\"-\" reads JSON Lines from stdin)"
	if code, done := parseFlags(e, fs, usage, args, func(p string) { paths = append(paths, p) }); done {
		return code
	}
	if len(paths) == 0 {
		fmt.Fprintln(e.stderr, usage)
		return exitTrouble
	}
	threshold, ok := e.auditArgs(paths, f.failUnder)
	if !ok {
		return exitTrouble
	}
	var stdoutWriters []string // beside the reports
	if f.verdicts == "-" {
		stdoutWriters = append(stdoutWriters, "--verdicts -")
	}
	outputs, err := reportsFor(outputs, stdoutWriters...)
	if err != nil {
		fmt.Fprintln(e.stderr, "protoscan audit:", textsafe.Error(err))
		return exitTrouble
	}
	v, specs, root, err := e.auditValidator(f.spec, f.root)
	if err != nil {
		fmt.Fprintln(e.stderr, "protoscan audit:", textsafe.Error(err))
		return exitTrouble
	}
	if f.workers <= 0 {
		f.workers = runtime.NumCPU()
	}
	opts := audit.Options{Validator: v, Spec: specs[0], Workers: f.workers}
	roots := engine.WriteRoots(append([]string{root}, paths...)...)
	var vf *verdictFile
	if f.verdicts != "" {
		if vf, err = e.createVerdicts(f.verdicts, roots); err != nil {
			fmt.Fprintln(e.stderr, "protoscan audit:", textsafe.Error(err))
			return exitTrouble
		}
		defer vf.f.Abort() // an early return; close below puts it in place
		opts.Verdicts = vf.buf
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
	if vf != nil {
		// the verdicts of an audit that failed part way are kept, as far
		// as they go
		if err := vf.close(); err != nil {
			fmt.Fprintln(e.stderr, "protoscan audit:", textsafe.Error(err))
			code = exitTrouble
		}
	}
	if !e.renderAll("protoscan audit:", outputs, roots, newAuditDoc(ctx, s, paths, outputs)) {
		code = exitTrouble
	}
	if f.timings {
		printTimings(e.stderr, s.Messages, f.workers, ready.Sub(began), audited.Sub(ready), time.Since(audited))
	}
	return e.auditCode(code, s, v, err, threshold, f.failUnder)
}

// auditGC sets the collector for an audit and returns what restores it.
// An audit's Go heap stays a few megabytes whatever the queue's size
// (the index lives off the heap), so a collection frees little and
// costs time: with the default of 100, two or three fell in an audit of
// 100,000 messages, mostly while its JSON report was being written.
// Collect at 4x the live heap instead of 2x, unless GOGC says otherwise.
func auditGC() (restore func()) {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	old := debug.SetGCPercent(400)
	return func() { debug.SetGCPercent(old) }
}

// auditFlags are the flags of audit.
type auditFlags struct {
	spec                      specPaths
	root, failUnder, verdicts string
	workers                   int
	timings                   bool
}

// define defines the flags of audit on a new flag set; the reports
// asked for go into outputs.
func (f *auditFlags) define(e *env, outputs *[]output) *flag.FlagSet {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	formatFlag(fs, outputs)
	fs.Var(&f.spec, "spec", specUsage+" (default: docs/specs/protocol-core-v*.yaml under the root, else the embedded v1.0)")
	fs.StringVar(&f.root, "root", "", "repository root `DIR` for skills/ lookups (default: nearest ancestor with .git, else the current directory)")
	fs.StringVar(&f.failUnder, "fail-under", "", "exit 1 when compliance is under `PCT` percent (default: exit 1 on any invalid message)")
	fs.StringVar(&f.verdicts, "verdicts", "", "write one line per message, 1 (valid) or 0 (invalid or malformed), in input order, to `FILE`")
	fs.IntVar(&f.workers, "j", 0, "messages validated at once (default: one per CPU)")
	fs.BoolVar(&f.timings, "timings", false, "print to stderr how long setting up, auditing (read, decode, validate, aggregate) and reporting took")
	return fs
}

// verdictFile is the file of --verdicts, buffered.
type verdictFile struct {
	f   outFile
	buf *bufio.Writer
}

// createVerdicts starts writing the file of --verdicts (see create).
func (e *env) createVerdicts(path string, roots []string) (*verdictFile, error) {
	f, err := e.create(path, roots)
	if err != nil {
		return nil, err
	}
	return &verdictFile{f, bufio.NewWriter(f)}, nil
}

// close writes what is buffered and puts the file in place.
func (v *verdictFile) close() error {
	if err := v.buf.Flush(); err != nil {
		return err
	}
	return v.f.Close()
}

// auditArgs checks the PATHs and --fail-under of an audit and returns
// its compliance threshold (-1 for none); false after saying what is
// wrong.
func (e *env) auditArgs(paths []string, failUnder string) (threshold float64, ok bool) {
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
		return 0, false
	}
	threshold = -1.0
	if failUnder != "" {
		v, err := strconv.ParseFloat(failUnder, 64)
		if err != nil || v < 0 || v > 100 {
			fmt.Fprintf(e.stderr, "protoscan audit: --fail-under %q: want a percentage from 0 to 100\n", failUnder)
			return 0, false
		}
		threshold = v
	}
	return threshold, true
}

// auditValidator loads the audit's specs (warnings said on stderr) and
// makes its validator, for skills/ under root (--root, else
// engine.FindRoot's), which it returns.
func (e *env) auditValidator(specPath []string, root string) (*msgcheck.Validator, []*msgcheck.Spec, string, error) {
	if root == "" {
		root = engine.FindRoot()
	}
	specs, _, err := engine.ResolveSpecs(specPath, false, root)
	if err != nil {
		return nil, nil, root, err
	}
	specs = engine.KnownFormer(specs)
	e.specWarnings("audit", specs)
	// a missing skills/ is said once below, not in every DELEGATE
	v, err := msgcheck.New(msgcheck.Options{Root: root, UncheckedOnce: true}, specs...)
	return v, specs, root, err
}

// auditCode is the exit code of an audit whose run gave s and runErr,
// code so far: it says on stderr what the summary warns of.
func (e *env) auditCode(code int, s *audit.Summary, v *msgcheck.Validator, runErr error, threshold float64, failUnder string) int {
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
	if s.Messages == 0 && runErr == nil {
		// an empty queue is a real state, but so is a mistyped PATH: say it
		fmt.Fprintln(e.stderr, "protoscan audit: no message found (message files are .json, .jsonl, .ndjson, .yaml and .yml)")
		if threshold >= 0 && code == exitOK {
			// no compliance to measure is not compliance met
			fmt.Fprintf(e.stderr, "protoscan audit: --fail-under %s: no message to measure compliance on\n", failUnder)
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

// newAuditDoc is the report of the audit of paths that gave s; the
// repository root is looked for only when outputs have a SARIF log.
func newAuditDoc(ctx context.Context, s *audit.Summary, paths []string, outputs []output) auditDoc {
	d := auditDoc{s: s, paths: paths}
	if slices.ContainsFunc(outputs, func(o output) bool { return o.format == "sarif" }) {
		d.names = engine.NewPathMap(ctx, slices.DeleteFunc(slices.Clone(paths), func(p string) bool { return p == "-" }))
	}
	return d
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
	baseline.FingerprintLines(fs, keyed, maxMessageLine)
	rep := &report.Report{Tool: "protoscan", Version: version(), Findings: keyed, Rules: engine.RuleDocs(keyed)}
	return rep, d.names, "protoscan audit", "the JSON report has them all"
}

// maxMessageLine is the longest line of a message file the audit reads
// (audit.Options.MaxLine's default), and so the longest its SARIF
// fingerprints read again.
const maxMessageLine = 16 << 20
