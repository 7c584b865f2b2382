package scan_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/audit"
	"github.com/protoscan-dev/protoscan/internal/scan"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// TestScanAndAuditCountAlike: the scan and the audit count the same
// messages in the same YAML, JSON and JSON Lines files, among them
// HANDBACKs whose marker names their kind and whose custom fields
// outnumber the protocol's (the scan once skipped them as no message
// while the audit reported them invalid).
func TestScanAndAuditCountAlike(t *testing.T) {
	custom := "worker: w1\nhost: h1\nqueue: q\nattempt: 2\ntrace: t-9\nregion: eu\n"
	files := map[string]string{
		"queue/h1.yaml": "handoff_type: HANDBACK\ntask_id: t-1\nstatus: done\n" + custom,
		"queue/h2.json": `{"handoff_type": "HANDBACK", "task_id": "t-2", "status": "success", "output": {}, "metrics": {"quality": 0.9, "tokens": 1, "cost": 0, "duration_seconds": 1}}`,
		"queue/all.jsonl": `{"handoff_type": "handback", "task_id": "t-3", "status": "failed", "worker": "w", "host": "h", "queue": "q", "attempt": 1}` + "\n" +
			`{"handoff_type": "DELEGATE", "task_id": "t-4", "skill": "s", "agent": "engineer", "scope": "x"}` + "\n",
		"queue/d.yaml": "task_id: t-5\nskill: s\nagent: engineer\nscope: fix the parser of the queue files today for everyone\n",
	}
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := scan.Run(context.Background(), dir, fullOptions(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	v, err := msgcheck.New(msgcheck.Options{Root: dir}, msgcheck.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	sum, err := audit.Run(context.Background(), []audit.Input{"queue"}, strings.NewReader(""), audit.Options{Validator: v, Spec: msgcheck.DefaultSpec()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Messages) != 5 || sum.Messages != 5 {
		t.Errorf("scan counted %d messages, audit %d; want 5 each", len(res.Messages), sum.Messages)
	}
}
