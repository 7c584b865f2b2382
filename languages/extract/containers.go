package extract

import (
	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/golang"
	"github.com/protoscan-dev/protoscan/languages/jsondoc"
	"github.com/protoscan-dev/protoscan/languages/markdown"
	"github.com/protoscan-dev/protoscan/languages/nodefacts"
	"github.com/protoscan-dev/protoscan/languages/python"
	"github.com/protoscan-dev/protoscan/languages/yamldoc"
)

// Unparsed is the Kind of the Container that stands for a Markdown block
// that does not parse: so that a block an edit breaks (or mends) changes
// the list, and one that was an example in prose all along does not.
const Unparsed = "unparsed block"

// Containers parses the file named name (its language by Language) and
// lists, in source order, the places whose constant members must be
// distinct (see facts.Container): Go switches and composite literals,
// Python dicts and sets, YAML and JSON mappings, and those of a Markdown
// file's blocks. The error is the file's parse error; a Markdown file
// always parses, each block that does not being one Unparsed container.
// A file of no known language has none.
func Containers(name string, src []byte) ([]facts.Container, error) {
	switch Language(name) {
	case "go":
		return golang.Containers(src)
	case "python":
		return python.Containers(src)
	case "yaml":
		docs, err := yamldoc.Parse(name, src, yamldoc.DefaultLimits())
		if err != nil {
			return nil, err
		}
		return nodefacts.Containers(docs), nil
	case "json", "jsonl":
		docs, err := jsondoc.Parse(name, src, jsondoc.DefaultLimits())
		if err != nil {
			return nil, err
		}
		return nodefacts.Containers(docs), nil
	case "markdown":
		var out []facts.Container
		for _, b := range markdown.BlocksOf(name, src) {
			cs, err := blockContainers(name, markdown.Normalize(b.Lang), b.Body)
			if err != nil {
				cs = []facts.Container{{Kind: Unparsed, Line: b.Line}}
			}
			out = append(out, cs...)
		}
		return out, nil
	}
	return nil, nil
}

// blockContainers reads a Markdown block as extract reads it (see
// markdownFile): by its language, a Go fragment wrapped, an unlabelled
// block as the data it looks like, any other language as nothing.
func blockContainers(name, lang string, body []byte) ([]facts.Container, error) {
	switch lang {
	case "":
		var docs []*yaml.Node
		var err error
		switch markdown.Guess(body) {
		case "":
			return nil, nil
		case "json":
			if docs, err = jsondoc.Parse(name, body, jsondoc.DefaultLimits()); err == nil {
				break
			}
			fallthrough
		default:
			docs, err = yamldoc.Parse(name, body, yamldoc.DefaultLimits())
		}
		if err != nil {
			return nil, nil // prose, before and after an edit alike
		}
		return nodefacts.Containers(docs), nil
	case "yaml", "nexus_handoff", "nexus_handoff_v2":
		return Containers(".yaml", body)
	case "json", "jsonl":
		return Containers(".json", body)
	case "python":
		return python.Containers(body)
	case "go":
		cs, err := golang.Containers(body)
		if err == nil {
			return cs, nil
		}
		for _, wrap := range []struct{ head, tail string }{
			{"package p;", ""},
			{"package p; func _() {", "\n}"},
		} {
			src := append(append([]byte(wrap.head), body...), wrap.tail...)
			if cs, werr := golang.Containers(src); werr == nil {
				return cs, nil
			}
		}
		return nil, err
	}
	return nil, nil
}
