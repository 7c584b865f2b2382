package jsonmsg

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// scanPieces are what the strings of TestScanStringAgrees are made of:
// ASCII, runes of two to four bytes, the separators and letters of the
// corpus, escapes, control bytes, and UTF-8 that is invalid in each of
// the ways the lookups tell apart (cut off, overlong, surrogate, too
// large, a stray continuation, a lead without one).
var scanPieces = []string{
	"a", "word ", "x", " ", "é", "ü", "—", "日本語", "😀", "\u00a0", "\u2009", "\ufeff", "\u0085", "\x7f",
	`\"`, `\\`, `\n`, `\u00e9`, "\t", "\x01", "\x1f",
	"\xc3", "\xc3(", "\xe2\x80", "\xf0\x9f\x98", "\xc0\xaf", "\xe0\x80\xaf", "\xf0\x80\x80\xaf", "\xed\xa0\x80",
	"\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\x80", "\xbf\xbf", "\xff", "\xfe",
}

// strWith runs str on a string with the vector scan on or off.
func strWith(vector bool, s string) (string, int) {
	old := scanAVX2
	scanAVX2 = vector
	defer func() { scanAVX2 = old }()
	var d Decoder
	d.s = s
	v, next := d.str(0)
	return strings.Clone(v), next
}

// TestScanStringAgrees holds str with the vector scan to str without it,
// on long strings whose pieces fall at every offset of the 32-byte
// blocks, valid and not.
func TestScanStringAgrees(t *testing.T) {
	if !scanAVX2 {
		t.Skip("no AVX2 here")
	}
	r := rand.New(rand.NewPCG(3, 4))
	check := func(body string) {
		t.Helper()
		for _, tail := range []string{`"`, `", "next": "more text after the string to keep blocks whole"}`} {
			s := `"` + body + tail
			gv, gn := strWith(true, s)
			wv, wn := strWith(false, s)
			if gv != wv || gn != wn {
				t.Fatalf("str(%q): vector %q, %d; eight bytes %q, %d", s, gv, gn, wv, wn)
			}
		}
	}
	for _, p := range scanPieces {
		for at := 0; at < 80; at++ {
			check(strings.Repeat("b", at) + p + strings.Repeat("c", 40))
			check(strings.Repeat("é", at/2) + strings.Repeat("b", at%2) + p + strings.Repeat("ü", 20))
		}
	}
	for range 20000 {
		var b strings.Builder
		for range r.IntN(60) {
			if r.IntN(4) == 0 {
				b.WriteString(scanPieces[r.IntN(len(scanPieces))])
			} else {
				b.WriteString(scanPieces[r.IntN(14)]) // valid, mostly
			}
		}
		check(b.String())
	}
}

// TestScanStringTakes checks what scanString takes: no stop byte, and
// valid UTF-8 once a cut-off sequence is backed off.
func TestScanStringTakes(t *testing.T) {
	if !scanAVX2 {
		t.Skip("no AVX2 here")
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var b strings.Builder
		for b.Len() < 40+r.IntN(200) {
			b.WriteString(scanPieces[r.IntN(len(scanPieces))])
		}
		s := b.String()
		n := scanString(&[]byte(s)[0], len(s))
		j := cutRune(s, 0, n)
		if n > len(s) || j < n-3 || strings.ContainsAny(s[:j], "\"\\") || !utf8.ValidString(s[:j]) {
			t.Fatalf("scanString(%q) took %d (%d after cutRune): %q", s, n, j, s[:min(n, len(s))])
		}
		for _, c := range []byte(s[:j]) {
			if c < 0x20 {
				t.Fatalf("scanString(%q) took a control byte", s)
			}
		}
	}
}

func FuzzScanString(f *testing.F) {
	for _, p := range scanPieces {
		f.Add(strings.Repeat("abcdefgh", 5) + p + strings.Repeat("é", 20))
	}
	f.Fuzz(func(t *testing.T, body string) {
		if !scanAVX2 {
			t.Skip("no AVX2 here")
		}
		s := `"` + body + `"` + strings.Repeat(" ", 32)
		gv, gn := strWith(true, s)
		wv, wn := strWith(false, s)
		if gv != wv || gn != wn {
			t.Fatalf("str(%q): vector %q, %d; eight bytes %q, %d", s, gv, gn, wv, wn)
		}
	})
}
