// Package yamlnode turns yaml.Node trees (from YAML or JSON sources) into
// plain Go values under explicit size and depth limits, and maps a path in
// such a value back to the line and column of the node it came from.
package yamlnode
