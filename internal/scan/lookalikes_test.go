package scan_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/protoscan-dev/protoscan/internal/scan"
)

// TestLookalikes scans a tree of records that have a task_id and a
// status and are no message (tool replies, task-status events, job
// states, column titles and wire-name maps, in Python, Go, JSON and
// Markdown), in files about HANDBACKs: no family reports anything on
// them, and the one real HANDBACK beside them is still judged.
func TestLookalikes(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "lookalikes")
	opts := fullOptions(t, root)
	opts.Messages = protocolsChecker(t)
	res, err := scan.Run(context.Background(), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("..", "..", "testdata", "lookalikes.golden"), res.Findings)
	var got []string
	for _, o := range res.Messages {
		got = append(got, fmt.Sprintf("%s:%d:%d %s", o.Path, o.Line, o.Col, o.Kind))
	}
	if want := "handback/worker.py:5:12 handback"; len(got) != 1 || got[0] != want {
		t.Errorf("messages %q, want only %q", got, want)
	}
}
