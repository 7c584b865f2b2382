package scan_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/internal/scan"
)

// TestTypeScript scans testdata/typescript (issue 42): the drift planted
// in TypeScript and JavaScript (a string literal union with "done", a zod
// enum with "SUCCESS", comparisons with hb.status, hb["status"] and a
// destructured { status }) is reported at its literal; the look-alikes
// (React components with status props, a job state machine, HTTP status
// handling, i18n tables) stay silent beside it; the bundle and the
// *.min.js get a protoscan/minified note and nothing else; the three
// comment forms (//, /* */ and JSX's {/* */}) each suppress the line
// below them.
func TestTypeScript(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "typescript")
	res, err := scan.Run(context.Background(), root, fullOptions(t, root))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("..", "..", "testdata", "typescript.golden"), res.Findings)
	for _, f := range res.Findings {
		if strings.HasPrefix(f.Path, "lookalikes/") {
			t.Errorf("look-alike reported: %s:%d: %s [%s]", f.Path, f.Line, f.Message, f.Rule)
		}
		if strings.HasPrefix(f.Path, "dist/") && f.Rule != scan.RuleMinified {
			t.Errorf("a bundle read: %s:%d: %s [%s]", f.Path, f.Line, f.Message, f.Rule)
		}
	}
	var lines []int
	for _, d := range res.Directives["drift/suppressed.tsx"] {
		lines = append(lines, d.Line)
	}
	if want := []int{4, 6, 10}; len(lines) != 3 || lines[0] != want[0] || lines[1] != want[1] || lines[2] != want[2] {
		t.Errorf("suppressions apply to lines %v, want %v", lines, want)
	}
}
