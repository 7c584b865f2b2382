package yamlnode

import "go.yaml.in/yaml/v3"

// Stepped is the number of runes Byte has walked over.
func (c *Columns) Stepped() int { return c.stepped }

// CheckAliasesSteps is CheckAliases, and also returns the steps of its
// walks.
func CheckAliasesSteps(n *yaml.Node, lim Limits) (int, error) { return checkAliases(n, lim) }

// ToValueNodes is ToValue, and also returns the nodes it produced.
func ToValueNodes(n *yaml.Node, lim Limits) (any, int, error) { return toValue(n, lim) }
