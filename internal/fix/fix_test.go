package fix

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
)

func TestApply(t *testing.T) {
	src := []byte("status: FAILED # keep\nother: SUCCESS\n")
	edits := []finding.Edit{
		{Path: "a.yaml", Offset: 29, End: 36, New: "success"},
		{Path: "a.yaml", Offset: 8, End: 14, New: "failure"},
		{Path: "a.yaml", Offset: 29, End: 36, New: "success"}, // the same edit again
		{Path: "a.yaml", Offset: 0, End: 0, New: "# fixed\n"}, // an insertion before a replacement
	}
	got, err := Apply(src, edits)
	if err != nil {
		t.Fatal(err)
	}
	if want := "# fixed\nstatus: failure # keep\nother: success\n"; string(got) != want {
		t.Errorf("Apply = %q, want %q", got, want)
	}
	if string(src) != "status: FAILED # keep\nother: SUCCESS\n" {
		t.Errorf("Apply wrote into src: %q", src)
	}
	if got, err := Apply(src, nil); err != nil || !bytes.Equal(got, src) {
		t.Errorf("Apply(src, nil) = %q, %v", got, err)
	}
	for _, tt := range []struct {
		edits []finding.Edit
		want  string
	}{
		{[]finding.Edit{{Path: "a.yaml", Offset: 8, End: 14, New: "x"}, {Path: "a.yaml", Offset: 10, End: 12, New: "y"}},
			`a.yaml: edits [8,14) -> "x" and [10,12) -> "y" overlap`},
		{[]finding.Edit{{Path: "a.yaml", Offset: 8, End: 14, New: "x"}, {Path: "a.yaml", Offset: 8, End: 14, New: "y"}},
			`a.yaml: edits [8,14) -> "x" and [8,14) -> "y" overlap`},
		{[]finding.Edit{{Path: "a.yaml", Offset: 3, End: 3, New: "x"}, {Path: "a.yaml", Offset: 3, End: 3, New: "y"}},
			`a.yaml: edits [3,3) -> "x" and [3,3) -> "y" overlap`},
		{[]finding.Edit{{Path: "a.yaml", Offset: 30, End: 99, New: "x"}},
			`a.yaml: edit [30,99) -> "x" is out of range (the file has 37 bytes)`},
		{[]finding.Edit{{Path: "a.yaml", Offset: 5, End: 4}}, `a.yaml: edit [5,4) -> "" is out of range (the file has 37 bytes)`},
		{[]finding.Edit{{Path: "a.yaml", Offset: -1, End: 4}}, `a.yaml: edit [-1,4) -> "" is out of range (the file has 37 bytes)`},
	} {
		got, err := Apply(src, tt.edits)
		if err == nil || err.Error() != tt.want || got != nil {
			t.Errorf("Apply(%v) = %q, %v; want error %s", tt.edits, got, err, tt.want)
		}
	}
	// adjacent edits do not overlap
	if got, err := Apply([]byte("abcd"), []finding.Edit{{Offset: 2, End: 4, New: "X"}, {Offset: 0, End: 2, New: "Y"}, {Offset: 2, End: 2, New: "-"}}); err != nil || string(got) != "Y-X" {
		t.Errorf("adjacent edits: %q, %v", got, err)
	}
}

func TestFiles(t *testing.T) {
	fix := func(path string, off int) *finding.Fix {
		return &finding.Fix{Edits: []finding.Edit{{Path: path, Offset: off, End: off + 1, New: "x"}}}
	}
	fs := []finding.Finding{
		{Location: finding.Location{Path: "a/b.py"}, Fix: fix("a/b.py", 1)},
		{Location: finding.Location{Path: "c.go"}},
		{Location: finding.Location{Path: "a/b.py"}, Fix: fix("a/b.py", 7)},
		{Location: finding.Location{Path: "/abs/d.yaml"}, Fix: fix("/abs/d.yaml", 2)},
	}
	got := Files("root", fs)
	want := map[string][]finding.Edit{
		filepath.Join("root", "a", "b.py"): {fs[0].Fix.Edits[0], fs[2].Fix.Edits[0]},
		filepath.FromSlash("/abs/d.yaml"):  {fs[3].Fix.Edits[0]},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Files = %v, want %v", got, want)
	}
}

// TestDiff compares with the output of diff -u on changes whose shortest
// script is unique, files without a final newline included.
func TestDiff(t *testing.T) {
	lines := func(n int, mod map[int]string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			if s, ok := mod[i]; ok {
				b.WriteString(s)
				continue
			}
			fmt.Fprintf(&b, "line %d\n", i)
		}
		return b.String()
	}
	for _, tt := range []struct {
		name, old, new, want string
	}{
		{"equal", "a\n", "a\n", ""},
		{"one line", "status: FAILED\n", "status: failure\n",
			"@@ -1 +1 @@\n-status: FAILED\n+status: failure\n"},
		{"context", lines(10, nil), lines(10, map[int]string{5: "five\n"}),
			"@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+five\n line 6\n line 7\n line 8\n"},
		{"two hunks", lines(20, nil), lines(20, map[int]string{2: "two\n", 19: "nineteen\n"}),
			"@@ -1,5 +1,5 @@\n line 1\n-line 2\n+two\n line 3\n line 4\n line 5\n" +
				"@@ -16,5 +16,5 @@\n line 16\n line 17\n line 18\n-line 19\n+nineteen\n line 20\n"},
		{"merged hunks", lines(20, nil), lines(20, map[int]string{5: "five\n", 11: "eleven\n"}),
			"@@ -2,13 +2,13 @@\n line 2\n line 3\n line 4\n-line 5\n+five\n line 6\n line 7\n line 8\n line 9\n line 10\n-line 11\n+eleven\n line 12\n line 13\n line 14\n"},
		{"no final newline, last line changed", "a\nb\nstatus: FAILED", "a\nb\nstatus: failure",
			"@@ -1,3 +1,3 @@\n a\n b\n-status: FAILED\n\\ No newline at end of file\n+status: failure\n\\ No newline at end of file\n"},
		{"no final newline, context", "status: FAILED\na\nb", "status: failure\na\nb",
			"@@ -1,3 +1,3 @@\n-status: FAILED\n+status: failure\n a\n b\n\\ No newline at end of file\n"},
		{"newline added", "a\nb", "a\nb\n",
			"@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{"crlf", "a\r\nx: FAILED\r\nb\r\n", "a\r\nx: failure\r\nb\r\n",
			"@@ -1,3 +1,3 @@\n a\r\n-x: FAILED\r\n+x: failure\r\n b\r\n"},
		{"insertion", "a\nb\n", "a\nnew\nb\n", "@@ -1,2 +1,3 @@\n a\n+new\n b\n"},
		{"from empty", "", "a\n", "@@ -0,0 +1 @@\n+a\n"},
		{"to empty", "a\nb\n", "", "@@ -1,2 +0,0 @@\n-a\n-b\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Diff("dir/f.yaml", []byte(tt.old), []byte(tt.new))
			want := ""
			if tt.want != "" {
				want = "--- a/dir/f.yaml\n+++ b/dir/f.yaml\n" + tt.want
			}
			if string(got) != want {
				t.Errorf("Diff:\n%s\nwant:\n%s", got, want)
			}
			if gnu := gnuDiff(t, tt.old, tt.new); gnu != "" && gnu != tt.want {
				t.Errorf("diff -u says:\n%s", gnu)
			}
			if got != nil {
				checkPatch(t, tt.old, tt.new, got)
			}
		})
	}
}

// gnuDiff returns the hunks diff -u writes, or "" without a diff command.
func gnuDiff(t *testing.T, old, new string) string {
	if _, err := exec.LookPath("diff"); err != nil {
		return ""
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if os.WriteFile(a, []byte(old), 0o644) != nil || os.WriteFile(b, []byte(new), 0o644) != nil {
		t.Fatal("cannot write files")
	}
	out, _ := exec.Command("diff", "-u", a, b).Output()
	if i := bytes.Index(out, []byte("\n@@")); i >= 0 {
		return string(out[i+1:])
	}
	return ""
}

// TestDiffRoundTrip: for random edits of random files, with and without
// final newlines, the diff applied to the old file gives the new one, and
// each hunk's header counts its lines.
func TestDiffRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", "c", "status: x", "", "d"}
	file := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteString("\n")
		}
		s := b.String()
		if r.IntN(3) == 0 {
			s = strings.TrimSuffix(s, "\n")
		}
		return s
	}
	for i := range 3000 {
		old := file(r.IntN(30))
		lines := strings.SplitAfter(old, "\n")
		for range r.IntN(5) {
			j := r.IntN(len(lines))
			switch r.IntN(3) {
			case 0:
				lines[j] = words[r.IntN(len(words))] + "\n"
			case 1:
				lines = append(lines[:j], lines[j+1:]...)
				if len(lines) == 0 {
					lines = []string{""}
				}
			default:
				lines = append(lines[:j], append([]string{words[r.IntN(len(words))] + "\n"}, lines[j:]...)...)
			}
		}
		new := strings.Join(lines, "")
		if r.IntN(4) == 0 {
			new = strings.TrimSuffix(new, "\n")
		}
		d := Diff("f", []byte(old), []byte(new))
		if (d == nil) != (old == new) {
			t.Fatalf("case %d: Diff(%q, %q) = %q", i, old, new, d)
		}
		if d != nil {
			checkPatch(t, old, new, d)
		}
	}
}

// TestMyersFallback: a change too large for the line diff's budget is
// still a correct diff.
func TestMyersFallback(t *testing.T) {
	var a, b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
	}
	d := Diff("f", []byte("same\n"+a.String()+"end\n"), []byte("same\n"+b.String()+"end\n"))
	checkPatch(t, "same\n"+a.String()+"end\n", "same\n"+b.String()+"end\n", d)
}

// checkPatch applies the unified diff d to old, checking every context and
// deleted line and the hunk headers, and compares the result with new. It
// also runs patch(1) on it when there is one.
func checkPatch(t *testing.T, old, new string, d []byte) {
	t.Helper()
	text := string(d)
	if !strings.HasPrefix(text, "--- a/") {
		t.Fatalf("no header:\n%s", text)
	}
	rows := strings.SplitAfter(text, "\n")
	rows = rows[2 : len(rows)-1] // the headers, and the "" after the final "\n"
	src := strings.SplitAfter(old, "\n")
	if src[len(src)-1] == "" {
		src = src[:len(src)-1]
	}
	var out []string
	at := 0 // next line of src to copy
	for i := 0; i < len(rows); {
		var os_, on, ns, nn int
		h := rows[i]
		if _, err := fmt.Sscanf(h, "@@ -%s +%s @@\n", new2(&os_, &on), new2(&ns, &nn)); err != nil {
			t.Fatalf("bad hunk header %q in\n%s", h, text)
		}
		start := os_ - 1
		if on == 0 {
			start = os_
		}
		if start < at {
			t.Fatalf("hunk %q goes back", h)
		}
		out = append(out, src[at:start]...)
		at = start
		if len(out) != max(ns-1, 0) && !(nn == 0 && len(out) == ns) {
			t.Fatalf("hunk %q: new side starts at %d", h, len(out)+1)
		}
		i++
		co, cn := 0, 0
		for i < len(rows) && !strings.HasPrefix(rows[i], "@@") {
			row := rows[i]
			i++
			line := row[1:]
			if i < len(rows) && rows[i] == "\\ No newline at end of file\n" {
				line = strings.TrimSuffix(line, "\n")
				i++
			}
			switch row[0] {
			case ' ', '-':
				if at >= len(src) || src[at] != line {
					t.Fatalf("hunk %q: line %d is %q in the file, %q in the diff:\n%s", h, at+1, src[min(at, len(src)-1)], line, text)
				}
				at++
				co++
				if row[0] == ' ' {
					out = append(out, line)
					cn++
				}
			case '+':
				out = append(out, line)
				cn++
			default:
				t.Fatalf("bad row %q", row)
			}
		}
		if co != on || cn != nn {
			t.Fatalf("hunk %q has %d old and %d new lines", h, co, cn)
		}
	}
	out = append(out, src[at:]...)
	if got := strings.Join(out, ""); got != new {
		t.Fatalf("patched: %q, want %q; diff:\n%s", got, new, text)
	}
}

// new2 reads "l,n" or "l" (n = 1) in a hunk header.
func new2(l, n *int) *rangeScanner { return &rangeScanner{l, n} }

type rangeScanner struct{ l, n *int }

func (r *rangeScanner) Scan(state fmt.ScanState, _ rune) error {
	tok, err := state.Token(false, func(c rune) bool { return c == ',' || '0' <= c && c <= '9' })
	if err != nil {
		return err
	}
	l, n, found := strings.Cut(string(tok), ",")
	*r.n = 1
	if found {
		if *r.n, err = strconv.Atoi(n); err != nil {
			return err
		}
	}
	*r.l, err = strconv.Atoi(l)
	return err
}

// TestPatchTool: patch(1) applies the diffs, final newlines included.
func TestPatchTool(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("no patch command")
	}
	for _, c := range [][2]string{
		{"a\nb\nstatus: FAILED", "a\nb\nstatus: failure"},
		{"status: FAILED\na\nb", "status: failure\na\nb"},
		{"a\nb", "a\nb\n"},
		{"a\nb\n", "a\nb"},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\nX\n3\n4\n5\n6\n7\n8\n9\n10\nY\n12\n"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(c[0]), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("patch", "-s", "-p1")
		cmd.Dir = dir
		cmd.Stdin = bytes.NewReader(Diff("f.txt", []byte(c[0]), []byte(c[1])))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("patch %q -> %q: %v\n%s", c[0], c[1], err, out)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "f.txt")); string(got) != c[1] {
			t.Errorf("patch %q -> %q gave %q", c[0], c[1], got)
		}
	}
}
