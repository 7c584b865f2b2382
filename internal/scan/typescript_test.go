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
// below them; an object's identifier key (a routing table) is judged,
// and offered no fix.
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
		// a quoted literal is fixed in place; an identifier key never is
		// (the canonical spelling need not be an identifier)
		if f.Path == "drift/router.ts" && f.Fix != nil || f.Path == "drift/worker.js" && f.Fix == nil {
			t.Errorf("%s:%d: fix %v", f.Path, f.Line, f.Fix)
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

// TestTypeScriptPrefilter: TypeScript and JavaScript files without the
// protocol's words are never parsed, as Python's; one with them is.
func TestTypeScriptPrefilter(t *testing.T) {
	root := writeTree(t, map[string]string{
		"src/App.tsx":  "export const App = ({ title }) => <h1 className=\"big\">{title}</h1>;\n",
		"src/api.ts":   "export async function get(url: string) {\n  const r = await fetch(url);\n  return r.ok ? r.json() : null;\n}\n",
		"lib/util.mjs": "export const sum = (a, b) => a + b;\nconst s = `template ${sum(1, 2)}`;\n",
	})
	res, err := scan.Run(context.Background(), root, fullOptions(t, root))
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Files != 3 || res.Stats.Parsed != 0 || len(res.Findings) != 0 {
		t.Errorf("files %d, parsed %d (want 3, 0), findings %v", res.Stats.Files, res.Stats.Parsed, res.Findings)
	}
	root = writeTree(t, map[string]string{
		"src/route.ts": "export function route(handback: Handback) {\n  if (handback.status === \"complete\") return 1;\n}\n",
	})
	res, err = scan.Run(context.Background(), root, fullOptions(t, root))
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Parsed != 1 || len(res.Findings) != 1 {
		t.Errorf("parsed %d (want 1), findings %v", res.Stats.Parsed, res.Findings)
	}
}
