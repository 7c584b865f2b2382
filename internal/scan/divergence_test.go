package scan_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/analyzers/divergence"
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/scan"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

func divergenceScan(t *testing.T, workers int) *scan.Result {
	t.Helper()
	root := filepath.Join("..", "..", "testdata", "divergence")
	res, err := scan.Run(context.Background(), root, scan.Options{Workers: workers,
		Divergence: divergence.NewModel(msgcheck.DefaultSpec(), divergence.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestDivergence scans the planted repository (testdata/divergence/README.md
// says what is planted): exactly the two clusters and the two conflicting
// thresholds, with their members and values, and nothing from the near
// misses.
func TestDivergence(t *testing.T) {
	res := divergenceScan(t, 0)
	type want struct {
		rule, at           string
		literal, canonical string
		related            []string
	}
	wants := []want{
		{rule: divergence.RuleDuplicateValidation, at: "api/checks.py:4",
			related: []string{"api/checks.py:4", "validators/delegate.py:8"}},
		{rule: divergence.RuleConflictingThreshold, at: "api/checks.py:6", literal: "10", canonical: "15",
			related: []string{"api/checks.py:6", "validators/delegate.py:10"}},
		{rule: divergence.RuleSpecThreshold, at: "api/checks.py:6", literal: "10", canonical: "15"},
		{rule: divergence.RuleDuplicateEscalation, at: "legacy/helpers.py:4",
			related: []string{"legacy/helpers.py:4", "router/escalate.go:19", "skills/protocol_validator/escalation.py:6"}},
		{rule: divergence.RuleConflictingThreshold, at: "legacy/helpers.py:6", literal: "0.6", canonical: "0.5",
			related: []string{"legacy/helpers.py:6", "router/escalate.go:21", "skills/protocol_validator/escalation.py:9"}},
	}
	var got []want
	for _, f := range res.Findings {
		w := want{rule: f.Rule, at: fmt.Sprintf("%s:%d", f.Path, f.Line), literal: f.Literal, canonical: f.Canonical}
		for _, r := range f.Related {
			w.related = append(w.related, fmt.Sprintf("%s:%d", r.Path, r.Line))
		}
		got = append(got, w)
	}
	if !reflect.DeepEqual(got, wants) {
		t.Errorf("findings:\n%s\nwant:\n%s", dump(got), dump(wants))
	}
	golden(t, filepath.Join("..", "..", "testdata", "divergence.golden"), res.Findings)
	if res.Stats.Candidates != 5 {
		t.Errorf("%d candidates, want the 5 planted ones", res.Stats.Candidates)
	}
}

func dump[T any](xs []T) string {
	var b strings.Builder
	for _, x := range xs {
		fmt.Fprintf(&b, "  %+v\n", x)
	}
	return b.String()
}

// golden compares the findings, messages and related locations included,
// with a file that go test ./scan -update rewrites.
func golden(t *testing.T, file string, fs []finding.Finding) {
	t.Helper()
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s\n", f.Path, f.Line, f.Col, f.Rule, f.Message)
		for _, r := range f.Related {
			fmt.Fprintf(&b, "\t%s:%d:%d: %s\n", r.Path, r.Line, r.Col, r.Message)
		}
	}
	if *update {
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("findings differ from %s (go test ./scan -update rewrites it):\n--- got\n%s--- want\n%s", file, got, want)
	}
}

// TestDivergenceDeterministic: clustering runs after a parallel read, and
// must not depend on which worker read which file.
func TestDivergenceDeterministic(t *testing.T) {
	a, b := divergenceScan(t, 1), divergenceScan(t, 8)
	if !reflect.DeepEqual(a.Findings, b.Findings) {
		t.Error("1 and 8 workers disagree")
	}
}

// TestDivergenceSpec scans testdata/divergence-spec (its README says what
// is planted): thresholds from default values, module constants, imported
// Python constants and Go constants of another file and of another
// package; clusters across Python and Go; and comparisons against the
// spec, with the bounds the spec agrees with, however written, silent.
func TestDivergenceSpec(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "divergence-spec")
	res, err := scan.Run(context.Background(), root, scan.Options{
		Divergence: divergence.NewModel(msgcheck.DefaultSpec(), divergence.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		s := fmt.Sprintf("%s %s:%d %s/%s", f.Rule, f.Path, f.Line, f.Literal, f.Canonical)
		for _, r := range f.Related {
			s += fmt.Sprintf(" %s:%d", r.Path, r.Line)
		}
		got = append(got, s)
	}
	want := []string{
		"divergence/duplicate-validation gateway/check/check.go:24 / gateway/check/check.go:24 orchestrator/validation.py:6",
		"divergence/conflicting-threshold gateway/check/check.go:25 12/15 gateway/check/check.go:25 orchestrator/validation.py:8",
		"divergence/spec-threshold gateway/check/check.go:25 12/15",
		"divergence/duplicate-escalation gateway/check/check.go:37 / gateway/check/check.go:37 legacy/escalate.py:4 orchestrator/escalation.py:4",
		"divergence/conflicting-threshold gateway/check/check.go:38 0.7/ gateway/check/check.go:38 legacy/escalate.py:5 orchestrator/escalation.py:6",
		"divergence/spec-threshold workers/score.py:3 80/",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", dump(got), dump(want))
	}
	golden(t, filepath.Join("..", "..", "testdata", "divergence-spec.golden"), res.Findings)
	// every value of the escalation cluster is named, whatever wrote it
	for _, f := range res.Findings {
		if f.Rule == divergence.RuleConflictingThreshold && f.Line == 38 {
			for _, v := range []string{"0.7 in ShouldEscalate", "0.6 in needs_escalation", "0.5 in should_escalate"} {
				if !strings.Contains(f.Message, v) {
					t.Errorf("conflict lacks %q: %s", v, f.Message)
				}
			}
		}
	}
}
