package divergence_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/protoscan-dev/protoscan/analyzers/divergence"
)

// TestAnalyzerFormats runs the Analyzer on task id checks whose patterns
// disagree with the spec's (format) and on patterns that are no protocol
// field's format (formatneg), which must stay silent.
func TestAnalyzerFormats(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), divergence.Analyzer, "format", "formatneg")
}
