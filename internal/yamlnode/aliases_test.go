package yamlnode_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

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
	bomb := parseNode(t, billionLaughs)
	steps, err := yamlnode.CheckAliasesSteps(bomb, lim)
	var e *yamlnode.Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "more than 1000000 nodes") || !strings.Contains(e.Msg, "alias bomb") {
		t.Errorf("bomb: err = %v", err)
	} else if e.Line < 5 || e.Line > 10 || e.Column == 0 {
		t.Errorf("bomb reported at %d:%d, want an alias of lines 5-10", e.Line, e.Column)
	}
	// each node once in the first walk, and in the second each child
	// taken once and each collection finished once
	if own := countNodes(bomb); steps > 3*own {
		t.Errorf("bomb: %d steps for a tree of %d nodes, want at most %d", steps, own, 3*own)
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
	for _, src := range []string{"a: &a [x, x]\nb: [*a, *a]\nc: *a\n", many.String()} {
		if err := yamlnode.CheckAliases(parseNode(t, src), yamlnode.Limits{MaxNodes: 100_000}); err != nil {
			t.Errorf("%.40q...: %v", src, err)
		}
	}
	plain := "[" + strings.Repeat("1, ", 1200) + "1]\n"
	if err := yamlnode.CheckAliases(parseNode(t, plain), yamlnode.Limits{MaxNodes: 1000}); err != nil {
		t.Errorf("1201 items without aliases, budget 1000: %v", err)
	}
	small := yamlnode.Limits{MaxNodes: 15}
	if err := yamlnode.CheckAliases(parseNode(t, "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: [*a, *a]\n"), small); !errors.As(err, &e) || e.Line != 2 {
		t.Errorf("20 nodes added, budget 15: err = %v, want one on line 2", err)
	}
	if err := yamlnode.CheckAliases(parseNode(t, "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: [*a]\n"), small); err != nil {
		t.Errorf("11 nodes added, budget 15: %v", err)
	}
}

// countNodes counts the nodes of the tree under n, each alias one node.
func countNodes(n *yaml.Node) int {
	c := 1
	if n.Kind != yaml.AliasNode {
		for _, m := range n.Content {
			c += countNodes(m)
		}
	}
	return c
}
