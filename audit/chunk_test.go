package audit

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// TestChunkReuse: JSON Lines chunks are read into recycled buffers (see
// reader.jsonl). With every buffer overwritten as it is recycled, the
// summary and the verdicts are the same: no string of a message (an
// unknown field's name, a status spelling, a task id of the index, an
// error text) outlives its batch.
func TestChunkReuse(t *testing.T) {
	var in strings.Builder
	statuses := []string{"success", "SUCCESS", "done", "failed", "partial", "Blocked"}
	for i := 0; in.Len() < 5<<20; i++ { // many chunks, recycled many times
		switch i % 7 {
		case 0: // malformed
			fmt.Fprintf(&in, "{\"task_id\": \"t-%d\", \n", i)
		case 1, 2: // a DELEGATE with an unknown field named after the line
			fmt.Fprintf(&in, `{"task_id":"task-%d","skill":"s","agent":"engineer","scope":"one two three","success_criteria":["ok"],"plan":["a b c d","e f g h"],"context":["c"],"x_field_%d":1,"dependencies":["task-%d","ghost-%d"]}`+"\n", i, i%50, i-3, i)
		case 3: // an escaped unknown name and an escaped status
			fmt.Fprintf(&in, `{"task_id":"task-%d","status":"succ\u0065ss","output":"o","metrics":{"quality":0.5,"tokens":1,"cost":0,"duration_seconds":1},"w\u00e9ird_%d":true}`+"\n", i-1, i%13)
		default: // a HANDBACK with a drifted status, children and a long output
			fmt.Fprintf(&in, `{"task_id":"task-%d","status":%q,"output":%q,"metrics":{"quality":0.5,"tokens":1,"cost":0,"duration_seconds":1},"children_created":["child-%d"]}`+"\n",
				i-2, statuses[i%len(statuses)], strings.Repeat("word ", i%300), i)
		}
	}
	v, err := msgcheck.New(msgcheck.Options{}, msgcheck.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	audit := func(poison bool) (*Summary, string) {
		poisonChunks = poison
		defer func() { poisonChunks = false }()
		var verdicts bytes.Buffer
		s, err := Run(context.Background(), []string{"-"}, strings.NewReader(in.String()),
			Options{Validator: v, Spec: msgcheck.DefaultSpec(), Verdicts: &verdicts})
		if err != nil {
			t.Fatal(err)
		}
		return s, verdicts.String()
	}
	want, wantVerdicts := audit(false)
	if want.Messages < 10000 || len(want.UnknownFields) < 50 || len(want.Statuses) < 5 || want.Integrity.Len() == 0 || len(want.Problems) == 0 {
		t.Fatalf("the input does not exercise the summary: %d messages, %d unknown fields, %d statuses, %d integrity problems, %d problems",
			want.Messages, len(want.UnknownFields), len(want.Statuses), want.Integrity.Len(), len(want.Problems))
	}
	got, gotVerdicts := audit(true)
	if g, w := got.Integrity.All(), want.Integrity.All(); !reflect.DeepEqual(g, w) {
		t.Errorf("with recycled buffers poisoned, the integrity problems changed:\n%.300q\nwant %.300q", g, w)
	}
	got.Integrity, want.Integrity = nil, nil // compared above
	if !reflect.DeepEqual(got, want) || gotVerdicts != wantVerdicts {
		t.Errorf("with recycled buffers poisoned, the summary changed:\n%s", summaryDiff(got, want))
	}
}

func summaryDiff(got, want *Summary) string {
	g, w := reflect.ValueOf(*got), reflect.ValueOf(*want)
	var out []string
	for i := 0; i < g.NumField(); i++ {
		if !reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
			out = append(out, fmt.Sprintf("%s: got %.300q\nwant %.300q", g.Type().Field(i).Name, fmt.Sprint(g.Field(i).Interface()), fmt.Sprint(w.Field(i).Interface())))
		}
	}
	return strings.Join(out, "\n")
}

func TestInDoneFolder(t *testing.T) {
	for p, want := range map[string]bool{
		"queue/done/T-1-HANDBACK.yaml":    true,
		"queue/Done/x.json":               true,
		"/abs/COMPLETED/x.yaml":           true,
		"archive/2026/x.json":             true,
		"queue/finished/sub/x.json":       true,
		"queue/incoming/x.yaml":           false,
		"done.jsonl":                      false, // a file named done, not a folder
		"queue/undone/x.yaml":             false,
		"queue/done-ish/x.yaml":           false,
		"":                                false,
		"/tmp/c100k.jsonl":                false,
		"queue//done//x.yaml":             true,
		"queue/incoming/archive.d/x.yaml": false,
		"C:\\queue\\done\\x.yaml":         false, // slash paths only, as the audit's locations are
	} {
		if got := inDoneFolder(p); got != want {
			t.Errorf("inDoneFolder(%q) = %v, want %v", p, got, want)
		}
	}
}

// countingReader counts the reads made of it.
type countingReader struct {
	r     *strings.Reader
	reads int
}

func (c *countingReader) Read(p []byte) (int, error) { c.reads++; return c.r.Read(p) }

// A line longer than a chunk doubles the read size, so a 12 MB line takes
// a few reads, not one per chunk (whose copies of the carried line would
// cost time in the square of its length).
func TestLongLineReadsGrow(t *testing.T) {
	line := `{"task_id":"t-1","status":"success","output":"` + strings.Repeat("x", 12<<20) + `"}` + "\n"
	in := &countingReader{r: strings.NewReader(line + `{"task_id":"t-2","status":"success"}` + "\n")}
	v, err := msgcheck.New(msgcheck.Options{}, msgcheck.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	s, err := Run(context.Background(), []string{"-"}, in, Options{Validator: v, Spec: msgcheck.DefaultSpec()})
	if err != nil || s.Messages != 2 {
		t.Fatalf("%d messages, err %v", s.Messages, err)
	}
	if limit := 2 * 12; in.reads > limit { // log2(12 MB / 128 KiB) is 7
		t.Errorf("%d reads for a 12 MB line, want at most %d", in.reads, limit)
	}
}

// TestInvalids: a list longer than a chunk keeps its order and its
// length, and All stops where its caller does.
func TestInvalids(t *testing.T) {
	var l Invalids
	if l.Len() != 0 {
		t.Fatalf("zero list has length %d", l.Len())
	}
	n := 2*invalidChunk + 3
	for i := range n {
		l.Append(Invalid{Location: Location{Path: "q.jsonl", Line: i + 1}})
	}
	if l.Len() != n {
		t.Fatalf("Len = %d, want %d", l.Len(), n)
	}
	seen := 0
	for i, m := range l.All() {
		if i != seen || m.Line != i+1 {
			t.Fatalf("item %d (index %d) is at line %d", seen, i, m.Line)
		}
		seen++
	}
	if seen != n {
		t.Fatalf("All yielded %d, want %d", seen, n)
	}
	seen = 0
	for i := range l.All() {
		if i == invalidChunk+1 {
			break
		}
		seen++
	}
	if seen != invalidChunk+1 {
		t.Fatalf("All went on after break: %d", seen)
	}
}
