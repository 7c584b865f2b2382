package golang

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"
)

type benchFile struct {
	path string
	src  []byte
}

// benchCorpus loads the .go files of a few standard library packages.
func benchCorpus(b *testing.B) ([]benchFile, int64) {
	b.Helper()
	var files []benchFile
	var size int64
	for _, dir := range []string{"net/http", "go/types", "encoding/json", "text/template/parse"} {
		paths, _ := filepath.Glob(filepath.Join(build.Default.GOROOT, "src", dir, "*.go"))
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			files = append(files, benchFile{p, src})
			size += int64(len(src))
		}
	}
	if len(files) == 0 {
		b.Skip("no GOROOT sources")
	}
	return files, size
}

func reportFiles(b *testing.B, n int) {
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}

// BenchmarkExtract: parse and extract, as the standalone scan does.
func BenchmarkExtract(b *testing.B) {
	files, size := benchCorpus(b)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			Extract(f.path, f.src)
		}
	}
	reportFiles(b, len(files))
}

// BenchmarkParse is the go/parser baseline of BenchmarkExtract.
func BenchmarkParse(b *testing.B) {
	files, size := benchCorpus(b)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			parser.ParseFile(token.NewFileSet(), f.path, f.src, parser.SkipObjectResolution)
		}
	}
	reportFiles(b, len(files))
}

// BenchmarkExtractFile: the extraction alone, over parsed files.
func BenchmarkExtractFile(b *testing.B) {
	files, size := benchCorpus(b)
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, f := range files {
		af, _ := parser.ParseFile(fset, f.path, f.src, parser.SkipObjectResolution)
		parsed = append(parsed, af)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	strs := 0
	for b.Loop() {
		strs = 0
		for _, af := range parsed {
			strs += len(ExtractFile(fset, af, nil).Strings)
		}
	}
	reportFiles(b, len(files))
	b.ReportMetric(float64(strs), "strings")
}
