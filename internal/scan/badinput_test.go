package scan_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/protoscan-dev/protoscan/analyzers/divergence"
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/baseline"
	"github.com/protoscan-dev/protoscan/internal/messages"
	"github.com/protoscan-dev/protoscan/internal/scan"
	"github.com/protoscan-dev/protoscan/internal/scan/walk"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// The bad-input catalog: testdata/badinput/README.md lists every case,
// what protoscan does with it and the test that checks it. Small inputs
// are committed there; huge and pathological ones are made here, in a
// temporary directory, at test time.
//
// Every case scans a tree holding the bad input and good/handback.yaml,
// a HANDBACK with a planted drift: the scan must end (under a deadline,
// never by a panic), without error, with the finding the case expects on
// the bad file and with the planted finding still reported.

const badinputDir = "../../testdata/badinput"

// planted is the finding good/handback.yaml must always yield.
var planted = want{path: "good/handback.yaml", line: 2, col: 9, rule: "enumdrift/legacy-status"}

// want is a finding a case expects: line and col 0 mean any, msg is a
// part of the message ("" for any).
type want struct {
	path       string
	line, col  int
	rule, msg  string
	notPresent bool // the case expects no such finding
}

func (w want) String() string {
	s := fmt.Sprintf("%s:%d:%d %s", w.path, w.line, w.col, w.rule)
	if w.msg != "" {
		s += fmt.Sprintf(" %q", w.msg)
	}
	return s
}

func (w want) match(f finding.Finding) bool {
	return f.Path == w.path && f.Rule == w.rule && (w.line == 0 || f.Line == w.line) &&
		(w.col == 0 || f.Col == w.col) && strings.Contains(f.Message, w.msg)
}

type badCase struct {
	name string
	// files are written into the tree (path -> content); fixtures are
	// copied from testdata/badinput.
	files    map[string]string
	fixtures []string
	// setup prepares what files cannot say (symlinks, permissions, sparse
	// files, a read hook); it may skip the case.
	setup func(t *testing.T, dir string)
	walk  walk.Options
	want  []want
	// maxAlloc bounds the bytes the scan allocates (runtime TotalAlloc,
	// an upper bound of its peak heap); 0: unchecked.
	maxAlloc uint64
}

func fullOptions(t *testing.T, root string) scan.Options {
	t.Helper()
	sp := msgcheck.DefaultSpec()
	v, err := msgcheck.New(msgcheck.Options{Root: root}, sp)
	if err != nil {
		t.Fatal(err)
	}
	return scan.Options{Vocabulary: vocabulary(t), Divergence: divergence.NewModel(sp, divergence.Options{}), Messages: messages.New(v, sp)}
}

// A HANDBACK in each language with a drift in it: what a bad file holds
// besides its trouble, so that it gets past the prefilters and is parsed.
const (
	yamlHandback = "task_id: bad-1\nstatus: FAILED\noutput: {}\n"                                     // legacy-status at 2:9
	jsonHandback = `{"task_id": "bad-1", "status": "FAILED", "output": {}}`                           // legacy-status at 1:32
	pyRoute      = "def route(handback):\n    if handback.status == \"FAILURE\":\n        return 1\n" // status-case at 2:27
	goStatus     = "type Status string\n\nconst (\n\tStatusSuccess Status = \"success\"\n\tStatusFailure Status = \"FAILURE\"\n\tStatusPartial Status = \"partial\"\n)\n"
)

func nested(open, leaf, close string, n int) string {
	return strings.Repeat(open, n) + leaf + strings.Repeat(close, n)
}

func badCases() []badCase {
	const deep = 10_000
	return []badCase{
		{
			name:     "alias-bomb",
			fixtures: []string{"alias-bomb.yaml"},
			want:     []want{{path: "alias-bomb.yaml", rule: scan.RuleParseError, msg: "alias bomb"}},
			maxAlloc: 64 << 20,
		},
		{
			name:     "alias-cycle",
			fixtures: []string{"alias-cycle.yaml"},
			want:     []want{{path: "alias-cycle.yaml", line: 5, col: 9, rule: scan.RuleParseError, msg: "alias *out is inside the node it names"}},
		},
		{
			name:  "deep-yaml-flow",
			files: map[string]string{"deep.yaml": yamlHandback + "x: " + nested("[", "1", "]", deep) + "\n"},
			want:  []want{{path: "deep.yaml", line: 4, col: 1003, rule: scan.RuleParseError, msg: "nesting deeper than 1000"}},
		},
		{
			name:  "deep-yaml-block",
			files: map[string]string{"deep.yaml": yamlHandback + "x:\n  " + strings.Repeat("- ", deep) + "x\n"},
			want:  []want{{path: "deep.yaml", line: 4, rule: scan.RuleParseError, msg: "exceeded max depth of 10000"}},
		},
		{
			name:  "deep-json",
			files: map[string]string{"deep.json": `{"task_id": "bad-1", "status": "FAILED", "output": null, "x": ` + nested("[", "1", "]", deep) + "}\n"},
			want:  []want{{path: "deep.json", line: 1, col: 1062, rule: scan.RuleParseError, msg: "nesting deeper than 1000"}},
		},
		{
			name:  "deep-json-objects",
			files: map[string]string{"deep.json": nested(`{"status": "FAILED", "task_id": "t", "output": 1, "a": `, "1", "}", deep) + "\n"},
			want:  []want{{path: "deep.json", rule: scan.RuleParseError, msg: "nesting deeper than 1000"}},
		},
		{
			// tree-sitter parses any depth; the extractor stops converting
			// values at its depth limit, and the drift in the same file is
			// still found. Each dict's value is built once (once for each
			// of the 32 dicts around it would allocate 130 MiB).
			name: "deep-python",
			files: map[string]string{"deep.py": pyRoute +
				"lists = " + nested("[", "1", "]", deep) + "\n" +
				"calls = " + nested("f(", "1", ")", deep) + "\n" +
				"parens = " + nested("(", "1", ")", deep) + "\n" +
				"dicts = " + nested(`{"k": `, "1", "}", deep) + "\n"},
			want:     []want{{path: "deep.py", line: 2, col: 27, rule: "enumdrift/status-case"}},
			maxAlloc: 64 << 20,
		},
		{
			// 10,000 HANDBACK dicts, each the output of the one around it,
			// on one line: each is a message with a drift (10,000 findings
			// on one line, fingerprinted once, not 10,000 times), and each
			// value is built once (once for each of the 32 dicts around it
			// would allocate 250 MiB).
			name:     "deep-python-handbacks",
			files:    map[string]string{"deep.py": "msg = " + nested(`{"task_id": "a-1", "status": "FAILED", "output": `, "1", "}", deep) + "\n"},
			want:     []want{{path: "deep.py", line: 1, col: 36, rule: "enumdrift/legacy-status"}},
			maxAlloc: 192 << 20,
		},
		{
			name:  "deep-go",
			files: map[string]string{"deep.go": "package p\n\n" + goStatus + "\nvar x = " + nested("(", "1", ")", deep) + "\nvar y = " + nested("[]any{", "1", "}", deep) + "\n"},
			want:  []want{{path: "deep.go", line: 7, col: 25, rule: "enumdrift/status-case"}},
		},
		{
			name: "deep-markdown",
			files: map[string]string{"deep.md": "# deep\n\n```yaml\n" + yamlHandback + "x: " + nested("[", "1", "]", deep) + "\n```\n\n" +
				"```yaml\n" + yamlHandback + "```\n"},
			// a block that does not parse is left out, and reported as an
			// error, at its place, since it holds a HANDBACK; the next is
			// read
			want: []want{{path: "deep.md", line: 12, col: 9, rule: "enumdrift/legacy-status"},
				{path: "deep.md", line: 7, col: 1003, rule: scan.RuleParseError, msg: "looks like a protocol message, so it was not checked: nesting deeper than 1000"}},
		},
		{
			// Over the default size limit: never read. The file is sparse,
			// so making it costs nothing.
			name: "huge-100mb-default-limit",
			setup: func(t *testing.T, dir string) {
				sparse(t, filepath.Join(dir, "huge.yaml"), 100<<20)
			},
			want:     []want{{path: "huge.yaml", rule: walk.RuleTooLarge, msg: "file is 100 MiB, over the 2 MiB limit"}},
			maxAlloc: 8 << 20,
		},
		{
			// With no size limit the file is read, once, and the YAML
			// parser's own 16 MiB limit stops it before any parsing; a
			// file just over that limit proves it.
			name: "huge-17mb-no-limit",
			setup: func(t *testing.T, dir string) {
				line := []byte(yamlHandback[:len(yamlHandback)-1] + " # " + strings.Repeat("x", 100) + "\n")
				writeRepeated(t, filepath.Join(dir, "huge.yaml"), "", line, "", 17<<20)
			},
			walk: walk.Options{MaxFileSize: -1},
			want: []want{{path: "huge.yaml", rule: scan.RuleParseError, msg: "more than the limit of 16777216"}},
			// bounded by a few copies of the file (read, lower-cased for
			// the prefilters...): 5.4 times its size measured, 7.8 under
			// -race
			maxAlloc: 10 * 17 << 20,
		},
		{
			name: "long-line-10mb-default-limit",
			setup: func(t *testing.T, dir string) {
				writeRepeated(t, filepath.Join(dir, "min.json"), "[", []byte(jsonHandback+", "), jsonHandback+"]", 10<<20)
			},
			want: []want{{path: "min.json", rule: walk.RuleTooLarge}},
		},
		{
			// Minified JSON: 5,000 messages on a 280 KiB line, each with a
			// drift, all found at their byte columns (yamlnode's
			// TestColumnsByteLinear bounds the work of those columns).
			name:  "long-line",
			files: map[string]string{"min.json": "[" + strings.Repeat(jsonHandback+", ", 5_000) + jsonHandback + "]\n"},
			want:  []want{{path: "min.json", line: 1, col: 5_000*(len(jsonHandback)+2) + 33, rule: "enumdrift/legacy-status"}},
		},
		{
			// A line over the default size limit, read with the limit
			// raised: the messages on both sides of 2 MiB of padding.
			name:  "long-line-raised-limit",
			files: map[string]string{"min.json": "[" + jsonHandback + `, {"pad": "` + strings.Repeat("x", 2<<20) + `"}, ` + jsonHandback + "]\n"},
			walk:  walk.Options{MaxFileSize: 16 << 20},
			want: []want{
				{path: "min.json", line: 1, col: 1 + 32, rule: "enumdrift/legacy-status"},
				{path: "min.json", line: 1, col: 1 + len(jsonHandback) + len(`, {"pad": "`) + 2<<20 + len(`"}, `) + 32, rule: "enumdrift/legacy-status"},
			},
		},
		{
			name: "binary-with-source-names",
			files: map[string]string{
				"bin.py":   "status = 'FAILED'\x00\x01\x02handback",
				"bin.go":   "package p\x00\xff\xfe",
				"bin.yaml": "\x00" + yamlHandback,
			},
			want: []want{
				{path: "bin.go", rule: scan.RuleBinary},
				{path: "bin.py", rule: scan.RuleBinary},
				{path: "bin.yaml", rule: scan.RuleBinary},
			},
		},
		{
			name: "invalid-utf8",
			files: map[string]string{
				"bad.yaml": "task_id: bad-1\nstatus: FAILED\nnote: \xff\xfe\noutput: {}\n",
				"bad.json": `{"task_id": "bad-1", "status": "FAILED", "output": null, "note": "` + "\xc3\x28" + `"}`,
				"bad.go":   "package p\n\n" + goStatus + "\nconst Note = \"\xff\"\n",
				// Python: tree-sitter reads the bytes as they are; the
				// drift beside them is found
				"bad.py": "note = '\xff\xfe'\n" + pyRoute,
			},
			want: []want{
				{path: "bad.go", rule: scan.RuleParseError, msg: "bad.go:11:15: illegal UTF-8 encoding"},
				{path: "bad.json", line: 1, col: 67, rule: scan.RuleParseError, msg: "invalid UTF-8"},
				{path: "bad.py", line: 3, col: 27, rule: "enumdrift/status-case"},
				{path: "bad.yaml", line: 3, col: 7, rule: scan.RuleParseError, msg: "invalid UTF-8"},
			},
		},
		{
			// Columns are byte columns: on line 1 they count the three
			// bytes of a byte order mark, in every language; the BOM does
			// not hide the first word from the prefilters either.
			name: "utf8-bom",
			files: map[string]string{
				"bom.yaml": "\ufeffstatus: FAILED\ntask_id: bad-1\noutput: {}\n",
				"bom.json": "\ufeff" + jsonHandback + "\n",
				"bom.py":   "\ufeff" + pyRoute,
				"bom.go":   "\ufeffpackage p\n\n" + goStatus,
				"bom.md":   "\ufeff```yaml\n" + yamlHandback + "```\n",
			},
			want: []want{
				{path: "bom.go", line: 7, col: 25, rule: "enumdrift/status-case"},
				{path: "bom.json", line: 1, col: 3 + 32, rule: "enumdrift/legacy-status"},
				{path: "bom.md", line: 3, col: 9, rule: "enumdrift/legacy-status"},
				{path: "bom.py", line: 2, col: 27, rule: "enumdrift/status-case"},
				{path: "bom.yaml", line: 1, col: 3 + 9, rule: "enumdrift/legacy-status"},
			},
		},
		{
			name: "crlf",
			files: map[string]string{
				"crlf.yaml": crlf("\n" + yamlHandback),
				"crlf.json": crlf("\n" + jsonHandback + "\n"),
				"crlf.py":   crlf("\n" + pyRoute),
				"crlf.go":   crlf("package p\n\n" + goStatus),
				"crlf.md":   crlf("# x\n\n```yaml\n" + yamlHandback + "```\n"),
			},
			want: []want{
				{path: "crlf.go", line: 7, col: 25, rule: "enumdrift/status-case"},
				{path: "crlf.json", line: 2, col: 32, rule: "enumdrift/legacy-status"},
				{path: "crlf.md", line: 5, col: 9, rule: "enumdrift/legacy-status"},
				{path: "crlf.py", line: 3, col: 27, rule: "enumdrift/status-case"},
				{path: "crlf.yaml", line: 3, col: 9, rule: "enumdrift/legacy-status"},
			},
		},
		{
			// Old Mac line ends. YAML counts a lone CR as a line end, as
			// the YAML spec says; the other extractors count LF only (to
			// JSON a CR is a blank, Python's tree-sitter rows and Go's
			// lines end at LF), so their findings are on line 1 at the
			// right byte column.
			name: "cr-only",
			files: map[string]string{
				"cr.yaml": cr("\n" + yamlHandback),
				"cr.json": cr("\n" + jsonHandback + "\n"),
				"cr.py":   cr("\n" + pyRoute),
			},
			want: []want{
				{path: "cr.json", line: 1, col: 1 + 32, rule: "enumdrift/legacy-status"},
				{path: "cr.py", line: 1, col: 49, rule: "enumdrift/status-case"},
				{path: "cr.yaml", line: 3, col: 9, rule: "enumdrift/legacy-status"},
			},
		},
		{
			name: "empty-files",
			files: map[string]string{
				"empty.yaml": "", "empty.json": "", "empty.jsonl": "", "empty.py": "", "empty.go": "", "empty.md": "",
			},
			want: []want{{path: "empty.go", rule: scan.RuleParseError, notPresent: true}},
		},
		{
			name: "symlink-loop",
			setup: func(t *testing.T, dir string) {
				symlink(t, "loop-b", filepath.Join(dir, "loop-a"))
				symlink(t, "loop-a", filepath.Join(dir, "loop-b"))
				symlink(t, "..", filepath.Join(dir, "good", "up"))
			},
			want: []want{
				{path: "good/up", rule: walk.RuleSymlinkLoop},
				{path: "loop-a", rule: walk.RuleSymlinkLoop},
				{path: "loop-b", rule: walk.RuleSymlinkLoop},
			},
		},
		{
			name: "symlink-out-of-root",
			setup: func(t *testing.T, dir string) {
				outside := t.TempDir()
				if err := os.WriteFile(filepath.Join(outside, "secret.yaml"), []byte(yamlHandback), 0o644); err != nil {
					t.Fatal(err)
				}
				symlink(t, filepath.Join(outside, "secret.yaml"), filepath.Join(dir, "secret.yaml"))
				symlink(t, outside, filepath.Join(dir, "outside"))
			},
			want: []want{
				{path: "outside", rule: walk.RuleSymlinkOutsideRoot},
				{path: "secret.yaml", rule: walk.RuleSymlinkOutsideRoot},
				{path: "secret.yaml", rule: "enumdrift/legacy-status", notPresent: true},
			},
		},
		{
			// chmod 000 denies nothing to root: the case is skipped there
			// (unreadable-during-scan covers the read error for root).
			name:  "unreadable-permissions",
			files: map[string]string{"locked.yaml": yamlHandback, "locked/inner.yaml": yamlHandback},
			setup: func(t *testing.T, dir string) {
				if os.Geteuid() == 0 {
					t.Skip("running as root: permissions deny nothing")
				}
				chmod(t, filepath.Join(dir, "locked.yaml"), 0)
				chmod(t, filepath.Join(dir, "locked"), 0)
			},
			want: []want{
				{path: "locked", rule: walk.RuleUnreadable, msg: "permission denied"},
				{path: "locked.yaml", rule: walk.RuleUnreadable, msg: "permission denied"},
			},
		},
		{
			// Between the walk and the read, the file becomes a directory:
			// a read error even root gets (EISDIR).
			name:  "unreadable-during-scan",
			files: map[string]string{"swapped.yaml": yamlHandback},
			setup: func(t *testing.T, dir string) {
				target := filepath.Join(dir, "swapped.yaml")
				t.Cleanup(scan.SetReadHook(func(name string) {
					if name == target {
						must(t, os.Remove(target))
						must(t, os.Mkdir(target, 0o755))
					}
				}))
			},
			want: []want{{path: "swapped.yaml", rule: walk.RuleUnreadable, msg: "cannot read file: is a directory"}},
		},
		{
			name:  "deleted-during-scan",
			files: map[string]string{"gone.yaml": yamlHandback, "gone.py": pyRoute},
			setup: func(t *testing.T, dir string) {
				t.Cleanup(scan.SetReadHook(func(name string) {
					if strings.HasPrefix(filepath.Base(name), "gone.") {
						must(t, os.Remove(name))
					}
				}))
			},
			want: []want{
				{path: "gone.py", rule: walk.RuleUnreadable, msg: "no such file or directory"},
				{path: "gone.yaml", rule: walk.RuleUnreadable, msg: "no such file or directory"},
			},
		},
	}
}

// TestBadInput runs the catalog (see the top of this file).
func TestBadInput(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(badinputDir, "good", "handback.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range badCases() {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "good", "handback.yaml"), good)
			for name, content := range c.files {
				write(t, filepath.Join(dir, name), []byte(content))
			}
			for _, name := range c.fixtures {
				data, err := os.ReadFile(filepath.Join(badinputDir, name))
				if err != nil {
					t.Fatal(err)
				}
				write(t, filepath.Join(dir, name), data)
			}
			if c.setup != nil {
				c.setup(t, dir)
			}
			opts := fullOptions(t, dir)
			opts.Walk = c.walk

			res, alloc, took := scanWithDeadline(t, dir, opts, 2*time.Minute) // 25x the slowest case under -race
			t.Logf("%v, %d MiB allocated, %d findings", took.Round(time.Millisecond), alloc>>20, len(res.Findings))
			if c.maxAlloc > 0 && alloc > c.maxAlloc {
				t.Errorf("the scan allocated %d MiB, want at most %d MiB", alloc>>20, c.maxAlloc>>20)
			}
			for _, w := range append(c.want, planted) {
				found := false
				for _, f := range res.Findings {
					found = found || w.match(f)
				}
				switch {
				case w.notPresent && found:
					t.Errorf("unexpected finding %v", w)
				case !w.notPresent && !found:
					t.Errorf("missing finding %v", w)
				}
			}
			// Fingerprints are those of the flagged line's text, however
			// many findings share a line (checked on a sample: this check
			// is the quadratic way).
			srcs := map[string][]byte{}
			for i, f := range res.Findings {
				if f.Line == 0 || i%997 != 0 && i != len(res.Findings)-1 {
					continue
				}
				src, ok := srcs[f.Path]
				if !ok {
					if src, err = os.ReadFile(filepath.Join(dir, f.Path)); err != nil {
						t.Fatal(err)
					}
					srcs[f.Path] = src
				}
				if want := baseline.Fingerprint(f.Rule, f.Path, baseline.LineText(src, f.Line)); f.Fingerprint != want {
					t.Fatalf("%s:%d %s: fingerprint %s, want %s", f.Path, f.Line, f.Rule, f.Fingerprint, want)
				}
			}
			if t.Failed() {
				for _, f := range res.Findings {
					t.Logf("got %s:%d:%d %s %.200s", f.Path, f.Line, f.Col, f.Rule, f.Message)
				}
			}
		})
	}
}

// scanWithDeadline runs scan.Run and fails the test, rather than hang it,
// when the scan has not returned by the deadline. It returns the result,
// the bytes allocated meanwhile and the time taken.
func scanWithDeadline(t *testing.T, dir string, opts scan.Options, d time.Duration) (*scan.Result, uint64, time.Duration) {
	t.Helper()
	type outcome struct {
		res *scan.Result
		err error
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	done := make(chan outcome, 1)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	go func() {
		res, err := scan.Run(ctx, dir, opts)
		done <- outcome{res, err}
	}()
	var o outcome
	select {
	case o = <-done:
	case <-time.After(d + 10*time.Second): // a stage that ignores ctx
		t.Fatalf("the scan did not end within %v", d+10*time.Second)
	}
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if errors.Is(o.err, context.DeadlineExceeded) {
		t.Fatalf("the scan did not end within %v", d)
	}
	if o.err != nil {
		t.Fatal(o.err)
	}
	return o.res, after.TotalAlloc - before.TotalAlloc, took
}

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
func cr(s string) string   { return strings.ReplaceAll(s, "\n", "\r") }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Error(err)
	}
}

func write(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

func chmod(t *testing.T, name string, mode os.FileMode) {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, mode); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(name, fi.Mode().Perm()) }) // so t.TempDir can remove it
}

// sparse makes a file of size bytes that takes no room on disk.
func sparse(t *testing.T, name string, size int64) {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
}

// writeRepeated writes head, then unit again and again until the file has
// at least size bytes, then tail, without holding it all in memory.
func writeRepeated(t *testing.T, name, head string, unit []byte, tail string, size int) {
	t.Helper()
	chunk := bytes.Repeat(unit, max(1, (1<<20)/len(unit)))
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(head); err != nil {
		t.Fatal(err)
	}
	for n := 0; n < size; n += len(chunk) {
		if _, err := f.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.WriteString(tail); err != nil {
		t.Fatal(err)
	}
}
