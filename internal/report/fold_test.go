package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
)

// TestFoldRepeats: a file's findings of one rule about one literal show
// three times in the text and Markdown reports, then once more as a
// count; other literals, rules and files are not folded, and JSON keeps
// every finding.
func TestFoldRepeats(t *testing.T) {
	drift := func(path string, line int, lit string) finding.Finding {
		return finding.Finding{Rule: "enumdrift/unknown-status", Location: finding.Location{Path: path, Line: line, Col: 9},
			Message: "not a status", Literal: lit}
	}
	var fs []finding.Finding
	for line := 1; line <= 7; line++ {
		fs = append(fs, drift("a.py", line, "done"))
	}
	fs = append(fs, drift("a.py", 8, "ok"), drift("b.py", 1, "done"))
	for line := 2; line <= 4; line++ { // one past the limit: shown, not folded
		fs = append(fs, drift("b.py", line, "done"))
	}
	r := &Report{Findings: fs, Files: 2}

	var text bytes.Buffer
	if err := Text(&text, r, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text.String(), "\n")
	var shown []string
	for _, l := range lines {
		if strings.Contains(l, "[enumdrift/unknown-status]") {
			shown = append(shown, l)
		}
	}
	want := []string{
		"a.py:1:9: error: not a status [enumdrift/unknown-status]",
		"a.py:2:9: error: not a status [enumdrift/unknown-status]",
		"a.py:3:9: error: not a status [enumdrift/unknown-status]",
		`a.py:4:9: error: "done" here and at 3 more places of this file, as above (the JSON and SARIF reports list each) [enumdrift/unknown-status]`,
		"a.py:8:9: error: not a status [enumdrift/unknown-status]",
		"b.py:1:9: error: not a status [enumdrift/unknown-status]",
		"b.py:2:9: error: not a status [enumdrift/unknown-status]",
		"b.py:3:9: error: not a status [enumdrift/unknown-status]",
		"b.py:4:9: error: not a status [enumdrift/unknown-status]",
	}
	if strings.Join(shown, "\n") != strings.Join(want, "\n") {
		t.Errorf("text:\n%s\nwant:\n%s", strings.Join(shown, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(text.String(), "12 findings (12 errors") {
		t.Errorf("the summary counts every finding:\n%s", text.String())
	}

	var md bytes.Buffer
	if err := Markdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(md.String(), "`enumdrift/unknown-status`"); n != 9 {
		t.Errorf("%d Markdown rows, want 9:\n%s", n, md.String())
	}

	var js bytes.Buffer
	if err := JSON(&js, r); err != nil {
		t.Fatal(err)
	}
	var doc struct{ Findings []json.RawMessage }
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || len(doc.Findings) != 12 {
		t.Errorf("JSON has %d findings (%v), want 12", len(doc.Findings), err)
	}
}
