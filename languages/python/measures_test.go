package python

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// TestConstHelpers: a word count taken by a helper of the file, a class
// constant read through self, cls or the class, and a base minus a named
// gap are thresholds like the literal forms; a helper that counts
// something else, a class attribute a method assigns and a lower-case
// class attribute are not.
func TestConstHelpers(t *testing.T) {
	src := `from .limits import GAP
BASE = 85
ESCALATION_GAP = 15

def _count_words(text: str) -> int:
    """Words of text."""
    return len(text.split())

def _count_lines(text):
    return len(text.splitlines())

def _words_then(text):
    n = len(text.split())
    return n

class Validator:
    MIN_WORDS = 15
    MAX_LINES = 40
    TWICE = 1
    TWICE = 2
    ratio = 0.5
    LIMIT = 3

    def __init__(self):
        self.LIMIT = 4

    def _wc(self, s):
        return len(s.split())

    def check(self, d):
        if _count_words(d["scope"]) < 15: pass
        if self._wc(d["plan"]) < self.MIN_WORDS: pass
        n = _count_words(d["goal"])
        if n < Validator.MIN_WORDS: pass
        if _count_lines(d["a"]) < cls.MAX_LINES: pass
        if _words_then(d["b"]) < 3: pass
        if d["c"] < self.TWICE: pass
        if d["e"] < self.ratio: pass
        if d["f"] < self.LIMIT: pass

def decide(h):
    if h["quality"] < 85 - ESCALATION_GAP: pass
    if h["quality"] < BASE - ESCALATION_GAP: pass
    if h["quality"] < BASE - GAP: pass
    if h["quality"] < 85 - GAP: pass
    if h["quality"] < h["base"] - 5: pass
`
	f, _ := extractTokens(t, src)
	var got []string
	for _, fn := range f.Functions {
		for _, c := range fn.Consts {
			got = append(got, fmt.Sprintf("%s %s/%s %v %s %s %v %v", fn.Name, c.Field, c.Measure, c.Value, c.Name, c.Ref, c.Base, c.Scale))
		}
	}
	want := []string{
		"Validator.check scope/words 15   0 0",
		"Validator.check plan/words 15 MIN_WORDS  0 0",
		"Validator.check goal/words 15 MIN_WORDS  0 0",
		// _count_lines and _words_then count no words of their argument:
		// their results are about no field
		"Validator.check / 40 MAX_LINES  0 0",
		"Validator.check / 3   0 0",
		"decide quality/ 70 85 - ESCALATION_GAP  0 0",
		"decide quality/ 70 BASE - ESCALATION_GAP  0 0",
		"decide quality/ <nil> BASE - GAP .limits:GAP 85 -1",
		"decide quality/ <nil> 85 - GAP .limits:GAP 85 -1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("consts\n got %q\nwant %q", got, want)
	}
}

// TestModuleImports: the names a module binds by from-imports, for the
// constants a package re-exports.
func TestModuleImports(t *testing.T) {
	got, err := ModuleImports(context.Background(), []byte("from .limits import MIN_WORDS, FLOOR as F\nimport os\nfrom pkg import x\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"MIN_WORDS": ".limits:MIN_WORDS", "F": ".limits:FLOOR", "x": "pkg:x"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("imports %v, want %v", got, want)
	}
}

// TestConstTables: a column of a table keyed by task type, read by its
// key (a literal or a string constant) or unpacked into named variables,
// gives one constant per row, also through a local bound to a row; a
// table rebound, a column read by a variable, a local rebound and a
// tuple unpacked into fewer names give none.
func TestConstTables(t *testing.T) {
	src := `ESCALATE = "escalate"
THRESHOLDS = {
    "bugfix": {"escalate": 0.6, "review": 0.75},
    "feature": {"escalate": 0.7, "review": 0.8},
}
TIERS = {"gold": (0.5, 0.7), "silver": (0.6, 0.8)}
TWICE = {"a": {"escalate": 1}}
TWICE = {"a": {"escalate": 2}}

def decide(h, kind, tier, col):
    q = h["metrics"]["quality"]
    if q < THRESHOLDS[kind]["escalate"]: pass
    if q < THRESHOLDS["bugfix"][ESCALATE]: pass
    escalate_at, review_at = TIERS[tier]
    if q < escalate_at: pass
    cut = THRESHOLDS[kind]["review"]
    if q < cut: pass
    if q < TWICE["a"]["escalate"]: pass
    if q < THRESHOLDS[kind][col]: pass
    a, b, c = TIERS[tier]
    if q < a: pass
    row = THRESHOLDS[kind]
    if q < row["review"]: pass
    row = {}
    if q < row["review"]: pass
`
	f, _ := extractTokens(t, src)
	var got []string
	for _, c := range f.Functions[0].Consts {
		got = append(got, fmt.Sprintf("%s %v %s", c.Field, c.Value, c.Name))
	}
	want := []string{
		`metrics.quality 0.6 THRESHOLDS["bugfix"].escalate`,
		`metrics.quality 0.7 THRESHOLDS["feature"].escalate`,
		`metrics.quality 0.6 THRESHOLDS["bugfix"].escalate`,
		`metrics.quality 0.5 TIERS["gold"].escalate_at`,
		`metrics.quality 0.6 TIERS["silver"].escalate_at`,
		`metrics.quality 0.75 THRESHOLDS["bugfix"].review`,
		`metrics.quality 0.8 THRESHOLDS["feature"].review`,
		`metrics.quality 0.75 THRESHOLDS["bugfix"].review`,
		`metrics.quality 0.8 THRESHOLDS["feature"].review`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("consts\n got %q\nwant %q", got, want)
	}
}

// TestConstFlatTables: a table of numbers keyed by task type or topic
// whose name says they are cut-offs is read as T[kind] and
// T.get(kind, default), every row; a table of weights is not, nor one
// that mixes numbers and rows.
func TestConstFlatTables(t *testing.T) {
	src := `ESCALATION_THRESHOLDS = {"security": 90, "default": 80}
MIN_CONFIDENCE = {"security": 95}
WEIGHTS = {"security": 3, "default": 1}
MIXED_THRESHOLDS = {"a": 1, "b": {"escalate": 2}}

def decide(h, topic):
    q = h["quality_score"]
    if q < ESCALATION_THRESHOLDS[topic]: pass
    if q < ESCALATION_THRESHOLDS.get(topic, 85): pass
    if q < ESCALATION_THRESHOLDS["security"]: pass
    if q < MIN_CONFIDENCE.get(topic): pass
    if q > WEIGHTS[topic]: pass
    if q < MIXED_THRESHOLDS[topic]: pass
`
	f, _ := extractTokens(t, src)
	var got []string
	for _, c := range f.Functions[0].Consts {
		got = append(got, fmt.Sprintf("%s %v %s", c.Field, c.Value, c.Name))
	}
	want := []string{
		`quality_score 90 ESCALATION_THRESHOLDS["security"]`,
		`quality_score 80 ESCALATION_THRESHOLDS["default"]`,
		`quality_score 90 ESCALATION_THRESHOLDS["security"]`,
		`quality_score 80 ESCALATION_THRESHOLDS["default"]`,
		`quality_score 90 ESCALATION_THRESHOLDS["security"]`,
		`quality_score 95 MIN_CONFIDENCE["security"]`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("consts\n got %q\nwant %q", got, want)
	}
}

// TestConstInitDefaults: an attribute __init__ binds from a parameter
// with a number as its default holds that number in the class's methods,
// unless a method binds it again or the default is no number.
func TestConstInitDefaults(t *testing.T) {
	src := `class Gate:
    def __init__(self, client, limit=85, floor=None, cap=0.9):
        self.client = client
        self.limit = limit
        self.floor = floor
        self.cap = cap

    def decide(self, h):
        q = h["quality_score"]
        if q < self.limit: pass
        if q < self.floor: pass
        if q > self.cap: pass

    def tune(self):
        self.cap = 0.95
`
	f, _ := extractTokens(t, src)
	var got []string
	for _, fn := range f.Functions {
		for _, c := range fn.Consts {
			got = append(got, fmt.Sprintf("%s %s %v %s", fn.Name, c.Field, c.Value, c.Name))
		}
	}
	want := []string{`Gate.decide quality_score 85 limit`}
	if !slices.Equal(got, want) {
		t.Errorf("consts\n got %q\nwant %q", got, want)
	}
}
