package msgcheck_test

import (
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// TestLengthCountsRunes: minLength and maxLength count runes, also where
// the byte length alone would say otherwise (str counts the runes only
// when the bytes leave the bounds in doubt).
func TestLengthCountsRunes(t *testing.T) {
	sp, err := msgcheck.ParseSpec("len.yaml", []byte(`version: "1"
k:
  signature: [a]
  core_fields:
    a: {type: string}
    lo: {type: string, minLength: 3}
    hi: {type: string, maxLength: 3}
    huge: {type: string, minLength: 4611686018427387904}
`))
	if err != nil {
		t.Fatal(err)
	}
	v := newValidator(t, "", sp)
	for _, c := range []struct {
		field, value string
		valid        bool
	}{
		{"lo", "abc", true}, {"lo", "ab", false},
		{"lo", "éé", false},   // 4 bytes, 2 runes
		{"lo", "aé", false},   // 3 bytes, 2 runes: a non-ASCII byte in the first 3
		{"lo", "abé", true},   // 4 bytes, 3 runes: the first 3 bytes are not all ASCII
		{"lo", "abcé", true},  // the first 3 bytes ASCII: 3 runes at least
		{"lo", "ééé", true},   // 6 bytes, 3 runes
		{"lo", "🎉🎉", false},   // 8 bytes, 2 runes
		{"lo", "🎉🎉🎉", true},   // 12 bytes
		{"hi", "ééé", true},   // 6 bytes, 3 runes
		{"hi", "éééé", false}, // 4 runes
		{"hi", "abcd", false}, // 4 bytes
		{"huge", strings.Repeat("x", 64), false},
	} {
		res := v.Validate("k", map[string]any{"a": "x", c.field: c.value})
		if res.Valid != c.valid {
			t.Errorf("%s %q: valid %v, want %v (%v)", c.field, c.value, res.Valid, c.valid, res.Errors)
		}
	}
}
