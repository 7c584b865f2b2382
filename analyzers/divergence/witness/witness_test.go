package witness

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode/utf8"
)

func side(t testing.TB, pattern string, min, max int) Side {
	t.Helper()
	prog, err := Compile(pattern, true, true)
	if err != nil {
		t.Fatalf("Compile(%q): %v", pattern, err)
	}
	return Side{Prog: prog, Min: min, Max: max}
}

// accepted tells whether pattern, matched at the start and end as
// anchored says, and the bounds accept s, by package regexp.
func accepted(pattern string, start, end bool, min, max int, s string) bool {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		panic(err)
	}
	// regexp's leftmost-first match need not be the whole string: ask for
	// one that is, with \A and \z around the pattern's tree
	parts := []*syntax.Regexp{re}
	if start {
		parts = append([]*syntax.Regexp{{Op: syntax.OpBeginText}}, parts...)
	}
	if end {
		parts = append(parts, &syntax.Regexp{Op: syntax.OpEndText})
	}
	whole := &syntax.Regexp{Op: syntax.OpConcat, Flags: syntax.Perl, Sub: parts}
	n := utf8.RuneCountInString(s)
	return regexp.MustCompile(whole.String()).MatchString(s) && n >= min && (max < 0 || n <= max)
}

func TestFind(t *testing.T) {
	const taskID = `^[a-z0-9][a-z0-9\-]{1,48}[a-z0-9]$`
	for _, tc := range []struct {
		name       string
		a, b       string
		amin, amax int
		bmin, bmax int
		want       string // "" for no witness
		accepts    int
	}{
		{name: "equal", a: taskID, b: taskID, amax: -1, bmax: -1},
		{name: "equal, written otherwise", a: `^[a-z]+$`, b: `^[a-z][a-z]*$`, amax: -1, bmax: -1},
		{name: "digit", a: `^[a-z0-9-]+$`, b: `^[a-z]+$`, amax: -1, bmax: -1, want: "0", accepts: 0},
		{name: "the other way", a: `^[a-z]+$`, b: `^[a-z0-9-]+$`, amax: -1, bmax: -1, want: "0", accepts: 1},
		{name: "length in the pattern", a: taskID, b: `^[a-z0-9][a-z0-9\-]{1,62}[a-z0-9]$`, amax: -1, bmax: -1,
			want: strings.Repeat("a", 51), accepts: 1},
		{name: "length bound", a: `^[a-z]+$`, b: `^[a-z]+$`, amax: 64, bmax: 128, want: strings.Repeat("a", 65), accepts: 1},
		{name: "min length", a: `^[a-z]*$`, b: `^[a-z]*$`, amin: 3, amax: -1, bmax: -1, want: "", accepts: 1},
		{name: "upper case", a: `^[a-z]+$`, b: `(?i)^[a-z]+$`, amax: -1, bmax: -1, want: "A", accepts: 1},

		{name: "letter first", a: `^[a-z][a-z0-9-]{2,49}$`, b: taskID, amax: -1, bmax: -1, want: "aa-", accepts: 0},
		{name: "digit first", a: `^[a-z][a-z0-9-]{1,48}[a-z0-9]$`, b: taskID, amax: -1, bmax: -1, want: "0aa", accepts: 1},
		{name: "space", a: `^\S+$`, b: `^[a-z ]+$`, amax: -1, bmax: -1, want: "0", accepts: 0},
		{name: "word boundary", a: `^a\b.*$`, b: `^a.*$`, amax: -1, bmax: -1, want: "aa", accepts: 1},
		{name: "multiline end", a: `(?m)^a$`, b: `^a$`, amax: -1, bmax: -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Find(side(t, tc.a, tc.amin, tc.amax), side(t, tc.b, tc.bmin, tc.bmax), Options{})
			if tc.want == "" && tc.name != "min length" {
				if r.Found {
					t.Fatalf("found %q (accepted by %d), want none", r.Witness, r.Accepts)
				}
				return
			}
			if !r.Found || r.Witness != tc.want || r.Accepts != tc.accepts {
				t.Fatalf("got %+v, want %q accepted by %d", r, tc.want, tc.accepts)
			}
			// the witness is one: checked by the regexp package
			pa, pb := tc.a, tc.b
			if accepted(pa, true, true, tc.amin, tc.amax, r.Witness) == accepted(pb, true, true, tc.bmin, tc.bmax, r.Witness) {
				t.Fatalf("%q is accepted alike by both", r.Witness)
			}
		})
	}
}

func TestAnchoring(t *testing.T) {
	for _, tc := range []struct {
		pattern    string
		start, end bool
		want       string
	}{
		{`[a-z]+`, false, false, "0"},   // a search: "0" lacks a letter, "0a" has one
		{`[a-z]+`, true, false, "a0"},   // re.match: a letter first, then anything
		{`\Qa.b`, false, false, "0"},    // quoted to its end: no wrapper broken
		{`^[a-z]+`, false, false, "0"},  // its own anchor holds in a search
		{`[a-z]+\z`, false, false, "0"}, // \z anchors the end
	} {
		code, err := Compile(tc.pattern, tc.start, tc.end)
		if err != nil {
			t.Fatal(err)
		}
		r := Find(Side{code, 0, -1}, side(t, `^[a-z]+$`, 0, -1), Options{})
		if !r.Found {
			t.Errorf("%s (%v, %v): no witness", tc.pattern, tc.start, tc.end)
			continue
		}
		if accepted(tc.pattern, tc.start, tc.end, 0, -1, r.Witness) == accepted(`^[a-z]+$`, true, true, 0, -1, r.Witness) {
			t.Errorf("%s (%v, %v): %q is no witness", tc.pattern, tc.start, tc.end, r.Witness)
		}
	}
}

func TestBudget(t *testing.T) {
	// the witness lies at length 51: a budget of 20 pairs finds nothing
	a := side(t, `^[a-z0-9][a-z0-9\-]{1,48}[a-z0-9]$`, 0, -1)
	b := side(t, `^[a-z0-9][a-z0-9\-]{1,60}[a-z0-9]$`, 0, -1)
	r := Find(a, b, Options{Budget: 20})
	if r.Found || r.Steps > 20 {
		t.Fatalf("got %+v, want nothing within 20 steps", r)
	}
	if r := Find(a, b, Options{}); !r.Found {
		t.Fatalf("the default budget finds nothing: %+v", r)
	}
}

func TestPathological(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{`^(a*)*b$`, `^(a|aa)*b$`},
		{`^(a*)*b$`, `^a*c$`},
		{`^a{1000}$`, `^a{999}$`},
		{`^(?:a|b|c|d|e)*(?:a|b){20}$`, `^[a-e]*$`},
		{`^(a?){30}a{30}$`, `^a{30,60}$`},
	} {
		a, errA := Compile(tc.a, true, true)
		b, errB := Compile(tc.b, true, true)
		if errA != nil || errB != nil {
			continue // too large is fine: nothing is searched
		}
		r := Find(Side{a, 0, -1}, Side{b, 0, -1}, Options{Budget: 2000})
		if r.Steps > 2000 {
			t.Errorf("%s vs %s: %d steps over the budget", tc.a, tc.b, r.Steps)
		}
		if r.Found && accepted(tc.a, true, true, 0, -1, r.Witness) == accepted(tc.b, true, true, 0, -1, r.Witness) {
			t.Errorf("%s vs %s: %q is no witness", tc.a, tc.b, r.Witness)
		}
	}
}

func TestCompileRefuses(t *testing.T) {
	for _, p := range []string{`(?=a)`, `(a)\1`, `a*+`, `(?<!x)a`} {
		if _, err := Compile(p, true, true); err == nil {
			t.Errorf("Compile(%q) accepted it", p)
		}
	}
	if _, err := Compile(`(?:a{1000}){1000}`, true, true); err == nil {
		t.Error("a program of a million instructions compiled")
	}
}

func TestPrintableOnly(t *testing.T) {
	// the two differ only on control characters: no printable witness
	r := Find(side(t, `^[^\x00-\x08]*$`, 0, -1), side(t, `^.*$`, 0, -1), Options{})
	if r.Found {
		t.Fatalf("found %q", r.Witness)
	}
}

func FuzzFind(f *testing.F) {
	f.Add(`^[a-z0-9-]+$`, `^[a-z]+$`, 0, 64, true, true)
	f.Add(`(a*)*b`, `a{100}`, 3, -1, false, true)
	f.Add(`\bfoo\B`, `(?m)^$`, 0, 0, false, false)
	f.Add(`\Q`, `0`, 140, 101, false, false)
	f.Fuzz(func(t *testing.T, a, b string, min, max int, sa, ea bool) {
		pa, err := Compile(a, sa, ea)
		if err != nil {
			return
		}
		pb, err := Compile(b, true, true)
		if err != nil {
			return
		}
		min, max = min%300, max%300
		if min < 0 {
			min = 0
		}
		if max < -1 {
			max = -1
		}
		r := Find(Side{pa, 0, -1}, Side{pb, min, max}, Options{Budget: 500})
		if r.Steps > 500 {
			t.Fatalf("%d steps over the budget", r.Steps)
		}
		if !r.Found {
			return
		}
		if accepted(a, sa, ea, 0, -1, r.Witness) == accepted(b, true, true, min, max, r.Witness) {
			t.Fatalf("%q is no witness of %q vs %q [%d,%d]", r.Witness, a, b, min, max)
		}
	})
}
