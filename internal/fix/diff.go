package fix

import (
	"bytes"
	"fmt"
)

// context is the number of unchanged lines around a change in a hunk.
const context = 3

// maxCost bounds the work of the line diff: beyond this many inserted and
// deleted lines, the changed region is shown as deleted and inserted as a
// whole. The diff is then longer than needed but still correct; the fixes
// of a scan change a line here and there and never come near it.
const maxCost = 2000

// Diff returns the change from old to new as a unified diff with headers
// "--- a/path" and "+++ b/path" and hunks of 3 lines of context, as
// `diff -u` and `git diff` write it and `patch -p1` and `git apply` read
// it; nil when old and new are equal. Lines end with "\n" ("\r\n" endings
// are kept in the lines); a last line without one is followed by
// "\ No newline at end of file".
func Diff(path string, old, new []byte) []byte {
	if bytes.Equal(old, new) {
		return nil
	}
	a, b := splitLines(old), splitLines(new)
	ops := diffLines(a, b)
	var out bytes.Buffer
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", path, path)
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: context before the change, changes separated by at most
		// 2*context unchanged lines, context after.
		start := max(i-context, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end = min(end+context, len(ops))
				break
			}
			end = run
		}
		writeHunk(&out, a, b, ops[start:end])
		i = end
	}
	return out.Bytes()
}

// op is one line of the edit script: ' ' keeps a[ai] (which is b[bi]),
// '-' deletes a[ai], '+' inserts b[bi]. ai and bi are also the positions
// in a and b where the line is, for the hunk header.
type op struct {
	kind   byte
	ai, bi int
}

func writeHunk(out *bytes.Buffer, a, b [][]byte, ops []op) {
	na, nb := 0, 0
	for _, o := range ops {
		if o.kind != '+' {
			na++
		}
		if o.kind != '-' {
			nb++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(ops[0].ai, na), hunkRange(ops[0].bi, nb))
	for _, o := range ops {
		var line []byte
		if o.kind == '+' {
			line = b[o.bi]
		} else {
			line = a[o.ai]
		}
		out.WriteByte(o.kind)
		out.Write(line)
		if !bytes.HasSuffix(line, []byte("\n")) {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange writes a hunk's range of lines that starts at 0-based line
// start and counts n lines: "l,n", "l" when n is 1, and for no lines the
// line before them, "l,0".
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits s after every "\n"; the last line may have none.
func splitLines(s []byte) [][]byte {
	var lines [][]byte
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\n') + 1
		if i == 0 {
			i = len(s)
		}
		lines = append(lines, s[:i:i])
		s = s[i:]
	}
	return lines
}

// diffLines returns an edit script from a to b: the common prefix and
// suffix are kept, and the lines between them are compared with Myers'
// O(ND) algorithm.
func diffLines(a, b [][]byte) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && bytes.Equal(a[pre], b[pre]) {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && bytes.Equal(a[len(a)-1-suf], b[len(b)-1-suf]) {
		suf++
	}
	ops := make([]op, 0, len(a)+len(b)-pre-suf)
	for i := 0; i < pre; i++ {
		ops = append(ops, op{' ', i, i})
	}
	// Lines become numbers, so the middle compares ints.
	ids := map[string]int{}
	intern := func(ls [][]byte) []int {
		out := make([]int, len(ls))
		for i, l := range ls {
			id, ok := ids[string(l)]
			if !ok {
				id = len(ids)
				ids[string(l)] = id
			}
			out[i] = id
		}
		return out
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	for _, o := range myers(intern(ma), intern(mb)) {
		ops = append(ops, op{o.kind, o.ai + pre, o.bi + pre})
	}
	for i := 0; i < suf; i++ {
		ops = append(ops, op{' ', len(a) - suf + i, len(b) - suf + i})
	}
	return ops
}

// myers returns a shortest edit script from a to b, deletions before
// insertions where both are possible; beyond maxCost, all of a deleted and
// all of b inserted.
func myers(a, b []int) []op {
	n, m := len(a), len(b)
	// trace[d][k+d] is the furthest x on diagonal k (x-y) after d steps.
	var trace [][]int
	found := -1
search:
	for d := 0; d <= min(n+m, maxCost); d++ {
		v := make([]int, 2*d+1)
		for k := -d; k <= d; k += 2 {
			var x int
			switch {
			case d == 0:
				x = 0
			case k == -d || k != d && trace[d-1][k-1+d-1] < trace[d-1][k+1+d-1]:
				x = trace[d-1][k+1+d-1] // down: insert b[y-1]
			default:
				x = trace[d-1][k-1+d-1] + 1 // right: delete a[x-1]
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[k+d] = x
			if x >= n && y >= m {
				trace = append(trace, v)
				found = d
				break search
			}
		}
		trace = append(trace, v)
	}
	if found < 0 {
		ops := make([]op, 0, n+m)
		for i := range n {
			ops = append(ops, op{'-', i, 0})
		}
		for j := range m {
			ops = append(ops, op{'+', n, j})
		}
		return ops
	}
	// Walk back from (n, m), collecting the script in reverse.
	var rev []op
	x, y := n, m
	for d := found; d > 0; d-- {
		k := x - y
		prev := trace[d-1]
		var pk int
		if k == -d || k != d && prev[k-1+d-1] < prev[k+1+d-1] {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := prev[pk+d-1]
		py := px - pk
		// the step, then the snake to (x, y)
		sx, sy := px, py+1
		if pk == k-1 {
			sx, sy = px+1, py
		}
		for x > sx && y > sy {
			x, y = x-1, y-1
			rev = append(rev, op{' ', x, y})
		}
		if pk == k+1 {
			rev = append(rev, op{'+', px, py})
		} else {
			rev = append(rev, op{'-', px, py})
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, op{' ', x, y})
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
