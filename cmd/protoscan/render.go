package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/protoscan-dev/protoscan/internal/engine"
	"github.com/protoscan-dev/protoscan/internal/report"
	"github.com/protoscan-dev/protoscan/internal/textsafe"
)

// document is what one command (scan, audit, validate) renders, each
// format from what it has. sarif returns the report its SARIF log
// holds, with files named relative to the repository root by names;
// prefix and all word the notice of what the log left out.
type document interface {
	text(w io.Writer, color bool) error
	json(w io.Writer) error
	markdown(w io.Writer) error
	sarif() (rep *report.Report, names *engine.PathMap, prefix, all string)
}

// render writes one output of a command, the one format switch of
// scan, audit and validate: every SARIF log gets the repository root
// its files are named relative to (%SRCROOT%).
func (e *env) render(o output, roots []string, d document) error {
	color := o.toStdout() && isTerminal(e.stdout) || o.stderr && isTerminal(e.stderr)
	return e.writeOutput(o, roots, func(w io.Writer) error {
		switch o.format {
		case "json":
			return d.json(w)
		case "sarif":
			rep, names, prefix, all := d.sarif()
			rep.SrcRoot = names.SrcRoot()
			return e.writeSARIF(w, rep, prefix, all)
		case "markdown":
			return d.markdown(w)
		default:
			return d.text(w, color)
		}
	})
}

// renderAll renders d in every output, saying on stderr, after prefix,
// what could not be written; false when something could not.
func (e *env) renderAll(prefix string, outputs []output, roots []string, d document) bool {
	ok := true
	for _, o := range outputs {
		if err := e.render(o, roots, d); err != nil {
			fmt.Fprintln(e.stderr, prefix, textsafe.Error(err))
			ok = false
		}
	}
	return ok
}

// scanDoc is the scan's report; maxSize is the scan's file size limit,
// which SARIF reads the flagged files again with.
type scanDoc struct {
	rep     *report.Report
	names   *engine.PathMap
	maxSize int64
}

func (d scanDoc) text(w io.Writer, color bool) error { return report.Text(w, d.rep, color) }
func (d scanDoc) json(w io.Writer) error             { return report.JSON(w, d.rep) }
func (d scanDoc) markdown(w io.Writer) error         { return report.Markdown(w, d.rep) }

func (d scanDoc) sarif() (*report.Report, *engine.PathMap, string, string) {
	keyed := *d.rep // files relative to the repository root
	keyed.Findings = d.names.Keyed(d.rep.Findings)
	keyed.Gate = d.names.KeyedGate(d.rep.Gate)
	keyed.Source = d.names.Sources(d.rep.Findings, keyed.Findings, d.maxSize)
	return &keyed, d.names, "protoscan", "the text and JSON reports have them all"
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
		fmt.Fprintf(e.stderr, "%s: SARIF: %s left out (GitHub accepts %s); %s\n", prefix, plural(n, "result"), strings.Join(accepts, " and "), all)
	}
	if cut.Related > 0 {
		fmt.Fprintf(e.stderr, "%s: SARIF: %s left out (GitHub accepts %d per result); %s\n", prefix, plural(cut.Related, "related location"), cut.Limits.Locations, all)
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

// plural writes n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
