package rules_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/rules"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md")

// TestRulesPage keeps docs/rules.md, the page SARIF's helpUri points at,
// in step with the catalogue: one heading per rule id.
func TestRulesPage(t *testing.T) {
	var b strings.Builder
	b.WriteString("# protoscan rules\n\nGenerated from the catalogue in rules/catalogue.go by `go test ./rules -update`;\n`protoscan rules` lists the same, `protoscan explain RULE` prints one.\n")
	for _, d := range rules.All() {
		fmt.Fprintf(&b, "\n## %s\n\n%s. Default severity: %s.\n\n%s\n\n**Why:** %s\n\n**Example:**\n\n```\n%s\n```\n\n**Fix:** %s\n",
			d.ID, strings.TrimSuffix(d.Title, "."), d.Severity, d.What, d.Why, strings.TrimRight(d.Example, "\n"), d.Fix)
	}
	file := filepath.Join("..", "docs", "rules.md")
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != b.String() {
		t.Errorf("%s is out of date with the catalogue: go test ./rules -update", file)
	}
}
