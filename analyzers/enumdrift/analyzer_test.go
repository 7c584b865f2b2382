package enumdrift_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/protoscan/protoscan/analyzers/enumdrift"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), enumdrift.Analyzer, "handback", "negatives", "shapes")
}

// TestSuggestedFixes applies every offered fix and compares the result
// with handback.go.golden: legacy and case drift become the canonical value.
func TestSuggestedFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), enumdrift.Analyzer, "handback")
}
