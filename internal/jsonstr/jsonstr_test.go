package jsonstr_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/internal/jsonstr"
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
	all := append([]string(nil), texts...)
	// each byte that needs care at every offset of the eight-byte steps
	for _, c := range []string{`"`, `\`, "\n", "\x00", "\x1f", "\x7f", "é", "\u2028", "\xff", "\xc3"} {
		for at := 0; at < 18; at++ {
			all = append(all, strings.Repeat("a", at)+c+strings.Repeat("b", 20-at))
		}
	}
	for _, s := range all {
		if got, want := string(jsonstr.Append([]byte("x"), s)), "x"+encodingJSON(t, s); got != want {
			t.Errorf("%q:\n got  %s\n want %s", s, got, want)
		}
	}
}

// BenchmarkAppend writes a problem's message of the audit report.
//
//	go test -run='^$' -bench=Append ./internal/jsonstr/
func BenchmarkAppend(b *testing.B) {
	s := `DELEGATE "review-2cavtah-19" has no HANDBACK (queue/incoming/part-0001.jsonl:48)`
	var buf []byte
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		buf = jsonstr.Append(buf[:0], s)
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
