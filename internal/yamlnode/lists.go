package yamlnode

import "go.yaml.in/yaml/v3"

// SplitLists makes each mapping of a document that is a non-empty list
// of mappings (a JSON array of messages, a YAML list of fixtures) a
// document of its own; every other document is kept as it is. This is
// how protoscan reads a file of messages, in `validate` and `audit`.
func SplitLists(docs []*yaml.Node) []*yaml.Node {
	var out []*yaml.Node
	for _, d := range docs {
		if IsListOfMappings(d) {
			out = append(out, d.Content...)
			continue
		}
		out = append(out, d)
	}
	return out
}

// IsListOfMappings reports whether n is a non-empty sequence whose every
// item is a mapping.
func IsListOfMappings(n *yaml.Node) bool {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		return false
	}
	for _, c := range n.Content {
		if c.Kind != yaml.MappingNode {
			return false
		}
	}
	return true
}
