package typescript

import (
	"strings"
	"testing"
)

func TestMinified(t *testing.T) {
	long := strings.Repeat("x", MaxLine+1)
	written := strings.Repeat(strings.Repeat("y", MaxLine)+"\n", 20)
	for _, c := range []struct {
		name, src string
		want      bool
	}{
		{"a.min.js", "f();\n", true},
		{"dist/A.MIN.MJS", "", true},
		{"a.min.cjs", "", true},
		{"bundle.js", "/* banner */\n" + long + "\n", true},
		{"bundle.js", long, true},
		{"src/a.ts", written, false},
		{"src/a.ts", written + long, true},
		{"admin.js", "f();\n", false},
		{"a.ts", "", false},
	} {
		if got := Minified(c.name, []byte(c.src)); got != c.want {
			t.Errorf("Minified(%s, %d bytes) = %v", c.name, len(c.src), got)
		}
	}
}
