package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/baseline"
	"github.com/protoscan-dev/protoscan/internal/engine"
	"github.com/protoscan-dev/protoscan/internal/messages"
	"github.com/protoscan-dev/protoscan/internal/report"
	"github.com/protoscan-dev/protoscan/internal/safefile"
	"github.com/protoscan-dev/protoscan/internal/textsafe"
	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// maxInputBytes bounds one input file or stdin.
const maxInputBytes = 16 << 20

// input is one file to validate and the kind it was named as ("" = detect).
type input struct {
	path string
	kind string
}

// validateFlags are the flags of validate.
type validateFlags struct {
	inputs   []input
	verdicts []string // see phase.go
	handoffs []string // see handoff.go
	outputs  []output
	spec     specPaths
	root     string
	events   *eventLog // see events.go
}

// define defines the flags of validate on a new flag set.
func (f *validateFlags) define(e *env) *flag.FlagSet {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Func("delegate", "validate `FILE` as DELEGATE messages (repeatable)", func(s string) error { f.inputs = append(f.inputs, input{s, "delegate"}); return nil })
	fs.Func("handback", "validate `FILE` as HANDBACK messages (repeatable)", func(s string) error { f.inputs = append(f.inputs, input{s, "handback"}); return nil })
	fs.Func("verdict", "check `FILE` as phase verdict JSON, fail-closed (repeatable)", func(s string) error { f.verdicts = append(f.verdicts, s); return nil })
	fs.Func("handoff", "evaluate the NEXUS handoffs in `FILE` (YAML, JSON or Markdown; repeatable)", func(s string) error { f.handoffs = append(f.handoffs, s); return nil })
	formatFlag(fs, &f.outputs)
	fs.BoolFunc("json", "print one JSON result object per message (--format json)", func(s string) error {
		if on, err := strconv.ParseBool(s); err != nil || !on {
			return err
		}
		f.outputs = append(f.outputs, output{format: "json", flag: "--json"})
		return nil
	})
	fs.Var(&f.spec, "spec", specUsage+" (default: docs/specs/protocol-core-v*.yaml under the root, else the embedded v1.0)")
	fs.StringVar(&f.root, "root", "", "repository root `DIR` for skills/ lookups (default: nearest ancestor with .git, else the current directory)")
	f.events = addEventsFlag(fs)
	return fs
}

func (e *env) validate(args []string) int {
	var f validateFlags
	fs := f.define(e)
	usage := "usage: protoscan validate [--delegate F | --handback F | --handoff F | --verdict F | F...] [--format text|json|sarif|markdown[=FILE]] [--json] [--spec F] [--root DIR] [--events F]"
	if code, done := parseFlags(e, fs, usage, args, func(p string) { f.inputs = append(f.inputs, input{p, ""}) }); done {
		return code
	}
	var stdoutWriters []string // beside the reports
	if f.events.path == "-" {
		stdoutWriters = append(stdoutWriters, "--events -")
	}
	outputs, err := reportsFor(f.outputs, stdoutWriters...)
	if err != nil {
		fmt.Fprintln(e.stderr, "protoscan validate:", textsafe.Error(err))
		return exitTrouble
	}
	if code, done := e.validateOthers(&f, outputs); done {
		return code
	}
	var paths []string
	for _, in := range f.inputs {
		paths = append(paths, in.path)
	}
	v, err := e.validator(f.spec, f.root)
	if err == nil {
		err = f.events.start(e, v, f.root, engine.WriteRoots(paths...))
	}
	if err != nil {
		fmt.Fprintln(e.stderr, "protoscan validate:", textsafe.Error(err))
		return exitTrouble
	}
	r := &validation{e: e, v: v, events: f.events, code: exitOK, rep: &report.Report{Tool: "protoscan", Version: version()}}
	r.enc = json.NewEncoder(&r.jsonl)
	r.enc.SetEscapeHTML(false)
	if slices.ContainsFunc(outputs, func(o output) bool { return o.format == "sarif" }) {
		r.srcs = map[string][]byte{}
	}
	for _, in := range f.inputs {
		if in.path != "-" && isSource(in.path) {
			r.source(in)
		} else {
			r.file(in)
		}
	}
	code := r.code
	if r.validated == 0 && code == exitOK {
		code = exitTrouble // Markdown or code without a message: nothing was validated
	}
	r.rep.Rules = engine.RuleDocs(r.rep.Findings)
	doc := validateDoc{rep: r.rep, printed: r.text.Bytes(), lines: r.jsonl.Bytes(), paths: paths, srcs: r.srcs}
	if !e.renderAll("protoscan validate:", outputs, engine.WriteRoots(paths...), doc) {
		code = exitTrouble
	}
	if err := f.events.close(); err != nil {
		fmt.Fprintln(e.stderr, "protoscan validate:", textsafe.Error(err))
		code = exitTrouble
	}
	return code
}

// validateOthers runs validate --handoff and --verdict, which print
// their own text or JSON on stdout, and refuses a validate without
// input; done says it did (with the exit code).
func (e *env) validateOthers(f *validateFlags, outputs []output) (code int, done bool) {
	asJSON := false
	if len(f.handoffs)+len(f.verdicts) > 0 {
		for _, o := range outputs {
			if !o.toStdout() || o.format == "sarif" || o.format == "markdown" {
				fmt.Fprintln(e.stderr, "protoscan validate: --handoff and --verdict print text or JSON on stdout only")
				return exitTrouble, true
			}
		}
		asJSON = slices.ContainsFunc(outputs, func(o output) bool { return o.format == "json" })
	}
	if len(f.handoffs) > 0 {
		if len(f.inputs) > 0 {
			fmt.Fprintln(e.stderr, "protoscan validate: --handoff cannot be combined with --delegate, --handback or files")
			return exitTrouble, true
		}
		return e.validateHandoffs(f.handoffs, asJSON, f.spec, f.root), true
	}
	if len(f.verdicts) > 0 {
		if len(f.inputs) > 0 {
			fmt.Fprintln(e.stderr, "protoscan validate: --verdict cannot be combined with --delegate, --handback or files")
			return exitTrouble, true
		}
		return e.validateVerdicts(f.verdicts, asJSON), true
	}
	if len(f.inputs) == 0 {
		fmt.Fprintln(e.stderr, "protoscan validate: no input; give --delegate F, --handback F or files (- for stdin)")
		return exitTrouble, true
	}
	return 0, false
}

// validation is one run of validate over its inputs: every output is
// written at the end, each from what it needs.
type validation struct {
	e         *env
	v         *msgcheck.Validator
	events    *eventLog
	code      int
	text      bytes.Buffer
	jsonl     bytes.Buffer
	enc       *json.Encoder
	rep       *report.Report
	srcs      map[string][]byte // for SARIF: the inputs' text, by their names
	sources   *messages.Checker // for Markdown and code, made on first use
	validated int
}

// trouble says err on stderr; exit 2.
func (r *validation) trouble(err error) {
	fmt.Fprintln(r.e.stderr, "protoscan validate:", textsafe.Error(err))
	r.code = exitTrouble
}

// source validates the messages of a Markdown or code file.
func (r *validation) source(in input) {
	e := r.e
	if r.events.path != "" {
		fmt.Fprintf(e.stderr, "protoscan validate: %s: --events runs the pipeline on messages of YAML and JSON files only\n", textsafe.String(in.path))
		r.code = exitTrouble
		return
	}
	if r.sources == nil {
		r.sources = messages.New(r.v, r.v.Spec())
	}
	results, src, err := e.sourceMessages(r.sources, in)
	if err != nil {
		r.trouble(err)
		return
	}
	if r.srcs != nil {
		r.srcs[displayName(in.path)] = src
	}
	if len(results) == 0 {
		// prose and code without a message are common: said, not an error
		what := "protocol message"
		if in.kind != "" {
			what = strings.ToUpper(in.kind)
		}
		fmt.Fprintf(e.stderr, "protoscan validate: %s: no %s in it (validate reads the fenced YAML and JSON blocks of Markdown and the message literals of code, as the scan does)\n", textsafe.String(in.path), what)
	}
	for i, m := range results {
		res := m.Result
		if !res.Valid && r.code == exitOK {
			r.code = exitFailed
		}
		rj := res.JSON()
		for k, val := range m.Value {
			if _, ok := val.(facts.Unknown); ok {
				rj.FieldTypes[k] = "unknown" // the code computes it
			}
		}
		id, _ := m.Value["task_id"].(string)
		r.enc.Encode(jsonResult{File: in.path, Document: i + 1, Line: m.Location.Line, ResultJSON: rj})
		printResult(&r.text, in.path, m.Location.Line, id, res)
		r.rep.Findings = append(r.rep.Findings, messages.ResultFindings(in.path, m.Location.Line, res)...)
	}
	r.validated += len(results)
	r.rep.Files++
}

// file validates the messages of a YAML or JSON file (or stdin).
func (r *validation) file(in input) {
	e := r.e
	docs, src, err := e.readMessages(in.path)
	if err != nil {
		r.trouble(err)
		return
	}
	if r.srcs != nil {
		r.srcs[displayName(in.path)] = src
	}
	cols := yamlnode.NewColumns(src)
	for i, doc := range docs {
		kind, schema := r.v.Spec().DocumentKind(doc, filepath.ToSlash(in.path))
		if schema {
			fmt.Fprintf(e.stderr, "protoscan validate: %s: document %d is a JSON Schema document, not a message: skipped\n", textsafe.String(displayName(in.path)), i+1)
			continue
		}
		if in.kind != "" {
			kind = in.kind
		}
		res, err := r.events.validate(r.v, kind, displayName(in.path), i+1, doc)
		if err != nil {
			fmt.Fprintf(e.stderr, "protoscan validate: %s: document %d: %s\n", textsafe.String(displayName(in.path)), i+1, textsafe.Error(err))
			r.code = exitTrouble
			continue
		}
		messages.ByteColumns(cols, res)
		if !res.Valid && r.code == exitOK {
			r.code = exitFailed
		}
		r.enc.Encode(jsonResult{File: displayName(in.path), Document: i + 1, Line: doc.Line, ResultJSON: res.JSON()})
		id, _ := taskID(doc)
		printResult(&r.text, displayName(in.path), doc.Line, id, res)
		r.rep.Findings = append(r.rep.Findings, messages.ResultFindings(displayName(in.path), doc.Line, res)...)
		r.validated++
	}
	r.rep.Files++
}

// validateDoc is validate's report: its text and JSON lines as printed,
// rep for Markdown and SARIF, and for SARIF the inputs' text (srcs, by
// the names rep gives the inputs).
type validateDoc struct {
	rep     *report.Report
	printed []byte // the text report
	lines   []byte // the JSON lines
	paths   []string
	srcs    map[string][]byte
}

func (d validateDoc) text(w io.Writer, _ bool) error {
	_, err := w.Write(d.printed)
	return err
}

func (d validateDoc) json(w io.Writer) error {
	_, err := w.Write(d.lines)
	return err
}

func (d validateDoc) markdown(w io.Writer) error { return report.Markdown(w, d.rep) }

// sarif is rep as its SARIF names it, as the scan's does: files
// relative to the repository root (%SRCROOT%; stdin stays <stdin>),
// findings fingerprinted by the scan's recipe, columns converted with the
// inputs' text.
func (d validateDoc) sarif() (*report.Report, *engine.PathMap, string, string) {
	rep, srcs := d.rep, d.srcs
	names := engine.NewPathMap(context.Background(), slices.DeleteFunc(slices.Clone(d.paths), func(p string) bool { return p == "-" }))
	keyed := *rep
	keyed.Findings = names.Keyed(rep.Findings)
	byKey := map[string][]byte{}
	lines := map[string]*baseline.Lines{} // each input's lines, indexed when a finding needs them
	for i, f := range rep.Findings {
		k := &keyed.Findings[i]
		if f.Path == displayName("-") {
			k.Path = f.Path
		}
		src := srcs[f.Path]
		byKey[k.Path] = src
		var text []byte
		if f.Line > 0 {
			if lines[f.Path] == nil {
				lines[f.Path] = baseline.NewLines(src)
			}
			text = lines[f.Path].Text(f.Line)
		}
		k.Fingerprint = baseline.Fingerprint(f.Rule, k.Path, text)
	}
	keyed.Source = func(key string) ([]byte, error) {
		if src, ok := byKey[key]; ok {
			return src, nil
		}
		return nil, os.ErrNotExist
	}
	return &keyed, names, "protoscan validate", "the text and JSON reports have them all"
}

// jsonResult is one line of validate --json: where the message came from,
// then msgcheck's result object.
type jsonResult struct {
	File     string `json:"file"`
	Document int    `json:"document"`
	Line     int    `json:"line"`
	msgcheck.ResultJSON
}

func displayName(path string) string {
	if path == "-" {
		return "<stdin>"
	}
	return path
}

// printResult writes a message's errors and warnings, then its verdict
// line: where it starts, its kind and task id (id, "" for none).
func printResult(w io.Writer, name string, line int, id string, res msgcheck.Result) {
	for _, f := range res.Errors {
		fmt.Fprintf(w, "%s: error: %s [%s]\n", place(name, f), textsafe.String(f.Message), textsafe.String(f.Rule))
	}
	for _, f := range res.Warnings {
		fmt.Fprintf(w, "%s: warning: %s [%s]\n", place(name, f), textsafe.String(f.Message), textsafe.String(f.Rule))
	}
	what := "message"
	if res.Kind != "" {
		what = textsafe.String(strings.ToUpper(res.Kind))
	}
	if id != "" {
		what += " '" + textsafe.String(id) + "'"
	}
	verdict := "valid"
	if !res.Valid {
		verdict = "invalid"
	}
	fmt.Fprintf(w, "%s:%d: %s %s (%s)\n", textsafe.Path(name), line, what, verdict, counts(len(res.Errors), len(res.Warnings)))
}

// place begins a text line of validate, phase or a handoff: the file
// name (textsafe.Path) and the finding's line and column when it has them.
func place(name string, f msgcheck.Finding) string {
	name = textsafe.Path(name)
	if f.Line > 0 {
		return fmt.Sprintf("%s:%d:%d", name, f.Line, f.Column)
	}
	return name
}

func counts(errs, warns int) string {
	plural := func(n int, word string) string {
		if n == 1 {
			return "1 " + word
		}
		return fmt.Sprintf("%d %ss", n, word)
	}
	return plural(errs, "error") + ", " + plural(warns, "warning")
}

func taskID(doc *yaml.Node) (string, bool) {
	if doc.Kind != yaml.MappingNode {
		return "", false
	}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if doc.Content[i].Value == "task_id" && doc.Content[i+1].Kind == yaml.ScalarNode {
			return doc.Content[i+1].Value, true
		}
	}
	return "", false
}

// readLimited reads a file, or stdin for "-", refusing directories and
// more than limit bytes.
func (e *env) readLimited(path string, limit int64) ([]byte, error) {
	var r io.Reader = e.stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			return nil, fmt.Errorf("%s: is a directory", path)
		}
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", displayName(path), err)
	}
	if int64(len(data)) > limit {
		if limit%(1<<20) == 0 {
			return nil, fmt.Errorf("%s: larger than %d MiB", displayName(path), limit>>20)
		}
		return nil, fmt.Errorf("%s: larger than %d bytes", displayName(path), limit)
	}
	return data, nil
}

// isSource reports a Markdown or code file, whose messages validate
// finds as the scan does (sourceMessages).
func isSource(path string) bool {
	l := extract.ForPath(filepath.ToSlash(path))
	return l != nil && !l.Data
}

// sourceMessages reads a Markdown or code file and validates its
// protocol-core messages as the scan does: the fenced YAML and JSON
// blocks of Markdown, the message literals of code, each recognised by
// its shape, each finding at its place in the file; only those of the
// kind in.kind names, when it names one.
func (e *env) sourceMessages(c *messages.Checker, in input) ([]messages.Validated, []byte, error) {
	data, err := e.readLimited(in.path, maxInputBytes)
	if err != nil {
		return nil, nil, err
	}
	f, err := extract.File(filepath.ToSlash(in.path), data)
	if err != nil {
		return nil, nil, err // a file of code that does not parse
	}
	results := c.Results(f)
	if in.kind != "" {
		results = slices.DeleteFunc(results, func(r messages.Validated) bool { return r.Result.Kind != in.kind })
	}
	return results, data, nil
}

// readMessages reads a file (or stdin) and decodes every document in it
// (messages.Decode). It returns the documents and the bytes they were
// read from.
func (e *env) readMessages(path string) ([]*yaml.Node, []byte, error) {
	data, err := e.readLimited(path, maxInputBytes)
	if err != nil {
		return nil, nil, err
	}
	docs, err := messages.Decode(displayName(path), path, data)
	if err != nil {
		return nil, nil, err
	}
	return docs, data, nil
}

// validator builds the validator for a run: --spec wins, else the
// repository's docs/specs/protocol-core-v*.yaml, else the embedded spec.
func (e *env) validator(specPath specPaths, root string) (*msgcheck.Validator, error) {
	specs, root, err := engine.ResolveSpecs(specPath, false, root)
	if err != nil {
		return nil, err
	}
	e.specWarnings("validate", specs)
	return msgcheck.New(msgcheck.Options{Root: root, Timing: true}, engine.KnownFormer(specs)...)
}

// specWarnings prints on stderr what the loader warned about in specs
// (JSON Schema keywords it does not enforce), one FILE:LINE:COL line
// each: the spec works, its author should know what it does not check.
// scan reports them as findings instead (internal/engine).
func (e *env) specWarnings(cmd string, specs []*msgcheck.Spec) {
	for _, s := range specs {
		for _, w := range s.Warnings() {
			fmt.Fprintf(e.stderr, "protoscan %s: warning: %s\n", cmd, textsafe.String(w.String()))
		}
	}
}

func (e *env) spec(args []string) int {
	fs := flag.NewFlagSet("spec", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	specPath := specFlag(fs, "")
	root := fs.String("root", "", "repository root `DIR`")
	var kind *string
	fs.Func("json-schema", "print the message `KIND` (delegate, handback...) of the spec as a draft-07 JSON Schema", func(s string) error { kind = &s; return nil })
	var rest []string
	if code, done := parseFlags(e, fs, "usage: protoscan spec [--spec F] [--root DIR]\n       protoscan spec --json-schema KIND [--spec F] [--root DIR]", args, func(a string) { rest = append(rest, a) }); done {
		return code
	}
	if len(rest) > 0 {
		fmt.Fprintf(e.stderr, "protoscan spec: unexpected argument %q (give a spec file with --spec)\n", rest[0])
		return exitTrouble
	}
	specs, dir, err := engine.ResolveSpecs(*specPath, false, *root)
	if err != nil {
		fmt.Fprintln(e.stderr, "protoscan spec:", textsafe.Error(err))
		return exitTrouble
	}
	e.specWarnings("spec", specs)
	s := specs[0]
	if kind != nil {
		schema, err := s.JSONSchema(*kind)
		if err != nil {
			fmt.Fprintln(e.stderr, "protoscan spec:", textsafe.Error(err))
			return exitTrouble
		}
		e.stdout.Write(schema)
		return exitOK
	}
	fmt.Fprintf(e.stdout, "# %s %s, from %s\n", cmp.Or(s.Protocol, "protocol"), s.Version, s.Source)
	for i, src := range s.Sources() {
		var data []byte
		if name, ok := strings.CutPrefix(src, "embedded:"); ok {
			data, err = msgcheck.EmbeddedSpecSource(name)
		} else {
			// read as it was loaded; DefaultMax is the spec limit
			data, err = safefile.ReadFile(src, safefile.ReadOptions{Root: dir, Explicit: len(*specPath) > 0})
		}
		if err != nil {
			fmt.Fprintln(e.stderr, "protoscan spec:", textsafe.Error(err))
			return exitTrouble
		}
		if len(s.Sources()) > 1 {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			fmt.Fprintf(e.stdout, "# %s\n", src) // the files of a spec merged from several
		}
		e.stdout.Write(data)
	}
	return exitOK
}

// parseFlags parses flags anywhere among the arguments (protoscan validate
// a.yaml --json), with "--" ending them; every other argument goes to
// onArg in command-line order. -h prints the usage to stdout and exits 0;
// a bad flag exits 2, named in one line with the flag or value nearest
// to it (printFlagError).
func parseFlags(e *env, fs *flag.FlagSet, usage string, args []string, onArg func(string)) (code int, done bool) {
	printUsage := func(w io.Writer) {
		fmt.Fprintln(w, usage)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	fs.Usage = func() {}
	fs.SetOutput(io.Discard) // its own errors: printFlagError words them
	defer fs.SetOutput(e.stderr)
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printUsage(e.stdout)
				return exitOK, true
			}
			printFlagError(e.stderr, fs, err)
			return exitTrouble, true
		}
		left := fs.Args()
		if n := len(args) - len(left); n > 0 && args[n-1] == "--" {
			for _, a := range left {
				onArg(a)
			}
			return 0, false
		}
		if len(left) == 0 {
			return 0, false
		}
		onArg(left[0])
		args = left[1:]
	}
}
