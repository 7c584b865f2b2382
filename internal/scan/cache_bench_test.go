package scan_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/protoscan-dev/protoscan/internal/scan"
	"github.com/protoscan-dev/protoscan/internal/scan/cache"
)

// benchTree generates a repository of about 2,400 files: 30 copies of the
// planted trees (drift, divergence, messages: every file parsed) and
// 1,500 files of ordinary Go and Python that the prefilters let through
// in part, as in a real repository.
func benchTree(b *testing.B) string {
	dir := b.TempDir()
	for i := 0; i < 30; i++ {
		for _, d := range []string{"polyglot", "divergence", "example"} {
			copyTree(b, filepath.Join(dir, fmt.Sprintf("svc%02d", i), d), filepath.Join("..", "..", "testdata", d))
		}
	}
	for i := 0; i < 750; i++ {
		var g, p strings.Builder
		fmt.Fprintf(&g, "package pkg%d\n\nimport \"strings\"\n\n", i%40)
		fmt.Fprintf(&p, "import os\n\n\nclass Worker%d:\n", i)
		for f := 0; f < 12; f++ {
			status := "pending"
			if f%4 == 0 {
				status = "status" // some files need a closer look
			}
			fmt.Fprintf(&g, "// F%d joins the words of s.\nfunc F%d(s []string, n int) string {\n\tif n > %d {\n\t\treturn %q\n\t}\n\treturn strings.Join(s, \" \")\n}\n\n", f, f, f, status)
			fmt.Fprintf(&p, "    def f%d(self, items, n):\n        if n > %d:\n            return %q\n        return os.path.join(*items)\n\n", f, f, status)
		}
		plant(b, dir, fmt.Sprintf("lib/pkg%d/f%d.go", i%40, i), g.String())
		plant(b, dir, fmt.Sprintf("py/mod%d/w%d.py", i%40, i), p.String())
	}
	return dir
}

type benchMode int

const (
	noCache   benchMode = iota
	fillCache           // a new, empty cache every run
	warmCache
	warmVerify
)

func benchScan(b *testing.B, mode benchMode) {
	dir := benchTree(b)
	opts := allAnalyzers(b, dir)
	if mode >= warmCache {
		opts.Cache = openCache(b)
		opts.Cache.Verify = mode == warmVerify
		time.Sleep(2100 * time.Millisecond) // files written just now are never trusted on their stat
		mustScan(b, dir, opts)
	}
	caches := b.TempDir()
	b.ResetTimer()
	var res *scan.Result
	for i := 0; b.Loop(); i++ {
		if mode == fillCache {
			b.StopTimer()
			var err error
			if opts.Cache, err = cache.Open(filepath.Join(caches, fmt.Sprint(i))); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		res = mustScan(b, dir, opts)
	}
	b.StopTimer()
	if mode >= warmCache && res.Stats.Extracted != 0 {
		b.Fatalf("warm scan parsed %d files", res.Stats.Extracted)
	}
	b.ReportMetric(float64(res.Stats.Files), "files")
	b.ReportMetric(float64(res.Stats.Extracted), "parsed")
}

// BenchmarkScanCold scans the generated tree without a cache: every run
// parses what the prefilters let through.
func BenchmarkScanCold(b *testing.B) { benchScan(b, noCache) }

// BenchmarkScanColdCache is BenchmarkScanCold with a new cache every run:
// the cost of hashing every file and writing the cache.
func BenchmarkScanColdCache(b *testing.B) { benchScan(b, fillCache) }

// BenchmarkScanWarm scans it again with a cache: nothing is parsed, and
// files unchanged for more than two seconds are not even read.
func BenchmarkScanWarm(b *testing.B) { benchScan(b, warmCache) }

// BenchmarkScanWarmVerify is BenchmarkScanWarm with Dir.Verify: every
// file read and hashed, none parsed.
func BenchmarkScanWarmVerify(b *testing.B) { benchScan(b, warmVerify) }
