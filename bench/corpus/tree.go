package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

// WriteTree writes the messages of a JSON Lines corpus as a queue tree
// under dir, one file per message, the layout `protoscan audit` reads a
// queue in: queue/incoming/DELEGATE-NNNNNN.EXT and
// queue/done/NNNNNN-HANDBACK.EXT (by handoff_type), in "json" (the line
// as it is) or "yaml" (the same message in block style, members in their
// order), and skills/NAME/ for every skill of Skills. A line YAML cannot
// read (invalid UTF-8) is written as it is.
func WriteTree(dir string, corpus []byte, format string) error {
	if format != "json" && format != "yaml" {
		return fmt.Errorf("tree format %q: want json or yaml", format)
	}
	for _, sub := range []string{"queue/incoming", "queue/done"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	for _, s := range Skills {
		if err := os.MkdirAll(filepath.Join(dir, "skills", s), 0o755); err != nil {
			return err
		}
	}
	n := 0
	for line := range bytes.Lines(corpus) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		if len(line) == 0 {
			continue
		}
		n++
		name := fmt.Sprintf("queue/incoming/DELEGATE-%06d.%s", n, format)
		if bytes.Contains(line, []byte(`"handoff_type":"HANDBACK"`)) {
			name = fmt.Sprintf("queue/done/%06d-HANDBACK.%s", n, format)
		}
		data := line
		if format == "yaml" {
			data = toYAML(line)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// toYAML rewrites a JSON message in YAML's block style, or returns it as
// it is when YAML cannot read it.
func toYAML(line []byte) []byte {
	var doc yaml.Node
	if err := yaml.Unmarshal(line, &doc); err != nil {
		return line
	}
	var block func(n *yaml.Node)
	block = func(n *yaml.Node) {
		n.Style &^= yaml.FlowStyle
		if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
			n.Style &^= yaml.DoubleQuotedStyle // plain where YAML allows it
		}
		for _, c := range n.Content {
			block(c)
		}
	}
	block(&doc)
	out, err := yaml.Marshal(&doc)
	if err != nil {
		return line
	}
	return out
}
