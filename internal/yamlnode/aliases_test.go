package yamlnode_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
)

// parseNode decodes src into a yaml.Node as yamldoc does (yaml.Unmarshal
// would reject the cycles CheckAliases must find itself).
func parseNode(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.NewDecoder(strings.NewReader(src)).Decode(&n); err != nil {
		t.Fatal(err)
	}
	return &n
}

// TestCheckAliases: a billion laughs and an alias cycle are found in
// linear time, at the alias; aliases that add few nodes, and large
// documents without aliases, pass.
func TestCheckAliases(t *testing.T) {
	lim := yamlnode.DefaultLimits()
	start := time.Now()
	err := yamlnode.CheckAliases(parseNode(t, billionLaughs), lim)
	var e *yamlnode.Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "more than 1000000 nodes") || !strings.Contains(e.Msg, "alias bomb") {
		t.Fatalf("bomb: err = %v", err)
	}
	if e.Line < 5 || e.Line > 10 || e.Column == 0 {
		t.Errorf("bomb reported at %d:%d, want an alias of lines 5-10", e.Line, e.Column)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("bomb: took %v", d)
	}

	for _, src := range []string{"a: &a [x, *a]\n", "a: &a {b: {c: *a}}\n", "&r [*r]\n"} {
		err := yamlnode.CheckAliases(parseNode(t, src), lim)
		if !errors.As(err, &e) || !strings.Contains(e.Msg, "inside the node it names") || e.Line != 1 {
			t.Errorf("%q: err = %v, want a cycle on line 1", src, err)
		}
	}

	// Aliases within the budget; merge keys; an alias used many times
	// over a small anchor; and a plain document far larger than the
	// budget (the budget is for what aliases add).
	var many strings.Builder
	many.WriteString("base: &b {x: 1, y: [1, 2, 3]}\n")
	for i := range 2000 {
		fmt.Fprintf(&many, "k%d: {<<: *b, z: *b}\n", i)
	}
	plain := "[" + strings.Repeat("1, ", 120_000) + "1]\n"
	for _, src := range []string{"a: &a [x, x]\nb: [*a, *a]\nc: *a\n", many.String(), plain} {
		if err := yamlnode.CheckAliases(parseNode(t, src), yamlnode.Limits{MaxNodes: 100_000}); err != nil {
			t.Errorf("%.40q...: %v", src, err)
		}
	}
	small := yamlnode.Limits{MaxNodes: 15}
	if err := yamlnode.CheckAliases(parseNode(t, "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: [*a, *a]\n"), small); !errors.As(err, &e) || e.Line != 2 {
		t.Errorf("20 nodes added, budget 15: err = %v, want one on line 2", err)
	}
	if err := yamlnode.CheckAliases(parseNode(t, "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: [*a]\n"), small); err != nil {
		t.Errorf("11 nodes added, budget 15: %v", err)
	}
}
