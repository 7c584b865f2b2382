package scan_test

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"sync"
	"testing"

	"github.com/protoscan-dev/protoscan/internal/scan"
)

// taskBoard is an app of its own with a task board's status words, some
// of them the protocol's too: no spec, no marker, no kind's word, no
// message anywhere.
var taskBoard = map[string]string{
	"board/tasks.py": `
VALID = {"success", "failure", "partial", "blocked"}
STATES = ["pending", "success", "failure", "partial", "blocked", "done"]


def summarize(task):
    if task["status"] in ("complete", "partial", "blocked"):
        return "closed"
    if task["status"] == "done":
        return "closed"
    return "open"


def check(task):
    if task["status"] not in VALID:
        raise ValueError(task["status"])
`,
	"board/states.go": `package board

func Closed(t Task) bool {
	switch t.Status {
	case "success", "failure", "complete":
		return true
	}
	return false
}

type Task struct{ Status string }
`,
}

func driftOf(t *testing.T, files map[string]string, declared bool) []string {
	t.Helper()
	dir := writeTree(t, files)
	opts := fullOptions(t, dir)
	opts.AssumeEvidence = declared
	res, err := scan.Run(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range res.Findings {
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s", f.Path, f.Line, f.Col, f.Rule, f.Literal))
	}
	return out
}

// TestNoEvidenceNoSharedDrift: a tree with no protocol evidence anywhere
// gets no drift findings of everyone's words; the same tree with one
// HANDBACK in it, or with the protocol declared (a spec named), gets them.
func TestNoEvidenceNoSharedDrift(t *testing.T) {
	if got := driftOf(t, taskBoard, false); len(got) != 0 {
		t.Errorf("a task board without protocol evidence: %d findings, want none:\n%v", len(got), got)
	}
	withHandback := maps.Clone(taskBoard)
	withHandback["queue/HANDBACK-001.yaml"] = "handoff_type: HANDBACK\ntask_id: t-1\nstatus: success\noutput: {}\nmetrics: {quality: 0.9, tokens: 1, cost: 0, duration_seconds: 1}\n"
	got := driftOf(t, withHandback, false)
	// with the protocol in the tree, VALID gates check() and lacks escalate
	want := "[board/states.go:5:29 enumdrift/legacy-status complete board/tasks.py:2:1 enumdrift/missing-status  board/tasks.py:7:27 enumdrift/legacy-status complete board/tasks.py:9:26 enumdrift/unknown-status done]"
	if fmt.Sprint(got) != want {
		t.Errorf("the same tree with a HANDBACK:\n got %v\nwant %s", got, want)
	}
	if declared := driftOf(t, taskBoard, true); len(declared) != len(got) {
		t.Errorf("declared protocol: %d findings, want %d as with a HANDBACK:\n%v", len(declared), len(got), declared)
	}
}

// TestEvidenceCached: a file whose only yield is its protocol evidence (a
// README that names the HANDBACK) keeps it in the cache: the warm scan
// reports what the cold one did.
func TestEvidenceCached(t *testing.T) {
	files := maps.Clone(taskBoard)
	files["README.md"] = "# Board\n\nWorkers answer each task with a HANDBACK.\n"
	dir := writeTree(t, files)
	opts := fullOptions(t, dir)
	opts.Cache = openCache(t)
	cold := mustScan(t, dir, opts)
	if len(cold.Findings) != 4 {
		t.Fatalf("cold scan: %d findings, want 4 (the README is evidence)", len(cold.Findings))
	}
	warm := mustScan(t, dir, opts)
	if warm.Stats.Cached != warm.Stats.Files || len(warm.Findings) != len(cold.Findings) {
		t.Errorf("warm scan: %d of %d files cached, %d findings, want all and %d", warm.Stats.Cached, warm.Stats.Files, len(warm.Findings), len(cold.Findings))
	}
}

// TestEvidenceReadOnlyWhenNeeded: the files the prefilters pass over are
// read a second time, for protocol evidence, only in a tree whose results
// hold drift of everyone's words and whose parsed files show none.
func TestEvidenceReadOnlyWhenNeeded(t *testing.T) {
	reads := func(files map[string]string) map[string]int {
		t.Helper()
		dir := writeTree(t, files)
		var mu sync.Mutex
		n := map[string]int{}
		defer scan.SetReadHook(func(name string) {
			mu.Lock()
			n[filepath.Base(name)]++
			mu.Unlock()
		})()
		mustScan(t, dir, fullOptions(t, dir))
		return n
	}
	readme := "# Board\n\nWorkers answer each task with a HANDBACK.\n"
	quiet := map[string]string{"README.md": readme, "board/app.py": "def f(x):\n    return x + 1\n"}
	if n := reads(quiet); n["README.md"] != 1 {
		t.Errorf("no drift to keep: README read %d times, want 1", n["README.md"])
	}
	noisy := maps.Clone(taskBoard)
	noisy["README.md"] = readme
	if n := reads(noisy); n["README.md"] != 2 {
		t.Errorf("drift of everyone's words: README read %d times, want 2 (the walk, then for evidence)", n["README.md"])
	}
}
