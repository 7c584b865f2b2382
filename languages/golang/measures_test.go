package golang

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestConstHelpers: a word count taken by a function of the file and a
// base minus a named gap are thresholds like the literal forms; a helper
// that counts lines, or words of something other than its parameter, is
// no word count.
func TestConstHelpers(t *testing.T) {
	src := `package p

import (
	"strings"

	"example.com/x/limits"
)

const (
	base          = 85
	escalationGap = 15
)

func wordCount(s string) int { return len(strings.Fields(s)) }

func lineCount(s string) int { return len(strings.Split(s, "\n")) }

func otherWords(s string) int { return len(strings.Fields(prefix)) }

type V struct{}

func (V) words(text string) int { return len(strings.Fields(text)) }

func validateDelegate(v V, d Delegate) error {
	if wordCount(d.Scope) < 15 {
	}
	if v.words(d.Plan) < 10 {
	}
	n := wordCount(d.Goal)
	if n < 5 {
	}
	if lineCount(d.A) < 3 {
	}
	if otherWords(d.B) < 4 {
	}
	return nil
}

func shouldEscalate(h Handback) bool {
	if h.Quality < 85-escalationGap {
	}
	if h.Quality < base-escalationGap {
	}
	if h.Quality < base-limits.Gap {
	}
	if h.Quality < limits.Base-5 {
	}
	return h.Quality < h.Floor-5
}
`
	ff, err := Extract("x.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, fn := range ff.Functions {
		for _, c := range fn.Consts {
			got = append(got, fmt.Sprintf("%s %s/%s %v %s %s %v %v", fn.Name, c.Field, c.Measure, c.Value, c.Name, c.Ref, c.Base, c.Scale))
		}
	}
	want := []string{
		"validateDelegate scope/words 15   0 0",
		"validateDelegate plan/words 10   0 0",
		"validateDelegate goal/words 5   0 0",
		"validateDelegate / 3   0 0",
		"validateDelegate / 4   0 0",
		"shouldEscalate quality/ 70 85 - escalationGap  0 0",
		"shouldEscalate quality/ 70 base - escalationGap  0 0",
		"shouldEscalate quality/ <nil> base - limits.Gap example.com/x/limits:Gap 85 -1",
		"shouldEscalate quality/ <nil> limits.Base - 5 example.com/x/limits:Base -5 1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("consts\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// TestConstTables: a column of a map literal keyed by task type, read by
// a string key, a string constant or a field name, gives one constant
// per row, also through a local bound to the row; a column read by a
// variable, a local rebound, a table the function shadows and a map of
// other values give none.
func TestConstTables(t *testing.T) {
	src := `package p

const escalateKey = "escalate"

type tier struct{ Escalate, Review float64 }

var thresholds = map[string]map[string]float64{
	"bugfix":  {"escalate": 0.6, "review": 0.75},
	"feature": {"escalate": 0.7, "review": 0.8},
}

var tiers = map[string]tier{"gold": {Escalate: 0.5, Review: 0.7}, "silver": {Escalate: 0.6}}

var names = map[string]string{"a": "b"}

func shouldEscalate(h Handback, kind, col string) bool {
	if h.Metrics.Quality < thresholds[kind]["escalate"] {
		return true
	}
	if h.Metrics.Quality < thresholds["bugfix"][escalateKey] {
		return true
	}
	if h.Metrics.Quality < tiers[kind].Review {
		return true
	}
	if h.Metrics.Quality < thresholds[kind][col] {
		return true
	}
	row := tiers[kind]
	if h.Metrics.Quality < row.Escalate {
		return true
	}
	row = other()
	if h.Metrics.Quality < row.Escalate {
		return true
	}
	return false
}

func shadowed(h Handback, thresholds map[string]map[string]float64) bool {
	return h.Metrics.Quality < thresholds["bugfix"]["escalate"]
}
`
	ff, err := Extract("x.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, fn := range ff.Functions {
		for _, c := range fn.Consts {
			got = append(got, fmt.Sprintf("%s %s %v %s", fn.Name, c.Field, c.Value, c.Name))
		}
	}
	want := []string{
		`shouldEscalate metrics.quality 0.6 thresholds["bugfix"].escalate`,
		`shouldEscalate metrics.quality 0.7 thresholds["feature"].escalate`,
		`shouldEscalate metrics.quality 0.6 thresholds["bugfix"].escalate`,
		`shouldEscalate metrics.quality 0.7 tiers["gold"].Review`,
		`shouldEscalate metrics.quality 0.5 tiers["gold"].Escalate`,
		`shouldEscalate metrics.quality 0.6 tiers["silver"].Escalate`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("consts\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// TestFileImports: constants defined as a constant of an imported
// package or of another file of the package; a literal, an expression,
// iota and a constant of the file itself are not.
func TestFileImports(t *testing.T) {
	src := `package limits

import (
	"example.com/x/values"
	v2 "example.com/x/values/v2"
)

const (
	MinWords   = values.MinWords
	MaxPlan    = v2.MaxPlan
	Floor      = defaultFloor
	Local      = 3
	Alias      = Local
	Sum        = values.A + 1
	First      = iota
)
`
	got := FileImports([]byte(src))
	want := map[string]string{"MinWords": "example.com/x/values:MinWords", "MaxPlan": "example.com/x/values/v2:MaxPlan", "Floor": ":defaultFloor"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("imports %v, want %v", got, want)
	}
}
