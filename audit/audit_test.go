package audit_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/audit"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

const delegateYAML = `task_id: %ID%
skill: queue-management
agent: senior-engineer
scope: Update the queue parser so that empty task ids are rejected with a clear error message and tests
success_criteria: [Empty ids are rejected]
plan: [Read the parser code, Write the failing tests, Fix the parser now]
context: The queue parser accepts an empty task id today, which later breaks the scheduler when it looks the task up
`

func handbackJSON(id, status string) string {
	return `{"handoff_type":"HANDBACK","task_id":"` + id + `","status":"` + status +
		`","output":{},"metrics":{"quality":0.5,"tokens":1,"cost":0,"duration_seconds":1}}`
}

// repo writes files (path -> content) under a root with a skills dir.
func repo(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	files["skills/queue-management/README.md"] = "skill"
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func run(t *testing.T, root string, inputs []string, stdin string, verdicts *bytes.Buffer) *audit.Summary {
	t.Helper()
	v, err := msgcheck.New(msgcheck.Options{Root: root}, msgcheck.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	opts := audit.Options{Validator: v, Spec: msgcheck.DefaultSpec()}
	if verdicts != nil {
		opts.Verdicts = verdicts
	}
	wd, _ := os.Getwd()
	if err := os.Chdir(root); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	s, err := audit.Run(context.Background(), inputs, strings.NewReader(stdin), opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func checks(s *audit.Summary) map[string][]string {
	out := map[string][]string{}
	for _, p := range append(s.Integrity.All(), s.Problems...) {
		out[p.Check] = append(out[p.Check], p.Location.String())
	}
	return out
}

func TestIntegrity(t *testing.T) {
	d := func(id, extra string) string { return strings.Replace(delegateYAML, "%ID%", id, 1) + extra }
	root := repo(t, map[string]string{
		"queue/incoming/DELEGATE-a.yaml": d("task-a-001", "dependencies: [task-b-001]\n"),
		"queue/incoming/DELEGATE-b.yaml": d("task-b-001", "dependencies: [task-a-001]\nparent_task_id: task-nope-001\n"),
		"queue/incoming/DELEGATE-c.yaml": d("task-c-001", ""),
		"queue/incoming/DELEGATE-d.yaml": d("task-c-001", ""),
		"queue/done/a-HANDBACK.json":     handbackJSON("task-a-001", "partial"),
		"queue/done/b-HANDBACK.json":     handbackJSON("task-b-001", "success"),
		"queue/done/c-HANDBACK.json":     handbackJSON("task-c-001", "success"),
		"queue/done/x-HANDBACK.json":     handbackJSON("task-x-001", "success"),
	})
	s := run(t, root, []string{"queue"}, "", nil)
	got := checks(s)
	want := map[string][]string{
		audit.CheckOrphan:     {"queue/done/x-HANDBACK.json"},
		audit.CheckUnfinished: {"queue/done/a-HANDBACK.json"},
		audit.CheckDuplicate:  {"queue/incoming/DELEGATE-d.yaml"},
		audit.CheckReference:  {"queue/incoming/DELEGATE-b.yaml"},
		audit.CheckCycle:      {"queue/incoming/DELEGATE-a.yaml"},
	}
	for check, locs := range want {
		if strings.Join(got[check], " ") != strings.Join(locs, " ") {
			t.Errorf("%s: %v, want %v", check, got[check], locs)
		}
	}
	if len(got[audit.CheckPending]) != 0 {
		t.Errorf("pending: %v, want none (every DELEGATE has its HANDBACK)", got[audit.CheckPending])
	}
	if s.Messages != 8 || s.Valid != 8 {
		t.Errorf("messages %d valid %d, want 8 and 8", s.Messages, s.Valid)
	}
	// a DELEGATE without HANDBACK is pending
	root2 := repo(t, map[string]string{"queue/incoming/DELEGATE-p.yaml": d("task-p-001", "")})
	if got := checks(run(t, root2, []string{"queue"}, "", nil))[audit.CheckPending]; len(got) != 1 {
		t.Errorf("pending: %v, want one", got)
	}
}

// TestHostileCycle: the queue of the issue "Hostile pull requests",
// 20,000 DELEGATEs on stdin each depending on the next and on the first,
// is audited with one cycle problem of a few hundred bytes (its back
// edges once made a problem each, naming the cycle up to it, until the
// audit ran out of memory).
func TestHostileCycle(t *testing.T) {
	const n = 20000
	var in strings.Builder
	for i := 1; i <= n; i++ {
		deps := fmt.Sprintf(`"t-%d","t-1"`, i+1)
		if i == n {
			deps = `"t-1"`
		}
		fmt.Fprintf(&in, `{"handoff_type":"DELEGATE","task_id":"t-%d","dependencies":[%s]}`+"\n", i, deps)
	}
	s := run(t, repo(t, map[string]string{}), []string{"-"}, in.String(), nil)
	var got []string
	s.Integrity.Each(audit.CheckCycle, func(p audit.Problem) bool {
		got = append(got, p.Location.String()+" "+p.Message)
		return true
	})
	want := []string{"-:1 dependency cycle of 20000 DELEGATEs: t-1 -> t-2 -> t-3 -> t-4 -> t-5 -> ... (19995 more) -> t-1"}
	if !slices.Equal(got, want) {
		t.Errorf("cycles %.500q, want %q", got, want)
	}
}

func TestStdinAndVerdicts(t *testing.T) {
	root := repo(t, map[string]string{})
	in := handbackJSON("task-a-001", "success") + "\n\n" + handbackJSON("task-b-001", "DONE") + "\n{broken\n"
	var verdicts bytes.Buffer
	s := run(t, root, []string{"-"}, in, &verdicts)
	if verdicts.String() != "1\n0\n0\n" {
		t.Errorf("verdicts %q, want 1, 0, 0 (blank lines are not messages)", verdicts.String())
	}
	if s.Messages != 3 || s.Valid != 1 || s.Invalid != 1 || s.Malformed != 1 {
		t.Errorf("messages %d valid %d invalid %d malformed %d", s.Messages, s.Valid, s.Invalid, s.Malformed)
	}
	checkTotals(t, s, &verdicts)
	if got := checks(s)[audit.CheckMalformed]; strings.Join(got, " ") != "-:4" {
		t.Errorf("malformed at %v, want -:4", got)
	}
	if len(s.Statuses) != 2 || s.Statuses[0].Value != "DONE" || s.Statuses[0].Canonical != "" {
		t.Errorf("statuses %+v", s.Statuses)
	}
}

func TestBadInput(t *testing.T) {
	long := `{"handoff_type":"HANDBACK","task_id":"task-a-001","status":"success","output":{"log":"` +
		strings.Repeat("x", 10<<20) + `"},"metrics":{"quality":0.5,"tokens":1,"cost":0,"duration_seconds":1}}`
	root := repo(t, map[string]string{
		"q/truncated.json":  handbackJSON("task-t-001", "success")[:40],
		"q/big.jsonl":       long + "\n" + handbackJSON("task-b-001", "success") + "\n",
		"q/utf8.jsonl":      handbackJSON("task-u-001", "succ\xffess") + "\n" + handbackJSON("task-v-001", "success") + "\n",
		"q/utf8.yaml":       "handoff_type: HANDBACK\ntask_id: task-y-001\nstatus: \"a\xffb\"\n",
		"q/notyaml.yaml":    "task_id: [unclosed\n",
		"q/z-after.jsonl":   handbackJSON("task-z-001", "success") + "\n",
		"q/ignored.txt":     "not a message file",
		"q/deep/deep.jsonl": strings.Repeat("[", 100000) + "\n",
	})
	var verdicts bytes.Buffer
	s := run(t, root, []string{"q", "missing-path"}, "", &verdicts)
	var problems []string
	for _, p := range s.Problems {
		problems = append(problems, p.Location.String()+": "+p.Check+": "+p.Message)
	}
	// each bad message is malformed at its place, counted so, and the
	// audit reads on: the line after the 10 MB one and the one after the
	// invalid UTF-8, z-after.jsonl, the files after the bad ones; only
	// the missing path is unreadable
	want := []string{
		"q/deep/deep.jsonl:1: malformed: not a JSON message: offset 10000: nesting too deep",
		"q/notyaml.yaml:1: malformed: not a YAML message: did not find expected ',' or ']'",
		"q/truncated.json: malformed: not a JSON message: offset 40: unexpected end of JSON input",
		"q/utf8.jsonl:1: malformed: not a JSON message: offset 64: invalid UTF-8 in string literal",
		"q/utf8.yaml:3: malformed: not a YAML message: column 11: invalid UTF-8",
		"missing-path: unreadable: stat missing-path: no such file or directory",
	}
	if strings.Join(problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
	// big.jsonl's two lines, deep, notyaml, truncated, utf8.jsonl's two, utf8.yaml, z-after
	if s.Messages != 9 || s.Valid != 4 || s.Malformed != 5 || verdicts.String() != "1\n1\n0\n0\n0\n0\n1\n0\n1\n" {
		t.Errorf("messages %d valid %d malformed %d verdicts %q", s.Messages, s.Valid, s.Malformed, verdicts.String())
	}
	checkTotals(t, s, &verdicts)
}

// TestReportCounts: errors and warnings are counted per rule apart, and
// a field the spec deprecates is counted by name, as unknown fields are.
func TestReportCounts(t *testing.T) {
	src, err := os.ReadFile("../msgcheck/specs/protocol-core-v1.0.yaml")
	if err != nil {
		t.Fatal(err)
	}
	flags := "    flags:\n      type: [array, object]\n"
	if !bytes.Contains(src, []byte(flags)) {
		t.Fatal("the embedded spec no longer declares handback flags as this test expects")
	}
	src = bytes.Replace(src, []byte(flags), []byte(flags+"      deprecated: use children_results\n"), 1)
	spec, err := msgcheck.ParseSpec("deprecating.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	v, err := msgcheck.New(msgcheck.Options{}, spec)
	if err != nil {
		t.Fatal(err)
	}
	hb := func(id, status, extra string) string {
		return strings.Replace(handbackJSON(id, status), `"output":{}`, `"output":{}`+extra, 1) + "\n"
	}
	in := hb("task-a-001", "success", `,"flags":[]`) + hb("task-b-001", "success", `,"flags":{},"x_trace":"1"`) +
		hb("task-c-001", "DONE", "") + hb("task-d-001", "success", "")
	s, err := audit.Run(context.Background(), []string{"-"}, strings.NewReader(in), audit.Options{Validator: v, Spec: spec})
	if err != nil {
		t.Fatal(err)
	}
	if s.Messages != 4 || s.Valid != 3 || s.WithWarnings() != 2 {
		t.Errorf("messages %d valid %d with warnings %d, want 4, 3, 2", s.Messages, s.Valid, s.WithWarnings())
	}
	want := []audit.RuleCount{{Rule: "msgcheck/handback-status-enum", Severity: audit.SeverityError, N: 1},
		{Rule: "msgcheck/handback-flags-deprecated", Severity: audit.SeverityWarning, N: 2},
		{Rule: "msgcheck/handback-unknown-field", Severity: audit.SeverityWarning, N: 1}}
	if fmt.Sprint(s.Rules) != fmt.Sprint(want) {
		t.Errorf("rules %v, want %v", s.Rules, want)
	}
	if fmt.Sprint(s.DeprecatedFields, s.UnknownFields) != "[{flags 2}] [{x_trace 1}]" {
		t.Errorf("deprecated %v, unknown %v", s.DeprecatedFields, s.UnknownFields)
	}
}

// TestFileTooLarge: a message file over the limit is not read whole, it
// is an unreadable input named with its size, and the audit goes on.
func TestFileTooLarge(t *testing.T) {
	big := handbackJSON("task-b-001", "success")
	big = big[:len(big)-1] + `,"pad":"` + strings.Repeat("x", 2000) + `"}`
	root := repo(t, map[string]string{
		"q/a.json": big,
		"q/b.yaml": "task_id: x\npad: " + strings.Repeat("y", 2000) + "\n",
		"q/c.json": handbackJSON("task-c-001", "success"),
	})
	inputs := []string{filepath.Join(root, "q")}
	// a file whose size says nothing, as a device's: the limit holds
	// while reading
	zero := filepath.Join(root, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err == nil {
		if _, err := os.Stat(zero); err == nil {
			inputs = append(inputs, zero)
		}
	}
	v, _ := msgcheck.New(msgcheck.Options{Root: root}, msgcheck.DefaultSpec())
	s, err := audit.Run(context.Background(), inputs, nil,
		audit.Options{Validator: v, Spec: msgcheck.DefaultSpec(), MaxLine: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var problems []string
	for _, p := range s.Problems {
		problems = append(problems, filepath.Base(p.Path)+": "+p.Check+": "+p.Message)
	}
	want := fmt.Sprintf("a.json: unreadable: file is %d bytes, more than the limit of 1000; skipped\n"+
		"b.yaml: unreadable: file is 2017 bytes, more than the limit of 1000; skipped", len(big))
	if len(inputs) > 1 {
		want += "\nzero.json: unreadable: file is more than the limit of 1000 bytes; skipped"
	}
	if strings.Join(problems, "\n") != want || s.Messages != 1 || s.Valid != 1 {
		t.Errorf("messages %d valid %d, problems:\n%s\nwant:\n%s", s.Messages, s.Valid, strings.Join(problems, "\n"), want)
	}
}

func TestLineTooLong(t *testing.T) {
	root := repo(t, map[string]string{})
	v, _ := msgcheck.New(msgcheck.Options{Root: root}, msgcheck.DefaultSpec())
	in := strings.Repeat("x", 5000) + "\n" + handbackJSON("task-a-001", "success") + "\n"
	s, err := audit.Run(context.Background(), []string{"-"}, strings.NewReader(in),
		audit.Options{Validator: v, Spec: msgcheck.DefaultSpec(), MaxLine: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if s.Valid != 1 || len(s.Problems) != 1 || s.Problems[0].Line != 1 {
		t.Errorf("valid %d problems %+v: the long line is skipped with a problem, the next one read", s.Valid, s.Problems)
	}
}

// FuzzMessageFile: any bytes in a message file of a queue tree, JSON or
// YAML, give a summary whose counts add up, every problem at that file,
// never a panic.
func FuzzMessageFile(f *testing.F) {
	f.Add([]byte(handbackJSON("task-a-001", "success")), false)
	f.Add([]byte("["+handbackJSON("task-a-001", "success")+",{}]"), false)
	f.Add([]byte("\xef\xbb\xbf[1,{\"a\":\"\xff\"}]"), false)
	f.Add([]byte(strings.Replace(delegateYAML, "%ID%", "task-a-001", 1)+"---\n- {a: 1}\n- {b: *x}\n"), true)
	f.Add([]byte("a: &x [*x]\n---\nb: [unclosed\n"), true)
	v, _ := msgcheck.New(msgcheck.Options{}, msgcheck.DefaultSpec())
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, yamlFile bool) {
		name := filepath.Join(dir, "m.json")
		if yamlFile {
			name = filepath.Join(dir, "m.yaml")
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(name)
		var verdicts bytes.Buffer
		s, err := audit.Run(context.Background(), []string{dir}, nil,
			audit.Options{Validator: v, Spec: msgcheck.DefaultSpec(), MaxLine: 1 << 16, Verdicts: &verdicts, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		checkTotals(t, s, &verdicts)
		for _, p := range append(s.Integrity.All(), s.Problems...) {
			if p.Path != filepath.ToSlash(name) || p.Message == "" {
				t.Fatalf("problem %+v", p)
			}
			if p.Check == audit.CheckUnreadable {
				t.Fatalf("a file that was read is unreadable: %+v", p)
			}
		}
	})
}

// FuzzJSONL: any byte stream gives a summary, never a panic, and the
// counts add up.
func FuzzJSONL(f *testing.F) {
	f.Add([]byte(handbackJSON("task-a-001", "success") + "\n"))
	f.Add([]byte("{\n}\n\r\n\xff\n[[[\n"))
	f.Add([]byte(`{"task_id": "a", "scope": "x"}` + "\n" + `{"handoff_type": 5}`))
	v, _ := msgcheck.New(msgcheck.Options{}, msgcheck.DefaultSpec())
	f.Fuzz(func(t *testing.T, data []byte) {
		var verdicts bytes.Buffer
		s, err := audit.Run(context.Background(), []string{"-"}, bytes.NewReader(data),
			audit.Options{Validator: v, Spec: msgcheck.DefaultSpec(), MaxLine: 4096, Verdicts: &verdicts, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		checkTotals(t, s, &verdicts)
		// the integrity problems are written from the index on demand
		all := s.Integrity.All()
		if len(all) != s.Integrity.Len() {
			t.Fatalf("%d integrity problems written, %d counted", len(all), s.Integrity.Len())
		}
		for _, p := range all {
			if p.Message == "" || p.Path != "-" || p.Line < 1 {
				t.Fatalf("integrity problem %+v", p)
			}
		}
	})
}

// TestLineTooLongAcrossChunks: a line over the limit that spans several
// reads is skipped to its end, and the lines after it keep their numbers.
func TestLineTooLongAcrossChunks(t *testing.T) {
	root := repo(t, map[string]string{})
	v, _ := msgcheck.New(msgcheck.Options{Root: root}, msgcheck.DefaultSpec())
	in := handbackJSON("task-a-001", "success") + "\n" + strings.Repeat("y", 5<<20) + "\n" + handbackJSON("task-b-001", "DONE") + "\n"
	var verdicts bytes.Buffer
	s, err := audit.Run(context.Background(), []string{"-"}, strings.NewReader(in),
		audit.Options{Validator: v, Spec: msgcheck.DefaultSpec(), MaxLine: 2 << 20, Verdicts: &verdicts})
	if err != nil {
		t.Fatal(err)
	}
	if verdicts.String() != "1\n0\n" || len(s.Problems) != 1 || s.Problems[0].Line != 2 {
		t.Errorf("verdicts %q problems %+v", verdicts.String(), s.Problems)
	}
	if got := checks(s); len(got[audit.CheckMalformed]) != 0 {
		t.Errorf("malformed: %v", got[audit.CheckMalformed])
	}
}

// TestYAMLFiles: the workers read and decode the files of a tree; a file
// of several documents is one message per document, each at its line, in
// file order; a syntax error is a malformed message at its line, after
// the documents before it; an empty file is no message.
func TestYAMLFiles(t *testing.T) {
	d := func(id string) string { return strings.Replace(delegateYAML, "%ID%", id, 1) }
	root := repo(t, map[string]string{
		"q/a.yaml": d("task-a-001") + "---\n" + d("task-b-001") + "---\n- not a mapping\n",
		"q/b.yaml": d("task-c-001") + "---\nkey: [unclosed\n",
		"q/c.yaml": "",
		"q/d.yaml": d("task-d-001"),
		"q/e.json": handbackJSON("task-d-001", "success"),
	})
	var verdicts bytes.Buffer
	s := run(t, root, []string{"q"}, "", &verdicts)
	// a.yaml's three documents, b.yaml's one and its malformed rest,
	// d.yaml, e.json
	if s.Messages != 7 || verdicts.String() != "1\n1\n0\n1\n0\n1\n1\n" {
		t.Errorf("%d messages, verdicts %q", s.Messages, verdicts.String())
	}
	var problems []string
	for _, p := range s.Problems {
		problems = append(problems, p.Check+" "+p.Location.String())
	}
	if want := "malformed q/b.yaml:8"; strings.Join(problems, ", ") != want {
		t.Errorf("problems %q, want %q", problems, want)
	}
	pending := checks(s)[audit.CheckPending]
	if want := "q/a.yaml:1 q/a.yaml:9 q/b.yaml:1"; strings.Join(pending, " ") != want {
		t.Errorf("pending DELEGATEs at %q, want %q", pending, want)
	}
}

// TestListFiles: a file whose document is a list of mappings holds one
// message per item, each at its line, as protoscan validate reads it; a
// JSON file may start with a BOM; a list of anything else is one
// message, and not a valid one.
func TestListFiles(t *testing.T) {
	hb := func(id, status string) string { return handbackJSON(id, status) }
	root := repo(t, map[string]string{
		"q/a.json": "[" + hb("task-a-001", "success") + ",\n " + hb("task-b-001", "done") + "]\n",
		"q/b.yaml": "- handoff_type: HANDBACK\n  task_id: task-c-001\n  status: success\n  output: {}\n" +
			"  metrics: {quality: 0.5, tokens: 1, cost: 0, duration_seconds: 1}\n" +
			"- handoff_type: HANDBACK\n  task_id: task-d-001\n  status: SUCCESS\n  output: {}\n" +
			"  metrics: {quality: 0.5, tokens: 1, cost: 0, duration_seconds: 1}\n",
		"q/c.json": "\xef\xbb\xbf" + hb("task-e-001", "success"),
		"q/d.json": "[1, 2]",
		"q/e.json": "[" + hb("task-f-001", "success") + ",\n {\"task_id\": }]",
	})
	var verdicts bytes.Buffer
	s := run(t, root, []string{"q"}, "", &verdicts)
	got := checks(s)[audit.CheckOrphan]
	if want := "q/a.json:1 q/a.json:2 q/b.yaml:1 q/b.yaml:6 q/c.json"; strings.Join(got, " ") != want {
		t.Errorf("HANDBACKs at %q, want %q", got, want)
	}
	// a.json's two, b.yaml's two, c.json, d.json as one, e.json's error
	if s.Messages != 7 || verdicts.String() != "1\n0\n1\n0\n1\n0\n0\n" {
		t.Errorf("%d messages, verdicts %q", s.Messages, verdicts.String())
	}
	var problems []string
	for _, p := range s.Problems {
		problems = append(problems, p.Location.String()+": "+p.Check+": "+p.Message)
	}
	if want := "q/e.json:2: malformed: not a JSON message: column 14: invalid character '}' looking for beginning of value"; strings.Join(problems, "\n") != want {
		t.Errorf("problems %q, want %q", problems, want)
	}
}

// TestSymlinks: a tree's links are never followed into directories (a
// loop cannot hang the audit); a link to what the tree holds anyway is
// passed over, one to a message file elsewhere audited at its own path,
// and the others are named as problems.
func TestSymlinks(t *testing.T) {
	root := repo(t, map[string]string{
		"q/real/a.json":   handbackJSON("task-a-001", "success"),
		"outside/b.json":  handbackJSON("task-b-001", "success"),
		"outside/c.json":  handbackJSON("task-c-001", "success"),
		"q/real/notes.md": "not a message",
	})
	for link, target := range map[string]string{
		"q/in.json":     "real/a.json",       // inside: a.json is audited once
		"q/out.json":    "../outside/b.json", // a message file elsewhere
		"q/outdir":      "../outside",        // a directory elsewhere: not followed
		"q/self":        ".",                 // a loop through a directory
		"q/broken.yaml": "nowhere.yaml",
		"q/loop1.json":  "loop2.json",
		"q/loop2.json":  "loop1.json",
		"q/notes":       "real/notes.md", // not a message file: ignored
	} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	var verdicts bytes.Buffer
	s := run(t, root, []string{"q"}, "", &verdicts)
	if s.Messages != 2 || s.Valid != 2 || len(checks(s)[audit.CheckDuplicate]) != 0 {
		t.Errorf("messages %d valid %d duplicates %v, want a.json and out.json once each", s.Messages, s.Valid, checks(s)[audit.CheckDuplicate])
	}
	if got := checks(s)[audit.CheckOrphan]; strings.Join(got, " ") != "q/out.json q/real/a.json" {
		t.Errorf("audited %v", got)
	}
	var problems []string
	for _, p := range s.Problems {
		problems = append(problems, p.Location.String())
	}
	slices.Sort(problems)
	if want := "q/broken.yaml q/loop1.json q/loop2.json q/outdir"; strings.Join(problems, " ") != want {
		t.Errorf("problems at %v, want %s", problems, want)
	}
	for _, p := range s.Problems {
		if p.Path == "q/outdir" && !strings.Contains(p.Message, "symbolic link to a directory outside the audited tree") {
			t.Errorf("q/outdir: %s", p.Message)
		}
	}
	// a PATH that is itself a link to the tree is walked, at its name
	if err := os.Symlink("q", filepath.Join(root, "qlink")); err != nil {
		t.Fatal(err)
	}
	s = run(t, root, []string{"qlink"}, "", nil)
	if got := checks(s)[audit.CheckOrphan]; strings.Join(got, " ") != "qlink/out.json qlink/real/a.json" {
		t.Errorf("through a linked PATH, audited %v", got)
	}
}

// TestTreeOrder: a tree's files are audited in the order of their paths,
// which is not WalkDir's where a folder's name is a prefix of a file's.
func TestTreeOrder(t *testing.T) {
	root := repo(t, map[string]string{
		"q/a.json":   handbackJSON("task-a-001", "success"),
		"q/a/x.json": handbackJSON("task-x-001", "DONE"),
	})
	var verdicts bytes.Buffer
	run(t, root, []string{"q"}, "", &verdicts)
	if verdicts.String() != "1\n0\n" {
		t.Errorf("verdicts %q, want q/a.json's (1) before q/a/x.json's (0)", verdicts.String())
	}
}

// checkTotals checks that the totals of s add up: every message is valid,
// invalid or malformed, the kinds hold the valid and the invalid ones,
// each malformed one is a problem, and each has a verdict (verdicts may
// be nil).
func checkTotals(t *testing.T, s *audit.Summary, verdicts *bytes.Buffer) {
	t.Helper()
	var kinds audit.KindTotals
	for _, k := range s.Kinds {
		kinds.Messages += k.Messages
		kinds.Valid += k.Valid
		kinds.Invalid += k.Invalid
		if k.Valid+k.Invalid != k.Messages {
			t.Fatalf("kind %+v: valid and invalid do not add up", k)
		}
	}
	malformed := 0
	for _, p := range s.Problems {
		if p.Check == audit.CheckMalformed {
			malformed++
		}
	}
	switch {
	case s.Valid+s.Invalid+s.Malformed != s.Messages:
		t.Fatalf("%d valid + %d invalid + %d malformed != %d messages", s.Valid, s.Invalid, s.Malformed, s.Messages)
	case kinds.Messages != s.Valid+s.Invalid || kinds.Valid != s.Valid || kinds.Invalid != s.Invalid:
		t.Fatalf("kinds %+v, want %d valid and %d invalid", s.Kinds, s.Valid, s.Invalid)
	case malformed != s.Malformed:
		t.Fatalf("%d malformed problems, %d malformed messages", malformed, s.Malformed)
	case verdicts != nil && verdicts.Len() != 2*s.Messages:
		t.Fatalf("%d bytes of verdicts for %d messages", verdicts.Len(), s.Messages)
	}
}

// TestMalformedYAMLDocument: a malformed YAML document costs that
// document only; the messages after it in the file are read and counted,
// each in its place.
func TestMalformedYAMLDocument(t *testing.T) {
	yamlDelegate := func(id string) string { return strings.Replace(delegateYAML, "%ID%", id, 1) }
	src := "task_id: [unclosed\n" + // 1: malformed
		"---\n" + yamlDelegate("task-a-001") + // 2-9: valid
		"---\n" + "task_id: task-b-001\nagent: x\n" + // 10-12: invalid
		"---\n" + "a: \"\xff\"\n" + // 13-14: malformed, invalid UTF-8
		"---\n" + "- " + strings.ReplaceAll(strings.TrimSpace(yamlDelegate("task-c-001")), "\n", "\n  ") + "\n" + // 15-22: a list of one
		"--- \"x\"y\n" + // 23: malformed
		"---\n" + "task_id: t\ntask_id: u\n" + // 24-26: malformed at 25, a duplicate key at 26
		"---\n" + yamlDelegate("task-d-001") // 27-34: valid
	root := repo(t, map[string]string{"q/DELEGATE-all.yaml": src})
	var verdicts bytes.Buffer
	s := run(t, root, []string{"q"}, "", &verdicts)
	checkTotals(t, s, &verdicts)
	if s.Messages != 8 || s.Valid != 3 || s.Invalid != 1 || s.Malformed != 4 {
		t.Errorf("messages %d: valid %d invalid %d malformed %d; want 8: 3, 1, 4", s.Messages, s.Valid, s.Invalid, s.Malformed)
	}
	if verdicts.String() != "0\n1\n0\n0\n1\n0\n0\n1\n" {
		t.Errorf("verdicts %q", verdicts.String())
	}
	var got []string
	for _, p := range s.Problems {
		got = append(got, p.Location.String()+": "+p.Check+": "+p.Message)
	}
	want := []string{
		"q/DELEGATE-all.yaml:1: malformed: not a YAML message: did not find expected ',' or ']'",
		"q/DELEGATE-all.yaml:14: malformed: not a YAML message: column 5: invalid UTF-8",
		"q/DELEGATE-all.yaml:22: malformed: not a YAML message: did not find expected <document start>",
		"q/DELEGATE-all.yaml:25: malformed: not a YAML message: line 26, column 1: duplicate key \"task_id\"",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDuplicateKeys: a key given twice makes a message malformed in
// every format, in the words of `protoscan validate`.
func TestDuplicateKeys(t *testing.T) {
	dup := strings.Replace(handbackJSON("task-a-001", "success"), `"status"`, `"task_id":"task-z-001","status"`, 1)
	root := repo(t, map[string]string{
		"q/a.json":   dup,
		"q/b.jsonl":  handbackJSON("task-b-001", "success") + "\n" + dup + "\n",
		"q/c.json":   "[" + dup + "]",
		"q/d.yaml":   "task_id: x\nstatus: success\ntask_id: y\n",
		"q/e.json":   strings.Replace(dup, `"task_id":"task-z-001"`, `"output":{"a":1,"a":2}`, 1),
		"q/f.jsonl":  `{"task_id":"x","task_id":"x"}` + "\n",
		"q/ok.jsonl": `{"a":{"k":1},"b":{"k":2}}` + "\n",
	})
	var verdicts bytes.Buffer
	s := run(t, root, []string{"q"}, "", &verdicts)
	checkTotals(t, s, &verdicts)
	var got []string
	for _, p := range s.Problems {
		got = append(got, p.Location.String()+": "+p.Check+": "+p.Message)
	}
	want := []string{
		`q/a.json: malformed: not a JSON message: offset 50: duplicate key "task_id"`,
		`q/b.jsonl:2: malformed: not a JSON message: offset 50: duplicate key "task_id"`,
		`q/c.json:1: malformed: not a JSON message: column 52: duplicate key "task_id"`,
		`q/d.yaml: malformed: not a YAML message: line 3, column 1: duplicate key "task_id"`,
		`q/e.json: malformed: not a JSON message: offset 66: duplicate key "a"`,
		`q/f.jsonl:1: malformed: not a JSON message: offset 15: duplicate key "task_id"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s.Malformed != 6 || s.Messages != 8 {
		t.Errorf("messages %d malformed %d, want 8 and 6", s.Messages, s.Malformed)
	}
}

// TestByteOrderMark: a file may start with a UTF-8 byte order mark.
func TestByteOrderMark(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	root := repo(t, map[string]string{
		"q/a.json":          bom + handbackJSON("task-a-001", "success"),
		"q/b.jsonl":         bom + handbackJSON("task-b-001", "success") + "\n" + handbackJSON("task-c-001", "success") + "\n",
		"q/c.json":          bom + "[" + handbackJSON("task-d-001", "success") + "]",
		"q/DELEGATE-d.yaml": bom + strings.Replace(delegateYAML, "%ID%", "task-e-001", 1) + "---\n" + strings.Replace(delegateYAML, "%ID%", "task-f-001", 1),
	})
	s := run(t, root, []string{"q"}, "", nil)
	checkTotals(t, s, nil)
	if s.Messages != 6 || s.Valid != 6 || len(s.Problems) != 0 {
		t.Errorf("messages %d valid %d problems %+v; want 6 valid", s.Messages, s.Valid, s.Problems)
	}
	s = run(t, root, []string{"-"}, bom+handbackJSON("task-a-001", "success")+"\n", nil)
	if s.Messages != 1 || s.Valid != 1 {
		t.Errorf("stdin: messages %d valid %d, want 1 valid", s.Messages, s.Valid)
	}
}

// TestLongIDsCapped: every integrity problem names the queue's task ids
// and statuses in a bounded number of bytes, however long they are (a
// queue line of a few megabytes once came back whole in each of its
// problems).
func TestLongIDsCapped(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	var in strings.Builder
	// pending, duplicate, unknown reference (parent and dependency) and an
	// orphan and unfinished HANDBACK, each about a 100 KB id
	fmt.Fprintf(&in, `{"handoff_type":"DELEGATE","task_id":"%s-d","parent_task_id":"%s-p","dependencies":["%s-q"]}`+"\n", long, long, long)
	fmt.Fprintf(&in, `{"handoff_type":"DELEGATE","task_id":"%s-d"}`+"\n", long)
	fmt.Fprintf(&in, `{"handoff_type":"HANDBACK","task_id":"%s-o","status":"success"}`+"\n", long)
	s := run(t, repo(t, map[string]string{}), []string{"-"}, in.String(), nil)
	all := s.Integrity.All()
	seen := map[string]bool{}
	for _, p := range all {
		seen[p.Check] = true
		if len(p.Message) > 400 || !strings.Contains(p.Message, `xxx"...`) {
			t.Errorf("%s: message of %d bytes: %.300q", p.Check, len(p.Message), p.Message)
		}
	}
	for _, c := range []string{audit.CheckPending, audit.CheckDuplicate, audit.CheckReference, audit.CheckOrphan} {
		if !seen[c] {
			t.Errorf("no %s problem among %d", c, len(all))
		}
	}
}
