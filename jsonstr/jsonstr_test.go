package jsonstr_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/protoscan/protoscan/jsonstr"
)

var texts = []string{"", "plain text", `HANDBACK "a-1" answers no DELEGATE`, `quote " and \ backslash`, "<tag> & amp",
	"tab\tnew\nline\r", "\x00\x1f\x7f", "\b\f", "é ü 中文 🎉", "line\u2028sep\u2029", "bad \xff utf8 \xc3", "\xed\xa0\x80 surrogate"}

// encodingJSON is what encoding/json writes for s, HTML unescaped.
func encodingJSON(t *testing.T, s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func TestAppend(t *testing.T) {
	for _, s := range texts {
		if got, want := string(jsonstr.Append([]byte("x"), s)), "x"+encodingJSON(t, s); got != want {
			t.Errorf("%q:\n got  %s\n want %s", s, got, want)
		}
	}
}

func FuzzAppend(f *testing.F) {
	for _, s := range texts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(jsonstr.Append(nil, s)), encodingJSON(t, s); got != want {
			t.Errorf("%q:\n got  %s\n want %s", s, got, want)
		}
	})
}
