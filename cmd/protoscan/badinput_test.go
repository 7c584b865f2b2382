package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The bad-input catalog's cases that end in an exit code: malicious specs,
// a config of the wrong types, and the exit codes of scans over bad files
// (testdata/badinput/README.md lists them all; internal/scan/badinput_test.go
// checks the findings).

const badinputDir = "../../testdata/badinput"

// badRoot makes a scan root holding good/handback.yaml (a planted drift)
// and the given files.
func badRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	good, err := os.ReadFile(filepath.Join(badinputDir, "good", "handback.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	files["good/handback.yaml"] = string(good)
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(badinputDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// runWithDeadline runs the command in process and fails the test if it
// has not returned within d: a watchdog, which only turns a hang into a
// failure (the work each case may do is bounded by the tests of the
// packages that bound it: msgcheck, yamlnode, internal/scan).
func runWithDeadline(t *testing.T, d time.Duration, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		c := run(args, nil, &out, &errb)
		done <- result{c, out.String(), errb.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.stdout, r.stderr
	case <-time.After(d):
		t.Fatalf("protoscan %s: no exit within %v", strings.Join(args, " "), d)
	}
	return 0, "", ""
}

func TestBadInputExitCodes(t *testing.T) {
	refChain := func(n int) string {
		var b strings.Builder
		b.WriteString("protocol: protocol-core\nversion: \"1.0\"\ndefinitions:\n")
		for i := range n - 1 {
			fmt.Fprintf(&b, "  d%d: {$ref: \"#/definitions/d%d\"}\n", i, i+1)
		}
		fmt.Fprintf(&b, "  d%d: {type: string, pattern: \"^[a-z]+-[0-9]+$\"}\n", n-1)
		b.WriteString("handback:\n  signature: [task_id, status]\n  core_fields:\n    task_id: {$ref: \"#/definitions/d0\"}\n    status: {type: string, enum: [success, failure]}\n")
		return b.String()
	}
	refLaughs := func(n int) string {
		var b strings.Builder
		b.WriteString("protocol: protocol-core\nversion: \"1.0\"\ndefinitions:\n")
		for i := range n {
			fmt.Fprintf(&b, "  d%d: {allOf: [{$ref: \"#/definitions/d%d\"}, {$ref: \"#/definitions/d%d\"}]}\n", i, i+1, i+1)
		}
		fmt.Fprintf(&b, "  d%d: {type: string}\n", n)
		b.WriteString("handback:\n  signature: [task_id, status]\n  core_fields:\n    task_id: {$ref: \"#/definitions/d0\"}\n    status: {type: string, enum: [success, failure]}\n")
		return b.String()
	}
	for _, c := range []struct {
		name   string
		files  map[string]string
		spec   string // a file of the root given as --spec
		args   []string
		code   int
		stderr string // a regexp the stderr must match ("" for empty)
		stdout string // a regexp the stdout must match
	}{
		{
			// (a+)+$ against 100,000 a's and a '!': exponential for a
			// backtracking engine, linear for RE2.
			name:   "spec-redos",
			files:  map[string]string{"spec.yaml": fixture(t, "spec-redos.yaml"), "redos.yaml": "task_id: " + strings.Repeat("a", 100_000) + "!\nstatus: success\n"},
			spec:   "spec.yaml",
			code:   exitFailed,
			stdout: `redos\.yaml:1:10: error: task_id: must match \^\(a\+\)\+\$.* \[msgcheck/handback-task-id-format\]`,
		},
		{
			name:   "spec-ref-cycle",
			files:  map[string]string{"spec.yaml": fixture(t, "spec-ref-cycle.yaml")},
			spec:   "spec.yaml",
			code:   exitTrouble,
			stderr: `spec\.yaml:\d+:\d+: .*cycle`,
		},
		{
			// 10,000 $refs in a chain: over the spec's schema budget, a
			// spec error at the schema that crosses it.
			name:   "spec-ref-chain",
			files:  map[string]string{"spec.yaml": refChain(10_000)},
			spec:   "spec.yaml",
			code:   exitTrouble,
			stderr: `spec\.yaml:\d+:\d+: spec expands to more than 10000 schemas`,
		},
		{
			// 1,000 resolve, each to the next.
			name:   "spec-ref-chain-1000",
			files:  map[string]string{"spec.yaml": refChain(1000), "chain.yaml": "task_id: NOT-KEBAB\nstatus: success\n"},
			spec:   "spec.yaml",
			code:   exitFailed,
			stdout: `chain\.yaml:1:10: error: task_id: must match.* \[msgcheck/handback-task-id-format\]`,
		},
		{
			name:   "spec-cel-bad",
			files:  map[string]string{"spec.yaml": fixture(t, "spec-cel-bad.yaml")},
			spec:   "spec.yaml",
			code:   exitTrouble,
			stderr: `spec\.yaml:10:\d+: .*`,
		},
		{
			// A rule that doubles a string at each of 40 nested cel.bind:
			// stopped at its cost budget, a warning naming it, in well
			// under a second.
			name:   "spec-cel-doubling",
			files:  map[string]string{"spec.yaml": fixture(t, "spec-cel-doubling.yaml"), "msg.yaml": "task_id: a\nstatus: success\n"},
			spec:   "spec.yaml",
			args:   []string{"--exclude", "good"},
			code:   exitOK,
			stdout: `msg\.yaml:1:1: warning: rule msgcheck/handback-rule-1 \("cel\.bind\(v0, .*\.\.\."\) exceeded its cost budget \[msgcheck/handback-rule-1\]`,
		},
		{
			// Definitions each naming the next twice, 40 levels: every
			// one compiled once, but 2^40 checks of a value; a spec
			// error naming the file.
			name:   "spec-ref-laughs",
			files:  map[string]string{"spec.yaml": refLaughs(40)},
			spec:   "spec.yaml",
			code:   exitTrouble,
			stderr: `spec\.yaml:\d+:\d+: .*expands to more than 10000 schemas checking one value`,
		},
		{
			name:   "config-wrong-types",
			files:  map[string]string{".protoscan.yaml": fixture(t, "config-wrong-types/.protoscan.yaml")},
			code:   exitTrouble,
			stderr: `(?s)\.protoscan\.yaml:2:10: .*\.protoscan\.yaml:4:16: `,
		},
		{
			// Bad files alone: their notices are warnings and notes, so
			// the default --fail-on error passes...
			name: "notices-only",
			files: map[string]string{
				"alias-bomb.yaml": dataBomb(t),
				"bin.py":          "status = 'x'\x00",
				"bad.yaml":        "status: \xff\n",
			},
			args:   []string{"--exclude", "good"},
			code:   exitOK,
			stdout: `alias-bomb\.yaml:13:17: warning: .*: aliases expand the document by more than 1000000 nodes \(alias bomb\?\) \[protoscan/parse-error\]`,
		},
		{
			// ...and --fail-on warning fails.
			name:   "notices-fail-on-warning",
			files:  map[string]string{"alias-bomb.yaml": dataBomb(t)},
			args:   []string{"--exclude", "good", "--fail-on", "warning"},
			code:   exitFailed,
			stdout: `alias-bomb\.yaml:13:17: warning: .*: aliases expand the document by more than 1000000 nodes \(alias bomb\?\) \[protoscan/parse-error\]`,
		},
		{
			// A message that cannot be read cannot pass: the bomb in a
			// HANDBACK is an error of its own.
			name:   "broken-message",
			files:  map[string]string{"alias-bomb.yaml": fixture(t, "alias-bomb.yaml")},
			args:   []string{"--exclude", "good"},
			code:   exitFailed,
			stdout: `alias-bomb\.yaml:13:17: error: .*looks like a protocol message.*: aliases expand the document by more than 1000000 nodes \(alias bomb\?\) \[protoscan/parse-error\]`,
		},
		{
			// With the planted error beside them, the run fails on it.
			name:   "notices-and-planted",
			files:  map[string]string{"alias-bomb.yaml": dataBomb(t)},
			code:   exitFailed,
			stdout: `(?s)alias-bomb\.yaml:13:17: warning: .*\[protoscan/parse-error\].*good/handback\.yaml:2:9: error: .*\[enumdrift/legacy-status\]`,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := badRoot(t, c.files)
			args := []string{"scan", "--no-cache"}
			if c.spec != "" {
				args = append(args, "--spec", filepath.Join(root, c.spec), "--exclude", c.spec)
			}
			args = append(append(args, c.args...), root)
			// 37x the slowest case under -race (spec-ref-chain, 0.8 s)
			code, stdout, stderr := runWithDeadline(t, 30*time.Second, args...)
			if code != c.code {
				t.Errorf("exit %d, want %d", code, c.code)
			}
			if c.stderr == "" && stderr != "" || c.stderr != "" && !regexp.MustCompile(c.stderr).MatchString(stderr) {
				t.Errorf("stderr does not match %q", c.stderr)
			}
			if c.stdout != "" && !regexp.MustCompile(c.stdout).MatchString(stdout) {
				t.Errorf("stdout does not match %q", c.stdout)
			}
			if t.Failed() {
				t.Logf("stdout:\n%.3000s\nstderr:\n%.3000s", stdout, stderr)
			}
		})
	}
}

// dataBomb is the alias bomb of testdata/badinput with no HANDBACK
// around it: broken data, whose parse error is a warning.
func dataBomb(t *testing.T) string {
	t.Helper()
	bomb := fixture(t, "alias-bomb.yaml")
	data := strings.Replace(bomb, "task_id: bomb-1\nstatus: success\noutput:\n", "status: success\nlaughs:\n  x: 1\n", 1)
	if data == bomb {
		t.Fatal("alias-bomb.yaml has changed: its HANDBACK fields are not where dataBomb looks for them")
	}
	return data
}
