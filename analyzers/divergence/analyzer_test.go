package divergence_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/protoscan-dev/protoscan/analyzers/divergence"
)

// TestAnalyzer runs the Analyzer on a package with a local cluster (a), a
// package that copies a's decision (b: the cluster across packages is
// found through a's exported fact) and look-alikes that must stay silent.
func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), divergence.Analyzer, "a", "b", "negatives", "spec", "specok", "fieldnamed", "tables", "tablesok", "scores", "scoreneg", "required")
}
