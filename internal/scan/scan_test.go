package scan_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/analyzers/divergence"
	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/scan"
	"github.com/protoscan-dev/protoscan/msgcheck"
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
	res, err := scan.Run(context.Background(), filepath.Join("..", "..", "testdata", "polyglot"), scan.Options{Vocabulary: vocabulary(t)})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("..", "..", "testdata", "polyglot.golden"), res.Findings)
	if res.Stats.Files != 11 { // .mdx and .ts included
		t.Errorf("scanned %d files, want 11", res.Stats.Files)
	}
}

// TestDeterministic scans twice with different worker counts: same output.
func TestDeterministic(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "polyglot")
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
	_, err := scan.Run(ctx, filepath.Join("..", "..", "testdata", "polyglot"), scan.Options{Vocabulary: vocabulary(t)})
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
	// a Helm template is YAML once rendered: it does not parse, silently;
	// a workflow broken around a GitHub expression is still reported
	write("chart-handback.yaml", []byte("data:\n  task_id: a-1\n  status: FAILED\n{{- if .Values.extra }}\n  output: {}\n{{- end }}\n"))
	write("ci.yaml", []byte("task_id: a-1\nstatus: FAILED\nrun: ${{ env.X }}\noutput: [unclosed\n"))
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
		"ci.yaml protoscan/parse-error",
		"ok.yaml enumdrift/legacy-status",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestKeyPrefix: the findings of a subdirectory scanned on its own, named
// under Prefix and hashed under KeyPrefix, carry the fingerprints the
// same findings have in a scan of the whole tree; so do those of the
// whole tree named under a Prefix, divergence clusters (fingerprinted
// after the files are read) among them.
func TestKeyPrefix(t *testing.T) {
	for _, tree := range []struct{ root, sub string }{{"polyglot", "workers"}, {"divergence", ""}} {
		root := filepath.Join("..", "..", "testdata", tree.root)
		opts := func() scan.Options {
			return scan.Options{Vocabulary: vocabulary(t), Divergence: divergence.NewModel(msgcheck.DefaultSpec(), divergence.Options{})}
		}
		whole, err := scan.Run(context.Background(), root, opts())
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{} // path:line:col rule -> fingerprint
		for _, f := range whole.Findings {
			if tree.sub == "" || strings.HasPrefix(f.Path, tree.sub+"/") {
				want[fmt.Sprintf("%s:%d:%d %s", f.Path, f.Line, f.Col, f.Rule)] = f.Fingerprint
			}
		}
		o := opts()
		o.Prefix, o.KeyPrefix = path.Join("some/where", tree.sub), tree.sub
		part, err := scan.Run(context.Background(), filepath.Join(root, tree.sub), o)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range part.Findings {
			p, ok := strings.CutPrefix(f.Path, "some/where/")
			if !ok {
				t.Errorf("%s: not under the Prefix", f.Path)
				continue
			}
			k := fmt.Sprintf("%s:%d:%d %s", p, f.Line, f.Col, f.Rule)
			if fp, ok := want[k]; ok {
				n++
				if fp != f.Fingerprint {
					t.Errorf("%s: fingerprint %s, the whole scan's %s", k, f.Fingerprint, fp)
				}
			}
		}
		if n == 0 || n != len(part.Findings) {
			t.Errorf("%s: %d of %d findings of %q in both scans", tree.root, n, len(part.Findings), tree.sub)
		}
		if tree.sub == "" && !slices.ContainsFunc(part.Findings, func(f finding.Finding) bool { return strings.HasPrefix(f.Rule, "divergence/") }) {
			t.Errorf("%s: no divergence finding", tree.root)
		}
	}
}
