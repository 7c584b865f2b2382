package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/audit"
	"github.com/protoscan-dev/protoscan/finding"
)

// A pull request writes the tree: file names, values, spec kinds and
// field names below are what it can put in a report.
const (
	nlPath   = "a\n::error file=README.md,line=1::PWNED\nb.yaml"
	cmdPath  = "::error title=x::y.yaml"
	escValue = "x\x1b[2J\x1b]8;;https://evil.example\x07click\x1b]8;;\x07"
	bidi     = "admin\u202e\u2066txt.yaml\u2069"
	mdValue  = "<img src=x onerror=alert(1)> ![i](https://evil.example/i.png) [l](https://evil.example) @octocat @org/team #123 org/repo#7 https://evil.example www.evil.example `code` </details>"
)

func hostileReport() *Report {
	return &Report{
		Tool: "protoscan", Version: "v0", Files: 4, Parsed: 4,
		Findings: []finding.Finding{
			{Rule: "msgcheck/handback-status-enum", Severity: finding.Error,
				Location: finding.Location{Path: nlPath, Line: 1, Col: 9},
				Message:  "status: invalid status '" + escValue + "'"},
			{Rule: "enumdrift/unknown-status", Severity: finding.Error,
				Location: finding.Location{Path: cmdPath, Line: 2, Col: 3},
				Message:  "\"" + mdValue + "\" is not a HANDBACK status"},
			{Rule: "divergence/duplicate-validation", Severity: finding.Warning,
				Location: finding.Location{Path: bidi, Line: 3, Col: 1},
				Message:  "duplicated \u2028 logic \xff\xfe",
				Related:  []finding.Location{{Path: cmdPath, Line: 4, Col: 1, Message: "other " + mdValue}, {Path: nlPath, Line: 5, Col: 1, Message: escValue}}},
		},
		Messages: []KindSummary{{Kind: "hand\x1b[31mback", Found: 1, Invalid: 1,
			TopErrors:     []Count{{Name: "rule\n::warning::x", N: 1}},
			UnknownFields: []Count{{Name: "f\x1b]0;title\x07", N: 1}, {Name: mdValue, N: 1}}}},
		Statuses: []StatusSpelling{{Value: escValue, Count: 2, Locations: []finding.Location{{Path: cmdPath, Line: 2, Col: 3}, {Path: nlPath, Line: 1, Col: 9}}}},
	}
}

func hostileAudit() *audit.Summary {
	s := &audit.Summary{Messages: 2, Invalid: 1, Malformed: 1,
		Kinds:         []audit.KindTotals{{Kind: "hand\x1b[31mback", Messages: 1, Invalid: 1}},
		Rules:         []audit.RuleCount{{Rule: "msgcheck/handback-status-enum", Severity: audit.SeverityError, N: 1}},
		UnknownFields: []audit.Count{{Name: "f\n::add-mask::x", N: 1}, {Name: mdValue, N: 1}},
		Statuses:      []audit.StatusCount{{Value: escValue, N: 1}, {Value: "done", Canonical: "success\x1b[2J", N: 1}},
		Problems:      []audit.Problem{{Check: audit.CheckMalformed, Message: "not JSON: " + escValue, Location: audit.Location{Path: cmdPath, Line: 4}}},
	}
	s.InvalidMessages.Append(audit.Invalid{Location: audit.Location{Path: nlPath, Line: 1}, Kind: "handback",
		Rule: "msgcheck/handback-status-enum", Message: "status: invalid status '" + mdValue + "'", Errors: 1})
	s.Integrity = audit.NewIntegrity([]audit.Problem{{Check: audit.CheckOrphan, Message: "HANDBACK \"" + bidi + "\" answers no DELEGATE",
		Location: audit.Location{Path: bidi, Line: 1}}})
	return s
}

// checkTerminalSafe fails on what a terminal or a CI log would act on: a
// line that begins with "::", a C0 control but the newline, DEL, a C1
// control, a line or paragraph separator, a bidi control, invalid UTF-8.
func checkTerminalSafe(t *testing.T, name string, out []byte) {
	t.Helper()
	for i, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "::") {
			t.Errorf("%s: line %d begins with \"::\": %q", name, i+1, line)
		}
		if !strings.ContainsFunc(line, func(r rune) bool { return true }) {
			continue
		}
		for _, r := range line {
			if r < 0x20 && r != '\t' || r >= 0x7f && r <= 0x9f || r == 0x2028 || r == 0x2029 ||
				r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0xfffd {
				t.Errorf("%s: line %d holds %U: %q", name, i+1, r, line)
			}
		}
	}
}

// TestHostileText: the text reports of a hostile tree escape its
// strings, begin no line with "::" and match their goldens.
func TestHostileText(t *testing.T) {
	txt := render(t, "text", hostileReport())
	checkTerminalSafe(t, "text", txt)
	golden(t, "hostile.txt", txt)
	for _, want := range []string{
		`a\n::error file=README.md,line=1::PWNED\nb.yaml:1:9: error: status: invalid status 'x\x1b[2J\x1b]8;;https://evil.example\aclick\x1b]8;;\a' [`,
		"\n./::error title=x::y.yaml:2:3: error: ",
		"\n" + `admin\u202e\u2066txt.yaml\u2069:3:1: warning: duplicated \u2028 logic \xff\xfe [`,
		"\t./::error title=x::y.yaml:4:1: other ",
	} {
		if !bytes.Contains(txt, []byte(want)) {
			t.Errorf("text report lacks %q:\n%s", want, txt)
		}
	}
	var a bytes.Buffer
	if err := AuditText(&a, hostileAudit()); err != nil {
		t.Fatal(err)
	}
	checkTerminalSafe(t, "audit text", a.Bytes())
	golden(t, "hostile-audit.txt", a.Bytes())
}

// TestHostileMarkdown: the Markdown reports of a hostile tree show its
// strings as text: no HTML, image, link, mention, issue reference or
// autolinked URL, and no control character.
func TestHostileMarkdown(t *testing.T) {
	md := render(t, "markdown", hostileReport())
	var a bytes.Buffer
	if err := AuditMarkdown(&a, hostileAudit()); err != nil {
		t.Fatal(err)
	}
	golden(t, "hostile.md", md)
	golden(t, "hostile-audit.md", a.Bytes())
	for name, out := range map[string][]byte{"markdown": md, "audit markdown": a.Bytes()} {
		checkTerminalSafe(t, name, out)
		// outside code spans: strip them, then look for what GitHub renders
		text := stripCodeSpans(string(out))
		for _, bad := range []string{"<img", "</details>", "![", "](", "https://", "www.evil", "@octocat", "@org", "#123", "#7"} {
			if unescaped(text, bad) {
				t.Errorf("%s has %q outside code spans:\n%s", name, bad, out)
			}
		}
	}
}

// unescaped tells whether s has sub with no backslash before it.
func unescaped(s, sub string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], sub)
		if j < 0 {
			return false
		}
		if i+j == 0 || s[i+j-1] != '\\' {
			return true
		}
		i += j + 1
	}
}

// stripCodeSpans drops the code spans of Markdown text (the renderers'
// fences: a run of backticks up to the same run), leaving what GitHub
// reads as Markdown.
func stripCodeSpans(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			return b.String() + s
		}
		if i > 0 && s[i-1] == '\\' { // an escaped backtick
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		n := len(s[i:]) - len(strings.TrimLeft(s[i:], "`"))
		fence := s[i : i+n]
		rest := s[i+n:]
		j := strings.Index(rest, fence)
		for j >= 0 && j+n < len(rest) && rest[j+n] == '`' {
			k := strings.Index(rest[j+n:], fence)
			if k < 0 {
				j = -1
				break
			}
			j += n + k
		}
		if j < 0 {
			return b.String() + s[i:]
		}
		s = rest[j+n:]
	}
}
