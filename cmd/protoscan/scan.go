package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/protoscan-dev/protoscan/internal/editdist"
	"github.com/protoscan-dev/protoscan/internal/engine"
	"github.com/protoscan-dev/protoscan/internal/glob"
	"github.com/protoscan-dev/protoscan/internal/scan/walk"
	"github.com/protoscan-dev/protoscan/internal/textsafe"
)

// output is one --format: a renderer and where it writes ("" = stdout).
type output struct {
	format string
	path   string
	// flag is how the command line asked for it ("--format json=-",
	// "--json"), for the error of two writers bound for stdout
	flag string
	// stderr sends the report there: the default report, when another
	// writer has stdout
	stderr bool
}

// toStdout reports whether o writes to stdout.
func (o output) toStdout() bool { return !o.stderr && (o.path == "" || o.path == "-") }

// reportsFor settles where a command's reports go: those asked for, else
// the text report on stdout, or on stderr when another writer has stdout
// (others: "--diff", "--events -"...). Two writers bound for stdout, one
// of them asked for, are a usage error naming both: their bytes would be
// one stream no reader could take apart.
func reportsFor(outputs []output, others ...string) ([]output, error) {
	if len(outputs) == 0 {
		outputs = []output{{format: "text", flag: "--format text", stderr: len(others) > 0}}
	}
	type claim struct{ flag, toFile string }
	var claims []claim
	for _, o := range others {
		c := claim{flag: o} // --diff has no file to go to
		if name, ok := strings.CutSuffix(o, " -"); ok {
			c.toFile = name + " FILE"
		}
		claims = append(claims, c)
	}
	for _, o := range outputs {
		if o.toStdout() {
			claims = append(claims, claim{o.flag, "--format " + o.format + "=FILE"})
		}
	}
	if len(claims) > 1 {
		a, b := claims[0], claims[1]
		return nil, fmt.Errorf("%s and %s both write to stdout; write one to a file (%s)", a.flag, b.flag, cmp.Or(b.toFile, a.toFile))
	}
	return outputs, nil
}

// formatNames are the formats of --format.
var formatNames = []string{"text", "json", "sarif", "markdown"}

func parseOutput(s string) (output, error) {
	format, path, _ := strings.Cut(s, "=")
	if slices.Contains(formatNames, format) {
		return output{format: format, path: path, flag: "--format " + s}, nil
	}
	return output{}, fmt.Errorf("unknown format %q (want text, json, sarif or markdown, optionally =FILE%s)", format, editdist.Hint(format, formatNames, "; "))
}

// formatFlag defines --format on fs, the one spelling scan, audit and
// validate share: text, json, sarif or markdown, each optionally =FILE,
// repeatable.
func formatFlag(fs *flag.FlagSet, outputs *[]output) {
	fs.Func("format", "output `FORMAT` text, json, sarif or markdown, or FORMAT=FILE to write a file (repeatable)", func(s string) error {
		o, err := parseOutput(s)
		*outputs = append(*outputs, o)
		return err
	})
}

// scanFlags defines the flags of scan on fs: what they set goes into o,
// the reports asked for into outputs.
func scanFlags(fs *flag.FlagSet, o *engine.Options, outputs *[]output) {
	formatFlag(fs, outputs)
	fs.Func("include", "scan only files matching the doublestar `GLOB` (repeatable)", func(s string) error {
		o.Walk.Include = append(o.Walk.Include, s)
		return nil
	})
	fs.Func("exclude", "skip files and directories matching the doublestar `GLOB` (repeatable)", func(s string) error {
		o.Walk.Exclude = append(o.Walk.Exclude, s)
		return nil
	})
	fs.Int64Var(&o.Walk.MaxFileSize, "max-file-size", walk.DefaultMaxFileSize, "skip files larger than `BYTES` (with a notice); negative for no limit")
	fs.BoolVar(&o.Walk.NoGitignore, "no-gitignore", false, "scan files .gitignore excludes")
	fs.BoolVar(&o.Walk.NoDefaultExcludes, "no-default-excludes", false, "scan .git, node_modules, vendor, virtualenvs and caches too")
	fs.StringVar(&o.FailOn, "fail-on", "error", "exit 1 when a finding is at or above `LEVEL`: error, warning, note, or never (none)")
	fs.BoolVar(&o.Fix, "fix", false, "apply the fixes findings offer (drifted statuses) and report what is left")
	fs.BoolVar(&o.Diff, "diff", false, "print the fixes as a unified diff and change no file (implies --fix)")
	fs.Var((*specPaths)(&o.Spec), "spec", specUsage+" (default: the config's spec, else docs/specs/protocol-core-v*.yaml under the first PATH, else the embedded v1.0; one of the tree, found or named by its own .protoscan.yaml, that cannot be loaded is a protoscan/spec-error finding and the embedded v1.0 stands in)")
	fs.StringVar(&o.Config, "config", "", "config `FILE` (default: .protoscan.yaml at the first PATH)")
	fs.StringVar(&o.ConfigFromRev, "config-from-rev", "", "take .protoscan.yaml and the specs from the commit `REV` (git; in CI the pull request's base), not from the working tree, whose own are then not used")
	fs.StringVar(&o.Baseline, "baseline", "", "do not report the findings recorded in the baseline `FILE`")
	fs.StringVar(&o.WriteBaseline, "write-baseline", "", "record every finding in the baseline `FILE` and report none as new")
	fs.StringVar(&o.NewFromRev, "new-from-rev", "", "report only findings on lines changed since the merge base with `REV` (local git)")
	fs.IntVar(&o.Workers, "j", 0, "files parsed at once (default: one per CPU)")
	fs.StringVar(&o.Analyzers, "analyzers", "enumdrift,divergence,msgcheck", "the analyzers to run, comma-separated `LIST`")
	fs.BoolVar(&o.NoCache, "no-cache", false, "parse every file, neither reading nor writing the cache of earlier scans' results (in $"+envCacheDir+", else the user cache directory)")
	fs.Func("canonical", "the canonical implementation of a protocol decision: `GLOB[:NAME]`, a file or a function in it (repeatable)", func(s string) error {
		pat, _, _ := strings.Cut(s, ":")
		if _, err := glob.Compile(pat); err != nil {
			return err
		}
		o.Canonical = append(o.Canonical, s)
		return nil
	})
}

// scan runs `protoscan [scan] [flags] [PATH...]`: the flags and the
// environment make the engine's options, the engine scans, the reports
// are rendered and the findings set the exit code.
func (e *env) scan(args []string) int {
	fs := flag.NewFlagSet("scan", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var outputs []output
	opts := engine.Options{Set: map[string]bool{}, Version: version(), Stdout: e.stdout,
		CacheDir: os.Getenv(envCacheDir), CacheVerify: os.Getenv(envCacheVerify) == "1",
		Create: func(p string, roots []string) (engine.File, error) { return e.create(p, roots) },
		Notify: func(msg string) { fmt.Fprintln(e.stderr, "protoscan:", msg) }}
	scanFlags(fs, &opts, &outputs)
	usage := "usage: protoscan [scan] [flags] [PATH...]"
	if code, done := parseFlags(e, fs, usage, args, func(p string) { opts.Paths = append(opts.Paths, p) }); done {
		return code
	}
	fs.Visit(func(f *flag.Flag) { opts.Set[f.Name] = true })
	var stdoutWriters []string // beside the reports
	if opts.Diff {
		stdoutWriters = append(stdoutWriters, "--diff")
	}
	if opts.WriteBaseline == "-" {
		stdoutWriters = append(stdoutWriters, "--write-baseline -")
	}
	outputs, err := reportsFor(outputs, stdoutWriters...)
	if err != nil {
		fmt.Fprintln(e.stderr, "protoscan:", textsafe.Error(err))
		return exitTrouble
	}
	if isTerminal(e.stderr) {
		opts.Progress = e.startProgress
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	context.AfterFunc(ctx, stop) // a second interrupt kills at once
	res, err := engine.Run(ctx, opts)
	if err != nil {
		return e.configTrouble("protoscan:", err)
	}
	code := exitOK
	if res.Interrupted || res.Trouble {
		code = exitTrouble
	}
	doc := scanDoc{rep: res.Report, names: res.Names, maxSize: res.MaxFileSize}
	if !e.renderAll("protoscan:", outputs, res.Roots, doc) {
		code = exitTrouble
	}
	if code == exitOK && !res.Never {
		for _, f := range res.Report.Findings {
			if f.Severity <= res.Threshold {
				code = exitFailed
				break
			}
		}
	}
	return code
}

// startProgress shows on stderr (a terminal: see scan) how many files
// the scan has read, n, and returns the function that clears the line
// at the end.
func (e *env) startProgress(n *atomic.Int64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				fmt.Fprint(e.stderr, "\r\x1b[K")
				return
			case <-t.C:
				fmt.Fprintf(e.stderr, "\r\x1b[Kprotoscan: %d files read", n.Load())
			}
		}
	}()
	return func() { close(done); <-finished }
}

// The scan's cache of per-file results (package internal/scan/cache): on unless
// --no-cache, in $PROTOSCAN_CACHE_DIR, else the user's cache directory
// (os.UserCacheDir()/protoscan). PROTOSCAN_CACHE_VERIFY=1 makes it read
// and hash every file instead of trusting unchanged size, times and inode.
const (
	envCacheDir    = "PROTOSCAN_CACHE_DIR"
	envCacheVerify = "PROTOSCAN_CACHE_VERIFY"
)
