package editdist

import (
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"spec", "spec", 0},
		{"core_feilds", "core_fields", 1}, // a swap is one edit
		{"minWrods", "minWords", 1},
		{"exclud", "exclude", 1},
		{"kitten", "sitting", 3},
		{"", "abc", 3},
		{strings.Repeat("a", MaxLen+1), "a", Far},
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestNearest(t *testing.T) {
	flags := []string{"analyzers", "config", "fail-on", "fix", "format", "j", "new-from-rev", "no-cache", "no-gitignore"}
	levels := []string{"error", "warning", "note", "never", "none"}
	formats := []string{"text", "json", "sarif", "markdown"}
	for _, c := range []struct {
		s          string
		candidates []string
		want       string
	}{
		{"fial-on", flags, "fail-on"},       // a swap
		{"fail_on", flags, "fail-on"},       // "_" for "-"
		{"FailOn", flags, "fail-on"},        // case and no dash
		{"new-from", flags, "new-from-rev"}, // the beginning of it
		{"no-cach", flags, "no-cache"},
		{"fi", flags, "fix"}, // one edit from it
		{"frobnicate", flags, ""},
		{"jj", flags, "j"},
		{"warn", levels, "warning"},
		{"erorr", levels, "error"},
		{"loud", levels, ""},
		{"jsno", formats, "json"},
		{"sarf", formats, "sarif"},
		{"markdwon", formats, "markdown"},
		{"", formats, ""},
		{strings.Repeat("x", MaxLen+1), formats, ""},
	} {
		got, ok := Nearest(c.s, c.candidates)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Nearest(%q) = %q, %v; want %q", c.s, got, ok, c.want)
		}
	}
}

// TestHint: the value hint of --fail-on, --format and --analyzers.
func TestHint(t *testing.T) {
	failOn := []string{"error", "warning", "note", "never", "none"}
	formats := []string{"text", "json", "sarif", "markdown"}
	analyzers := []string{"enumdrift", "divergence", "msgcheck"}
	for _, c := range []struct {
		s     string
		words []string
		sep   string
		want  string
	}{
		{"warn", failOn, " (", ` (did you mean "warning"?)`},
		{"nevr", failOn, " (", ` (did you mean "never"?)`},
		{"loud", failOn, " (", ""},
		{"jsno", formats, "; ", `; did you mean "json"?`},
		{"divergnce", analyzers, "; ", `; did you mean "divergence"?`},
		{"xml", formats, "; ", ""},
	} {
		if got := Hint(c.s, c.words, c.sep); got != c.want {
			t.Errorf("Hint(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}
