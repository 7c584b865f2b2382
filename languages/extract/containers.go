package extract

import (
	"cmp"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/golang"
	"github.com/protoscan-dev/protoscan/languages/jsondoc"
	"github.com/protoscan-dev/protoscan/languages/markdown"
	"github.com/protoscan-dev/protoscan/languages/nodefacts"
	"github.com/protoscan-dev/protoscan/languages/yamldoc"
)

// Unparsed is the Kind of the Container that stands for a Markdown block,
// or a YAML document, JSON value or JSON Lines line,
// that does not parse: so that a block an edit breaks (or mends) changes
// the list, and one that was an example in prose all along does not.
const Unparsed = "unparsed block"

// Containers parses the file named name (its language by Language) and
// lists, in source order, the places whose constant members must be
// distinct (see facts.Container): Go switches and composite literals,
// Python dicts and sets, YAML and JSON mappings, and those of a Markdown
// file's blocks. The error is the file's parse error; a Markdown file
// always parses, each block that does not being one Unparsed container;
// so does a YAML, JSON or JSON Lines file, each document, value or line
// that does not (only input over the size limit is an error).
// A file of no known language has none.
func Containers(name string, src []byte) ([]facts.Container, error) {
	if l := ForPath(name); l != nil && l.Containers != nil {
		return l.Containers(name, src)
	}
	return nil, nil
}

// dataContainers lists the containers of a YAML, JSON or JSON Lines text
// (lang), part by part, as extract reads them: a document that does not
// parse is one Unparsed container, so that a fix elsewhere in the file
// is judged, and one that breaks or mends a part is not kept (the list
// changes).
func dataContainers(lang, name string, src []byte) ([]facts.Container, error) {
	docs, broken := dataParts(lang, name, src)
	if len(broken) == 0 {
		return nodefacts.Containers(docs), nil
	}
	if broken[0].Part == "file" {
		return nil, broken[0].Err
	}
	cs := nodefacts.Containers(docs)
	for _, b := range broken {
		cs = append(cs, facts.Container{Kind: Unparsed, Line: b.Line, Broken: b.Why()})
	}
	slices.SortStableFunc(cs, func(a, b facts.Container) int { return cmp.Compare(a.Line, b.Line) })
	return cs, nil
}

// markdownContainers lists the containers of each block of a Markdown
// file; a block that does not parse is one Unparsed container.
func markdownContainers(name string, src []byte) ([]facts.Container, error) {
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
	}
	if l := ForFence(lang); l != nil && l.BlockContainers != nil {
		return l.BlockContainers(name, body)
	}
	return nil, nil
}

// goBlockContainers reads a Go block as goSnippet does: as it is, else
// wrapped in a package, else in a function.
func goBlockContainers(_ string, body []byte) ([]facts.Container, error) {
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
