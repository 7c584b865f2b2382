package walk

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The expectations are those of git's own wildmatch test suite
// (t/t3070-wildmatch.sh, the case-sensitive WM_PATHNAME column).
var wildmatchCases = []struct {
	match         bool
	text, pattern string
}{
	// Basic features.
	{true, "foo", "foo"},
	{false, "foo", "bar"},
	{true, "", ""},
	{true, "foo", "???"},
	{false, "foo", "??"},
	{true, "foo", "*"},
	{true, "foo", "f*"},
	{false, "foo", "*f"},
	{true, "foo", "*foo*"},
	{true, "foobar", "*ob*a*r*"},
	{true, "aaaaaaabababab", "*ab"},
	{true, "foo*", `foo\*`},
	{false, "foobar", `foo\*bar`},
	{true, `f\oo`, `f\\oo`},
	{true, "ball", "*[al]?"},
	{false, "ten", "[ten]"},
	{true, "ten", "**[!te]"},
	{false, "ten", "**[!ten]"},
	{true, "ten", "t[a-g]n"},
	{false, "ten", "t[!a-g]n"},
	{true, "ton", "t[!a-g]n"},
	{true, "ton", "t[^a-g]n"},
	{true, "a]b", "a[]]b"},
	{true, "a-b", "a[]-]b"},
	{true, "a]b", "a[]-]b"},
	{false, "aab", "a[]-]b"},
	{true, "aab", "a[]a-]b"},
	{true, "]", "]"},

	// Slashes and "**".
	{false, "foo/baz/bar", "foo*bar"},
	{false, "foo/baz/bar", "foo**bar"},
	{true, "foobazbar", "foo**bar"},
	{true, "foo/baz/bar", "foo/**/bar"},
	{true, "foo/baz/bar", "foo/**/**/bar"},
	{true, "foo/b/a/z/bar", "foo/**/bar"},
	{true, "foo/b/a/z/bar", "foo/**/**/bar"},
	{true, "foo/bar", "foo/**/bar"},
	{true, "foo/bar", "foo/**/**/bar"},
	{false, "foo/bar", "foo?bar"},
	{false, "foo/bar", "foo[/]bar"},
	{false, "foo/bar", "foo[^a-z]bar"},
	{false, "foo/bar", "f[^eiu][^eiu][^eiu][^eiu][^eiu]r"},
	{true, "foo-bar", "f[^eiu][^eiu][^eiu][^eiu][^eiu]r"},
	{true, "foo", "**/foo"},
	{true, "XXX/foo", "**/foo"},
	{true, "bar/baz/foo", "**/foo"},
	{false, "bar/baz/foo", "*/foo"},
	{false, "foo/bar/baz", "**/bar*"},
	{true, "deep/foo/bar/baz", "**/bar/*"},
	{false, "deep/foo/bar/baz/", "**/bar/*"},
	{true, "deep/foo/bar/baz/", "**/bar/**"},
	{false, "deep/foo/bar", "**/bar/*"},
	{true, "deep/foo/bar/", "**/bar/**"},
	{false, "foo/bar/baz", "**/bar**"},
	{true, "foo/bar/baz/x", "*/bar/**"},
	{false, "deep/foo/bar/baz/x", "*/bar/**"},
	{true, "deep/foo/bar/baz/x", "**/bar/*/*"},

	// Various.
	{false, "acrt", "a[c-c]st"},
	{true, "acrt", "a[c-c]rt"},
	{false, "]", "[!]-]"},
	{true, "a", "[!]-]"},
	{false, "", `\`},
	{false, `\`, `\`},
	{false, `XXX/\`, `*/\`},
	{true, `XXX/\`, `*/\\`},
	{true, "@foo", "@foo"},
	{false, "foo", "@foo"},
	{true, "[ab]", `\[ab]`},
	{true, "[ab]", "[[]ab]"},
	{true, "[ab]", "[[:]ab]"},
	{false, "[ab]", "[[::]ab]"},
	{true, "[ab]", "[[:digit]ab]"},
	{true, "[ab]", `[\[:]ab]`},
	{true, "?a?b", `\??\?b`},
	{true, "abc", `\a\b\c`},
	{false, "foo", ""},
	{true, "foo/bar/baz/to", "**/t[o]"},

	// Character classes.
	{true, "a1B", "[[:alpha:]][[:digit:]][[:upper:]]"},
	{false, "a", "[[:digit:][:upper:][:space:]]"},
	{true, "A", "[[:digit:][:upper:][:space:]]"},
	{true, "1", "[[:digit:][:upper:][:space:]]"},
	{false, "1", "[[:digit:][:upper:][:spaci:]]"},
	{true, " ", "[[:digit:][:upper:][:space:]]"},
	{false, ".", "[[:digit:][:upper:][:space:]]"},
	{true, ".", "[[:digit:][:punct:][:space:]]"},
	{true, "5", "[[:xdigit:]]"},
	{true, "f", "[[:xdigit:]]"},
	{true, "D", "[[:xdigit:]]"},
	{true, "_", "[[:alnum:][:alpha:][:blank:][:cntrl:][:digit:][:graph:][:lower:][:print:][:punct:][:space:][:upper:][:xdigit:]]"},
	{true, ".", "[^[:alnum:][:alpha:][:blank:][:cntrl:][:digit:][:lower:][:space:][:upper:][:xdigit:]]"},
	{true, "5", "[a-c[:digit:]x-z]"},
	{true, "b", "[a-c[:digit:]x-z]"},
	{true, "y", "[a-c[:digit:]x-z]"},
	{false, "q", "[a-c[:digit:]x-z]"},

	// Malformed and odd classes.
	{true, "]", `[\\-^]`},
	{false, "[", `[\\-^]`},
	{true, "-", `[\-_]`},
	{true, "]", `[\]]`},
	{false, `\]`, `[\]]`},
	{false, `\`, `[\]]`},
	{false, "ab", "a[]b"},
	{false, "a[]b", "a[]b"},
	{false, "ab[", "ab["},
	{false, "ab", "[!"},
	{false, "ab", "[-"},
	{true, "-", "[-]"},
	{false, "-", "[a-"},
	{false, "-", "[!a-"},
	{true, "-", "[--A]"},
	{true, "5", "[--A]"},
	{true, " ", "[ --]"},
	{true, "$", "[ --]"},
	{true, "-", "[ --]"},
	{false, "0", "[ --]"},
	{true, "-", "[---]"},
	{true, "-", "[------]"},
	{false, "j", "[a-e-n]"},
	{true, "-", "[a-e-n]"},
	{true, "a", "[!------]"},
	{false, "[", "[]-a]"},
	{true, "^", "[]-a]"},
	{false, "^", "[!]-a]"},
	{true, "[", "[!]-a]"},
	{true, "^", "[a^bc]"},
	{true, "-b]", "[a-]b]"},
	{false, `\`, `[\]`},
	{true, `\`, `[\\]`},
	{false, `\`, `[!\\]`},
	{true, "G", `[A-\\]`},
	{false, "aaabbb", "b*a"},
	{false, "aabcaa", "*ba*"},
	{true, ",", "[,]"},
	{true, ",", `[\\,]`},
	{true, `\`, `[\\,]`},
	{true, "-", "[,-.]"},
	{false, "+", "[,-.]"},
	{false, "-.]", "[,-.]"},
	{true, "2", `[\1-\3]`},
	{true, "3", `[\1-\3]`},
	{false, "4", `[\1-\3]`},
	{true, `\`, `[[-\]]`},
	{true, "[", `[[-\]]`},
	{true, "]", `[[-\]]`},
	{false, "-", `[[-\]]`},

	// Recursion.
	{true, "-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1", "-*-*-*-*-*-*-12-*-*-*-m-*-*-*"},
	{false, "-adobe-courier-bold-o-normal--12-120-75-75-X-70-iso8859-1", "-*-*-*-*-*-*-12-*-*-*-m-*-*-*"},
	{false, "-adobe-courier-bold-o-normal--12-120-75-75-/-70-iso8859-1", "-*-*-*-*-*-*-12-*-*-*-m-*-*-*"},
	{true, "XXX/adobe/courier/bold/o/normal//12/120/75/75/m/70/iso8859/1", "XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*"},
	{false, "XXX/adobe/courier/bold/o/normal//12/120/75/75/X/70/iso8859/1", "XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*"},
	{true, "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt", "**/*a*b*g*n*t"},
	{false, "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", "**/*a*b*g*n*t"},
	{false, "foo", "*/*/*"},
	{false, "foo/bar", "*/*/*"},
	{true, "foo/bba/arr", "*/*/*"},
	{false, "foo/bb/aa/rr", "*/*/*"},
	{true, "foo/bb/aa/rr", "**/**/**"},
	{true, "abcXdefXghi", "*X*i"},
	{false, "ab/cXd/efXg/hi", "*X*i"},
	{true, "ab/cXd/efXg/hi", "*/*X*/*/*i"},
	{true, "ab/cXd/efXg/hi", "**/*X*/**/*i"},

	// Paths.
	{false, "foo", "fo"},
	{true, "foo/bar", "foo/bar"},
	{true, "foo/bar", "foo/*"},
	{false, "foo/bba/arr", "foo/*"},
	{true, "foo/bba/arr", "foo/**"},
	{false, "foo/bba/arr", "foo*"},
	{false, "foo/bba/arr", "foo**"},
	{false, "foo/bba/arr", "foo/*arr"},
	{false, "foo/bba/arr", "foo/**arr"},
	{false, "foo/bba/arr", "foo/*z"},
	{false, "foo/bba/arr", "foo/**z"},
	{false, "ab/cXd/efXg/hi", "*Xg*i"},

	// Case sensitivity.
	{false, "a", "[A-Z]"},
	{true, "A", "[A-Z]"},
	{false, "A", "[a-z]"},
	{true, "a", "[a-z]"},
	{false, "a", "[[:upper:]]"},
	{true, "A", "[[:upper:]]"},
	{false, "A", "[[:lower:]]"},
	{true, "a", "[[:lower:]]"},
	{false, "A", "[B-Za]"},
	{true, "a", "[B-Za]"},
	{false, "A", "[B-a]"},
	{true, "a", "[B-a]"},
	{false, "z", "[Z-y]"},
	{true, "Z", "[Z-y]"},

	// Cases where go-git's matcher (considered and rejected) differs from git.
	{true, "x/a/c/a/b", "**/a/b"},
	{true, "bx", "[!a]x"},
	{false, "ax", "[!a]x"},
	{false, "a", "a/**"},
	{true, "a/b", "a/**"},
}

func TestWildmatchGitVectors(t *testing.T) {
	for _, c := range wildmatchCases {
		if got := wildmatch(c.pattern, c.text); got != c.match {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", c.pattern, c.text, got, c.match)
		}
		if got := unpruned(c.pattern, c.text) == wmMatch; got != c.match {
			t.Errorf("unpruned dowild(%q, %q) = %v, want %v", c.pattern, c.text, got, c.match)
		}
	}
}

// The pruning that keeps hostile patterns fast must never change a result:
// compare with git's unpruned algorithm on many small random inputs.
func TestWildmatchPruningKeepsGitResults(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "b", "/", "*", "**", "**/", "/**", "?", "[ab]", "[!a]", `\*`, "[/]", "["}
	textChars := "ab/*"
	n := 200000
	if testing.Short() {
		n = 20000
	}
	for i := 0; i < n; i++ {
		var pb strings.Builder
		for k := rng.IntN(7); k >= 0; k-- {
			pb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		tb := make([]byte, rng.IntN(9))
		for k := range tb {
			tb[k] = textChars[rng.IntN(len(textChars))]
		}
		p, text := pb.String(), string(tb)
		got, want := wildmatch(p, text), unpruned(p, text) == wmMatch
		if got != want {
			t.Fatalf("pattern %q text %q: pruned %v, git %v", p, text, got, want)
		}
	}
}

// unpruned runs git's algorithm as git does, without the pruning.
func unpruned(p, text string) int {
	w := wild{}
	return w.dowild(p, text)
}

// Hostile patterns must not take exponential time: git's ABORT results,
// and the pruning, cut the backtracking to at most a call per byte of
// pattern and text (4,001 at most here; without them, a number of calls
// exponential in the pattern's stars).
func TestWildmatchPathologicalIsFast(t *testing.T) {
	text := strings.Repeat("a", 4000)
	patterns := []string{
		strings.Repeat("*a", 200) + "b",
		strings.Repeat("**/", 100) + "b",
		strings.Repeat("a*", 300) + "[b]",
		"**" + strings.Repeat("/**", 100) + "/b",
		strings.Repeat("**/a/", 50) + "b",
		strings.Repeat("*/**/", 60) + "b",
		strings.Repeat("a/**/", 60) + "b",
	}
	for _, p := range patterns {
		for _, text := range []string{text, strings.Repeat("a/", 1000) + "c"} {
			w := wild{prune: true}
			if w.dowild(p, text) == wmMatch {
				t.Errorf("pattern of length %d unexpectedly matched %.10q...", len(p), text)
			}
			if w.calls > len(p)+len(text) {
				t.Errorf("pattern of length %d on %.10q... (%d bytes): %d calls, want at most %d", len(p), text, len(text), w.calls, len(p)+len(text))
			}
		}
	}
}

func FuzzWildmatch(f *testing.F) {
	for _, c := range wildmatchCases {
		f.Add(c.pattern, c.text)
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		got := wildmatch(pattern, text)
		// A pattern without glob characters matches only itself.
		if !strings.ContainsAny(pattern, `*?[\`) && got != (pattern == text) {
			t.Fatalf("literal %q vs %q: got %v", pattern, text, got)
		}
		// Pruning never changes git's result (bounded: unpruned git is
		// exponential on long patterns).
		if len(pattern) <= 24 && len(text) <= 24 && got != (unpruned(pattern, text) == wmMatch) {
			t.Fatalf("pattern %q text %q: pruned %v differs from git", pattern, text, got)
		}
		// "**" matches every path.
		if !wildmatch("**", text) {
			t.Fatalf(`"**" does not match %q`, text)
		}
	})
}
