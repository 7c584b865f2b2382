package jsonmsg_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/protoscan-dev/protoscan/jsonmsg"
)

func TestDecodeValid(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{`null`, nil},
		{` true `, true},
		{"\t\r\nfalse\n", false},
		{`0`, 0.0},
		{`-0`, 0.0},
		{`12345`, 12345.0},
		{`-7.25`, -7.25},
		{`0.92`, 0.92},
		{`1e3`, 1000.0},
		{`1E+3`, 1000.0},
		{`25e-1`, 2.5},
		{`123456789012345678901234567890`, 123456789012345678901234567890.0},
		{`0.1e-400`, 0.0}, // underflow is not an error for ParseFloat
		{`""`, ""},
		{`"a\"b\\c\/d\b\f\n\r\t"`, "a\"b\\c/d\b\f\n\r\t"},
		{`"\u00e9\u2014\uD834\uDD1E"`, "é—𝄞"},
		{`"\uD834"`, "\uFFFD"},
		{`"\uD834x"`, "\uFFFDx"},
		{`"\uDD1E\uD834"`, "\uFFFD\uFFFD"},
		{`"\uD834\u0041"`, "\uFFFDA"},
		{"\"h\xffi\"", "h\uFFFDi"},
		{"\"\xed\xa0\x80\"", "\uFFFD\uFFFD\uFFFD"},
		{"\"caf\xc3\xa9 \x7f\"", "café \x7f"},
		{`[]`, []any{}},
		{`{}`, map[string]any{}},
		{`[1, "a", [true], {"k": null}]`, []any{1.0, "a", []any{true}, map[string]any{"k": nil}}},
		{`{"a": 1, "b": {"c": [2, 3]}, "a": 4}`, map[string]any{"a": 4.0, "b": map[string]any{"c": []any{2.0, 3.0}}}},
		{`{"k\u00e9y": "v"}`, map[string]any{"kéy": "v"}},
	}
	var d jsonmsg.Decoder
	for _, tt := range tests {
		got, err := d.Decode([]byte(tt.in))
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Decode(%q) = %#v, %v; want %#v", tt.in, got, err, tt.want)
		}
	}
}

func TestDecodeInvalid(t *testing.T) {
	tests := []struct{ in, err string }{
		{``, "offset 0: unexpected end of JSON input"},
		{`   `, "offset 3: unexpected end of JSON input"},
		{`{"a": 1,}`, `offset 8: invalid character '}' looking for beginning of object key string`},
		{`[1, 2,]`, "offset 6: invalid character ']' looking for beginning of value"},
		{`{x: 1}`, "offset 1: invalid character 'x' looking for beginning of object key string"},
		{`{"a" 1}`, "offset 5: invalid character '1' after object key"},
		{`{"a": 1 "b": 2}`, `offset 8: invalid character '"' after object key:value pair`},
		{`[1 2]`, "offset 3: invalid character '2' after array element"},
		{`01`, "offset 1: invalid character '1' after top-level value"},
		{`[-01]`, "offset 3: invalid character '1' after array element"},
		{`-`, "offset 1: unexpected end of JSON input"},
		{`-a`, "offset 1: invalid character 'a' in numeric literal"},
		{`+1`, "offset 0: invalid character '+' looking for beginning of value"},
		{`.5`, "offset 0: invalid character '.' looking for beginning of value"},
		{`1.`, "offset 2: unexpected end of JSON input"},
		{`1.x`, "offset 2: invalid character 'x' after decimal point in numeric literal"},
		{`1e`, "offset 2: unexpected end of JSON input"},
		{`1e+x`, "offset 3: invalid character 'x' in exponent of numeric literal"},
		{`1e400`, "offset 0: number 1e400 out of range"},
		{`[1, -2e999]`, "offset 4: number -2e999 out of range"},
		{`tru`, "offset 3: unexpected end of JSON input"},
		{`trUe`, "offset 2: invalid character 'U' in literal true (expecting 'u')"},
		{`nul1`, "offset 3: invalid character '1' in literal null (expecting 'l')"},
		{`truex`, "offset 4: invalid character 'x' after top-level value"},
		{`{} {}`, "offset 3: invalid character '{' after top-level value"},
		{`"abc`, "offset 4: unexpected end of JSON input"},
		{"\"a\tb\"", `offset 2: invalid character '\t' in string literal`},
		{"\"a\x00\"", `offset 2: invalid character '\x00' in string literal`},
		{`"a\x"`, "offset 3: invalid character 'x' in string escape code"},
		{`"a\'"`, `offset 3: invalid character '\'' in string escape code`},
		{`"\u12g4"`, "offset 5: invalid character 'g' in \\u hexadecimal character escape"},
		{`"\uD834\u12"`, `offset 11: invalid character '"' in \u hexadecimal character escape`},
		{`"\u12`, "offset 5: unexpected end of JSON input"},
		{`"a\`, "offset 3: unexpected end of JSON input"},
		{"\"\xff\\q\"", "offset 3: invalid character 'q' in string escape code"},
		{`{"a":`, "offset 5: unexpected end of JSON input"},
		{`{"a"`, "offset 4: unexpected end of JSON input"},
		{`[`, "offset 1: unexpected end of JSON input"},
		{`[1`, "offset 2: unexpected end of JSON input"},
		{"\xef\xbb\xbf{}", `offset 0: invalid character 'ï' looking for beginning of value`},
		{strings.Repeat("[", jsonmsg.MaxDepth+1), fmt.Sprintf("offset %d: nesting too deep", jsonmsg.MaxDepth)},
	}
	var d jsonmsg.Decoder
	for _, tt := range tests {
		got, err := d.Decode([]byte(tt.in))
		if err == nil || err.Error() != tt.err {
			t.Errorf("Decode(%.40q) = %v, %v; want error %q", tt.in, got, err, tt.err)
			continue
		}
		var se *jsonmsg.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Decode(%.40q): error %T, want *SyntaxError", tt.in, err)
		}
		if json.Valid([]byte(tt.in)) && !strings.Contains(tt.err, "out of range") {
			t.Errorf("%.40q is valid JSON for encoding/json", tt.in)
		}
	}
	// the decoder is still usable after errors
	if v, err := d.Decode([]byte(`{"ok": [true]}`)); err != nil || !reflect.DeepEqual(v, map[string]any{"ok": []any{true}}) {
		t.Errorf("after errors: %v, %v", v, err)
	}
}

// compare checks Decode against encoding/json's Unmarshal into any: the
// same value, or both an error.
func compare(t *testing.T, d *jsonmsg.Decoder, data []byte) {
	t.Helper()
	got, err := d.Decode(data)
	var want any
	werr := json.Unmarshal(data, &want)
	if (err != nil) != (werr != nil) {
		t.Fatalf("input %.200q: jsonmsg error %v, encoding/json error %v", data, err, werr)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("input %.200q:\n jsonmsg       %#v\n encoding/json %#v", data, got, want)
	}
	// the tape reads the same grammar with the same errors, and holds
	// the same value (one tape reused across inputs, as the audit does)
	terr := sharedTape.Parse(string(data))
	if (terr == nil) != (err == nil) || err != nil && terr.Error() != err.Error() {
		t.Fatalf("input %.200q: Tape error %v, Decode error %v", data, terr, err)
	}
	if err == nil {
		if tv := sharedTape.Value(0); !reflect.DeepEqual(tv, want) {
			t.Fatalf("input %.200q:\n tape          %#v\n encoding/json %#v", data, tv, want)
		}
	}
	compareUnique(t, data, err)
	compareStrict(t, data, got, err)
}

var uniqueTape = jsonmsg.Tape{UniqueKeys: true}

// compareUnique checks UniqueKeys against the tape sharedTape holds for
// data (err its error): the same error where that one fails, else a
// duplicate key error exactly when an object of the tape names a key
// twice.
func compareUnique(t *testing.T, data []byte, err error) {
	t.Helper()
	uerr := uniqueTape.Parse(string(data))
	if err != nil {
		if uerr == nil || uerr.Error() != err.Error() && !strings.Contains(uerr.Error(), ": duplicate key ") {
			t.Fatalf("input %.200q: UniqueKeys error %v, Tape error %v", data, uerr, err)
		}
		return
	}
	dup := false
	for i, tok := range sharedTape.Toks {
		if tok.Kind != jsonmsg.Object {
			continue
		}
		seen := map[string]bool{}
		for j := i + 1; j < int(tok.Next); j = int(sharedTape.Toks[j+1].Next) {
			dup = dup || seen[sharedTape.Toks[j].Str]
			seen[sharedTape.Toks[j].Str] = true
		}
	}
	if (uerr != nil) != dup || uerr != nil && !strings.Contains(uerr.Error(), ": duplicate key ") {
		t.Fatalf("input %.200q: UniqueKeys error %v, want a duplicate key error: %v", data, uerr, dup)
	}
}

func TestTapeUniqueKeys(t *testing.T) {
	many := func(dup string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range 100 {
			fmt.Fprintf(&b, `"k%d":%d,`, i, i)
		}
		b.WriteString(`"` + dup + `":0}`)
		return b.String()
	}
	tests := []struct{ in, err string }{
		{`{"a":1,"a":2}`, `offset 7: duplicate key "a"`},
		{`{"a":1,"\u0061":2}`, `offset 7: duplicate key "a"`},
		{`{"x":[{"k":1,"k":2}]}`, `offset 13: duplicate key "k"`},
		{`{"":1,"b":{},"":2}`, `offset 13: duplicate key ""`},
		{`{"ab":1,"ac":2,"ad":3,"ab":4}`, `offset 22: duplicate key "ab"`},
		{many("k3"), `offset 881: duplicate key "k3"`},
		{many("k99"), `offset 881: duplicate key "k99"`},
		{many("k100"), ""},
		{`{"a":{"a":1},"b":{"a":2},"ab":1,"ac":2}`, ""},
		{`[{"a":1},{"a":2}]`, ""},
	}
	for _, tt := range tests {
		var lenient jsonmsg.Tape
		if err := lenient.Parse(tt.in); err != nil {
			t.Errorf("Parse(%.40q) without UniqueKeys: %v", tt.in, err)
		}
		err := uniqueTape.Parse(tt.in)
		if got := fmt.Sprint(err); tt.err == "" && err != nil || tt.err != "" && got != tt.err {
			t.Errorf("Parse(%.40q) = %v, want %q", tt.in, err, tt.err)
		}
	}
	// thousands of keys cost work in their number, not its square: keys
	// are compared one by one only until there are ManyKeys of them (by
	// pairs, 5,000 keys would be 12.5 million comparisons)
	var b strings.Builder
	b.WriteString("{")
	for i := range 5_000 {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	b.WriteString(`"k0":0}`)
	tape := jsonmsg.Tape{UniqueKeys: true}
	if err := tape.Parse(b.String()); err == nil || !strings.HasSuffix(err.Error(), `duplicate key "k0"`) {
		t.Errorf("5,000 keys and a duplicate: %v", err)
	}
	if n := tape.Compared(); n > jsonmsg.ManyKeys*jsonmsg.ManyKeys {
		t.Errorf("5,000 keys: %d keys compared, want at most %d", n, jsonmsg.ManyKeys*jsonmsg.ManyKeys)
	}
}

var sharedTape jsonmsg.Tape

var strictDecoder = jsonmsg.Decoder{StrictUTF8: true}
var strictTape = jsonmsg.Tape{StrictUTF8: true}

// compareStrict checks StrictUTF8 against the lenient decoding of data
// (value, err): outside strings a byte of 0x80 or more is a syntax error
// anyway, so where the lenient decoding succeeds the strict one must
// fail exactly when data is not valid UTF-8, at the start of an invalid
// sequence, and otherwise give the same value; where it fails, the
// strict one fails with the same error.
func compareStrict(t *testing.T, data []byte, value any, err error) {
	t.Helper()
	got, serr := strictDecoder.Decode(data)
	if terr := strictTape.Parse(string(data)); (terr == nil) != (serr == nil) || serr != nil && terr.Error() != serr.Error() {
		t.Fatalf("input %.200q: strict Tape error %v, strict Decode error %v", data, terr, serr)
	}
	var se *jsonmsg.SyntaxError
	switch {
	case err != nil:
		// the same error, or invalid UTF-8 found before it
		var le *jsonmsg.SyntaxError
		errors.As(err, &le)
		if !errors.As(serr, &se) || serr.Error() != err.Error() &&
			(se.Msg != "invalid UTF-8 in string literal" || se.Offset > le.Offset) {
			t.Fatalf("input %.200q: strict error %v, lenient error %v", data, serr, err)
		}
		if se.Msg == "invalid UTF-8 in string literal" {
			if r, size := utf8.DecodeRune(data[se.Offset:]); r != utf8.RuneError || size != 1 {
				t.Fatalf("input %.200q: invalid UTF-8 reported at offset %d, where there is none", data, se.Offset)
			}
		}
	case utf8.Valid(data):
		if serr != nil || !reflect.DeepEqual(got, value) {
			t.Fatalf("input %.200q: strict %#v, %v; lenient %#v", data, got, serr, value)
		}
	default:
		if !errors.As(serr, &se) || se.Msg != "invalid UTF-8 in string literal" {
			t.Fatalf("input %.200q (not UTF-8): strict error %v, want invalid UTF-8", data, serr)
		}
		if r, size := utf8.DecodeRune(data[se.Offset:]); r != utf8.RuneError || size != 1 || !utf8.Valid(data[:se.Offset]) {
			t.Fatalf("input %.200q: invalid UTF-8 reported at offset %d, not the first bad byte", data, se.Offset)
		}
	}
}

func TestStrictUTF8(t *testing.T) {
	tests := []struct{ in, err string }{
		{"\"\xff\"", "offset 1: invalid UTF-8 in string literal"},
		{"{\"status\":\"succ\xffess\"}", "offset 15: invalid UTF-8 in string literal"},
		{"{\"k\xc3\":1}", "offset 3: invalid UTF-8 in string literal"},                                             // a cut two-byte rune in a key
		{"[\"a\\n\xed\xa0\x80\"]", "offset 5: invalid UTF-8 in string literal"},                                    // an encoded surrogate, after an escape
		{`"` + strings.Repeat("abcdefgh", 8) + "\xf4\x90\x80\x80\"", "offset 65: invalid UTF-8 in string literal"}, // past U+10FFFF, in the vector scan's reach
		{"\"\\ud800\"", ""}, // a lone surrogate escape is valid JSON
		{"\"é — 😀\u00a0\"", ""},
	}
	for _, tt := range tests {
		var d jsonmsg.Decoder
		if _, err := d.Decode([]byte(tt.in)); err != nil {
			t.Errorf("lenient Decode(%q): %v", tt.in, err)
		}
		d.StrictUTF8 = true
		_, err := d.Decode([]byte(tt.in))
		if got := fmt.Sprint(err); tt.err == "" && err != nil || tt.err != "" && got != tt.err {
			t.Errorf("strict Decode(%q) = %v, want %q", tt.in, err, tt.err)
		}
		tape := jsonmsg.Tape{StrictUTF8: true}
		if terr := tape.Parse(tt.in); fmt.Sprint(terr) != fmt.Sprint(err) {
			t.Errorf("strict Tape.Parse(%q) = %v, want %v", tt.in, terr, err)
		}
	}
}

// differentialInputs are hand-written inputs, valid and not, on the edges
// of the grammar.
var differentialInputs = []string{
	`{"task_id":"feature-x-001","status":"success","metrics":{"quality":0.92,"tokens":15234,"cost":0.41}}`,
	`{"a":1,"a":2,"a":{"b":3}}`, `{"":""}`, `[[],[[]],{}]`, `[1,]`, `{,}`, `[,1]`, `{"a":1,,"b":2}`,
	`0`, `-0`, `-0.0`, `00`, `0.`, `0e`, `0e0`, `1E-0`, `-1.5e+10`, `1.7976931348623157e308`, `1.8e308`,
	`4.9e-324`, `2.5e-324`, `1e-400`, `9007199254740993`, `123456789012345678`, `0.1`, `0.3`, `1e22`, `1e23`,
	`8.98846567431158e307`, `3.0000000000000004`, `[01]`, `[-]`, `[1e]`, `[1e+]`, `[.1]`, `[1.e1]`, `[NaN]`, `[Infinity]`,
	`"\u0000"`, `"\uFFFF"`, `"\uDBFF\uDFFF"`, `"\uDC00"`, `"\uD800\uD800"`, `"\uD800\"`, `"\uD800\u"`, `"\uD800\uDC0"`,
	"\"\x80\"", "\"\xc3\"", "\"\xc3(\"", "\"\xf0\x9f\x98\x80\"", "\"\xf4\x90\x80\x80\"", "\"\xc0\xaf\"", "\"\x7f\"",
	"\"\x1f\"", "\"\t\"", " \t\n\r[] \t\n\r", "\v[]", "[]\f", "\u00a0[]", `tru`, `true1`, `nulll`, `[true false]`,
	`{"a"}`, `{"a":}`, `{1:2}`, `{"a":1}}`, `[[]]]`, `"`, `"\`, `"\"`, `'a'`, `{"a":[{"b":[{"c":null}]}]}`,
}

func TestDifferentialHandWritten(t *testing.T) {
	var d jsonmsg.Decoder
	for _, in := range differentialInputs {
		compare(t, &d, []byte(in))
	}
	for _, bm := range benchMessages {
		compare(t, &d, []byte(bm.json))
	}
}

// genValue writes a random JSON value, sometimes with a defect.
func genValue(r *rand.Rand, b *strings.Builder, depth int) {
	switch n := r.IntN(10); {
	case n == 0 && depth < 6:
		b.WriteByte('{')
		for i, m := 0, r.IntN(5); i < m; i++ {
			if i > 0 {
				b.WriteString(pick(r, ",", ",", ",", ", ", " ,\n"))
			}
			genString(r, b)
			b.WriteString(pick(r, ":", ": ", " : "))
			genValue(r, b, depth+1)
		}
		b.WriteByte('}')
	case n == 1 && depth < 6:
		b.WriteByte('[')
		for i, m := 0, r.IntN(5); i < m; i++ {
			if i > 0 {
				b.WriteString(pick(r, ",", ", "))
			}
			genValue(r, b, depth+1)
		}
		b.WriteByte(']')
	case n <= 4:
		genString(r, b)
	case n <= 7:
		genNumber(r, b)
	default:
		b.WriteString(pick(r, "true", "false", "null"))
	}
}

func genString(r *rand.Rand, b *strings.Builder) {
	b.WriteByte('"')
	for i, m := 0, r.IntN(12); i < m; i++ {
		switch r.IntN(12) {
		case 0:
			b.WriteString(pick(r, `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`))
		case 1:
			fmt.Fprintf(b, `\u%04x`, r.IntN(0x10000))
		case 2:
			b.WriteString(pick(r, `\uD83D\uDE00`, `\ud800`, `\udc00\ud800`, `\uD800\u0041`))
		case 3:
			b.WriteString(pick(r, "é", "—", "😀", "\xff", "\xc3", "\xed\xa0\x80", "\x7f"))
		default:
			b.WriteByte(byte('a' + r.IntN(26)))
		}
	}
	b.WriteByte('"')
}

func genNumber(r *rand.Rand, b *strings.Builder) {
	if r.IntN(3) == 0 {
		b.WriteByte('-')
	}
	if r.IntN(4) == 0 {
		b.WriteByte('0')
	} else {
		b.WriteString(strconv.Itoa(1 + r.IntN(9)))
		for i, m := 0, r.IntN(20); i < m; i++ {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
	}
	if r.IntN(2) == 0 {
		b.WriteByte('.')
		for i, m := 0, 1+r.IntN(20); i < m; i++ {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
	}
	if r.IntN(3) == 0 {
		b.WriteString(pick(r, "e", "E", "e+", "e-", "E-"))
		b.WriteString(strconv.Itoa(r.IntN(400)))
	}
}

func pick(r *rand.Rand, s ...string) string { return s[r.IntN(len(s))] }

// TestDifferentialGenerated compares with encoding/json on random values,
// and on each with one byte changed, deleted or inserted.
func TestDifferentialGenerated(t *testing.T) {
	t.Run("fresh", func(t *testing.T) { differentialGenerated(t, &jsonmsg.Decoder{}) })
	// with Reuse, each value is compared before the next call recycles it
	t.Run("reuse", func(t *testing.T) { differentialGenerated(t, &jsonmsg.Decoder{Reuse: true}) })
}

func differentialGenerated(t *testing.T, d *jsonmsg.Decoder) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	const junk = "{}[],:\"\\ 0-.eE+tfnu\x00\x1f\xff"
	for range n {
		var b strings.Builder
		genValue(r, &b, 0)
		data := []byte(b.String())
		compare(t, d, data)
		if len(data) == 0 {
			continue
		}
		mutated := append([]byte(nil), data...)
		switch i := r.IntN(len(data)); r.IntN(3) {
		case 0:
			mutated[i] = junk[r.IntN(len(junk))]
		case 1:
			mutated = append(mutated[:i], mutated[i+1:]...)
		default:
			mutated = append(mutated[:i], append([]byte{junk[r.IntN(len(junk))]}, mutated[i:]...)...)
		}
		compare(t, d, mutated)
	}
}

func FuzzDecode(f *testing.F) {
	for _, in := range differentialInputs {
		f.Add([]byte(in))
	}
	for _, bm := range benchMessages {
		f.Add([]byte(bm.json))
	}
	var d, reuse jsonmsg.Decoder
	reuse.Reuse = true
	f.Fuzz(func(t *testing.T, data []byte) {
		compare(t, &d, data)
		compare(t, &reuse, data)
	})
}

// TestHugeString: a string far larger than the scratch a Decoder keeps
// (64 KiB) decodes right, plain, escaped or multi-byte, in memory linear
// in its size (the string, and the scratch doubling as it grows: 4 bytes
// per byte measured for escapes).
func TestHugeString(t *testing.T) {
	const n = 1 << 20
	for _, unit := range []string{"a", `\n`, "\u00e9"} {
		body := strings.Repeat(unit, n/len(unit))
		in := []byte(`{"s": "` + body + `"}`)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		v, err := jsonmsg.Decode(in)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if a := after.TotalAlloc - before.TotalAlloc; a > 8*uint64(len(in)) {
			t.Errorf("%q x %d: %d bytes allocated for %d of input, want at most 8 per byte", unit, n/len(unit), a, len(in))
		}
		want := body
		if unit == `\n` {
			want = strings.Repeat("\n", n/2)
		}
		if s := v.(map[string]any)["s"].(string); s != want {
			t.Errorf("%q x %d: got a string of %d bytes, want %d", unit, n/len(unit), len(s), len(want))
		}
	}
}

func TestDeepNesting(t *testing.T) {
	var d jsonmsg.Decoder
	// the deepest accepted, as by encoding/json
	for _, open := range []string{"[", `{"a":`} {
		close := "]"
		if open != "[" {
			close = "}"
		}
		data := []byte(strings.Repeat(open, jsonmsg.MaxDepth) + "1" + strings.Repeat(close, jsonmsg.MaxDepth))
		if _, err := d.Decode(data); err != nil {
			t.Fatalf("depth %d: %v", jsonmsg.MaxDepth, err)
		}
		if !json.Valid(data) {
			t.Fatalf("encoding/json rejects depth %d", jsonmsg.MaxDepth)
		}
	}
	// far too deep: an error, quickly, not a stack overflow
	for _, open := range []string{"[", `{"a":`, `[{"a":`} {
		data := []byte(strings.Repeat(open, 1_000_000))
		_, err := d.Decode(data)
		if err == nil || !strings.HasSuffix(err.Error(), ": nesting too deep") {
			t.Errorf("%q x 1e6: %v, want nesting too deep", open, err)
		}
	}
}

// TestLinear guards against quadratic behaviour: many members, elements,
// and escapes take memory in proportion to their number (14 bytes per
// byte of input measured, from 2,000 members to 200,000).
func TestLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 20_000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"k%d":[%d,"v\u00e9",{}]`, i, i)
	}
	b.WriteString("}")
	in := []byte(b.String())
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	v, err := jsonmsg.Decode(in)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if m := v.(map[string]any); len(m) != 20_000 || m["k19999"].([]any)[0] != 19999.0 {
		t.Errorf("wrong decoding of a large object")
	}
	if a := after.TotalAlloc - before.TotalAlloc; a > 32*uint64(len(in)) {
		t.Errorf("%d bytes allocated for %d of input, want at most 32 per byte", a, len(in))
	}
}

func TestConcurrentDecode(t *testing.T) {
	data := []byte(benchMessages[1].json)
	want, err := jsonmsg.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan bool)
	for range 4 {
		go func() {
			defer func() { done <- true }()
			for range 500 {
				if got, err := jsonmsg.Decode(data); err != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("concurrent Decode: %v, %v", got, err)
					return
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
}

// TestRetainedValues checks that values kept from one message are not
// changed by decoding the next ones with the same Decoder (the shared
// the strings are per message).
func TestRetainedValues(t *testing.T) {
	var d jsonmsg.Decoder
	var kept []any
	var wants []any
	for i := range 300 {
		data := []byte(fmt.Sprintf(`{"s":"v%d","n":%d.5,"a":["x%d",%d]}`, i, i, i, i))
		v, err := d.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		clear(data) // the input buffer may be reused by the caller
		kept = append(kept, v)
		wants = append(wants, map[string]any{"s": fmt.Sprint("v", i), "n": float64(i) + 0.5, "a": []any{fmt.Sprint("x", i), float64(i)}})
	}
	if !reflect.DeepEqual(kept, wants) {
		t.Errorf("retained values changed")
	}
}

// A tape reused after a huge message holds the next message right, and
// lets the huge one go.
func TestTapeAfterHugeMessage(t *testing.T) {
	var tape jsonmsg.Tape
	huge := "[" + strings.Repeat("1,", 10000) + "1]" // over the 4096 tokens a tape keeps
	if err := tape.Parse(huge); err != nil || len(tape.Toks) != 10002 {
		t.Fatalf("huge: %v, %d tokens", err, len(tape.Toks))
	}
	if err := tape.Parse(`{"a": [true, null]}`); err != nil || len(tape.Toks) != 5 || cap(tape.Toks) > 10000 {
		t.Fatalf("next: %v, %d tokens (capacity %d)", err, len(tape.Toks), cap(tape.Toks))
	}
	if i := tape.Member(0, "a"); i != 2 || tape.Toks[i].Kind != jsonmsg.Array || tape.Toks[i].Len != 2 {
		t.Errorf("member a at %d: %+v", i, tape.Toks)
	}
}

// TestTapeEscapedStrings: the strings with escapes of one message are
// views of one growing buffer; each must keep its value while the later
// ones are written (also when the buffer moves), and the next Parse
// gives the next message's values.
func TestTapeEscapedStrings(t *testing.T) {
	var tape jsonmsg.Tape
	for round := 0; round < 3; round++ {
		var text strings.Builder
		var want []string
		text.WriteString("[")
		for i := 0; i < 200; i++ { // enough to outgrow the buffer a few times
			s := fmt.Sprintf("r%d line %d\nnext \"quoted\" \u00e9 %s", round, i, strings.Repeat("x", i))
			b, _ := json.Marshal(s)
			if i > 0 {
				text.WriteString(",")
			}
			text.Write(b)
			want = append(want, s)
		}
		text.WriteString("]")
		if err := tape.Parse(text.String()); err != nil {
			t.Fatal(err)
		}
		for i, w := range want {
			if got := tape.Toks[1+i].Str; got != w {
				t.Fatalf("round %d, string %d: %q, want %q", round, i, got, w)
			}
		}
	}
}
