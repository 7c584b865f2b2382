package nodefacts

import (
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// Containers lists the mappings of docs in document order, each with its
// scalar keys (by tag and value: 1 and "1" differ, as in YAML), the
// places where two equal keys lose one value. Aliases are not followed:
// the anchored mapping is listed once, where it is written, and a merge
// key (<<) is not a key.
func Containers(docs []*yaml.Node) []facts.Container {
	var out []facts.Container
	stack := make([]*yaml.Node, 0, 16)
	for i := len(docs) - 1; i >= 0; i-- {
		stack = append(stack, docs[i])
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil || n.Kind == yaml.AliasNode {
			continue
		}
		if n.Kind == yaml.MappingNode {
			c := facts.Container{Kind: "mapping", Line: n.Line}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
					continue
				}
				c.Keys = append(c.Keys, facts.Key{Value: k.ShortTag() + ":" + k.Value, Text: strconv.Quote(k.Value), Line: k.Line})
			}
			out = append(out, c)
		}
		for i := len(n.Content) - 1; i >= 0; i-- {
			stack = append(stack, n.Content[i])
		}
	}
	return out
}
