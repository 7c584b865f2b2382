package rules_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/internal/rules"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md")

// pageHead opens docs/rules.md: how rule ids are formed, before the
// catalogue's entries.
const pageHead = `# protoscan rules

Generated from the catalogue in internal/rules/catalogue.go by ` + "`go test ./internal/rules -update`" + `;
` + "`protoscan rules`" + ` lists the same, ` + "`protoscan explain RULE`" + ` prints one.

## Rule ids

Every finding has a rule id ` + "`family/name`" + `. The families: ` + "`enumdrift`" + ` (a
protocol enum spelled otherwise), ` + "`divergence`" + ` (one protocol decision
implemented several times), ` + "`msgcheck`" + ` (a message against the spec),
` + "`audit`" + ` (the checks of ` + "`protoscan audit`" + ` across a queue) and ` + "`protoscan`" + `
(the tool's own notices: a file not fully scanned, a spec of the tree
that cannot be loaded, suppressions). Rule ids are a stable contract:
suppressions, baselines and configs name them. A config sets a rule's
severity or turns it off by id or glob ([config.md](config.md#rule-settings)).

A message's findings have ids ` + "`msgcheck/<kind>-<field>-<constraint>`" + `, the
field path without indices and with ` + "`_`" + ` written ` + "`-`" + `:
` + "`msgcheck/delegate-scope-words`" + `, ` + "`msgcheck/handback-metrics-quality-range`" + `,
` + "`msgcheck/delegate-task-id-required`" + `. The constraints are the
` + "`msgcheck/*-CONSTRAINT`" + ` entries below. Beside them:
` + "`msgcheck/<kind>-unknown-field`" + `, ` + "`msgcheck/unknown-spec-version`" + `,
` + "`msgcheck/unknown-kind`" + `, ` + "`msgcheck/not-a-message`" + `, and the ids of a spec's
own CEL rules: ` + "`msgcheck/<kind>-<reason>`" + `, or ` + "`msgcheck/<kind>-rule-N`" + ` for a
rule without a reason.
`

// TestRulesPage keeps docs/rules.md, the page SARIF's helpUri points at,
// in step with the catalogue: one heading per rule id.
func TestRulesPage(t *testing.T) {
	var b strings.Builder
	b.WriteString(pageHead)
	for _, d := range rules.All() {
		fmt.Fprintf(&b, "\n## %s\n\n%s. Default severity: %s.\n\n%s\n\n**Why:** %s\n\n**Example:**\n\n```\n%s\n```\n\n**Fix:** %s\n",
			d.ID, strings.TrimSuffix(d.Title, "."), d.Severity, d.What, d.Why, strings.TrimRight(d.Example, "\n"), d.Fix)
	}
	file := filepath.Join("..", "..", "docs", "rules.md")
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
		t.Errorf("%s is out of date with the catalogue: go test ./internal/rules -update", file)
	}
}
