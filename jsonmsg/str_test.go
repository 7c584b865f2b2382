package jsonmsg_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/jsonmsg"
)

// strPieces are what the strings of TestStringPieces are made of: ASCII,
// runes of two to four bytes, the separators and letters of the corpus,
// escapes, control bytes, and UTF-8 that is invalid in each of its ways
// (cut off, overlong, surrogate, too large, a stray continuation, a lead
// without one).
var strPieces = []string{
	"a", "word ", "x", " ", "é", "ü", "—", "日本語", "😀", "\u00a0", "\u2009", "\ufeff", "\u0085", "\x7f",
	`\"`, `\\`, `\n`, `\u00e9`, "\t", "\x01", "\x1f",
	"\xc3", "\xc3(", "\xe2\x80", "\xf0\x9f\x98", "\xc0\xaf", "\xe0\x80\xaf", "\xf0\x80\x80\xaf", "\xed\xa0\x80",
	"\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\x80", "\xbf\xbf", "\xff", "\xfe",
}

// TestStringPieces holds the string scan (eight bytes at a time, then
// byte by byte) to encoding/json on strings whose pieces fall at every
// offset of the eight-byte words, valid and not.
func TestStringPieces(t *testing.T) {
	var d jsonmsg.Decoder
	check := func(body string) {
		t.Helper()
		compare(t, &d, []byte(`{"s": "`+body+`", "next": "more text after the string"}`))
	}
	for _, p := range strPieces {
		for at := 0; at < 24; at++ {
			check(strings.Repeat("b", at) + p + strings.Repeat("c", 20))
			check(strings.Repeat("é", at/2) + strings.Repeat("b", at%2) + p + strings.Repeat("ü", 10))
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		var b strings.Builder
		for range r.IntN(60) {
			if r.IntN(4) == 0 {
				b.WriteString(strPieces[r.IntN(len(strPieces))])
			} else {
				b.WriteString(strPieces[r.IntN(14)]) // valid, mostly
			}
		}
		check(b.String())
	}
}
