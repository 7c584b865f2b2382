package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/protoscan/protoscan/finding"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func sample() *Report {
	return &Report{Tool: "protoscan", Version: "v0.0.0-test", Files: 3, Parsed: 2, Findings: []finding.Finding{
		{Rule: "enumdrift/legacy-status", Severity: finding.Error,
			Location: finding.Location{Path: "router/router.go", Line: 11, Col: 26, EndLine: 11, EndCol: 37},
			Message:  `legacy status "escalated": the protocol spells it "escalate" (in const Status)`,
			Literal:  "escalated", Canonical: "escalate",
			Fix: &finding.Fix{Message: `Replace "escalated" with "escalate"`,
				Edits: []finding.Edit{{Path: "router/router.go", Offset: 212, End: 221, New: "escalate"}}}},
		{Rule: "enumdrift/missing-status", Severity: finding.Warning,
			Location: finding.Location{Path: "router/router.go", Line: 6, Col: 1},
			Message:  "const Status defines HANDBACK statuses but lacks escalate",
			Related:  []finding.Location{{Path: "worker.py", Line: 3, Col: 5, Message: "the other definition"}}},
		{Rule: "protoscan/too-large", Severity: finding.Warning,
			Location: finding.Location{Path: "big.yaml"}, Message: "file is 3.0 MiB, over the 2 MiB limit"},
	}}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test ./report -update rewrites it):\n--- got\n%s--- want\n%s", name, got, want)
	}
}

func TestText(t *testing.T) {
	var plain, color bytes.Buffer
	if err := Text(&plain, sample(), false); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.txt", plain.Bytes())
	Text(&color, sample(), true)
	golden(t, "report.color.txt", color.Bytes())
	if bytes.Contains(plain.Bytes(), []byte("\x1b[")) {
		t.Error("colour codes without a terminal")
	}
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, sample()); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.json", b.Bytes())
	var empty bytes.Buffer
	JSON(&empty, &Report{Tool: "protoscan", Version: "v0"})
	if !bytes.Contains(empty.Bytes(), []byte(`"findings": []`)) {
		t.Errorf("no findings must be an empty list, not null:\n%s", empty.Bytes())
	}
}
