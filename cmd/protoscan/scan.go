package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/analyzers/divergence"
	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/handoff"
	"github.com/protoscan-dev/protoscan/internal/baseline"
	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/internal/gitdiff"
	"github.com/protoscan-dev/protoscan/internal/glob"
	"github.com/protoscan-dev/protoscan/internal/messages"
	"github.com/protoscan-dev/protoscan/internal/report"
	"github.com/protoscan-dev/protoscan/internal/safefile"
	"github.com/protoscan-dev/protoscan/internal/scan"
	"github.com/protoscan-dev/protoscan/internal/scan/walk"
	"github.com/protoscan-dev/protoscan/internal/suppress"
	"github.com/protoscan-dev/protoscan/internal/textsafe"
	"github.com/protoscan-dev/protoscan/msgcheck"
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
	return output{}, fmt.Errorf("unknown format %q (want text, json, sarif or markdown, optionally =FILE%s)", format, nearValue(format, formatNames, "; "))
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

func (e *env) scan(args []string) int {
	fs := flag.NewFlagSet("scan", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var outputs []output
	var opts walk.Options
	formatFlag(fs, &outputs)
	fs.Func("include", "scan only files matching the doublestar `GLOB` (repeatable)", func(s string) error {
		opts.Include = append(opts.Include, s)
		return nil
	})
	fs.Func("exclude", "skip files and directories matching the doublestar `GLOB` (repeatable)", func(s string) error {
		opts.Exclude = append(opts.Exclude, s)
		return nil
	})
	fs.Int64Var(&opts.MaxFileSize, "max-file-size", walk.DefaultMaxFileSize, "skip files larger than `BYTES` (with a notice); negative for no limit")
	fs.BoolVar(&opts.NoGitignore, "no-gitignore", false, "scan files .gitignore excludes")
	fs.BoolVar(&opts.NoDefaultExcludes, "no-default-excludes", false, "scan .git, node_modules, vendor, virtualenvs and caches too")
	failOn := fs.String("fail-on", "error", "exit 1 when a finding is at or above `LEVEL`: error, warning, note, or never (none)")
	fixFlag := fs.Bool("fix", false, "apply the fixes findings offer (drifted statuses) and report what is left")
	diffFlag := fs.Bool("diff", false, "print the fixes as a unified diff and change no file (implies --fix)")
	specPath := specFlag(fs, " (default: the config's spec, else docs/specs/protocol-core-v*.yaml under the first PATH, else the embedded v1.0; one of the tree, found or named by its own .protoscan.yaml, that cannot be loaded is a protoscan/spec-error finding and the embedded v1.0 stands in)")
	configPath := fs.String("config", "", "config `FILE` (default: .protoscan.yaml at the first PATH)")
	configFromRev := fs.String("config-from-rev", "", "take .protoscan.yaml and the specs from the commit `REV` (git; in CI the pull request's base), not from the working tree, whose own are then not used")
	baselineIn := fs.String("baseline", "", "do not report the findings recorded in the baseline `FILE`")
	baselineOut := fs.String("write-baseline", "", "record every finding in the baseline `FILE` and report none as new")
	newFromRev := fs.String("new-from-rev", "", "report only findings on lines changed since the merge base with `REV` (local git)")
	workers := fs.Int("j", 0, "files parsed at once (default: one per CPU)")
	analyzers := fs.String("analyzers", "enumdrift,divergence,msgcheck", "the analyzers to run, comma-separated `LIST`")
	noCache := fs.Bool("no-cache", false, "parse every file, neither reading nor writing the cache of earlier scans' results (in $"+envCacheDir+", else the user cache directory)")
	var canonical []string
	fs.Func("canonical", "the canonical implementation of a protocol decision: `GLOB[:NAME]`, a file or a function in it (repeatable)", func(s string) error {
		pat, _, _ := strings.Cut(s, ":")
		if _, err := glob.Compile(pat); err != nil {
			return err
		}
		canonical = append(canonical, s)
		return nil
	})
	var paths []string
	usage := "usage: protoscan [scan] [flags] [PATH...]"
	if code, done := parseFlags(e, fs, usage, args, func(p string) { paths = append(paths, p) }); done {
		return code
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	trouble := func(err error) int {
		fmt.Fprintln(e.stderr, "protoscan:", textsafe.Error(err))
		return exitTrouble
	}
	var err error
	var stdoutWriters []string // beside the reports
	if *diffFlag {
		stdoutWriters = append(stdoutWriters, "--diff")
	}
	if *baselineOut == "-" {
		stdoutWriters = append(stdoutWriters, "--write-baseline -")
	}
	if outputs, err = reportsFor(outputs, stdoutWriters...); err != nil {
		return trouble(err)
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	paths = nestedPaths(paths)
	roots := writeRoots(paths...)
	// a config of the tree names a spec of the tree
	cfgInTree := *configPath == "" || safefile.Within(dirOf(paths[0]), *configPath)
	var named specPaths
	if set["spec"] {
		named = *specPath
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	context.AfterFunc(ctx, stop) // a second interrupt kills at once
	// --config-from-rev: the config and specs of a commit govern the gate
	var fromRev *revSource
	if *configFromRev != "" {
		if *configPath != "" {
			return trouble(errors.New("--config and --config-from-rev both give the config: use one"))
		}
		if fromRev, err = openRevSource(ctx, *configFromRev, dirOf(paths[0])); err != nil {
			return trouble(err)
		}
	}
	var cfg *config.Config
	if fromRev != nil {
		cfg, err = fromRev.loadConfig(checkRevConfig(fromRev, dirOf(paths[0]), named))
	} else {
		cfg, err = configFor(*configPath, paths[0], checkConfig(dirOf(paths[0]), named, cfgInTree))
	}
	if err != nil {
		return e.configTrouble("protoscan:", err)
	}
	synonyms := map[string]string(nil)
	specInTree := false
	if cfg != nil {
		opts.Include = append(slices.Clone(cfg.Include), opts.Include...)
		opts.Exclude = append(slices.Clone(cfg.Exclude), opts.Exclude...)
		if !set["spec"] && cfg.Spec != "" && fromRev == nil {
			*specPath = cfg.SpecPaths()
			specInTree = cfgInTree
		}
		if !set["fail-on"] && cfg.FailOn != "" {
			*failOn = cfg.FailOn
		}
		if !set["max-file-size"] && cfg.MaxFileSize != 0 {
			// a pull request writes the tree's config: it may lower the
			// limit, not raise or remove it
			if verb := "raise"; *configPath == "" && (cfg.MaxFileSize < 0 || cfg.MaxFileSize > opts.MaxFileSize) {
				if cfg.MaxFileSize < 0 {
					verb = "remove"
				}
				fmt.Fprintf(e.stderr, "protoscan: %s: max-file-size %d ignored: a config found in the tree may lower the limit, not %s it (use --max-file-size or --config)\n", cfg.File, cfg.MaxFileSize, verb)
			} else {
				opts.MaxFileSize = cfg.MaxFileSize
			}
		}
		canonical = append(slices.Clone(cfg.Canonical), canonical...)
		synonyms = cfg.SynonymMap()
	}
	threshold, never, err := failLevel(*failOn)
	if err != nil {
		return trouble(err)
	}
	// A spec the tree holds, or its own config names, that cannot be
	// loaded is a finding, and the embedded spec stands in; one the user
	// named (--spec, --config) is the user's error.
	discovered := !set["spec"] && *configPath == ""
	var repo *gitdiff.Repo
	if *newFromRev != "" {
		// before the scan spends its time: a revision the clone lacks
		if repo, err = newFromRevRepo(ctx, *newFromRev); err != nil {
			return trouble(err)
		}
	}
	names := newPathMap(ctx, paths)
	fallback := &specFallback{root: dirOf(paths[0]), prefix: names.roots[0].display}
	fallback.rev = fromRev
	if !set["spec"] {
		fallback.cfg = cfg
	}
	var specs []*msgcheck.Spec
	if fromRev != nil && !set["spec"] {
		specs, err = fromRev.protocolSpecs(cfg)
	} else {
		specs, _, err = resolveSpecs(*specPath, specInTree, dirOf(paths[0]))
	}
	if err != nil {
		if !discovered || !isDir(dirOf(paths[0])) {
			return trouble(err)
		}
		specs = []*msgcheck.Spec{msgcheck.DefaultSpec()}
		fallback.add(err, specs[0], len(*specPath) > 0)
	}
	sopts := scan.Options{Walk: opts, Workers: *workers}
	validate, drift := false, false
	for _, a := range strings.Split(*analyzers, ",") {
		switch strings.TrimSpace(a) {
		case "enumdrift":
			drift = true
		case "divergence":
			sopts.Divergence = divergence.NewModel(specs[0], divergence.Options{Canonical: canonical, SpecName: fallback.specName})
		case "msgcheck":
			validate = true
		default:
			fmt.Fprintf(e.stderr, "protoscan: unknown analyzer %q in --analyzers (want enumdrift, divergence, msgcheck%s)\n", a, nearValue(strings.TrimSpace(a), analyzerNames, "; "))
			return exitTrouble
		}
	}
	// beside protocol-core: NEXUS handoffs and phase verdicts
	var protocols []messages.Protocol
	usedSpecs, kinds := specs, specs[0].Kinds()
	if validate || drift {
		// the other protocols' enums drift too (NEXUS status, verdicts)
		var more []*msgcheck.Spec
		discover := handoff.Discover
		if fromRev != nil {
			discover = fromRev.handoffSpec
		}
		if protocols, more, err = scanProtocols(dirOf(paths[0]), fallback, discover); err != nil {
			return trouble(err)
		}
		usedSpecs = append(slices.Clone(specs), more...)
	}
	if drift {
		vspec := fallback.vocabularySpec(specs[0], discovered, len(*specPath) > 0)
		if sopts.Vocabulary, err = enumdrift.NewVocabulary(vspec, synonyms, usedSpecs[1:]...); err != nil {
			if cfg != nil && len(synonyms) > 0 {
				errs := checkSynonyms(cfg, vspec)
				if len(errs) == 0 {
					errs = config.Errors{cfg.Errorf(cfg.Pos("synonyms"), "%v", err)}
				}
				return e.configTrouble("protoscan:", errs)
			}
			return trouble(err)
		}
	}
	fallback.warn(usedSpecs)
	if fromRev != nil {
		treeConfig, _ := config.Find(dirOf(paths[0]))
		for _, n := range fromRev.notice(treeConfig) {
			fmt.Fprintln(e.stderr, "protoscan:", textsafe.String(n))
		}
	}
	for _, n := range fallback.notes {
		fmt.Fprintln(e.stderr, "protoscan:", textsafe.String(n))
	}
	gin := gateInput{cfg: cfg, found: *configPath == "" && fromRev == nil, set: set, specs: usedSpecs, core: len(specs), fallback: fallback}
	if fromRev != nil {
		gin.rev = fromRev.where()
	}
	gate := e.gateNotice(gin)
	var cacheKey string
	if !*noCache {
		var sums map[string]string // of the files read from git
		if fromRev != nil {
			sums = fromRev.sums
		}
		sopts.Cache, cacheKey = openCache(usedSpecs, cfg, sums, *analyzers, canonical, synonyms)
	}
	interrupted, scanned, walked, others := false, 0, 0, 0
	var excluded scan.Excluded
	progress := e.startProgress(&sopts)
	rep := &report.Report{Tool: "protoscan", Version: version(), Gate: gate}
	code := exitOK
	var outcomes []messages.Outcome
	var statuses []enumdrift.StatusUse
	directives := map[string][]suppress.Directive{}
	prefixes := make([]string, len(paths))
	for i, p := range paths {
		prefixes[i] = names.roots[i].display
		sopts.Prefix, sopts.KeyPrefix = prefixes[i], names.roots[i].key
		if validate {
			// skills are looked up in the repository being scanned
			v, err := msgcheck.New(msgcheck.Options{Root: dirOf(p)}, specs...)
			if err != nil {
				return trouble(err)
			}
			sopts.Messages = messages.New(v, specs[0], protocols...)
			kinds = sopts.Messages.Kinds()
			sopts.CacheKey = cacheKey + "\x00" + v.RepoKey()
		} else {
			sopts.CacheKey = cacheKey
		}
		sopts.Walk.Tracked = nil
		if !opts.NoGitignore {
			sopts.Walk.Tracked = names.tracked(ctx, dirOf(p))
		}
		res, err := scan.Run(ctx, p, sopts)
		if res != nil {
			rep.Findings = append(rep.Findings, res.Findings...)
			rep.Files += res.Stats.Files
			rep.Parsed += res.Stats.Parsed
			rep.Candidates += res.Stats.Candidates
			outcomes = append(outcomes, res.Messages...)
			var rev *revSource // of the first root
			if i == 0 {
				rev = fromRev
			}
			statuses = append(statuses, notInSpecs(res.Statuses, usedSpecs, dirOf(p), prefixes[i], rev)...)
			maps.Copy(directives, res.Directives)
			scanned += res.Stats.Files + res.Stats.OtherFiles
			walked += res.Stats.Walked
			others += res.Stats.OtherFiles
			excluded.Add(res.Stats.Excluded)
		}
		if errors.Is(err, context.Canceled) {
			interrupted = true
			code = exitTrouble
			break
		}
		if err != nil {
			fmt.Fprintln(e.stderr, "protoscan:", textsafe.Error(err))
			code = exitTrouble
		}
	}
	progress()
	if rep.Files == 0 && !interrupted && code == exitOK {
		fmt.Fprintln(e.stderr, "protoscan: warning: no file scanned:", textsafe.String(noFileWhy(others, excluded, opts.Include)))
	}
	if interrupted {
		// the walk stops too: walked counts the files found until then
		fmt.Fprintf(e.stderr, "protoscan: interrupted: partial report (%d of %d files scanned)\n", scanned, walked)
	}
	rep.Findings = append(fallback.dropSpecParseErrors(rep.Findings), fallback.findings...)
	rep.Findings = applyRuleSettings(cfg, rep.Findings)
	var unsuppressed []finding.Finding // what the comments hide, for --new-from-rev's notes
	if *newFromRev != "" {
		unsuppressed = slices.Clone(rep.Findings)
	}
	rep.Findings, rep.Suppressed = applySuppressions(rep.Findings, directives, names)
	rep.Findings = applyRuleSettings(cfg, rep.Findings) // the suppression notices too
	finding.Sort(rep.Findings)
	live := problemsOf(rep.Findings) // the tree's problems, for the summaries
	if *baselineOut != "" && interrupted {
		// a baseline of part of the tree would report the rest as new
		fmt.Fprintf(e.stderr, "protoscan: %s not written: the scan was interrupted\n", *baselineOut)
	} else if *baselineOut != "" {
		if err := e.writeBaseline(*baselineOut, roots, names.keyed(rep.Findings)); err != nil {
			return trouble(err)
		}
		rep.Baselined, rep.Findings = len(rep.Findings), nil
	} else if *baselineIn != "" {
		b, err := baseline.Load(*baselineIn, roots...)
		if err != nil {
			return trouble(err)
		}
		rep.Findings, rep.Baselined, rep.StaleBaseline = names.filterBaseline(b, rep.Findings, opts.MaxFileSize)
	}
	if *newFromRev != "" {
		var changes []gitdiff.Changes
		if rep.Findings, changes, err = onlyChanged(ctx, repo, rep.Findings, paths, prefixes, *newFromRev); err != nil {
			return trouble(err)
		}
		// what the change does to the gate itself: no suppression comment
		// hides these notes, and a config the change wrote cannot turn
		// them off
		gov := governingFiles(dirOf(paths[0]), cfg, fromRev, usedSpecs)
		notes := gateChangeNotes(gov, changes, prefixes, directives, unsuppressed, names)
		if *configPath != "" || fromRev != nil {
			notes = applyRuleSettings(cfg, notes)
		}
		rep.Findings = append(rep.Findings, notes...)
		finding.Sort(rep.Findings)
	}
	var fixed []finding.Finding
	if *fixFlag || *diffFlag {
		if fixed, err = e.fixReport(paths, rep, *diffFlag); err != nil {
			fmt.Fprintln(e.stderr, "protoscan:", textsafe.Error(err))
			code = exitTrouble
		}
		for _, f := range fixed {
			delete(live, problem{f.Rule, finding.Location{Path: f.Path, Line: f.Line, Col: f.Col}})
		}
	}
	// the summaries are of the tree as it is now, fixes applied
	rep.Messages = summarizeMessages(kinds, outcomes, live)
	rep.Statuses = driftMatrix(statuses, fixed)
	rep.Rules = ruleDocs(rep.Findings)
	rep.SrcRoot = names.srcRoot()
	for _, o := range outputs {
		if err := e.render(o, roots, rep, names, opts.MaxFileSize); err != nil {
			fmt.Fprintln(e.stderr, "protoscan:", textsafe.Error(err))
			code = exitTrouble
		}
	}
	if code == exitOK && !never {
		for _, f := range rep.Findings {
			if f.Severity <= threshold {
				code = exitFailed
				break
			}
		}
	}
	return code
}

// failOnWords are the levels of --fail-on, as the config spells them.
var failOnWords = []string{"error", "warning", "note", "never", "none"}

// analyzerNames are the analyzers of --analyzers.
var analyzerNames = []string{"enumdrift", "divergence", "msgcheck"}

// failLevel reads --fail-on; with "none" no finding fails the run.
func failLevel(s string) (sev finding.Severity, never bool, err error) {
	if s == "none" || s == "never" {
		return 0, true, nil
	}
	sev, ok := finding.ParseSeverity(s)
	if !ok {
		return 0, false, fmt.Errorf("--fail-on %q: want error, warning, note or never%s", s, nearValue(s, failOnWords, " ("))
	}
	return sev, false, nil
}

// render writes one output of the scan; maxSize is the scan's file size
// limit, which SARIF reads the flagged files again with.
func (e *env) render(o output, roots []string, rep *report.Report, names *pathMap, maxSize int64) error {
	color := o.toStdout() && isTerminal(e.stdout) || o.stderr && isTerminal(e.stderr)
	return e.writeOutput(o, roots, func(w io.Writer) error {
		switch o.format {
		case "json":
			return report.JSON(w, rep)
		case "sarif":
			keyed := *rep // files relative to the repository root
			keyed.Findings = names.keyed(rep.Findings)
			keyed.Gate = names.keyedGate(rep.Gate)
			keyed.Source = names.sources(rep.Findings, keyed.Findings, maxSize)
			return e.writeSARIF(w, &keyed, "protoscan", "the text and JSON reports have them all")
		case "markdown":
			return report.Markdown(w, rep)
		default:
			return report.Text(w, rep, color)
		}
	})
}

// sarifLimits are the limits every SARIF report keeps to: GitHub code
// scanning's. The tests lower them (see TestMain), so that a few findings
// show what a SARIF log leaves out past them.
var sarifLimits = report.GitHubLimits

// writeSARIF writes rep as a SARIF log within sarifLimits, and says on
// stderr, after the command's prefix, how many results or related
// locations the log left out and that the reports named by all have them.
func (e *env) writeSARIF(w io.Writer, rep *report.Report, prefix, all string) error {
	cut, err := report.WriteSARIF(w, rep, sarifLimits)
	if err != nil {
		return err
	}
	if n := cut.Results(); n > 0 {
		var accepts []string
		if cut.OverCount > 0 {
			accepts = append(accepts, fmt.Sprintf("%d per run", cut.Limits.Results))
		}
		if cut.OverSize > 0 {
			accepts = append(accepts, report.SizeText(cut.Limits.Gzipped)+" gzipped")
		}
		fmt.Fprintf(e.stderr, "%s: SARIF: %s left out (GitHub accepts %s); %s\n", prefix, fixPlural(n, "result"), strings.Join(accepts, " and "), all)
	}
	if cut.Related > 0 {
		fmt.Fprintf(e.stderr, "%s: SARIF: %s left out (GitHub accepts %d per result); %s\n", prefix, fixPlural(cut.Related, "related location"), cut.Limits.Locations, all)
	}
	return nil
}

// writeOutput runs write on stdout, or on the output's file (see create
// for roots); a file that cannot be written completely is an error, and
// is not put in place.
func (e *env) writeOutput(o output, roots []string, write func(io.Writer) error) error {
	if o.stderr {
		return write(e.stderr)
	}
	if o.path == "" {
		return write(e.stdout)
	}
	f, err := e.create(o.path, roots)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return f.Close()
}

// isTerminal reports whether w is a terminal that wants colour.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// noFileWhy says why a scan read no file: the walk found files of no kind
// protoscan reads, or found none, with what left them out.
func noFileWhy(others int, excluded scan.Excluded, include []string) string {
	const kinds = ".go, .py, .pyi, .yaml, .yml, .json, .jsonl, .ndjson, .md, .markdown, .mdx"
	switch {
	case others == 1:
		return "the one file found is of no kind protoscan reads (" + kinds + ")"
	case others > 1:
		return fmt.Sprintf("none of the %d files found is of a kind protoscan reads (%s)", others, kinds)
	}
	var why []string
	for _, r := range []struct {
		n    int
		what string
	}{
		{excluded.Exclude, "--exclude or the config's exclude"},
		{excluded.Gitignore, ".gitignore (--no-gitignore scans them)"},
		{excluded.Default, "the default excludes: .git, node_modules, vendor, virtualenvs, caches, HTTP cassettes (--no-default-excludes scans them)"},
		{excluded.Other, "not regular files"},
	} {
		if n := r.n; n > 0 {
			why = append(why, fmt.Sprintf("%d by %s", n, r.what))
		}
	}
	if len(why) > 0 {
		return "every path was excluded: " + strings.Join(why, "; ")
	}
	if len(include) > 0 {
		return "no file matches the include globs (" + strings.Join(include, ", ") + ")"
	}
	return "the PATH holds no file"
}
