package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/protoscan-dev/protoscan/audit"
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/jsonstr"
	"github.com/protoscan-dev/protoscan/internal/rules"
	"github.com/protoscan-dev/protoscan/internal/textsafe"
)

// This file renders a queue audit (package audit) in text, JSON and
// Markdown.

// maxListed bounds the problems listed per check in text and Markdown;
// JSON lists all of them.
const maxListed = 20

// AuditText writes the audit summary for a terminal or a log, every
// string of the queue or the spec in it escaped by textsafe.
func AuditText(w io.Writer, s *audit.Summary) error {
	var b strings.Builder
	if s.Messages == 0 {
		b.WriteString("0 messages\n") // and no compliance figure: there is nothing to comply
	} else {
		fmt.Fprintf(&b, "%d messages: %d valid, %d invalid, %d malformed, %d with warnings, %s compliant\n",
			s.Messages, s.Valid, s.Invalid, s.Malformed, s.WithWarnings(), pct(s.Compliance()))
	}
	for _, k := range s.Kinds {
		name := textsafe.String(k.Kind)
		if name == "" {
			name = "(kind unknown)"
		}
		fmt.Fprintf(&b, "  %s: %d (%d valid, %d invalid, %d with warnings)\n", name, k.Messages, k.Valid, k.Invalid, k.Warns)
	}
	if s.Malformed > 0 { // in no kind: so that the lines add up to the total
		fmt.Fprintf(&b, "  (malformed): %d\n", s.Malformed)
	}
	if s.Schemas > 0 {
		fmt.Fprintf(&b, "%s read among them, not counted: a JSON Schema document is no message\n", plural(s.Schemas, "JSON Schema document"))
	}
	section := func(title string, cs []audit.Count) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintf(&b, "%s:\n", title)
		for _, c := range cs {
			fmt.Fprintf(&b, "  %6d  %s\n", c.N, textsafe.String(c.Name))
		}
	}
	section("errors by rule", ruleCounts(s.Rules, audit.SeverityError))
	section("warnings by rule", ruleCounts(s.Rules, audit.SeverityWarning))
	section("unknown fields", s.UnknownFields)
	section("deprecated fields", s.DeprecatedFields)
	if len(s.Statuses) > 0 {
		b.WriteString("statuses:\n")
		for _, st := range s.Statuses {
			fmt.Fprintf(&b, "  %6d  %s%s\n", st.N, textsafe.String(st.Value), textsafe.String(statusNote(st)))
		}
	}
	problems := func(title string, n int, each func(func(audit.Problem) bool)) {
		if n == 0 {
			return
		}
		fmt.Fprintf(&b, "%s:\n", title)
		shown := listFirst(each, func(p audit.Problem) {
			fmt.Fprintf(&b, "%s: %s: %s [audit/%s]\n", auditPlace(p.Location), auditSeverity(p.Check), textsafe.String(p.Message), p.Check)
		})
		if shown < n {
			fmt.Fprintf(&b, "  ... and %d more\n", n-shown)
		}
	}
	for _, c := range s.Integrity.Checks() {
		problems(c.Name, c.N, eachOfCheck(s.Integrity, c.Name))
	}
	problems("unreadable or malformed", len(s.Problems), eachOf(s.Problems))
	if n := s.InvalidMessages.Len(); n > 0 {
		b.WriteString("invalid messages:\n")
		for i, m := range s.InvalidMessages.All() {
			if i == maxListed {
				break
			}
			fmt.Fprintf(&b, "%s: error: %s%s [%s]\n", auditPlace(m.Location), textsafe.String(m.Message), moreErrors(m.Errors), textsafe.String(m.Rule))
		}
		if n > maxListed {
			fmt.Fprintf(&b, "  ... and %d more (--format json lists them all)\n", n-maxListed)
		}
	}
	if s.Integrity.Len() > 0 || len(s.Problems) > 0 {
		b.WriteString("(protoscan explain audit/CHECK says what a check means and how to fix it)\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// auditPlace is a queue location as the text report begins a line with
// it: "path" or "path:line", the path as textsafe.Path writes it.
func auditPlace(l audit.Location) string {
	return textPlace(finding.Location{Path: l.Path, Line: l.Line})
}

// auditSeverity is the severity of an audit check, as its rule
// (audit/CHECK) gives it; unreadable inputs are errors.
func auditSeverity(check string) string {
	if d, ok := rules.Lookup("audit/" + check); ok {
		return d.Severity.String()
	}
	return "error"
}

// moreErrors notes the errors of an invalid message beyond the first.
func moreErrors(n int) string {
	switch {
	case n == 2:
		return " (and 1 more error)"
	case n > 2:
		return fmt.Sprintf(" (and %d more errors)", n-1)
	}
	return ""
}

// AuditFindings is the audit as findings, for SARIF: each invalid
// message at its file and line with its first error's rule, then each
// integrity problem and unreadable or malformed input as its
// audit/CHECK rule, in that order.
func AuditFindings(s *audit.Summary) []finding.Finding {
	var out []finding.Finding
	for _, m := range s.InvalidMessages.All() {
		out = append(out, finding.Finding{Rule: m.Rule, Severity: finding.Error,
			Location: finding.Location{Path: m.Path, Line: m.Line},
			Message:  m.Message + moreErrors(m.Errors)})
	}
	add := func(p audit.Problem) bool {
		sev, _ := finding.ParseSeverity(auditSeverity(p.Check))
		out = append(out, finding.Finding{Rule: "audit/" + p.Check, Severity: sev,
			Location: finding.Location{Path: p.Path, Line: p.Line}, Message: strings.Clone(p.Message)})
		return true
	}
	for _, c := range s.Integrity.Checks() {
		s.Integrity.Each(c.Name, add)
	}
	for _, p := range s.Problems {
		add(p)
	}
	return out
}

// ruleCounts returns the counts of the rules of one severity.
func ruleCounts(rules []audit.RuleCount, severity string) []audit.Count {
	var out []audit.Count
	for _, r := range rules {
		if r.Severity == severity {
			out = append(out, audit.Count{Name: r.Rule, N: r.N})
		}
	}
	return out
}

func statusNote(st audit.StatusCount) string {
	switch {
	case st.Canonical == st.Value:
		return ""
	case st.Canonical == "":
		return " (not a status)"
	}
	return fmt.Sprintf(" (drifted: %s)", st.Canonical)
}

func pct(v float64) string { return fmt.Sprintf("%.1f%%", float64(int(v*10))/10) }

// listFirst hands the first maxListed problems of each to fn and
// returns how many it handed.
func listFirst(each func(func(audit.Problem) bool), fn func(audit.Problem)) int {
	shown := 0
	each(func(p audit.Problem) bool {
		fn(p)
		shown++
		return shown < maxListed
	})
	return shown
}

// eachOfCheck hands out the problems of one check of in, as listFirst
// takes them.
func eachOfCheck(in *audit.Integrity, check string) func(func(audit.Problem) bool) {
	return func(fn func(audit.Problem) bool) { in.Each(check, fn) }
}

// eachOf is Integrity.Each over a list.
func eachOf(ps []audit.Problem) func(func(audit.Problem) bool) {
	return func(fn func(audit.Problem) bool) {
		for _, p := range ps {
			if !fn(p) {
				return
			}
		}
	}
}

type jsonAuditCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

type jsonAuditProblem struct {
	Check   string `json:"check"`
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

// AuditJSON writes the audit as one JSON object (docs/cli.md describes it):
// summary totals as integers, then every count and problem, on one line.
// The problem lists are written as they are read: an audit of a large
// queue lists tens of thousands of problems, which encoding/json took a
// tenth of the audit's time to reflect over.
func AuditJSON(w io.Writer, s *audit.Summary) error {
	type kind struct {
		Kind         string `json:"kind"`
		Messages     int    `json:"messages"`
		Valid        int    `json:"valid"`
		Invalid      int    `json:"invalid"`
		WithWarnings int    `json:"with_warnings"`
	}
	type status struct {
		Value     string `json:"value"`
		Canonical string `json:"canonical"`
		Count     int    `json:"count"`
	}
	type rule struct {
		Name     string `json:"name"`
		Severity string `json:"severity"`
		Count    int    `json:"count"`
	}
	var summary struct {
		Messages     int      `json:"messages"`
		Valid        int      `json:"valid"`
		Invalid      int      `json:"invalid"`
		Malformed    int      `json:"malformed"`
		WithWarnings int      `json:"with_warnings"`
		Compliance   *float64 `json:"compliance"` // null with no message
		Schemas      int      `json:"schemas,omitempty"`
	}
	summary.Messages, summary.Valid, summary.Invalid, summary.Malformed, summary.WithWarnings = s.Messages, s.Valid, s.Invalid, s.Malformed, s.WithWarnings()
	summary.Schemas = s.Schemas
	if s.Messages > 0 {
		c := float64(int(s.Compliance()*10)) / 10
		summary.Compliance = &c
	}
	kinds, rules, statuses := []kind{}, []rule{}, []status{}
	for _, k := range s.Kinds {
		kinds = append(kinds, kind{k.Kind, k.Messages, k.Valid, k.Invalid, k.Warns})
	}
	conv := func(cs []audit.Count) []jsonAuditCount {
		r := []jsonAuditCount{}
		for _, c := range cs {
			r = append(r, jsonAuditCount{c.Name, c.N})
		}
		return r
	}
	for _, r := range s.Rules {
		rules = append(rules, rule{r.Rule, r.Severity, r.N})
	}
	for _, st := range s.Statuses {
		statuses = append(statuses, status{st.Value, st.Canonical, st.N})
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	b := []byte(`{"version":1`)
	for _, part := range []struct {
		key string
		val any
	}{{"summary", summary}, {"kinds", kinds}, {"rules", rules}, {"unknown_fields", conv(s.UnknownFields)},
		{"deprecated_fields", conv(s.DeprecatedFields)}, {"statuses", statuses}} {
		b = append(b, ',', '"')
		b = append(b, part.key...)
		b = append(b, '"', ':')
		b = appendJSON(b, part.val)
	}
	// the integrity problems are written as the Integrity hands them
	// out, each message valid only until the next
	integrity := func(fn func(audit.Problem) bool) {
		for _, c := range s.Integrity.Checks() {
			s.Integrity.Each(c.Name, fn)
		}
	}
	for _, list := range []struct {
		key  string
		each func(func(audit.Problem) bool)
	}{{"integrity", integrity}, {"unreadable", eachOf(s.Problems)}} {
		b = append(b, ',', '"')
		b = append(b, list.key...)
		b = append(b, `":[`...)
		first := true
		list.each(func(p audit.Problem) bool {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendProblem(b, p)
			if len(b) > 32<<10 {
				bw.Write(b)
				b = b[:0]
			}
			return true
		})
		b = append(b, ']')
	}
	b = append(b, `,"invalid_messages":[`...)
	for i, m := range s.InvalidMessages.All() {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"file":`...)
		b = jsonstr.Append(b, m.Path)
		b = append(b, `,"line":`...)
		b = strconv.AppendInt(b, int64(m.Line), 10)
		b = append(b, `,"kind":`...)
		b = jsonstr.Append(b, m.Kind)
		b = append(b, `,"rule":`...)
		b = jsonstr.Append(b, m.Rule)
		b = append(b, `,"message":`...)
		b = jsonstr.Append(b, m.Message)
		b = append(b, `,"errors":`...)
		b = strconv.AppendInt(b, int64(m.Errors), 10)
		b = append(b, '}')
		if len(b) > 32<<10 {
			bw.Write(b)
			b = b[:0]
		}
	}
	b = append(b, "]}\n"...)
	bw.Write(b)
	return bw.Flush()
}

// appendProblem writes p as encoding/json writes a jsonAuditProblem.
func appendProblem(b []byte, p audit.Problem) []byte {
	b = append(b, `{"check":`...)
	b = jsonstr.Append(b, p.Check)
	b = append(b, `,"file":`...)
	b = jsonstr.Append(b, p.Path)
	if p.Line != 0 {
		b = append(b, `,"line":`...)
		b = strconv.AppendInt(b, int64(p.Line), 10)
	}
	b = append(b, `,"message":`...)
	b = jsonstr.Append(b, p.Message)
	return append(b, '}')
}

// appendJSON writes v as encoding/json does with HTML escaping off.
func appendJSON(b []byte, v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // the values written here always encode
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

// AuditMarkdown writes the audit for a PR comment or a job summary.
func AuditMarkdown(w io.Writer, s *audit.Summary) error {
	var b strings.Builder
	if s.Messages == 0 {
		b.WriteString("## protoscan audit: 0 messages\n\n")
	} else {
		fmt.Fprintf(&b, "## protoscan audit: %d messages, %s compliant\n\n", s.Messages, pct(s.Compliance()))
	}
	b.WriteString("| kind | messages | valid | invalid | malformed | with warnings |\n| :--- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, k := range s.Kinds {
		name := k.Kind
		if name == "" {
			name = "(kind unknown)"
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | 0 | %d |\n", mdCell(mdText(name)), k.Messages, k.Valid, k.Invalid, k.Warns)
	}
	// the messages that could not be decoded have no kind: a row of their
	// own, so that every column adds up to the last row
	if s.Malformed > 0 {
		fmt.Fprintf(&b, "| (malformed) | %d | 0 | 0 | %d | 0 |\n", s.Malformed, s.Malformed)
	}
	fmt.Fprintf(&b, "| **all** | %d | %d | %d | %d | %d |\n", s.Messages, s.Valid, s.Invalid, s.Malformed, s.WithWarnings())
	if s.Schemas > 0 {
		fmt.Fprintf(&b, "\n%s read among them, not counted: a JSON Schema document is no message.\n", plural(s.Schemas, "JSON Schema document"))
	}
	if len(s.Rules) > 0 {
		b.WriteString("\n| rule | severity | count |\n| :--- | :--- | ---: |\n")
		for _, r := range s.Rules {
			fmt.Fprintf(&b, "| %s | %s | %d |\n", mdCell(mdCode(r.Rule)), r.Severity, r.N)
		}
	}
	table := func(title string, cs []audit.Count) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n| %s | count |\n| :--- | ---: |\n", title)
		for _, c := range cs {
			fmt.Fprintf(&b, "| %s | %d |\n", mdCell(mdCode(c.Name)), c.N)
		}
	}
	table("unknown field", s.UnknownFields)
	table("deprecated field", s.DeprecatedFields)
	if len(s.Statuses) > 0 {
		b.WriteString("\n| status | count | note |\n| :--- | ---: | :--- |\n")
		for _, st := range s.Statuses {
			fmt.Fprintf(&b, "| %s | %d | %s |\n", mdCell(mdCode(st.Value)), st.N, mdCell(mdText(strings.TrimSpace(statusNote(st)))))
		}
	}
	list := func(title string, n int, each func(func(audit.Problem) bool)) {
		fmt.Fprintf(&b, "\n**%s** (%d)\n\n", title, n)
		shown := listFirst(each, func(p audit.Problem) {
			fmt.Fprintf(&b, "- %s: %s\n", mdCode(p.Location.String()), mdText(p.Message))
		})
		if shown < n {
			fmt.Fprintf(&b, "- ... and %d more\n", n-shown)
		}
	}
	for _, c := range s.Integrity.Checks() {
		list(c.Name, c.N, eachOfCheck(s.Integrity, c.Name))
	}
	if len(s.Problems) > 0 {
		list("unreadable or malformed", len(s.Problems), eachOf(s.Problems))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
