package handoff

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"github.com/protoscan-dev/protoscan/languages/jsondoc"
	"github.com/protoscan-dev/protoscan/languages/markdown"
	"github.com/protoscan-dev/protoscan/languages/yamldoc"
)

// The top-level keys a handoff may be written under.
const (
	KeyV2 = "NEXUS_HANDOFF_V2"
	KeyV1 = "NEXUS_HANDOFF"
)

// Handoff is one handoff found in an input.
type Handoff struct {
	// Node is the handoff: a mapping, or whatever stood where one was
	// expected (Evaluate then fails it as not a message).
	Node *yaml.Node
	// Key is the top-level key it was written under (KeyV2, KeyV1), or ""
	// for a bare mapping.
	Key string
	// Line is where it starts in the input.
	Line int
}

// Read finds the handoffs in a file: a YAML or JSON document (or stream,
// or list) of handoff mappings, each bare or under a top-level
// NEXUS_HANDOFF_V2: or NEXUS_HANDOFF: key, or the NEXUS_HANDOFF fenced
// blocks of a Markdown document (see markdownHandoffs). name picks the
// format by its extension (.md, .json, .yaml...); other names are told by
// their content. Input is parsed under the limits of languages/yamldoc and
// languages/jsondoc. An input with no handoff is an error.
func Read(name string, data []byte) ([]Handoff, error) {
	var docs []*yaml.Node
	var err error
	switch ext := strings.ToLower(filepath.Ext(name)); {
	case ext == ".md" || ext == ".markdown" || ext == ".mdx":
		return markdownHandoffs(name, data)
	case ext == ".json" || ext == ".jsonl":
		docs, err = jsondoc.Parse(name, data, jsondoc.DefaultLimits())
	case ext == ".yaml" || ext == ".yml":
		docs, err = yamldoc.Parse(name, data, yamldoc.DefaultLimits())
	default:
		docs, err = sniff(name, data)
		if err != nil && hasFence(data) {
			return markdownHandoffs(name, data)
		}
	}
	if err != nil {
		return nil, err
	}
	var out []Handoff
	for _, d := range docs {
		out = append(out, unwrap(d, "")...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no handoff in it", name)
	}
	return out, nil
}

func sniff(name string, data []byte) ([]*yaml.Node, error) {
	t := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		docs, err := jsondoc.Parse(name, data, jsondoc.DefaultLimits())
		if err == nil {
			return docs, nil
		}
		// a YAML flow mapping starts with '{' too
		if yd, yerr := yamldoc.Parse(name, data, yamldoc.DefaultLimits()); yerr == nil {
			return yd, nil
		}
		return nil, err
	}
	return yamldoc.Parse(name, data, yamldoc.DefaultLimits())
}

func hasFence(data []byte) bool {
	return bytes.Contains(data, []byte("```")) || bytes.Contains(data, []byte("~~~"))
}

// unwrap returns the handoffs of a document: the values of its
// NEXUS_HANDOFF_V2 and NEXUS_HANDOFF keys, or the document itself; each
// mapping of a list of mappings on its own.
func unwrap(n *yaml.Node, key string) []Handoff {
	switch n.Kind {
	case yaml.MappingNode:
		var out []Handoff
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode && (k.Value == KeyV2 || k.Value == KeyV1) {
				out = append(out, Handoff{Node: n.Content[i+1], Key: k.Value, Line: k.Line})
			}
		}
		if len(out) > 0 {
			return out
		}
	case yaml.SequenceNode:
		if yamlnode.IsListOfMappings(n) {
			var out []Handoff
			for _, c := range n.Content {
				out = append(out, unwrap(c, key)...)
			}
			return out
		}
	}
	return []Handoff{{Node: n, Key: key, Line: n.Line}}
}

// markdownHandoffs reads the handoff blocks of a Markdown document: a
// fenced block whose language is nexus_handoff or nexus_handoff_v2, and a
// yaml, json or unlabelled block that opens with a "## NEXUS_HANDOFF"
// comment line (as the seed's template does) or holds a top-level
// NEXUS_HANDOFF_V2: or NEXUS_HANDOFF: key. Other blocks are examples of
// something else and are left alone; a handoff block that does not parse
// is an error, at its line in the Markdown file.
func markdownHandoffs(name string, data []byte) ([]Handoff, error) {
	var out []Handoff
	for _, b := range markdown.BlocksOf(name, data) {
		lang := markdown.Normalize(b.Lang)
		key, labelled := "", false
		switch lang {
		case "nexus_handoff":
			key, labelled = KeyV1, true
		case "nexus_handoff_v2":
			key, labelled = KeyV2, true
		case "yaml", "json", "":
			if !bytes.Contains(b.Body, []byte(KeyV1)) {
				continue
			}
			key, labelled = headerKey(b.Body)
		default:
			continue
		}
		docs, err := parseBlock(name, lang, b.Body)
		if err != nil {
			var pe *yamldoc.Error
			if errors.As(err, &pe) && pe.Line > 0 {
				pe.Line += b.Line - 1
				return nil, pe
			}
			return nil, fmt.Errorf("%s:%d: handoff block: %w", name, b.Line, err)
		}
		for _, d := range docs {
			shift(d, &b)
			hs := unwrap(d, key)
			if !labelled && hs[0].Key == "" {
				continue // a block that mentions NEXUS_HANDOFF without being one
			}
			out = append(out, hs...)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no NEXUS_HANDOFF block in it", name)
	}
	return out, nil
}

// headerKey reads a "## NEXUS_HANDOFF_V2" (or "# NEXUS_HANDOFF") comment
// on the first non-blank line of a block.
func headerKey(body []byte) (string, bool) {
	for _, line := range bytes.Split(body, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		if !bytes.HasPrefix(t, []byte("#")) {
			return "", false
		}
		word := string(bytes.TrimSpace(bytes.TrimLeft(t, "#")))
		if f := strings.Fields(word); len(f) > 0 && (f[0] == KeyV2 || f[0] == KeyV1) {
			return f[0], true
		}
		return "", false
	}
	return "", false
}

func parseBlock(name, lang string, body []byte) ([]*yaml.Node, error) {
	if lang == "json" {
		return jsondoc.Parse(name, body, jsondoc.DefaultLimits())
	}
	return sniff(name, body)
}

// shift moves the positions of a block's nodes from the block's body to
// the Markdown file: lines by the block's first line, columns by the
// container prefix ("> ", list indentation) each line lost.
func shift(n *yaml.Node, b *markdown.Block) {
	seen := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		if i := n.Line - 1; i >= 0 && i < len(b.Lines) {
			l := b.Lines[i]
			n.Column += l.Source - l.Start - l.Pad
		}
		if n.Line > 0 {
			n.Line += b.Line - 1
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
}
