package scan_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/protoscan/protoscan/analyzers/enumdrift"
	"github.com/protoscan/protoscan/msgcheck"
	"github.com/protoscan/protoscan/scan"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func vocabulary(t testing.TB) *enumdrift.Vocabulary {
	v, err := enumdrift.NewVocabulary(msgcheck.DefaultSpec(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPolyglot scans the planted repository: every planted drift must be
// found and nothing else, in every language and context.
func TestPolyglot(t *testing.T) {
	res, err := scan.Run(context.Background(), filepath.Join("..", "testdata", "polyglot"), scan.Options{Vocabulary: vocabulary(t)})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("..", "testdata", "polyglot.golden"), res.Findings)
	if res.Stats.Files != 10 { // .mdx included
		t.Errorf("scanned %d files, want 10", res.Stats.Files)
	}
}

// TestDeterministic scans twice with different worker counts: same output.
func TestDeterministic(t *testing.T) {
	root := filepath.Join("..", "testdata", "polyglot")
	a, err := scan.Run(context.Background(), root, scan.Options{Vocabulary: vocabulary(t), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scan.Run(context.Background(), root, scan.Options{Vocabulary: vocabulary(t), Workers: 8})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Findings, b.Findings) {
		t.Error("1 and 8 workers disagree")
	}
}

// TestCancel stops a scan promptly and reports the cancellation.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := scan.Run(ctx, filepath.Join("..", "testdata", "polyglot"), scan.Options{Vocabulary: vocabulary(t)})
	if err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// TestNotices: unreadable, binary and too-large files are reported, and
// the rest of the scan goes on.
func TestNotices(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("bin.py", []byte("status = 'x'\x00\x01"))
	write("big.yaml", []byte(strings.Repeat("# status\n", 200)))
	write("bad.yaml", []byte("task_id: a-1\noutput: {}\nstatus: [unclosed\n"))
	write("ok.yaml", []byte("task_id: a-1\nstatus: FAILED\noutput: {}\n"))
	write("image.png", []byte(strings.Repeat("x", 4000)))
	res, err := scan.Run(context.Background(), dir, scan.Options{Vocabulary: vocabulary(t), Walk: walkLimit(1000)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Path+" "+f.Rule)
	}
	want := []string{
		"bad.yaml protoscan/parse-error",
		"big.yaml protoscan/too-large",
		"bin.py protoscan/binary",
		"ok.yaml enumdrift/legacy-status",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
