package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/textsafe"
)

// Caps that keep a Markdown report within a PR comment's size.
const (
	mdMaxRows      = 50 // rows of the findings and status tables, clusters
	mdMaxMembers   = 10 // members listed per divergence cluster
	firstLocations = 3  // locations shown per status spelling (text too)
)

// Markdown writes the report as GitHub-flavoured Markdown for a pull
// request comment or $GITHUB_STEP_SUMMARY: a headline, the gate when it
// is notable (Gate.Notable: a spec not the embedded default, settings of
// the tree's config that lower the gate), the messages per kind, the status drift matrix, the divergence clusters and the findings,
// each section only when it has something to show, tables capped at 50 rows.
func Markdown(w io.Writer, r *Report) error {
	var b strings.Builder
	errs, warns, notes := r.counts()
	if len(r.Findings) == 0 {
		fmt.Fprintf(&b, "## %s: no findings in %s\n\n", mdText(toolName(r)), plural(r.Files, "file"))
	} else {
		fmt.Fprintf(&b, "## %s: %s (%s, %s, %s) in %s\n\n", mdText(toolName(r)), plural(len(r.Findings), "finding"),
			plural(errs, "error"), plural(warns, "warning"), plural(notes, "note"), plural(r.Files, "file"))
	}
	details := []string{fmt.Sprintf("Parsed %d of %s", r.Parsed, plural(r.Files, "file"))}
	if r.Candidates > 0 {
		details = append(details, plural(r.Candidates, "function")+" implementing a protocol decision")
	}
	if s := silenced(r); s != "" {
		details = append(details, s)
	}
	b.WriteString(strings.Join(details, "; ") + ".\n")

	mdGate(&b, r.Gate)
	mdMessages(&b, r.Messages)
	mdStatuses(&b, r.Statuses)
	mdClusters(&b, r.Findings)
	mdFindings(&b, r.Findings)

	if r.Version != "" {
		fmt.Fprintf(&b, "\n<sub>%s %s</sub>\n", mdText(toolName(r)), mdText(r.Version))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// more is "1 more finding", "2 more findings".
func more(n int, word string) string {
	if n != 1 {
		word += "s"
	}
	return fmt.Sprintf("%d more %s", n, word)
}

func toolName(r *Report) string {
	return firstNonEmpty(r.Tool, "protoscan")
}

// silenced describes the suppressed, baselined and stale baseline counts
// that are not zero: "2 suppressed, 1 baselined, 1 stale baseline entry".
func silenced(r *Report) string {
	var parts []string
	if r.Suppressed > 0 {
		parts = append(parts, fmt.Sprintf("%d suppressed", r.Suppressed))
	}
	if r.Baselined > 0 {
		parts = append(parts, fmt.Sprintf("%d baselined", r.Baselined))
	}
	switch {
	case r.StaleBaseline == 1:
		parts = append(parts, "1 stale baseline entry")
	case r.StaleBaseline > 1:
		parts = append(parts, fmt.Sprintf("%d stale baseline entries", r.StaleBaseline))
	}
	return strings.Join(parts, ", ")
}

func mdMessages(b *strings.Builder, kinds []KindSummary) {
	if len(kinds) == 0 {
		return
	}
	b.WriteString("\n### Messages\n\n")
	b.WriteString("| kind | found | valid | invalid | with warnings | compliance |\n")
	b.WriteString("| :--- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, k := range kinds {
		fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %s |\n", mdCell(mdText(k.Kind)), k.Found, k.Valid, k.Invalid,
			k.WithWarnings, complianceText(k))
	}
	lists := []struct {
		title string
		of    func(KindSummary) []Count
	}{
		{"Top errors", func(k KindSummary) []Count { return k.TopErrors }},
		{"Unknown fields", func(k KindSummary) []Count { return k.UnknownFields }},
		{"Deprecated fields", func(k KindSummary) []Count { return k.DeprecatedFields }},
	}
	for _, l := range lists {
		var items []string
		for _, k := range kinds {
			if cs := l.of(k); len(cs) > 0 {
				items = append(items, fmt.Sprintf("- %s: %s\n", mdText(k.Kind), mdCounts(cs)))
			}
		}
		if len(items) > 0 {
			fmt.Fprintf(b, "\n%s:\n\n%s", l.title, strings.Join(items, ""))
		}
	}
}

func mdCounts(cs []Count) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s (%d)", mdCode(c.Name), c.N)
	}
	return strings.Join(parts, ", ")
}

func mdStatuses(b *strings.Builder, statuses []StatusSpelling) {
	if len(statuses) == 0 {
		return
	}
	b.WriteString("\n### Status spellings\n\n")
	b.WriteString("| spelling | canonical | count | first locations |\n")
	b.WriteString("| :--- | :--- | ---: | :--- |\n")
	for i, s := range statuses {
		if i == mdMaxRows {
			fmt.Fprintf(b, "\n… and %s.\n", more(len(statuses)-i, "spelling"))
			break
		}
		canonical := "none"
		switch {
		case s.Canonical == s.Value:
			canonical = "canonical"
		case s.Canonical != "":
			canonical = mdCode(s.Canonical)
		}
		locs := make([]string, 0, firstLocations)
		for _, l := range s.Locations[:min(firstLocations, len(s.Locations))] {
			locs = append(locs, mdCode(place(l)))
		}
		where := strings.Join(locs, ", ")
		if more := max(s.Count, len(s.Locations)) - len(locs); more > 0 && len(locs) > 0 {
			where += fmt.Sprintf(" and %d more", more)
		}
		fmt.Fprintf(b, "| %s | %s | %d | %s |\n", mdCell(mdCode(s.Value)), mdCell(canonical), s.Count, mdCell(where))
	}
}

// isCluster tells the findings that report a divergence cluster; their
// related locations are its members.
func isCluster(f finding.Finding) bool {
	return strings.HasPrefix(f.Rule, "divergence/duplicate-")
}

func mdClusters(b *strings.Builder, fs []finding.Finding) {
	n := 0
	for _, f := range fs {
		if !isCluster(f) {
			continue
		}
		if n == 0 {
			b.WriteString("\n### Divergence clusters\n\n")
		}
		n++
		if n > mdMaxRows {
			continue
		}
		fmt.Fprintf(b, "%d. %s (%s at %s)\n", n, mdText(f.Message), mdCode(f.Rule), mdCode(place(f.Location)))
		for i, m := range f.Related {
			if i == mdMaxMembers {
				fmt.Fprintf(b, "   - … and %s\n", more(len(f.Related)-i, "member"))
				break
			}
			fmt.Fprintf(b, "   - %s", mdCode(place(m)))
			if m.Message != "" {
				b.WriteString(" " + mdText(m.Message))
			}
			b.WriteString("\n")
		}
	}
	if n > mdMaxRows {
		fmt.Fprintf(b, "\n… and %s.\n", more(n-mdMaxRows, "cluster"))
	}
}

func mdFindings(b *strings.Builder, fs []finding.Finding) {
	if len(fs) == 0 {
		return
	}
	b.WriteString("\n### Findings\n\n")
	b.WriteString("| severity | location | rule | message |\n")
	b.WriteString("| :--- | :--- | :--- | :--- |\n")
	rows := fold(fs)
	for i, s := range rows {
		if i == mdMaxRows {
			left := 0
			for _, r := range rows[i:] {
				left += max(1, r.more)
			}
			fmt.Fprintf(b, "\n… and %s (the JSON and SARIF reports list them all).\n", more(left, "finding"))
			break
		}
		f := s.f
		if s.more > 0 {
			f.Message = foldMessage(s)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", f.Severity, mdCell(mdCode(place(f.Location))), mdCell(mdCode(f.Rule)),
			mdCell(mdText(f.Message)))
	}
}

// mdSpecial are the characters that would start Markdown (or HTML) syntax
// in running text: emphasis, code, links and images ([, ], and so a !
// before them), raw HTML and entities (<, >, &). A | is escaped by
// mdCell, in table cells only.
const mdSpecial = "\\`*_[]<>&~"

// zwj, the zero-width joiner, is put between a "@" or "#" and the name or
// number after it: GitHub then neither mentions a user or team nor links
// an issue, and the text reads the same.
const zwj = "\u200d"

// mdText escapes s, the tree's text, for running Markdown text, on one
// line, including the start of a line (a list item's text): no heading,
// list, quote or setext underline can begin, no HTML, link, image or
// emphasis either. Control characters are escaped as textsafe escapes
// them, and what GitHub would turn into a notification or a link is
// defused: "@name" and "#123" get a zero-width joiner after the "@" or
// "#", "://" is written "[:]//" and "www." "www[.]", so that no URL is
// linked.
func mdText(s string) string {
	s = textsafe.String(oneLine(s))
	var b strings.Builder
	if s != "" && strings.ContainsRune("#-+=>", rune(s[0])) {
		b.WriteByte('\\')
	}
	digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
	for i, c := range s {
		switch {
		case strings.HasPrefix(s[i:], "://"):
			b.WriteString(`\[:\]`)
			continue
		case c == '.' && i >= 3 && strings.EqualFold(s[i-3:i], "www"):
			b.WriteString(`\[.\]`)
			continue
		case strings.ContainsRune(mdSpecial, c) || digits > 0 && i == digits && (c == '.' || c == ')'):
			b.WriteByte('\\')
		}
		b.WriteRune(c)
		if (c == '@' || c == '#') && i+1 < len(s) && isWordByte(s[i+1]) {
			b.WriteString(zwj)
		}
	}
	return b.String()
}

// isWordByte tells an ASCII letter, digit or underscore: what a GitHub
// mention or issue reference begins with after its "@" or "#".
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// mdCode writes s, the tree's text, as a code span (where GitHub links,
// mentions and renders nothing): control characters escaped as textsafe
// escapes them, fenced by more backticks than the longest run of
// backticks in s, padded with a space where CommonMark would otherwise
// take the padding for part of the fence or strip it.
func mdCode(s string) string {
	s = textsafe.String(oneLine(s))
	if s == "" {
		return ""
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	pad := ""
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "" {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

// mdCell makes Markdown a table cell: a | is escaped, in code spans too
// (GitHub splits cells before it reads code spans).
func mdCell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(s)
}

func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}
