package msgcheck

import (
	"math/rand/v2"
	"strings"
	"testing"
)

var patternCases = []string{
	`^[a-z0-9][a-z0-9\-]{1,48}[a-z0-9]$`,
	`^[A-Z]+-[0-9]{3}$`,
	`^a?b*c+$`,
	`^[a-c]{0,3}[b-d]{2}$`,
	`^x$`,
	`^$`,
	`^(?i)[a-f]+$`,
	`[a-z]+`,        // unanchored: regexp only
	`^[é]+$`,        // not ASCII: regexp only
	`^(ab)+$`,       // a group: regexp only
	`^[^a-z]{1,3}$`, // negated: reaches past ASCII, regexp only
	`^a[0-9]{2}b$`,  // every count fixed
	`^[a-c]+x{2,}$`, // two runs: the automaton
	`^x{0}y?$`,
}

// TestPatternFastPath checks the position-set matcher against regexp on
// random strings over an alphabet that exercises every class edge.
func TestPatternFastPath(t *testing.T) {
	alphabet := []byte("abcdefxyzABCZ0129-_ é")
	r := rand.New(rand.NewPCG(1, 2))
	fast := 0
	for _, src := range patternCases {
		p, err := compilePattern(src)
		if err != nil {
			t.Fatal(err)
		}
		if p.steps != nil {
			fast++
		}
		for i := 0; i < 20000; i++ {
			b := make([]byte, r.IntN(60))
			for j := range b {
				b[j] = alphabet[r.IntN(len(alphabet))]
			}
			s := string(b)
			if got, want := p.MatchString(s), p.re.MatchString(s); got != want {
				t.Fatalf("%s on %q: fast path %v, regexp %v", src, s, got, want)
			}
		}
	}
	if fast != 9 {
		t.Errorf("%d patterns took the fast path, want 9", fast)
	}
	oneRun := 0
	for _, src := range patternCases {
		if p, _ := compilePattern(src); p.oneRun {
			oneRun++
		}
	}
	// all but ^a?b*c+$ and ^[a-c]+x{2,}$, which have two runs
	if oneRun != 7 {
		t.Errorf("%d patterns took the one-run path, want 7", oneRun)
	}
}

func FuzzPattern(f *testing.F) {
	f.Add(`^[a-z0-9][a-z0-9\-]{1,48}[a-z0-9]$`, "feature-x-001")
	f.Add(`^a?b*c+$`, "bbc")
	f.Fuzz(func(t *testing.T, src, s string) {
		p, err := compilePattern(src)
		if err != nil {
			return
		}
		if got, want := p.MatchString(s), p.re.MatchString(s); got != want {
			t.Fatalf("%s on %q: fast path %v, regexp %v", src, s, got, want)
		}
	})
}

func BenchmarkPattern(b *testing.B) {
	p, _ := compilePattern(`^[a-z0-9][a-z0-9\-]{1,48}[a-z0-9]$`)
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			p.MatchString("feature-x-001")
		}
	})
	b.Run("regexp", func(b *testing.B) {
		for b.Loop() {
			p.re.MatchString("feature-x-001")
		}
	})
}

// TestTypeTexts: the precomputed type texts cover every mask of the JSON
// types, and there are seven of them.
func TestTypeTexts(t *testing.T) {
	if len(typeNames) != 7 {
		t.Fatalf("%d JSON types; typeTexts is sized for 7", len(typeNames))
	}
	for m := typeMask(0); m < 1<<7; m++ {
		if typeList(m) != buildTypeList(m) {
			t.Errorf("mask %b: %q != %q", m, typeList(m), buildTypeList(m))
		}
	}
	if got := typeList(tString | tArray); got != "a string or an array" {
		t.Errorf("got %q", got)
	}
}

// Patterns run on RE2 or on the fast path, both linear in the input: a
// pattern that makes a backtracking matcher take exponential time
// finishes at once on a long input, and so does one of many steps on the
// fast path (each step is one pass over the input, not one per position).
func TestPatternIsLinear(t *testing.T) {
	// no clock: a backtracking matcher would not finish on this input
	// before the test binary's timeout, a linear one takes milliseconds
	long := strings.Repeat("a", 64<<10) + "b"
	for _, src := range []string{`(a+)+$`, `^(a|aa)+$`, `^(a*)*c$`, `(x+x+)+y`} {
		p, err := compilePattern(src)
		if err != nil {
			t.Fatal(err)
		}
		if p.MatchString(long) {
			t.Errorf("%s matches", src)
		}
	}
	src := "^" + strings.Repeat("a*", 500) + "b$"
	p, err := compilePattern(src)
	if err != nil || p.steps == nil {
		t.Fatalf("the fast path does not apply to %s: %v", src, err)
	}
	for _, s := range []string{strings.Repeat("a", 126) + "b", strings.Repeat("a", 127), "b", ""} {
		if got, want := p.MatchString(s), p.re.MatchString(s); got != want {
			t.Errorf("%q: fast path %v, regexp %v", s, got, want)
		}
	}
}
