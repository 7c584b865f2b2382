package glob

import (
	"errors"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// patterns and names the table compares with doublestar.Match: the
// shapes the project's call sites use, and doublestar's corner cases.
var (
	cmpPatterns = []string{
		"*", "**", "enumdrift/*", "msgcheck/*-words", "*/*", "**/*", "enumdrift/legacy-status",
		"protoscan/{unused,suppression}-*", "{enumdrift,divergence}/*", "enumdrift/?egacy-status",
		"enumdrift/[a-l]*", "enumdrift/[!a-l]*", "enumdrift/[^a-l]*", `enumdrift/\*`, "enumdrift/**",
		"**/*.go", "**/*_test.go", "vendor/**", "vendor/**/", "docs/**/*.md", "a/**/b", "a/**/b/**/c",
		"a/**", "a/**/", "**/", "/**", "a**", "a**/b", "**a", "a/**b", "a*b*c", "*a*", "?", "??",
		"{a,b}/{c,d}", "{a,{b,c}}", "{,a}b", "a{,/**}", "{**/,}x", "{a/**,b}", "[{]x", "[,]", "x{[,],y}",
		"router/*.go", "tests/**/fixtures/*.{yaml,yml,json}", "[a-]", `[\]]`, "[z-a]", "[!z-a]",
		"ß*", "[α-ω]x", "\xff*", "é/**", "**/*é", "/*", "a//**", "**/*.", "a/*/b", "*/**/*", "**/**", "a/**/**/b",
	}
	cmpNames = []string{
		"", "a", "b", "x", "ab", "abc", "a/b", "a/b/c", "a/x/b", "a/x/y/b", "a/b/x/c", "a/", "/a", "a//b",
		"enumdrift/legacy-status", "enumdrift/status-case", "msgcheck/delegate-scope-words", "divergence/x",
		"protoscan/unused-suppression", "protoscan/suppression-without-reason", "enumdrift/*",
		"main.go", "cmd/protoscan/main.go", "x_test.go", "a/b/x_test.go", "vendor", "vendor/x/y.go",
		"docs/a.md", "docs/x/y/z.md", "router/escalate.go", "tests/a/fixtures/x.yml", "{", "{x", ",", "-", "]x",
		"ßa", "βx", "\xff", "\xffa", "é", "é/x", "x/é", "x/\xffé", "é\x80", "/", "/x", "a//", "x.", "x/.", "a/b/b", "xx", "x/y",
	}
)

func TestMatchesDoublestar(t *testing.T) {
	for _, p := range cmpPatterns {
		g, err := Compile(p)
		if err != nil {
			t.Errorf("Compile(%q): %v", p, err)
			continue
		}
		for _, n := range cmpNames {
			want, err := doublestar.Match(p, n)
			if err != nil {
				t.Fatalf("doublestar.Match(%q, %q): %v", p, n, err)
			}
			if got := g.Match(n); got != want {
				t.Errorf("Match(%q, %q) = %v, doublestar says %v", p, n, got, want)
			}
		}
	}
}

func TestCaps(t *testing.T) {
	// the shape of the report's pattern: 30 pairs of brace groups, 311 bytes
	hostile := "enumdrift/" + strings.Repeat("{*,*}{*,*}", 30) + "x"
	if _, err := Compile(hostile); !errors.Is(err, ErrTooLong) {
		t.Errorf("Compile(311 bytes) = %v, want ErrTooLong", err)
	}
	// under the length cap: 7 pairs (2^14 alternatives) refused on count
	short := "enumdrift/" + strings.Repeat("{*,*}{*,*}", 7) + "x"
	if _, err := Compile(short); !errors.Is(err, ErrTooManyAlternatives) {
		t.Errorf("Compile(%q) = %v, want ErrTooManyAlternatives", short, err)
	}
	// nested groups count as doublestar expands them
	if _, err := Compile("{" + strings.Repeat("{a,b}", 7) + ",c}"); !errors.Is(err, ErrTooManyAlternatives) {
		t.Errorf("nested: %v, want ErrTooManyAlternatives", err)
	}
	if _, err := Compile("{a,b"); !errors.Is(err, ErrBadPattern) {
		t.Errorf("unclosed: %v, want ErrBadPattern", err)
	}
	// just under the caps: the work is bounded by the alternatives and
	// the program, never exponential in the pattern
	edge := "enumdrift/" + strings.Repeat("{*,*}", 6) + strings.Repeat("*a", 108)
	if len(edge) > MaxLen {
		t.Fatalf("edge pattern is %d bytes", len(edge))
	}
	g, err := Compile(edge)
	if err != nil {
		t.Fatal(err)
	}
	if g.Alternatives() != MaxAlternatives {
		t.Errorf("Alternatives() = %d, want %d", g.Alternatives(), MaxAlternatives)
	}
	if n := g.ProgramSize(); n > MaxAlternatives*MaxLen*8 {
		t.Errorf("ProgramSize() = %d, over %d", n, MaxAlternatives*MaxLen*8)
	}
	if g.Match("enumdrift/" + strings.Repeat("a", 109) + "b") {
		t.Error("edge pattern matched a name it cannot")
	}
}

// FuzzMatchesDoublestar compares Match with doublestar.Match on small
// patterns and names. It skips what Compile refuses and the one shape
// whose answer depends on doublestar's search order (see the package doc).
func FuzzMatchesDoublestar(f *testing.F) {
	for _, p := range cmpPatterns {
		f.Add(p, "a/b")
	}
	for _, n := range cmpNames {
		f.Add("**/*", n)
	}
	f.Fuzz(func(t *testing.T, p, name string) {
		if len(p) > 24 || len(name) > 24 {
			return
		}
		g, err := Compile(p)
		if err != nil {
			if doublestar.ValidatePattern(p) && len(p) <= MaxLen && countAlternatives(p) <= MaxAlternatives {
				t.Fatalf("Compile(%q): %v", p, err)
			}
			return
		}
		// doublestar.Match may report a valid pattern bad when it gives
		// up inside a class; its callers took that as no match
		want, _ := doublestar.Match(p, name)
		if got := g.Match(name); got != want && !orderDependent(p) {
			t.Fatalf("Match(%q, %q) = %v, doublestar says %v", p, name, got, want)
		}
	})
}

// orderDependent tells whether a brace expansion of p ends in "**/".
func orderDependent(p string) bool {
	for _, a := range expand(p, nil, nil) {
		if strings.HasSuffix(a.text, "**/") {
			return true
		}
	}
	return false
}

// typical are globs as the project's call sites see them, with a name of
// each kind; a mismatch and a match each.
var typical = []struct{ pattern, hit, miss string }{
	{"enumdrift/*", "enumdrift/legacy-status", "divergence/duplicate-logic"},
	{"msgcheck/*-words", "msgcheck/delegate-scope-words", "msgcheck/handback-status-enum"},
	{"**/*_test.go", "internal/scan/walk/walk_test.go", "internal/scan/walk/walk.go"},
	{"vendor/**", "vendor/github.com/x/y.go", "internal/vendor.go"},
	{"docs/**/*.md", "docs/specs/a/b.md", "docs/specs/a/b.yaml"},
	{"tests/**/fixtures/*.{yaml,yml,json}", "tests/a/b/fixtures/h.yml", "tests/a/b/fixtures/h.py"},
}

func BenchmarkMatch(b *testing.B) {
	for _, tt := range typical {
		g := MustCompile(tt.pattern)
		b.Run("glob/"+tt.pattern, func(b *testing.B) {
			for b.Loop() {
				g.Match(tt.hit)
				g.Match(tt.miss)
			}
		})
		b.Run("doublestar/"+tt.pattern, func(b *testing.B) {
			for b.Loop() {
				doublestar.MatchUnvalidated(tt.pattern, tt.hit)
				doublestar.MatchUnvalidated(tt.pattern, tt.miss)
			}
		})
	}
}

func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		for _, tt := range typical {
			MustCompile(tt.pattern)
		}
	}
}
