package baseline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
)

// TestFingerprintLines: an audit finding's fingerprint is the scan's
// recipe (rule, repository-relative path, flagged line), with the line
// read again from the file: a CRLF line, a line past bufio's buffer, the
// last line without a newline. A line over the limit, on stdin or past
// the file's end is stood for by the message; no line by the empty text.
func TestFingerprintLines(t *testing.T) {
	dir := t.TempDir()
	long := `{"task_id":"` + strings.Repeat("x", 100<<10) + `"}`
	src := "{\"a\":1}\r\n" + long + "\n" + strings.Repeat("y", 300) + "\n{\"b\":2}"
	name := filepath.Join(dir, "q.jsonl")
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.ToSlash(name)
	at := func(path string, line int) finding.Finding {
		return finding.Finding{Rule: "msgcheck/x", Location: finding.Location{Path: path, Line: line}, Message: "m"}
	}
	fs := []finding.Finding{at(p, 1), at(p, 2), at(p, 3), at(p, 4), at(p, 9), at(p, 0), at("-", 2), at(filepath.Join(dir, "gone.jsonl"), 1)}
	keyed := make([]finding.Finding, len(fs))
	for i, f := range fs {
		keyed[i] = f
		keyed[i].Path = "queue/" + filepath.Base(f.Path)
	}
	FingerprintLines(fs, keyed, 200<<10)
	msg := []byte("m")
	for i, text := range [][]byte{
		LineText([]byte(src), 1), []byte(long), []byte(strings.Repeat("y", 300)), []byte(`{"b":2}`),
		msg, nil, msg, msg,
	} {
		if want := Fingerprint("msgcheck/x", keyed[i].Path, text); keyed[i].Fingerprint != want {
			t.Errorf("finding %d (%s:%d): fingerprint %s, want %s", i, keyed[i].Path, keyed[i].Line, keyed[i].Fingerprint, want)
		}
	}
	// a line over the limit is not read
	FingerprintLines(fs[1:2], keyed[1:2], 100)
	if want := Fingerprint("msgcheck/x", keyed[1].Path, msg); keyed[1].Fingerprint != want {
		t.Errorf("a line over the limit: fingerprint %s, want the message's %s", keyed[1].Fingerprint, want)
	}
}
