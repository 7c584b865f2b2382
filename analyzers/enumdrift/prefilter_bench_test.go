package enumdrift_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// BenchmarkPrefilter runs the prefilter over the Go files of the standard
// library's net/http and encoding trees: what a repository scan pays per
// file before any parsing.
func BenchmarkPrefilter(b *testing.B) {
	var names []string
	var srcs [][]byte
	for _, dir := range []string{"net/http", "encoding"} {
		root := filepath.Join(runtime.GOROOT(), "src", dir)
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
				if src, err := os.ReadFile(p); err == nil {
					names, srcs = append(names, p), append(srcs, src)
				}
			}
			return nil
		})
	}
	if len(srcs) == 0 {
		b.Skip("no Go sources under GOROOT")
	}
	nexus, err := msgcheck.EmbeddedSpec("nexus-handoff-v2.yaml")
	if err != nil {
		b.Fatal(err)
	}
	v, err := enumdrift.NewVocabulary(msgcheck.DefaultSpec(), nil, nexus)
	if err != nil {
		b.Fatal(err)
	}
	p := enumdrift.NewPrefilter(v)
	total := 0
	for _, s := range srcs {
		total += len(s)
	}
	b.SetBytes(int64(total))
	b.ResetTimer()
	var buf []byte
	for i := 0; i < b.N; i++ {
		for j, src := range srcs {
			_, buf = p.Match(names[j], true, src, buf) // Go: every string quoted
		}
	}
}
