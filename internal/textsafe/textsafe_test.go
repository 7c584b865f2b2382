package textsafe

import (
	"errors"
	"fmt"
	"testing"
)

func TestString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// left alone: ASCII, common Unicode, a lone backslash
		{"", ""},
		{"feature-x-001", "feature-x-001"},
		{`unknown field "foo"`, `unknown field "foo"`},
		{"café ü", "café ü"},
		{"中文 😀 ∑", "中文 😀 ∑"},
		{`C:\Users\d`, `C:\Users\d`},
		{`^[a-z]\d+$`, `^[a-z]\d+$`},
		{`trailing \`, `trailing \`},
		{"zero\u200bwidth", "zero\u200bwidth"}, // a format character, not a control
		// C0 controls
		{"a\nb", `a\nb`},
		{"a\tb\rc", `a\tb\rc`},
		{"\x00\x07\x08\x0b\x0c", `\x00\a\b\v\f`},
		{"bad\x1b[2Jid", `bad\x1b[2Jid`},
		{"\x1b]8;;https://x\x07link\x1b]8;;\x07", `\x1b]8;;https://x\alink\x1b]8;;\a`},
		{"a\n::error file=README.md,line=1::PWNED\nb.yaml", `a\n::error file=README.md,line=1::PWNED\nb.yaml`},
		// DEL and C1 (CSI is U+009B)
		{"del\x7f", `del\x7f`},
		{"\u0085next \u009b2J", `\u0085next \u009b2J`},
		// line and paragraph separators
		{"a\u2028b\u2029c", `a\u2028b\u2029c`},
		// bidi embeddings, overrides and isolates
		{"\u202aa\u202bb\u202cc\u202dd\u202ee", `\u202aa\u202bb\u202cc\u202dd\u202ee`},
		{"\u2066a\u2067b\u2068c\u2069", `\u2066a\u2067b\u2068c\u2069`},
		// invalid UTF-8, byte by byte
		{"latin1 \xe9", `latin1 \xe9`},
		{"\xff\xfe", `\xff\xfe`},
		{"cut \xe4\xb8", `cut \xe4\xb8`},
		// a backslash is left alone: %q's escapes do not double
		{`a\nb`, `a\nb`},
		{`"bad\x1b[2J" \\ \u202e`, `"bad\x1b[2J" \\ \u202e`},
		{"\"" + `C:\\new` + "\"", "\"" + `C:\\new` + "\""},
	} {
		if got := String(c.in); got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPath(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"queue/a.yaml", "queue/a.yaml"},
		{"::error title=x::y.yaml", "./::error title=x::y.yaml"},
		{":a.yaml", ":a.yaml"},
		{"dir/::error::x", "dir/::error::x"},
		{"a\n::error file=README.md,line=1::PWNED\nb.yaml", `a\n::error file=README.md,line=1::PWNED\nb.yaml`},
		{"/abs/::x", "/abs/::x"},
	} {
		if got := Path(c.in); got != c.want {
			t.Errorf("Path(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestError(t *testing.T) {
	if got := Error(nil); got != "" {
		t.Errorf("Error(nil) = %q", got)
	}
	joined := errors.Join(
		errors.New("spec.yaml:1:2: bad \x1b[2J"),
		errors.Join(errors.New("::warning::x.yaml:3:4: no"), nil),
		fmt.Errorf("wrapped: %w", errors.New("a\nb")),
	)
	want := `spec.yaml:1:2: bad \x1b[2J` + "\n" + `./::warning::x.yaml:3:4: no` + "\n" + `wrapped: a\nb`
	if got := Error(joined); got != want {
		t.Errorf("Error(joined) =\n%s\nwant\n%s", got, want)
	}
	// two %w: one error, one line
	two := fmt.Errorf("%w: %w", errors.New("x\n"), errors.New("y"))
	if got := Error(two); got != `x\n: y` {
		t.Errorf("Error(two %%w) = %q", got)
	}
}
