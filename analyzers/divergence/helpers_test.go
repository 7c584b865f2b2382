package divergence

import (
	"cmp"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/languages/facts"
)

// sources extracts files of source and returns their candidates.
func sources(t *testing.T, m *Model, files ...[2]string) []Candidate {
	t.Helper()
	var cands []Candidate
	for _, f := range files {
		ff, err := extract.File(f[0], []byte(f[1]))
		if err != nil {
			t.Fatal(err)
		}
		cands = append(cands, Candidates(ff, m)...)
	}
	return cands
}

// conflict returns the conflicting-threshold finding of fs, if any.
func conflict(fs []finding.Finding) *finding.Finding {
	for i := range fs {
		if fs[i].Rule == RuleConflictingThreshold {
			return &fs[i]
		}
	}
	return nil
}

const pyCheck = `def validate_delegate(d):
    problems = []
    if len(d["scope"].split()) < 15:
        problems.append("scope too short")
    if not d.get("success_criteria"):
        problems.append("no criteria")
    return problems
`

// TestThresholdsThroughHelpers: a word count taken by a helper of the
// file and a class constant read through self compare the same field as
// len(scope.split()) < 15 does, so a copy using them with another value
// conflicts; a helper that counts lines is not a word count, and a class
// attribute a method assigns is no constant.
func TestThresholdsThroughHelpers(t *testing.T) {
	m := testModel(Options{})
	for _, c := range []struct {
		name, path, src string
		want            string // the conflict's text, "" for none
	}{
		{"python helper", "b/check.py", `def _count_words(text):
    return len(text.split())

def validate_delegate(d):
    problems = []
    if _count_words(d["scope"]) < 10:
        problems.append("scope too short")
    if not d.get("success_criteria"):
        problems.append("no criteria")
    return problems
`, "the word count of scope is compared with different values"},
		{"python helper counting lines", "b/check.py", `def _count_lines(text):
    return len(text.splitlines())

def validate_delegate(d):
    problems = []
    if _count_lines(d["scope"]) < 10:
        problems.append("scope too short")
    if not d.get("success_criteria"):
        problems.append("no criteria")
    return problems
`, ""},
		{"python class constant", "b/check.py", `class DelegateValidator:
    MIN_WORDS = 10

    def validate_delegate(self, d):
        problems = []
        if len(d["scope"].split()) < self.MIN_WORDS:
            problems.append("scope too short")
        if not d.get("success_criteria"):
            problems.append("no criteria")
        return problems
`, "MIN_WORDS (10)"},
		{"python class attribute set by a method", "b/check.py", `class DelegateValidator:
    MIN_WORDS = 10

    def __init__(self, strict):
        if strict:
            self.MIN_WORDS = 20

    def validate_delegate(self, d):
        problems = []
        if len(d["scope"].split()) < self.MIN_WORDS:
            problems.append("scope too short")
        if not d.get("success_criteria"):
            problems.append("no criteria")
        return problems
`, ""},
		{"go helper", "b/check.go", `package b

import "strings"

func wordCount(s string) int { return len(strings.Fields(s)) }

func ValidateDelegate(d Delegate) error {
	if wordCount(d.Scope) < 10 {
		return errShort
	}
	if len(d.SuccessCriteria) == 0 {
		return errNoCriteria
	}
	return nil
}
`, "the word count of scope is compared with different values"},
		{"go helper counting lines", "b/check.go", `package b

import "strings"

func lineCount(s string) int { return len(strings.Split(s, "\n")) }

func ValidateDelegate(d Delegate) error {
	if lineCount(d.Scope) < 10 {
		return errShort
	}
	if len(d.SuccessCriteria) == 0 {
		return errNoCriteria
	}
	return nil
}
`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			cands := sources(t, m, [2]string{"a/check.py", pyCheck}, [2]string{c.path, c.src})
			if len(cands) != 2 {
				t.Fatalf("%d candidates, want 2", len(cands))
			}
			got := conflict(Cluster(cands, m))
			switch {
			case c.want == "" && got != nil:
				t.Errorf("unexpected conflict: %s", got.Message)
			case c.want != "" && got == nil:
				t.Errorf("no conflict, want one saying %q", c.want)
			case c.want != "" && !strings.Contains(got.Message+" "+relatedText(got), c.want):
				t.Errorf("conflict %q (%s) lacks %q", got.Message, relatedText(got), c.want)
			}
		})
	}
}

func relatedText(f *finding.Finding) string {
	var parts []string
	for _, r := range f.Related {
		parts = append(parts, r.Message)
	}
	return strings.Join(parts, "; ")
}

// importTree is a fakeTree whose files also import names.
type importTree struct {
	fakeTree
	imports map[string]map[string]string
}

func (it importTree) Imports(p string) map[string]string { return it.imports[p] }

// TestResolveReexport: a constant a package's __init__.py imports from
// one of its modules (a Go package's constant defined as another
// package's) is the package's for its importers, one import deep; a base
// minus a gap of another file is computed from it.
func TestResolveReexport(t *testing.T) {
	tree := importTree{
		fakeTree: fakeTree{
			"pkg/__init__.py":        nil,
			"pkg/limits.py":          {"MIN_WORDS": 12, "ESCALATION_GAP": 15},
			"loop/__init__.py":       nil,
			"deep/__init__.py":       nil,
			"deep/inner/__init__.py": nil,
			"deep/inner/limits.py":   {"MIN_WORDS": 9},
			"app/worker.py":          nil,
			"svc/limits/limits.go":   nil,
			"svc/values/values.go":   {"MinWords": 11},
			"svc/check/check.go":     nil,
		},
		imports: map[string]map[string]string{
			"pkg/__init__.py":        {"MIN_WORDS": ".limits:MIN_WORDS", "GAP": ".limits:ESCALATION_GAP"},
			"loop/__init__.py":       {"X": "loop:X"},
			"deep/__init__.py":       {"MIN_WORDS": ".inner:MIN_WORDS"},
			"deep/inner/__init__.py": {"MIN_WORDS": ".limits:MIN_WORDS"},
			"svc/limits/limits.go":   {"MinWords": "example.com/x/svc/values:MinWords"},
		},
	}
	for _, tc := range []struct {
		path, lang, ref string
		base, scale     float64
		want            any
	}{
		{"", "", "pkg:MIN_WORDS", 0, 0, 12.0},
		{"svc/check/check.go", "go", "example.com/x/svc/limits:MinWords", 0, 0, 11.0},
		{"svc/check/check.go", "go", "example.com/x/svc/limits:MaxPlan", 0, 0, nil},
		{"", "", "pkg:GAP", 85, -1, 70.0},
		{"", "", "pkg:NOPE", 0, 0, nil},
		{"", "", "loop:X", 0, 0, nil},
		{"", "", "deep:MIN_WORDS", 0, 0, nil}, // two imports deep
	} {
		path, lang := cmp.Or(tc.path, "app/worker.py"), cmp.Or(tc.lang, "python")
		cands := []Candidate{{Path: path, Lang: lang, Fn: facts0(tc.ref, tc.base, tc.scale)}}
		Resolve(cands, tree)
		if got := cands[0].Fn.Consts[0].Value; got != tc.want {
			t.Errorf("%s: value %v, want %v", tc.ref, got, tc.want)
		}
	}
	// without imports, a re-exported name stays unresolved
	cands := []Candidate{{Path: "app/worker.py", Lang: "python", Fn: facts0("pkg:MIN_WORDS", 0, 0)}}
	Resolve(cands, tree.fakeTree)
	if got := cands[0].Fn.Consts[0].Value; got != nil {
		t.Errorf("a Tree without imports resolved %v", got)
	}
}

func facts0(ref string, base, scale float64) facts.Function {
	return facts.Function{Consts: []facts.Const{{Field: "scope", Measure: "words", Op: "<", Ref: ref, Name: "X", Base: base, Scale: scale}}}
}
