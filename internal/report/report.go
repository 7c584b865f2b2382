// Package report renders a scan's findings and the compliance report. Each
// format (Text, JSON, SARIF, Markdown) is one function over the same
// Report; none of them sorts, filters or decides the exit code: the
// findings arrive sorted and final (Markdown caps how many rows it shows,
// SARIF keeps within GitHub code scanning's limits and says what it left
// out). The same Report always renders to the same bytes.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/rules"
	"github.com/protoscan-dev/protoscan/internal/textsafe"
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
	// Gate is what governs the scan's gate (the specs in effect, the
	// config, the settings of the tree's config that lower the gate);
	// nil leaves it out.
	Gate *Gate
	// SrcRoot is the file URI, ending in "/", of the directory SARIF's
	// relative paths are relative to (%SRCROOT%: the repository root);
	// "" leaves run.originalUriBaseIds out. The other formats name
	// files as the findings do.
	SrcRoot string
	// Source reads the file the findings name path, for SARIF, whose
	// columns count UTF-16 code units where the findings count bytes; nil
	// when the findings' columns count both alike (ASCII text). SARIF
	// asks for a file once, and only for one with a column or a fix in
	// it.
	Source func(path string) ([]byte, error)
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

// Text writes one line per finding, "file:line:col: severity: message
// [rule]" (the shape of validate's and audit's lines, and of compilers'), each
// followed by its related places on lines indented with a tab; then, when
// the report has them, a "messages:" section (per kind: counts,
// compliance, top errors) and a "status spellings:" section (the drift
// matrix); and last a summary line, which names the suppressed, baselined
// and stale baseline counts that are not zero. color adds ANSI colours.
// Every string of the tree in it (paths, messages, kinds, field names) is
// escaped by textsafe, so that a line begins with protoscan's text or a
// path and holds no control character of the tree.
func Text(w io.Writer, r *Report, color bool) error {
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return code + s + reset
	}
	var b strings.Builder
	for _, s := range fold(r.Findings) {
		f := s.f
		if s.more > 0 {
			f.Message, f.Related = foldMessage(s), nil
		}
		b.WriteString(paint(bold, textPlace(f.Location)))
		b.WriteString(": ")
		code := faint
		switch f.Severity {
		case finding.Error:
			code = red
		case finding.Warning:
			code = yellow
		}
		b.WriteString(paint(code, f.Severity.String()))
		b.WriteString(": ")
		b.WriteString(textsafe.String(f.Message))
		b.WriteString(" ")
		b.WriteString(paint(faint, "["+textsafe.String(f.Rule)+"]"))
		b.WriteByte('\n')
		for _, rel := range f.Related {
			fmt.Fprintf(&b, "\t%s: %s\n", textPlace(rel), textsafe.String(rel.Message))
		}
	}
	textMessages(&b, r.Messages, paint)
	textStatuses(&b, r.Statuses, paint)
	textGate(&b, r.Gate, paint)
	errs, warns, notes := r.counts()
	fmt.Fprintf(&b, "%s (%s, %s, %s) in %s scanned", plural(len(r.Findings), "finding"),
		plural(errs, "error"), plural(warns, "warning"), plural(notes, "note"), plural(r.Files, "file"))
	if s := silenced(r); s != "" {
		b.WriteString("; " + s)
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// textMessages writes the "messages:" section: per kind, its counts and
// compliance, then its most common errors and unknown and deprecated fields.
func textMessages(b *strings.Builder, kinds []KindSummary, paint func(code, s string) string) {
	if len(kinds) == 0 {
		return
	}
	b.WriteString(paint(bold, "messages:") + "\n")
	for _, k := range kinds {
		if k.Found == 0 {
			fmt.Fprintf(b, "  %s: none found\n", textsafe.String(k.Kind))
			continue
		}
		fmt.Fprintf(b, "  %s: %d found, %d valid, %d invalid, %d with warnings, %s compliant\n",
			textsafe.String(k.Kind), k.Found, k.Valid, k.Invalid, k.WithWarnings, complianceText(k))
		for _, l := range []struct {
			title string
			cs    []Count
		}{{"top errors", k.TopErrors}, {"unknown fields", k.UnknownFields}, {"deprecated fields", k.DeprecatedFields}} {
			if len(l.cs) > 0 {
				fmt.Fprintf(b, "    %s: %s\n", l.title, textCounts(l.cs))
			}
		}
	}
}

func textCounts(cs []Count) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s (%d)", textsafe.String(c.Name), c.N)
	}
	return strings.Join(parts, ", ")
}

// textStatuses writes the "status spellings:" section, the drift matrix:
// one line per spelling, quoted, with the canonical status it stands for,
// its count and its first locations.
func textStatuses(b *strings.Builder, statuses []StatusSpelling, paint func(code, s string) string) {
	if len(statuses) == 0 {
		return
	}
	b.WriteString(paint(bold, "status spellings:") + "\n")
	for _, s := range statuses {
		canonical := "not a status"
		switch {
		case s.Canonical == s.Value:
			canonical = "canonical"
		case s.Canonical != "":
			canonical = "for " + strconv.Quote(s.Canonical)
		}
		fmt.Fprintf(b, "  %s (%s): %d", strconv.Quote(s.Value), canonical, s.Count)
		shown := s.Locations[:min(firstLocations, len(s.Locations))]
		for i, l := range shown {
			if i == 0 {
				b.WriteString(" at ")
			} else {
				b.WriteString(", ")
			}
			b.WriteString(textPlace(l))
		}
		if more := max(s.Count, len(s.Locations)) - len(shown); more > 0 && len(shown) > 0 {
			fmt.Fprintf(b, " and %d more", more)
		}
		b.WriteByte('\n')
	}
}

// compliance is KindSummary.Compliance rounded down to one decimal, so
// that 100 means every message is valid; every format shows this value.
func compliance(k KindSummary) float64 {
	return math.Floor(k.Compliance()*10) / 10
}

func complianceText(k KindSummary) string {
	if k.Found == 0 {
		return "-"
	}
	return strconv.FormatFloat(compliance(k), 'f', 1, 64) + "%"
}

// place is "path:line:col" (without what is 0), as Markdown's code spans
// show it (mdCode escapes it).
func place(l finding.Location) string {
	switch {
	case l.Line == 0:
		return l.Path
	case l.Col == 0:
		return fmt.Sprintf("%s:%d", l.Path, l.Line)
	}
	return fmt.Sprintf("%s:%d:%d", l.Path, l.Line, l.Col)
}

// textPlace is place for the text reports: the path as textsafe.Path
// writes it, so that a line that begins with it is no workflow command.
func textPlace(l finding.Location) string {
	l.Path = textsafe.Path(l.Path)
	return place(l)
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
	Messages []jsonKind    `json:"messages"`
	Statuses []jsonStatus  `json:"statuses"`
	Gate     *jsonGate     `json:"gate,omitempty"`
	Summary  jsonSummary   `json:"summary"`
}

type jsonKind struct {
	Kind             string      `json:"kind"`
	Found            int         `json:"found"`
	Valid            int         `json:"valid"`
	Invalid          int         `json:"invalid"`
	WithWarnings     int         `json:"with_warnings"`
	Compliance       float64     `json:"compliance"`
	TopErrors        []jsonCount `json:"top_errors"`
	UnknownFields    []jsonCount `json:"unknown_fields"`
	DeprecatedFields []jsonCount `json:"deprecated_fields"`
}

type jsonCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

type jsonStatus struct {
	Value     string         `json:"value"`
	Canonical string         `json:"canonical,omitempty"`
	Count     int            `json:"count"`
	Locations []jsonLocation `json:"locations"`
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
	Message     string         `json:"message"`
	Literal     string         `json:"literal,omitempty"`
	Canonical   string         `json:"canonical,omitempty"`
	Related     []jsonLocation `json:"related,omitempty"`
	Fix         *jsonFix       `json:"fix,omitempty"`
	Fingerprint string         `json:"fingerprint,omitempty"`
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
	Files         int            `json:"files"`
	Parsed        int            `json:"parsed"`
	Candidates    int            `json:"candidates"`
	Findings      int            `json:"findings"`
	Errors        int            `json:"errors"`
	Warnings      int            `json:"warnings"`
	Notes         int            `json:"notes"`
	Suppressed    int            `json:"suppressed"`
	Baselined     int            `json:"baselined"`
	StaleBaseline int            `json:"stale_baseline"`
	ByRule        map[string]int `json:"by_rule"`
}

func jsonLoc(l finding.Location) jsonLocation {
	return jsonLocation{File: l.Path, Line: l.Line, Column: l.Col, EndLine: l.EndLine, EndColumn: l.EndCol, Message: l.Message}
}

// JSON writes the report as one JSON object (schema in docs/output.md).
func JSON(w io.Writer, r *Report) error {
	out := jsonReport{Version: JSONVersion, Tool: jsonTool{r.Tool, r.Version}, Findings: []jsonFinding{}}
	byRule := map[string]int{}
	for _, f := range r.Findings {
		jf := jsonFinding{Rule: f.Rule, Severity: f.Severity.String(), jsonLocation: jsonLoc(f.Location), Message: f.Message,
			Literal: f.Literal, Canonical: f.Canonical, Fingerprint: f.Fingerprint}
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
	out.Messages = []jsonKind{}
	for _, k := range r.Messages {
		out.Messages = append(out.Messages, jsonKind{Kind: k.Kind, Found: k.Found, Valid: k.Valid, Invalid: k.Invalid,
			WithWarnings: k.WithWarnings, Compliance: compliance(k), TopErrors: jsonCounts(k.TopErrors),
			UnknownFields: jsonCounts(k.UnknownFields), DeprecatedFields: jsonCounts(k.DeprecatedFields)})
	}
	out.Statuses = []jsonStatus{}
	for _, st := range r.Statuses {
		js := jsonStatus{Value: st.Value, Canonical: st.Canonical, Count: st.Count, Locations: []jsonLocation{}}
		for _, l := range st.Locations {
			js.Locations = append(js.Locations, jsonLoc(l))
		}
		out.Statuses = append(out.Statuses, js)
	}
	out.Gate = gateJSON(r.Gate)
	errs, warns, notes := r.counts()
	out.Summary = jsonSummary{Files: r.Files, Parsed: r.Parsed, Candidates: r.Candidates, Findings: len(r.Findings),
		Errors: errs, Warnings: warns, Notes: notes,
		Suppressed: r.Suppressed, Baselined: r.Baselined, StaleBaseline: r.StaleBaseline, ByRule: byRule}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func jsonCounts(cs []Count) []jsonCount {
	out := make([]jsonCount, len(cs))
	for i, c := range cs {
		out[i] = jsonCount{c.Name, c.N}
	}
	return out
}
