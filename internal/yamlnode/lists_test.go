package yamlnode_test

import (
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
)

func TestSplitLists(t *testing.T) {
	tests := []struct {
		src  string
		want int // documents after the split
	}{
		{"- {a: 1}\n- {b: 2}\n", 2}, // a list of mappings: one per item
		{"[{a: 1}]", 1},
		{"- {a: 1}\n- 2\n", 1}, // not all mappings: kept whole
		{"[]", 1},              // empty: kept
		{"a: [{b: 1}]", 1},     // a mapping holding a list: kept
		{"[[{a: 1}]]", 1},      // only the top level is split
	}
	for _, tt := range tests {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(tt.src), &doc); err != nil {
			t.Fatal(err)
		}
		n := doc.Content[0]
		got := yamlnode.SplitLists([]*yaml.Node{n})
		if len(got) != tt.want {
			t.Errorf("SplitLists(%q): %d documents, want %d", tt.src, len(got), tt.want)
		}
		if split := len(got) > 1 || got[0] != n; split != yamlnode.IsListOfMappings(n) {
			t.Errorf("%q: split %v, IsListOfMappings %v", tt.src, split, yamlnode.IsListOfMappings(n))
		}
	}
}
