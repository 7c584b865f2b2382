package scan_test

import (
	"context"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/analyzers/divergence"
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/scan"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

func divergenceRun(t *testing.T, files map[string]string) []finding.Finding {
	t.Helper()
	dir := writeTree(t, files)
	res, err := scan.Run(context.Background(), dir, scan.Options{
		Divergence: divergence.NewModel(msgcheck.DefaultSpec(), divergence.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	return res.Findings
}

func conflictText(fs []finding.Finding) string {
	var parts []string
	for _, f := range fs {
		if f.Rule == divergence.RuleConflictingThreshold {
			parts = append(parts, f.Message)
		}
	}
	return strings.Join(parts, "\n")
}

const checkSpecBound = `def validate_delegate(d):
    problems = []
    if len(d["scope"].split()) < 15:
        problems.append("scope too short")
    if not d.get("success_criteria"):
        problems.append("no criteria")
    return problems
`

// TestReexportedConstant: a constant a package's __init__.py imports
// from one of its modules resolves for the modules that import it from
// the package; the same name not re-exported stays unknown.
func TestReexportedConstant(t *testing.T) {
	worker := `from limits import MIN_WORDS

def check_delegate(d):
    problems = []
    if len(d["scope"].split()) < MIN_WORDS:
        problems.append("scope too short")
    if not d.get("success_criteria"):
        problems.append("no criteria")
    return problems
`
	for _, c := range []struct {
		name, init string
		want       string
	}{
		{"re-exported", "from .values import MIN_WORDS\n", "MIN_WORDS (10)"},
		{"not re-exported", "from .values import OTHER\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := divergenceRun(t, map[string]string{
				"app/validation.py":      checkSpecBound,
				"app/worker.py":          worker,
				"app/limits/__init__.py": c.init,
				"app/limits/values.py":   "MIN_WORDS = 10\nOTHER = 3\n",
			})
			var related []string
			for _, f := range fs {
				if f.Rule == divergence.RuleConflictingThreshold {
					for _, r := range f.Related {
						related = append(related, r.Message)
					}
				}
			}
			got := strings.Join(related, "; ")
			if c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Errorf("conflict %q, want one naming %q", got, c.want)
			}
		})
	}
}

// TestDocumentBands: a Markdown table of escalation bands joins the
// escalation decision of the code it documents: a conflicting threshold
// where they differ, no duplicate; a grade table says nothing.
func TestDocumentBands(t *testing.T) {
	code := `def should_escalate(h):
    if h["metrics"]["quality"] < 0.6:
        return True
    return h["retry_count"] >= 3
`
	for _, c := range []struct {
		name, doc, want string
	}{
		{"bands differ", "| Quality | Action |\n|---|---|\n| < 0.5 | Escalate to human review |\n| >= 0.5 | Accept |\n",
			"metrics.quality is compared with different values in copies of one escalation decision: 0.6 in should_escalate (agents/escalate.py:1); 0.5 in escalation bands (docs/policy.md:3)"},
		{"grade table", "| Quality | Grade |\n|---|---|\n| 0.9-1.0 | A |\n| 0.5-0.89 | B |\n", ""},
		{"yaml bands", "escalation:\n  quality:\n    \"< 0.4\": Escalate to a senior engineer\n    \">= 0.4\": Accept\n",
			"0.4 in escalation bands (docs/policy.yaml:3)"},
		{"yaml grades", "grades:\n  quality:\n    \"0.9-1.0\": A\n    \"0.5-0.89\": B\n", ""},
		// a design doc's sketch of the function: compared, never a copy
		{"code block agrees", "# Escalation\n\n```python\ndef should_escalate(h):\n    if h[\"metrics\"][\"quality\"] < 0.6:\n        return True\n    return h[\"retry_count\"] >= 3\n```\n", ""},
		{"code block differs", "# Escalation\n\n```python\ndef should_escalate(h):\n    if h[\"metrics\"][\"quality\"] < 0.7:\n        return True\n    return h[\"retry_count\"] >= 3\n```\n",
			"0.6 in should_escalate (agents/escalate.py:1); 0.7 in should_escalate (docs/policy.md:4)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := "docs/policy.md"
			if strings.HasPrefix(c.name, "yaml") {
				doc = "docs/policy.yaml"
			}
			fs := divergenceRun(t, map[string]string{"agents/escalate.py": code, doc: c.doc})
			for _, f := range fs {
				if f.Rule == divergence.RuleDuplicateEscalation {
					t.Errorf("duplicate from a document: %s", f.Message)
				}
			}
			if got := conflictText(fs); c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Errorf("conflicts %q, want %q", got, c.want)
			}
		})
	}
}

// TestReexportedGoConstant: a Go package's constant defined as another
// package's resolves to that package's value for the packages that
// compare with it.
func TestReexportedGoConstant(t *testing.T) {
	check := `package check

import (
	"strings"

	"example.com/x/svc/limits"
)

type problem string

func (p problem) Error() string { return string(p) }

func ValidateDelegate(d Delegate) error {
	if len(strings.Fields(d.Scope)) < limits.MinWords {
		return problem("scope too short")
	}
	if len(d.SuccessCriteria) == 0 {
		return problem("no criteria")
	}
	return nil
}
`
	for _, c := range []struct {
		name, limits string
		want         string
	}{
		{"re-exported", "package limits\n\nimport \"example.com/x/svc/values\"\n\nconst MinWords = values.MinWords\n", "MinWords (10)"},
		{"a variable", "package limits\n\nimport \"example.com/x/svc/values\"\n\nvar MinWords = values.MinWords\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := divergenceRun(t, map[string]string{
				"app/validation.py":    checkSpecBound,
				"svc/check/check.go":   check,
				"svc/limits/limits.go": c.limits,
				"svc/values/values.go": "package values\n\nconst MinWords = 10\n",
			})
			var related []string
			for _, f := range fs {
				if f.Rule == divergence.RuleConflictingThreshold {
					for _, r := range f.Related {
						related = append(related, r.Message)
					}
				}
			}
			got := strings.Join(related, "; ")
			if c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Errorf("conflict %q, want one naming %q", got, c.want)
			}
		})
	}
}
