package python

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// testdata/handback.py is the ast-grep peer's sample
// (/work/shared/peers/astgrep/samples/handback.py), copied so the test does
// not depend on the peer's tree.
func TestHandbackSample(t *testing.T) {
	src, err := os.ReadFile("testdata/handback.py")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Extract("handback.py", src)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, src, f)
	type want struct {
		value string
		role  facts.Role
		key   string
		recv  string
		scope string
	}
	status := []want{
		{"done", facts.RoleValue, "status", "", "make_handback"},
		{"failed", facts.RoleValue, "status", "", "make_handback"},
		{"completed", facts.RoleCompare, "status", "x", "check"},
		{"success", facts.RoleCompare, "status", "x", "check"},
		{"SUCCESS", facts.RoleCompare, "status", "x", "check"},
		{"blocked", facts.RoleCompare, "status", "x", "check"},
		{"escalated", facts.RoleCompare, "status", "x", "check"},
		{"partial", facts.RoleAssign, "status", "x", "check"},
		{"escalate", facts.RoleValue, "status", "", "emit"},
		{"fail", facts.RoleValue, "status", "", "emit"},
	}
	var got []want
	for _, s := range f.Strings {
		if s.Key == "status" {
			got = append(got, want{s.Value, s.Role, s.Key, s.Receiver, s.Scope})
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(status) {
		t.Errorf("status literals:\n got %v\nwant %v", got, status)
	}
	var state, bare int
	for _, s := range f.Strings {
		if s.Key == "state" {
			state++
			if s.Value != "done" || s.Role != facts.RoleValue {
				t.Errorf("state: %+v", s)
			}
		}
		// msg = "status": a dead store of the field name, not a value.
		if s.Value == "status" && s.Role != facts.RoleKey {
			bare++
			t.Errorf("bare %q reported: %+v", s.Value, s)
		}
	}
	if state != 1 {
		t.Errorf("%d facts with key state, want 1", state)
	}
	// The mappings: the result dict, dict(...), {"state": ...},
	// send_handback(...) and Handback(...).
	var types []string
	for _, m := range f.Mappings {
		types = append(types, fmt.Sprintf("%s%v", m.TypeName, m.Keys()))
	}
	wantTypes := "[[task_id status output] dict[task_id status] [state] send_handback[status] Handback[task_id status]]"
	if fmt.Sprint(types) != wantTypes {
		t.Errorf("mappings %v, want %s", types, wantTypes)
	}
}

func TestMayHaveStrings(t *testing.T) {
	for _, src := range []string{"x = 1\n", "def f(a=b): return a\n", ""} {
		if MayHaveStrings([]byte(src)) {
			t.Errorf("MayHaveStrings(%q) = true", src)
		}
		f, err := Extract("t.py", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Strings) != 0 || len(f.Groups) != 0 {
			t.Errorf("%q: facts without a quote", src)
		}
	}
	if !MayHaveStrings([]byte(`x = 'a'`)) || !MayHaveStrings([]byte(`x = "a"`)) {
		t.Error("MayHaveStrings false with a quote")
	}
}

// TestHostileInput feeds input that must neither panic, blow up nor blow
// the stack: deep nesting, NUL bytes, invalid UTF-8. What extraction
// allocates stays linear in the input: at most 2 KiB per byte and 64 KiB (deep
// dictionaries take 1 KiB per byte, the same from 1,250 levels to 10,000;
// work quadratic in the levels would be thousands of times that).
func TestHostileInput(t *testing.T) {
	deep := func(open, close string, n int, inner string) []byte {
		return []byte("x = " + strings.Repeat(open, n) + inner + strings.Repeat(close, n) + "\n")
	}
	cases := map[string][]byte{
		"parens":          deep("(", ")", 10000, `"s"`),
		"brackets":        deep("[", "]", 10000, `"s"`),
		"dicts":           deep(`{"status": `, "}", 10000, `"s"`),
		"calls":           deep("f(status=", ")", 10000, `"s"`),
		"unclosed":        []byte("x = " + strings.Repeat("(", 10000) + `"s"` + "\n"),
		"nested defs":     []byte(nestedDefs(2000)),
		"comparisons":     []byte("x = a == " + strings.Repeat(`"s" == `, 10000) + "b\n"),
		"conditionals":    []byte("x = " + strings.Repeat(`"a" if c else `, 10000) + `"b"` + "\n"),
		"nul":             []byte("x = {\"status\": \"do\x00ne\"}\n\x00\x00y = 'a'\n"),
		"invalid utf8":    []byte("x = {\"status\": \"\xff\xfe\xc0\"}\ny = '\xe2\x82'\n"),
		"binary":          bytes.Repeat([]byte{0x89, 'P', 'N', 'G', 0, 0xff, '"', '\''}, 1000),
		"lone quote":      []byte(`"`),
		"crlf":            []byte("x = {\"status\": \"done\"}\r\ny = \"a\"\r\n"),
		"only newlines":   bytes.Repeat([]byte("\n"), 1000),
		"string escapes":  []byte(`x = "\x" + "\u12" + "\U0011FFFF" + "\777" + "\` + "\n"),
		"deep match":      []byte("match x:\n    case " + strings.Repeat("(", 5000) + `"a"` + strings.Repeat(")", 5000) + ":\n        pass\n"),
		"deep literal":    []byte("x: " + strings.Repeat("Optional[", 5000) + `Literal["a"]` + strings.Repeat("]", 5000) + "\n"),
		"deep value list": deep(`{"k": [`, "]}", 5000, `"s"`),
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			f, err := Extract("t.py", src)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, src, f)
			// plus 64 KiB for any input: a parse may need a new parser or
			// extractor when the GC emptied their pools
			if n := after.TotalAlloc - before.TotalAlloc; n > 2048*uint64(len(src))+64<<10 {
				t.Errorf("%d bytes allocated for %d of input, want at most 2 KiB per byte and 64 KiB", n, len(src))
			}
		})
	}
}

func nestedDefs(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i))
		fmt.Fprintf(&b, "def f%d():\n", i)
	}
	b.WriteString(strings.Repeat(" ", n))
	b.WriteString("return \"deep\"\n")
	return b.String()
}

// largeSource builds a realistic Python file of about size bytes.
func largeSource(size int) []byte {
	const unit = `
class Status%[1]d(str, Enum):
    SUCCESS = "success"
    FAILURE = "failure"

TERMINAL_%[1]d = frozenset({"success", "failure", "blocked"})

def handle_%[1]d(msg, ok):
    """Route a handback."""
    s = msg.get("status")
    if s in ("success", "partial"):
        return {"task_id": msg["task_id"], "status": "done", "n": %[1]d}
    if msg.status == "failed":
        msg.status = "escalate"
    match s:
        case "blocked" | "escalate":
            return Handback(task_id="t-%[1]d", status="blocked", confidence=0.5)
    for i in range(10):
        total = i * 2 + len(msg.items) - ok
    return "failure"
`
	var b bytes.Buffer
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, unit, i)
	}
	return b.Bytes()
}

// TestLargeFile: a 1 MiB file of realistic Python (30,000 facts) yields
// its facts, in memory linear in its size (40 bytes per byte measured, the
// same at 4 MiB).
func TestLargeFile(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	src := largeSource(1 << 20)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start, cpu0 := time.Now(), cpuTime()
	f, err := Extract("big.py", src)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%.1f MB: wall %v, cpu %v; %d strings, %d groups, %d mappings", float64(len(src))/1e6,
		time.Since(start).Round(time.Millisecond), (cpuTime() - cpu0).Round(time.Millisecond), len(f.Strings), len(f.Groups), len(f.Mappings))
	if n := after.TotalAlloc - before.TotalAlloc; n > 64*uint64(len(src)) {
		t.Errorf("%d bytes allocated for %d of input, want at most 64 per byte", n, len(src))
	}
	checkInvariants(t, src, f)
	if len(f.Strings) == 0 {
		t.Fatal("no facts")
	}
}

func BenchmarkExtractLarge(b *testing.B) {
	src := largeSource(1 << 20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Extract("big.py", src); err != nil {
			b.Fatal(err)
		}
	}
}
