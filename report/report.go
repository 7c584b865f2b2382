// Package report renders a scan's findings. Each format is one function
// over the same Report; none of them sorts, filters or decides the exit
// code: the findings arrive sorted and final.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/protoscan/protoscan/finding"
	"github.com/protoscan/protoscan/rules"
)

// Report is everything a renderer shows.
type Report struct {
	Tool     string // "protoscan"
	Version  string
	Findings []finding.Finding
	Files    int // files of the languages protoscan reads
	Parsed   int // files parsed (the others were ruled out by the prefilter)
	// Candidates counts the functions divergence found to implement a
	// protocol decision, clustered or not.
	Candidates int
	// Rules documents every rule the run could report (SARIF writes them
	// all into tool.driver.rules), in id order.
	Rules []rules.Doc
	// Messages summarises the protocol messages found in the repository,
	// one entry per kind, in the spec's kind order.
	Messages []KindSummary
	// Statuses is the drift matrix: every distinct spelling of a HANDBACK
	// status found in a status context, most frequent first.
	Statuses []StatusSpelling
	// Suppressed counts findings silenced by protoscan:ignore comments,
	// Baselined those matched by the --baseline file, StaleBaseline the
	// baseline entries that matched nothing (fixed since).
	Suppressed, Baselined, StaleBaseline int
}

// KindSummary is what the scan found of one message kind.
type KindSummary struct {
	Kind         string // "delegate"
	Found        int    // messages of this kind
	Valid        int    // without errors
	Invalid      int    // with errors
	WithWarnings int    // valid or not, with warnings
	// TopErrors are the most common error rules (msgcheck rule ids), most
	// frequent first, at most five; UnknownFields and DeprecatedFields the
	// field names seen, most frequent first.
	TopErrors        []Count
	UnknownFields    []Count
	DeprecatedFields []Count
}

// Compliance is the share of valid messages in percent, 100 when none
// were found.
func (k KindSummary) Compliance() float64 {
	if k.Found == 0 {
		return 100
	}
	return 100 * float64(k.Valid) / float64(k.Found)
}

// Count is a name and how often it was seen.
type Count struct {
	Name string
	N    int
}

// StatusSpelling is one spelling of a HANDBACK status and where it is.
type StatusSpelling struct {
	Value     string // as written: "SUCCESS", "done"
	Canonical string // the canonical status it stands for, "" when none
	Count     int
	Locations []finding.Location // every place, sorted
}

// counts tallies findings per severity.
func (r *Report) counts() (errs, warns, notes int) {
	for _, f := range r.Findings {
		switch f.Severity {
		case finding.Error:
			errs++
		case finding.Warning:
			warns++
		default:
			notes++
		}
	}
	return
}

// ANSI colours, used only when the output is a terminal.
const (
	red    = "\x1b[31m"
	yellow = "\x1b[33m"
	faint  = "\x1b[2m"
	bold   = "\x1b[1m"
	reset  = "\x1b[0m"
)

// Text writes one line per finding, "file:line:col: rule: message", and a
// summary. color adds ANSI colours.
func Text(w io.Writer, r *Report, color bool) error {
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return code + s + reset
	}
	var b strings.Builder
	for _, f := range r.Findings {
		b.WriteString(paint(bold, place(f.Location)))
		b.WriteString(": ")
		code := faint
		switch f.Severity {
		case finding.Error:
			code = red
		case finding.Warning:
			code = yellow
		}
		b.WriteString(paint(code, f.Rule))
		b.WriteString(": ")
		b.WriteString(f.Message)
		b.WriteByte('\n')
		for _, rel := range f.Related {
			fmt.Fprintf(&b, "\t%s: %s\n", place(rel), rel.Message)
		}
	}
	errs, warns, notes := r.counts()
	fmt.Fprintf(&b, "%s (%s, %s, %s) in %s scanned\n", plural(len(r.Findings), "finding"),
		plural(errs, "error"), plural(warns, "warning"), plural(notes, "note"), plural(r.Files, "file"))
	_, err := io.WriteString(w, b.String())
	return err
}

func place(l finding.Location) string {
	switch {
	case l.Line == 0:
		return l.Path
	case l.Col == 0:
		return fmt.Sprintf("%s:%d", l.Path, l.Line)
	}
	return fmt.Sprintf("%s:%d:%d", l.Path, l.Line, l.Col)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// JSONVersion is the version of the JSON report's schema; it changes only
// when a field is removed or changes meaning.
const JSONVersion = 1

type jsonReport struct {
	Version  int           `json:"version"`
	Tool     jsonTool      `json:"tool"`
	Findings []jsonFinding `json:"findings"`
	Summary  jsonSummary   `json:"summary"`
}

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type jsonLocation struct {
	File      string `json:"file"`
	Line      int    `json:"line,omitempty"`
	Column    int    `json:"column,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	EndColumn int    `json:"end_column,omitempty"`
	Message   string `json:"message,omitempty"`
}

type jsonFinding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	jsonLocation
	Message   string         `json:"message"`
	Literal   string         `json:"literal,omitempty"`
	Canonical string         `json:"canonical,omitempty"`
	Related   []jsonLocation `json:"related,omitempty"`
	Fix       *jsonFix       `json:"fix,omitempty"`
}

type jsonFix struct {
	Message string     `json:"message"`
	Edits   []jsonEdit `json:"edits"`
}

type jsonEdit struct {
	File   string `json:"file"`
	Offset int    `json:"offset"`
	End    int    `json:"end"`
	New    string `json:"new"`
}

type jsonSummary struct {
	Files      int            `json:"files"`
	Parsed     int            `json:"parsed"`
	Candidates int            `json:"candidates"`
	Findings   int            `json:"findings"`
	Errors     int            `json:"errors"`
	Warnings   int            `json:"warnings"`
	Notes      int            `json:"notes"`
	ByRule     map[string]int `json:"by_rule"`
}

func jsonLoc(l finding.Location) jsonLocation {
	return jsonLocation{File: l.Path, Line: l.Line, Column: l.Col, EndLine: l.EndLine, EndColumn: l.EndCol, Message: l.Message}
}

// JSON writes the report as one JSON object (schema in the README).
func JSON(w io.Writer, r *Report) error {
	out := jsonReport{Version: JSONVersion, Tool: jsonTool{r.Tool, r.Version}, Findings: []jsonFinding{}}
	byRule := map[string]int{}
	for _, f := range r.Findings {
		jf := jsonFinding{Rule: f.Rule, Severity: f.Severity.String(), jsonLocation: jsonLoc(f.Location), Message: f.Message,
			Literal: f.Literal, Canonical: f.Canonical}
		for _, rel := range f.Related {
			jf.Related = append(jf.Related, jsonLoc(rel))
		}
		if f.Fix != nil {
			jf.Fix = &jsonFix{Message: f.Fix.Message}
			for _, e := range f.Fix.Edits {
				jf.Fix.Edits = append(jf.Fix.Edits, jsonEdit{e.Path, e.Offset, e.End, e.New})
			}
		}
		out.Findings = append(out.Findings, jf)
		byRule[f.Rule]++
	}
	errs, warns, notes := r.counts()
	out.Summary = jsonSummary{Files: r.Files, Parsed: r.Parsed, Candidates: r.Candidates, Findings: len(r.Findings), Errors: errs, Warnings: warns, Notes: notes, ByRule: byRule}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
