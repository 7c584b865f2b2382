package enumdrift_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), enumdrift.Analyzer, "handback", "holders", "negatives", "shapes", "worker", "taskboard", "taskqueue", "former")
}

// TestSuggestedFixes applies every offered fix and compares the result
// with handback.go.golden: legacy and case drift become the canonical value.
func TestSuggestedFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), enumdrift.Analyzer, "handback")
}

// TestFixedGoldenCompiles: the file the suggested fixes make (the golden
// file TestSuggestedFixes compares with) still type-checks: no fix
// leaves a duplicate case or key. The original must too, or the test
// would prove nothing.
func TestFixedGoldenCompiles(t *testing.T) {
	for _, name := range []string{"handback.go", "handback.go.golden"} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, mustRead(t, filepath.Join("testdata", "src", "handback", name)), 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := new(types.Config).Check("handback", fset, []*ast.File{f}, nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
