package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/audit"
)

func sampleAudit() *audit.Summary {
	s := &audit.Summary{Messages: 6, Valid: 3, Invalid: 2, Malformed: 1,
		Kinds: []audit.KindTotals{{Kind: "delegate", Messages: 3, Valid: 2, Invalid: 1, Warns: 1},
			{Kind: "handback", Messages: 2, Valid: 1, Invalid: 1, Warns: 1}},
		Rules: []audit.RuleCount{{Rule: "msgcheck/handback-status-enum", Severity: audit.SeverityError, N: 1},
			{Rule: "msgcheck/delegate-scope-words", Severity: audit.SeverityError, N: 1},
			{Rule: "msgcheck/delegate-unknown-field", Severity: audit.SeverityWarning, N: 1},
			{Rule: "msgcheck/handback-flags-deprecated", Severity: audit.SeverityWarning, N: 1}},
		UnknownFields:    []audit.Count{{Name: "foo_bar", N: 1}},
		DeprecatedFields: []audit.Count{{Name: "flags", N: 1}},
		Statuses: []audit.StatusCount{{Value: "success", Canonical: "success", N: 1},
			{Value: "SUCCESS", Canonical: "success", N: 1}, {Value: "do|ne`", N: 1}},
		Problems: []audit.Problem{{Check: audit.CheckMalformed, Message: "not a JSON message: offset 1: invalid character", Location: audit.Location{Path: "log.jsonl", Line: 4}}},
	}
	s.InvalidMessages.Append(audit.Invalid{Location: audit.Location{Path: "queue/DELEGATE-002.yaml", Line: 1}, Kind: "delegate", Rule: "msgcheck/delegate-scope-words", Message: "scope: must be >=15 words (5 provided)", Errors: 1})
	s.InvalidMessages.Append(audit.Invalid{Location: audit.Location{Path: "log.jsonl", Line: 3}, Kind: "handback", Rule: "msgcheck/handback-status-enum", Message: "status: invalid status 'do|ne`'", Errors: 3})
	var integrity []audit.Problem
	for i := 0; i < maxListed+2; i++ {
		integrity = append(integrity, audit.Problem{Check: audit.CheckPending,
			Message:  fmt.Sprintf("DELEGATE %q has no HANDBACK yet (in queue/incoming)", fmt.Sprintf("task-%03d", i)),
			Location: audit.Location{Path: fmt.Sprintf("queue/incoming/DELEGATE-%03d.yaml", i)}})
	}
	integrity = append(integrity, audit.Problem{Check: audit.CheckOrphan, Message: `HANDBACK "task-x-001" answers no DELEGATE`,
		Location: audit.Location{Path: "log.jsonl", Line: 1}})
	s.Integrity = audit.NewIntegrity(integrity)
	return s
}

// TestAuditFormats: a golden file per format; the JSON has integer
// totals and every problem, text and Markdown cap long lists.
func TestAuditFormats(t *testing.T) {
	for _, f := range []struct {
		name   string
		render func(*bytes.Buffer, *audit.Summary) error
	}{
		{"audit.txt", func(b *bytes.Buffer, s *audit.Summary) error { return AuditText(b, s) }},
		{"audit.json", func(b *bytes.Buffer, s *audit.Summary) error { return AuditJSON(b, s) }},
		{"audit.md", func(b *bytes.Buffer, s *audit.Summary) error { return AuditMarkdown(b, s) }},
	} {
		var a, b bytes.Buffer
		if err := f.render(&a, sampleAudit()); err != nil {
			t.Fatal(err)
		}
		if err := f.render(&b, sampleAudit()); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: two renders differ", f.name)
		}
		golden(t, f.name, a.Bytes())
	}
	var out struct {
		Summary   struct{ Messages, Valid, Invalid, Malformed int }
		Integrity []json.RawMessage
	}
	var b bytes.Buffer
	if err := AuditJSON(&b, sampleAudit()); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out.Summary.Valid+out.Summary.Invalid+out.Summary.Malformed != out.Summary.Messages || out.Summary.Malformed != 1 ||
		len(out.Integrity) != maxListed+3 {
		t.Errorf("JSON summary %+v, %d integrity problems", out.Summary, len(out.Integrity))
	}
}

// The problem lists are written by hand (appendProblem): byte for byte
// what encoding/json writes, HTML unescaped, for any text.
func TestAuditJSONProblemEscaping(t *testing.T) {
	texts := []string{"", "plain text", `quote " and \ backslash`, "<tag> & amp", "tab\tnew\nline\r", "\x00\x1f\x7f",
		"é ü 中文", "line\u2028sep\u2029", "bad \xff utf8 \xc3", "emoji 🎉", "\b\f"}
	for _, s := range texts {
		for _, line := range []int{0, 7} {
			p := audit.Problem{Check: s, Message: s, Location: audit.Location{Path: s, Line: line}}
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(jsonAuditProblem{p.Check, p.Path, p.Line, p.Message}); err != nil {
				t.Fatal(err)
			}
			if got := appendProblem(nil, p); string(got) != strings.TrimSuffix(want.String(), "\n") {
				t.Errorf("%q:\n got  %s\n want %s", s, got, want.String())
			}
		}
	}
}
