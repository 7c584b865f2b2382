package enumdrift_test

import (
	"slices"
	"testing"
)

// TestNotDrift: what is not drift stays silent, in Python and Go: a set
// named or commented as legacy, deprecated or aliases, or unioned with
// the canonical set (an alias table); test tables whose rows expect
// rejection; an enum on another scale than the spec's.
func TestNotDrift(t *testing.T) {
	v := shapesVocabulary(t)
	for _, c := range []struct{ name, path, src string }{
		{"py set unioned with the canonical one", "accept.py", `
CANONICAL = {"success", "failure", "partial", "blocked", "escalate"}
OLD = {"done", "complete", "failed"}
VALID = CANONICAL | OLD

def accept(handback):
    return handback["status"] in VALID
`},
		{"py set named deprecated, in a file that handles HANDBACKs", "accept.py", `
VALID = {"success", "failure", "partial", "blocked", "escalate"}
DEPRECATED_STATUSES = {"done", "complete", "failed"}

def accept(handback):
    return handback["status"] in VALID or handback["status"] in DEPRECATED_STATUSES
`},
		{"py alias set, in a file that handles HANDBACKs", "accept.py", `
STATUS_ALIASES = ["complete", "failed", "escalated", "done"]

def accept(handback):
    return handback["status"] in STATUS_ALIASES
`},
		{"py invalid_ cases", "test_status.py", `
invalid_statuses = ["done", "finished", "SUCCESS"]

def test_invalid(validate):
    for s in invalid_statuses:
        assert not validate({"task_id": "t-1", "status": s, "output": {}})
`},
		{"go legacy slice beside the canonical one", "accept.go", `package accept

var valid = []string{"success", "failure", "partial", "blocked", "escalate"}

// legacyStatuses are the spellings of old workers, still accepted.
var legacyStatuses = []string{"done", "complete", "failed"}

func Accept(handback Handback) bool {
	status := handback.Status
	return contains(valid, status) || contains(legacyStatuses, status)
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
`},
		{"go legacy slice tested in a file that handles HANDBACKs", "handback.go", `package accept

import "slices"

var legacyStatuses = []string{"done", "complete", "failed", "escalated"}

func Accepted(hb Handback) bool {
	return slices.Contains(legacyStatuses, hb.Status)
}
`},
		{"go aliases appended to the canonical slice", "accept.go", `package accept

var canonical = []string{"success", "failure", "partial", "blocked", "escalate"}

var accepted = append(canonical, "done", "complete", "failed")
`},
		{"go test table rows that expect rejection", "status_test.go", `package accept

import "testing"

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		status string
		valid  bool
	}{
		{"success", true},
		{"done", false},
		{"Success", false},
		{"finished", false},
	} {
		if got := Validate(tc.status); got != tc.valid {
			t.Errorf("%s: %v", tc.status, got)
		}
	}
}
`},
		{"go test table with invalid_ names and wantErr", "status_test.go", `package accept

import "testing"

func TestInvalid(t *testing.T) {
	invalidStatuses := []string{"done", "finished", "SUCCESS"}
	for _, s := range invalidStatuses {
		if err := Check(Handback{TaskID: "t-1", Status: s}); err == nil {
			t.Errorf("%s accepted", s)
		}
	}
}
`},
		{"go const block on another scale", "tier.go", `package tier

type Tier string

const (
	TierCritical Tier = "critical"
	TierHigh     Tier = "high"
	TierMedium   Tier = "medium"
	TierLow      Tier = "low"
)
`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := analyze(t, v, c.path, c.src); len(got) != 0 {
				t.Errorf("want no finding, got %q", got)
			}
		})
	}
}

// TestOtherScale: a definition that shares an enum's words but holds a
// word of its own and is not named for the field is a scale of its own,
// even in a file that handles the kind; named for the field, its odd
// word is drift.
func TestOtherScale(t *testing.T) {
	v := shapesVocabulary(t)
	src := `from enum import Enum

class RoutingDecision(str, Enum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"
    CRITICAL = "critical"

class Effort(str, Enum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    EXTREME = "extreme"

def route(delegate):
    return delegate["handoff_type"] == "DELEGATE"
`
	got := analyze(t, v, "router.py", src)
	want := []string{"13:15 enumdrift/unknown-value extreme->"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestCommentedAliasSet: a set whose comment says it holds old or alias
// spellings is the spellings accepted beside the canonical ones, even in
// a file that handles the kind; the same set without the comment is
// drift.
func TestCommentedAliasSet(t *testing.T) {
	v := shapesVocabulary(t)
	const body = `
def accept(handback):
    return handback["status"] in OLD_WORDS or handback["status"] in PREV
`
	for _, c := range []struct {
		name, src string
		want      int
	}{
		{"commented above and at the end", `# Old spellings from v0 workers, still accepted
# (legacy: see the migration notes)
OLD_WORDS = {"complete", "failed", "Success"}
PREV = ["finished", "Failed", "SUCCESS"]  # deprecated, kept for old queues
` + body, 0},
		{"a comment on one member", `OLD_WORDS = {"complete", "failed", "Success"}  # complete: legacy, planted
PREV = ["finished", "Failed", "SUCCESS"]
` + body, 3},
		{"no comment", `OLD_WORDS = {"complete", "failed", "Success"}
PREV = ["finished", "Failed", "SUCCESS"]
` + body, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := analyze(t, v, "handback_router.py", c.src); len(got) != c.want {
				t.Errorf("got %d findings %q, want %d", len(got), got, c.want)
			}
		})
	}
}

// TestUnionedAliasSet: a set united with the canonical one holds the
// spellings accepted beside it, however it is named or the union written;
// the same set tested alone is drift.
func TestUnionedAliasSet(t *testing.T) {
	v := shapesVocabulary(t)
	const sets = `CANONICAL = {"success", "failure", "partial", "blocked", "escalate"}
OLD = {"complete", "failed", "Escalated"}
`
	for _, c := range []struct {
		name, src string
		want      int
	}{
		{"a | b", sets + `ACCEPTED = CANONICAL | OLD

def accept(handback):
    return handback["status"] in ACCEPTED or handback["status"] in OLD
`, 0},
		{"union()", sets + `ACCEPTED = frozenset(CANONICAL).union(OLD)

def accept(handback):
    return handback["status"] in OLD
`, 0},
		{"splats", sets + `ACCEPTED = {*CANONICAL, *OLD}

def accept(handback):
    return handback["status"] in OLD
`, 0},
		{"tested alone", sets + `
def accept(handback):
    return handback["status"] in OLD
`, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := analyze(t, v, "handback_router.py", c.src); len(got) != c.want {
				t.Errorf("got %d findings %q, want %d", len(got), got, c.want)
			}
		})
	}
}

// TestCommentedAliasSetGo: Go's comments about a set say the same as
// Python's.
func TestCommentedAliasSetGo(t *testing.T) {
	v := shapesVocabulary(t)
	const body = `
type Handback struct {
	TaskID string ` + "`json:\"task_id\"`" + `
	Status string ` + "`json:\"status\"`" + `
}

func accept(hb Handback) bool {
	return slices.Contains(oldWords, hb.Status) || slices.Contains(prev, hb.Status)
}
`
	for _, c := range []struct {
		name, src string
		want      int
	}{
		{"commented above and at the end", `package router

import "slices"

// Old spellings from v0 workers, still accepted
// (legacy: see the migration notes)
var oldWords = []string{"complete", "failed", "Success"}
var prev = []string{"finished", "Failed", "SUCCESS"} // deprecated, kept for old queues
` + body, 0},
		{"a comment on one member", `package router

import "slices"

var oldWords = []string{"complete", "failed", "Success"} // complete: legacy, planted
var prev = []string{"finished", "Failed", "SUCCESS"}
` + body, 3},
		{"no comment", `package router

import "slices"

var oldWords = []string{"complete", "failed", "Success"}
var prev = []string{"finished", "Failed", "SUCCESS", "http://x/legacy"}
` + body, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := analyze(t, v, "handback_router.go", c.src); len(got) != c.want {
				t.Errorf("got %d findings %q, want %d", len(got), got, c.want)
			}
		})
	}
}
