package divergence

import (
	"fmt"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
)

const pyEscalate = `def should_escalate(h):
    if h["metrics"]["quality"] < 0.6:
        return True
    if h["retry_count"] >= 3:
        return True
    return False
`

// docs returns the candidates of documents.
func docs(files ...[2]string) []Candidate {
	var out []Candidate
	for _, f := range files {
		out = append(out, Bands(f[0], []byte(f[1]))...)
	}
	return out
}

func findingsText(fs []finding.Finding) string {
	var b strings.Builder
	for i := range fs {
		b.WriteString(fs[i].Rule + ": " + fs[i].Message + " | " + relatedText(&fs[i]) + "\n")
	}
	return b.String()
}

// TestTablesAndGaps: a column of a table keyed by task type and a base
// minus a named gap are copies of a threshold, compared with the
// literal ones; a column read by a variable, and a gap that gives the
// same value, are not a conflict.
func TestTablesAndGaps(t *testing.T) {
	m := testModel(Options{})
	for _, c := range []struct {
		name, path, src string
		want            string
	}{
		{"python table", "b/route.py", `THRESHOLDS = {
    "bugfix": {"escalate": 0.6, "review": 0.75},
    "feature": {"escalate": 0.7, "review": 0.8},
}

def needs_escalation(h, kind):
    q = h["metrics"]["quality"]
    if q < THRESHOLDS[kind]["escalate"]:
        return True
    return h["retry_count"] >= 3
`, `THRESHOLDS["feature"].escalate (0.7)`},
		{"python tuple unpacked", "b/route.py", `TIERS = {"gold": (0.5, 0.7), "silver": (0.6, 0.8)}

def needs_escalation(h, tier):
    escalate_at, review_at = TIERS[tier]
    if h["metrics"]["quality"] < escalate_at:
        return True
    return h["retry_count"] >= 3
`, `TIERS["gold"].escalate_at (0.5)`},
		{"python table column by a variable", "b/route.py", `THRESHOLDS = {"bugfix": {"escalate": 0.5}}

def needs_escalation(h, kind, col):
    if h["metrics"]["quality"] < THRESHOLDS[kind][col]:
        return True
    return h["retry_count"] >= 3
`, ""},
		{"python gap", "b/route.py", `MAX_RETRIES = 5
RETRY_GAP = 1

def needs_escalation(h):
    if h["metrics"]["quality"] < 0.6:
        return True
    return h["retry_count"] >= MAX_RETRIES - RETRY_GAP
`, "MAX_RETRIES - RETRY_GAP (4)"},
		{"python gap, same value", "b/route.py", `MAX_RETRIES = 4
RETRY_GAP = 1

def needs_escalation(h):
    if h["metrics"]["quality"] < 0.6:
        return True
    return h["retry_count"] >= MAX_RETRIES - RETRY_GAP
`, ""},
		{"go table", "b/route.go", `package b

var thresholds = map[string]map[string]float64{
	"bugfix":  {"escalate": 0.6},
	"feature": {"escalate": 0.7},
}

func NeedsEscalation(h Handback, kind string) bool {
	if h.Metrics.Quality < thresholds[kind]["escalate"] {
		return true
	}
	return h.RetryCount >= 3
}
`, `thresholds["feature"].escalate (0.7)`},
		{"go gap", "b/route.go", `package b

const (
	maxRetries = 5
	retryGap   = 1
)

func NeedsEscalation(h Handback) bool {
	if h.Metrics.Quality < 0.6 {
		return true
	}
	return h.RetryCount >= maxRetries-retryGap
}
`, "maxRetries - retryGap (4)"},
		{"go gap, same value", "b/route.go", `package b

const (
	maxRetries = 4
	retryGap   = 1
)

func NeedsEscalation(h Handback) bool {
	if h.Metrics.Quality < 0.6 {
		return true
	}
	return h.RetryCount >= maxRetries-retryGap
}
`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			cands := sources(t, m, [2]string{"a/escalate.py", pyEscalate}, [2]string{c.path, c.src})
			if len(cands) != 2 {
				t.Fatalf("%d candidates, want 2", len(cands))
			}
			fs := Cluster(cands, m)
			got := conflict(fs)
			switch {
			case c.want == "" && got != nil:
				t.Errorf("unexpected conflict: %s", got.Message)
			case c.want != "" && got == nil:
				t.Errorf("no conflict, want one saying %q:\n%s", c.want, findingsText(fs))
			case c.want != "" && !strings.Contains(relatedText(got), c.want):
				t.Errorf("conflict %q (%s) lacks %q", got.Message, relatedText(got), c.want)
			}
		})
	}
}

// TestBands: a document's bands whose outcome names escalation (or
// review) are compared with the code's escalation thresholds on the
// subject they name; a grade table, bands that agree with the code, a
// band table without a subject and documents without code say nothing,
// and a document never makes a duplicate.
func TestBands(t *testing.T) {
	m := testModel(Options{})
	for _, c := range []struct {
		name, path, src string
		code            bool
		want            string // the conflict's text; "" for no finding at all
	}{
		{"markdown table", "docs/policy.md", "# Escalation\n\n| Quality | Action |\n|---|---|\n| < 0.5 | Escalate to human review |\n| 0.5–0.8 | Peer review |\n| ≥ 0.8 | Accept |\n", true,
			"0.5 in escalation bands (docs/policy.md:5)"},
		{"markdown ranges", "docs/policy.md", "| Quality (0-1) | Outcome |\n| :-- | :-- |\n| 0.0-0.49 | Escalate to senior |\n| 0.5 - 1.0 | Accept |\n", true,
			"quality < 0.5 in escalation bands"},
		{"markdown top range", "docs/policy.md", "| Quality | Outcome |\n|--|--|\n| 0-0.7 | Accept |\n| 0.7 to 1 | Escalate for review |\n", true,
			"quality >= 0.7 in escalation bands"},
		{"markdown review only", "docs/policy.md", "| Band | Action |\n|---|---|\n| quality < 0.7 | Human review |\n| quality >= 0.7 | Merge |\n", true,
			"0.7 in escalation bands"},
		{"yaml bands", "config/escalation.yaml", "escalation:\n  quality:\n    \"<0.4\": \"Escalate to senior\"\n    \">=0.4\": \"Accept\"\n", true,
			"0.4 in escalation bands (config/escalation.yaml:3)"},
		{"yaml cut-off key", "config/policy.yml", "escalation:\n  quality:\n    escalate_below: 0.45\n", true,
			"0.45 in escalation bands"},
		{"markdown yaml block", "docs/policy.md", "Policy:\n\n```yaml\nescalation:\n  quality:\n    escalate_below: 0.45\n```\n", true,
			"0.45 in escalation bands"},
		{"markdown YAML block, upper case", "docs/policy.md", "Policy:\n\n``` YAML\nescalation:\n  quality:\n    escalate_below: 0.45\n```\n", true,
			"0.45 in escalation bands"},
		{"yaml cut-off key outside escalation", "config/policy.yml", "limits:\n  quality:\n    review_below: 0.45\n", true, ""},
		{"grade table", "docs/grades.md", "| Quality | Grade |\n|---|---|\n| 90-100 | A |\n| 80-89 | B |\n", true, ""},
		{"agrees with the code", "docs/policy.md", "| Quality | Action |\n|---|---|\n| < 0.6 | Escalate |\n| >= 0.6 | Accept |\n", true, ""},
		{"no escalation said", "docs/policy.md", "| Quality | Action |\n|---|---|\n| < 0.5 | Do not escalate, retry |\n| >= 0.5 | Accept |\n", true, ""},
		{"no subject", "docs/policy.md", "| Range | Action |\n|---|---|\n| < 0.5 | Escalate |\n| >= 0.5 | Accept |\n", true, ""},
		{"in a fenced block", "docs/policy.md", "```\n| Quality | Action |\n|---|---|\n| < 0.5 | Escalate |\n| >= 0.5 | Accept |\n```\n", true, ""},
		{"documents alone", "docs/policy.md", "| Quality | Action |\n|---|---|\n| < 0.5 | Escalate |\n| >= 0.5 | Accept |\n", false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			// a table of one row is no band table
			cands := docs([2]string{c.path, c.src}, [2]string{"README.md", "| Quality | Action |\n|---|---|\n| < 0.3 | Escalate |\n"})
			if c.code {
				cands = append(cands, sources(t, m, [2]string{"a/escalate.py", pyEscalate})...)
			}
			fs := Cluster(cands, m)
			for _, f := range fs {
				if f.Rule == RuleDuplicateEscalation {
					t.Errorf("a document made a duplicate: %s", f.Message)
				}
			}
			got := conflict(fs)
			switch {
			case c.want == "" && got != nil:
				t.Errorf("unexpected conflict: %s", got.Message)
			case c.want != "" && got == nil:
				t.Errorf("no conflict, want one saying %q:\n%s", c.want, findingsText(fs))
			case c.want != "" && !strings.Contains(got.Message+" | "+relatedText(got), c.want):
				t.Errorf("conflict %q (%s) lacks %q", got.Message, relatedText(got), c.want)
			}
		})
	}
}

// TestBandsRead: what a document's bands say, subject and cut-off, on
// any scale: the subject is the band's own, else its column's or its
// key's (a score on 0–100 is read as written; whether it is the code's
// subject is Cluster's to say).
func TestBandsRead(t *testing.T) {
	for _, c := range []struct {
		name, path, src string
		want            string
	}{
		{"percent column", "docs/a.md", "| Quality score (0-100) | Action |\n|---|---|\n| < 60 | Escalate to senior |\n| 60-74 | Peer review |\n| >= 75 | Accept |\n",
			"quality_score < 60 @3:3"},
		{"below, with a percent sign", "docs/a.md", "| Confidence | Route |\n|---|---|\n| below 70% | escalate to a human |\n| 70% and up | proceed |\n",
			"confidence < 70 @3:3"},
		{"subject in the cell", "docs/a.md", "| When | Then |\n|---|---|\n| `quality_score < 60` | **Escalate** |\n| `quality_score >= 60` | Accept |\n",
			"quality_score < 60 @3:3"},
		{"lowest range", "docs/a.md", "| Score | Action |\n|---|---|\n| 0-59 | Escalate |\n| 60-100 | Accept |\n",
			"score < 60 @3:3"},
		{"yaml", "cfg/escalation.yaml", "escalation:\n  quality_score:\n    \"<60\": \"Escalate to senior\"\n    \"60-100\": \"Accept\"\n",
			"quality_score < 60 @3:5"},
		{"yaml cut-off key and its subject", "cfg/escalation.yaml", "escalation:\n  metric: quality_score\n  escalate_below: 60\n  review_below: 75\n",
			"quality_score < 60 @3:3"},
		{"grades", "docs/a.md", "| Score | Grade |\n|---|---|\n| 90-100 | A |\n| 80-89 | B |\n", ""},
		{"a test's document", "tests/fixtures/a.md", "| Score | Action |\n|---|---|\n| < 60 | Escalate |\n| >= 60 | Accept |\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, cand := range Bands(c.path, []byte(c.src)) {
				if !cand.Doc || cand.Concept != Escalation {
					t.Errorf("candidate %+v is not a document's escalation", cand)
				}
				for _, k := range cand.Fn.Consts {
					got = append(got, fmt.Sprintf("%s %s %v @%d:%d", k.Field, k.Op, k.Value, k.Pos.Line, k.Pos.Col))
				}
			}
			if g := strings.Join(got, "; "); g != c.want {
				t.Errorf("bands %q, want %q", g, c.want)
			}
		})
	}
}
