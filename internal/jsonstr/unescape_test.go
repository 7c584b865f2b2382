package jsonstr

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// unquote decodes the body of a JSON string literal (no quotes) with
// AppendEscape, as the decoders do: ok false when it is invalid.
func unquote(body string) (string, bool) {
	var b []byte
	for j := 0; j < len(body); {
		switch c := body[j]; {
		case c == '\\':
			var bad int
			if b, j, bad, _ = AppendEscape(b, body, j); bad >= 0 {
				return "", false
			}
		case c < 0x20 || c == '"':
			return "", false
		default:
			b = append(b, c)
			j++
		}
	}
	return string(b), true
}

func TestAppendEscape(t *testing.T) {
	for _, tt := range []struct {
		body, want string
		ok         bool
	}{
		{`a\"b\\c\/d`, `a"b\c/d`, true},
		{`\b\f\n\r\t`, "\b\f\n\r\t", true},
		{`\u00e9\u20AC`, "é€", true},
		{`\ud83d\ude00`, "😀", true},
		{`\ud83d`, "\ufffd", true},
		{`\ud83dx`, "\ufffdx", true},
		{`\ud83d\u0041`, "\ufffdA", true},
		{`\ude00\ud83d`, "\ufffd\ufffd", true},
		{`\x`, "", false},
		{`\u12`, "", false},
		{`\u12g4`, "", false},
		{`\ud83d\u12`, "", false},
		{`\`, "", false},
	} {
		got, ok := unquote(tt.body)
		if ok != tt.ok || got != tt.want {
			t.Errorf("%s: %q %v, want %q %v", tt.body, got, ok, tt.want, tt.ok)
		}
	}
	// the place of the bad byte, and whether it is a \u digit
	for _, tt := range []struct {
		s     string
		bad   int
		inHex bool
	}{
		{`\q`, 1, false},
		{`\u12z4`, 4, true},
		{`\u12`, 4, true},
		{`\`, 1, false},
	} {
		if _, _, bad, inHex := AppendEscape(nil, tt.s, 0); bad != tt.bad || inHex != tt.inHex {
			t.Errorf("%s: bad %d in hex %v, want %d %v", tt.s, bad, inHex, tt.bad, tt.inHex)
		}
	}
}

// FuzzAppendEscape: the escapes decode as encoding/json decodes them.
func FuzzAppendEscape(f *testing.F) {
	for _, s := range []string{`\u00e9`, `\ud83d\ude00`, `\ud83d\u0041`, `\n\t\\`, `\ud800\ud800\udc00`, `\x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if !utf8.ValidString(body) {
			return // encoding/json replaces invalid UTF-8 outside escapes; the decoders judge it themselves
		}
		var want string
		err := json.Unmarshal([]byte(`"`+body+`"`), &want)
		got, ok := unquote(body)
		if ok != (err == nil) || ok && got != want {
			t.Errorf("%q: %q %v, encoding/json %q %v", body, got, ok, want, err)
		}
	})
}
