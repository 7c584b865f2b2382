// Package engine runs a scan without argv: what cmd/protoscan's flags
// and environment decide comes in as Options, and Run returns the
// report, with what the command needs for its exit code.
//
// It sits between the command and the scan (DESIGN.md, the data flow):
// it merges the config with the flags (--config-from-rev's commit
// included), resolves the specs (a spec of the tree that cannot be
// loaded becomes a finding and the embedded one stands in), selects the
// analyzers, runs internal/scan over each PATH, then the ordered
// post-processing steps of steps.go (rule settings, suppressions,
// sorting, baseline, --new-from-rev, fixes, summaries, path keys). The
// command renders the report and sets the exit code.
package engine

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/internal/gitdiff"
	"github.com/protoscan-dev/protoscan/internal/messages"
	"github.com/protoscan-dev/protoscan/internal/report"
	"github.com/protoscan-dev/protoscan/internal/scan"
	"github.com/protoscan-dev/protoscan/internal/scan/walk"
	"github.com/protoscan-dev/protoscan/internal/suppress"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// Options are what the scan's command line and environment decide.
type Options struct {
	// Paths are the PATHs to scan ("." when none is given).
	Paths []string
	// Walk holds --include, --exclude, --max-file-size, --no-gitignore
	// and --no-default-excludes; the config's settings join them.
	Walk walk.Options
	// Set names the flags given on the command line ("spec", "fail-on",
	// "max-file-size"...): they win over the config's settings.
	Set map[string]bool

	FailOn        string   // --fail-on (the flag's default: "error"), before the config's
	Spec          []string // --spec
	Config        string   // --config
	ConfigFromRev string   // --config-from-rev
	Baseline      string   // --baseline
	WriteBaseline string   // --write-baseline ("-" is stdout, through Create)
	NewFromRev    string   // --new-from-rev
	Fix, Diff     bool     // --fix, --diff
	Workers       int      // -j
	Analyzers     string   // --analyzers, comma-separated: "enumdrift,divergence,msgcheck"
	Canonical     []string // --canonical, before the config's

	// NoCache is --no-cache; CacheDir ("" for the user cache directory)
	// and CacheVerify come from the environment.
	NoCache     bool
	CacheDir    string
	CacheVerify bool

	// Version is the tool version the report carries.
	Version string

	// The command's environment, which the engine writes through:
	// Stdout takes --diff; Create opens the files the scan writes
	// (--write-baseline), safely and "-" as stdout; Notify takes each
	// line for stderr (without the "protoscan: " the command puts
	// before it), in order; Progress, when set, is started with the
	// counter of files read before the walk and its stop called after.
	Stdout   io.Writer
	Create   func(path string, roots []string) (File, error)
	Notify   func(msg string)
	Progress func(read *atomic.Int64) (stop func())
}

// File is a file the engine writes (a baseline): Close puts it in place,
// Abort drops it.
type File interface {
	io.Writer
	Close() error
	Abort()
}

// Result is a scan's report and what the exit code depends on.
type Result struct {
	Report *report.Report
	// Names names the report's files relative to the repository root,
	// for SARIF; MaxFileSize is the scan's size limit, which SARIF
	// reads the flagged files again with.
	Names       *PathMap
	MaxFileSize int64
	// Roots are the trees the command's writes must stay in (WriteRoots
	// of the PATHs).
	Roots []string
	// Threshold is the --fail-on level (the config's when the flag was
	// not given); with Never no finding fails the run.
	Threshold finding.Severity
	Never     bool
	// Interrupted says the scan was interrupted (the report is partial);
	// Trouble that something went wrong that Notify said (a root that
	// could not be scanned, a fix not written): both are exit 2.
	Interrupted bool
	Trouble     bool
}

// state is one scan: what setup settled, what the roots gave, and what
// the steps make of it.
type state struct {
	ctx  context.Context
	opts Options

	paths    []string // the PATHs, none inside another
	roots    []string // WriteRoots of paths
	root     string   // the first PATH's directory
	walk     walk.Options
	specPath []string
	failOn   string
	// canonical and synonyms are the flags' and the config's
	canonical  []string
	synonyms   map[string]string
	cfg        *config.Config
	cfgInTree  bool
	specInTree bool
	// declared says a spec or synonyms named by flag or config declare
	// the protocol (scan.Options.AssumeEvidence)
	declared  bool
	fromRev   *revSource
	repo      *gitdiff.Repo // --new-from-rev's
	names     *PathMap
	fallback  *specFallback
	threshold finding.Severity
	never     bool

	specs     []*msgcheck.Spec // protocol-core's
	usedSpecs []*msgcheck.Spec // and the other protocols'
	kinds     []string
	protocols []messages.Protocol
	validate  bool // msgcheck runs
	drift     bool // enumdrift runs
	sopts     scan.Options
	cacheKey  string

	rep         *report.Report
	outcomes    []messages.Outcome
	statuses    []enumdrift.StatusUse
	directives  map[string][]suppress.Directive
	prefixes    []string
	interrupted bool
	trouble     bool

	// unsuppressed are the findings before the suppressions, for
	// --new-from-rev's notes; live the tree's problems, for the
	// summaries; fixed the findings --fix fixed.
	unsuppressed []finding.Finding
	live         map[problem]finding.Severity
	fixed        []finding.Finding
}

// Run scans opts.Paths. An error is the end of the scan before its
// report (a usage, config or spec error, a baseline that cannot be
// read or written, a revision git lacks): exit 2, said by the command;
// a config.Errors lists the config's problems one per line.
func Run(ctx context.Context, opts Options) (*Result, error) {
	s := &state{ctx: ctx, opts: opts}
	for _, setup := range []func() error{
		s.loadConfig,   // the config (or the commit's), merged with the flags
		s.resolveSpecs, // protocol-core's spec, or the fallback
		s.selectAnalyzers,
		s.otherProtocols, // NEXUS handoffs, phase verdicts, the vocabulary
	} {
		if err := setup(); err != nil {
			return nil, err
		}
	}
	s.announce()
	s.openCache()
	if err := s.scanRoots(); err != nil {
		return nil, err
	}
	for _, st := range steps {
		if err := st.run(s); err != nil {
			return nil, err
		}
	}
	return &Result{
		Report: s.rep, Names: s.names, MaxFileSize: s.walk.MaxFileSize, Roots: s.roots,
		Threshold: s.threshold, Never: s.never, Interrupted: s.interrupted, Trouble: s.trouble,
	}, nil
}

// notify says msg on stderr (Options.Notify).
func (s *state) notify(msg string) {
	if s.opts.Notify != nil {
		s.opts.Notify(msg)
	}
}

// notifyf is notify with a format.
func (s *state) notifyf(format string, args ...any) { s.notify(fmt.Sprintf(format, args...)) }
