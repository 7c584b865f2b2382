// Package extract picks the extractor for a source file by its name and
// turns its bytes into facts: Go, Python, YAML, JSON (and JSON Lines), and
// Markdown, whose fenced blocks and front matter go through the extractor
// of their own language with lines mapped back to the Markdown file.
package extract

import (
	"bytes"
	"path"
	"strings"

	"github.com/protoscan/protoscan/languages/facts"
	"github.com/protoscan/protoscan/languages/golang"
	"github.com/protoscan/protoscan/languages/jsondoc"
	"github.com/protoscan/protoscan/languages/markdown"
	"github.com/protoscan/protoscan/languages/nodefacts"
	"github.com/protoscan/protoscan/languages/python"
	"github.com/protoscan/protoscan/languages/yamldoc"
)

// Language names a file's language by its name, or "" when protoscan does
// not read it.
func Language(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".go":
		return "go"
	case ".py", ".pyi":
		return "python"
	case ".yaml", ".yml":
		return "yaml"
	case ".json":
		return "json"
	case ".jsonl", ".ndjson":
		return "jsonl"
	case ".md", ".markdown":
		return "markdown"
	}
	return ""
}

// File extracts the facts of one file; rel is its slash path relative to
// the scan root. A parse error comes back with whatever facts the parser
// could recover (possibly none).
func File(rel string, src []byte) (*facts.File, error) {
	lang := Language(rel)
	f, err := source(lang, rel, src)
	if f == nil {
		f = &facts.File{}
	}
	f.Path, f.Lang = rel, lang
	return f, err
}

func source(lang, rel string, src []byte) (*facts.File, error) {
	switch lang {
	case "go":
		return golang.Extract(rel, src)
	case "python":
		return python.Extract(rel, src)
	case "yaml":
		docs, err := yamldoc.Parse(rel, src, yamldoc.DefaultLimits())
		f := &facts.File{}
		nodefacts.Extract(f, src, docs, 0, 0)
		return f, err
	case "json", "jsonl":
		docs, err := jsondoc.Parse(rel, src, jsondoc.DefaultLimits())
		f := &facts.File{}
		nodefacts.Extract(f, src, docs, 0, 0)
		return f, err
	case "markdown":
		return markdownFile(rel, src), nil
	}
	return &facts.File{}, nil
}

// markdownFile extracts every block it can read. A block that does not
// parse is an example in prose, not a file of the repository: it yields no
// facts and no error.
func markdownFile(rel string, src []byte) *facts.File {
	f := &facts.File{}
	for _, b := range markdown.Blocks(src) {
		lang := markdown.Normalize(b.Lang)
		var part *facts.File
		switch lang {
		case "yaml":
			docs, err := yamldoc.Parse(rel, b.Body, yamldoc.DefaultLimits())
			if err != nil {
				continue
			}
			part = &facts.File{}
			nodefacts.Extract(part, b.Body, docs, 0, 0)
		case "json", "jsonl":
			docs, err := jsondoc.Parse(rel, b.Body, jsondoc.DefaultLimits())
			if err != nil {
				continue
			}
			part = &facts.File{}
			nodefacts.Extract(part, b.Body, docs, 0, 0)
		case "python":
			part, _ = python.Extract(rel, b.Body)
		case "go":
			part = goSnippet(rel, b.Body)
		}
		if part != nil {
			merge(f, part, b.Line-1, lineStart(src, b.Line))
		}
	}
	return f
}

// goSnippet reads a Go block, which in docs is often a fragment: a file, or
// declarations without a package clause, or statements.
func goSnippet(rel string, body []byte) *facts.File {
	if f, err := golang.Extract(rel, body); err == nil {
		return f
	}
	for _, wrap := range []struct{ head, tail string }{
		{"package p;", ""},
		{"package p; func _() {", "\n}"},
	} {
		src := append(append([]byte(wrap.head), body...), wrap.tail...)
		f, err := golang.Extract(rel, src)
		if err != nil {
			continue
		}
		shift(f, 0, -len(wrap.head), len(wrap.head))
		return f
	}
	return nil
}

// shift moves every position of f by lines and, on the first line only,
// by cols; offsets move by offs.
func shift(f *facts.File, lines, cols, offs int) {
	move := func(p *facts.Pos) {
		if p.Line == 0 {
			return
		}
		if p.Line == 1 {
			p.Col += cols
		}
		p.Line += lines
		p.Offset -= offs
	}
	for i := range f.Strings {
		move(&f.Strings[i].Pos)
		move(&f.Strings[i].End)
	}
	for i := range f.Groups {
		move(&f.Groups[i].Pos)
	}
	for i := range f.Mappings {
		m := &f.Mappings[i]
		move(&m.Pos)
		for j := range m.Entries {
			move(&m.Entries[j].KeyPos)
			move(&m.Entries[j].ValPos)
		}
	}
	for i := range f.Functions {
		fn := &f.Functions[i]
		move(&fn.Pos)
		move(&fn.End)
		for j := range fn.Consts {
			move(&fn.Consts[j].Pos)
		}
	}
}

// lineStart is the byte offset of 1-based line n of src.
func lineStart(src []byte, n int) int {
	off := 0
	for l := 1; l < n; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	return off
}

// merge appends part's facts to f with lines moved down by lineOffset and
// offsets by byteOffset, the start of the block's first line. Offsets are
// then ordered and blocks do not overlap, but a block's body may have lost
// container prefixes, so they are not exact: ends are dropped, and no fix
// is offered inside Markdown rather than one that edits the wrong bytes.
func merge(f, part *facts.File, lineOffset, byteOffset int) {
	shift(part, lineOffset, 0, -byteOffset)
	for i := range part.Strings {
		part.Strings[i].End = facts.Pos{}
	}
	base, gbase := len(f.Mappings), len(f.Groups)
	for _, s := range part.Strings {
		if s.Mapping >= 0 {
			s.Mapping += base
		}
		if s.Group >= 0 {
			s.Group += gbase
		}
		f.Strings = append(f.Strings, s)
	}
	sbase := len(f.Strings) - len(part.Strings)
	for _, g := range part.Groups {
		members := make([]int, len(g.Members))
		for i, m := range g.Members {
			members[i] = m + sbase
		}
		g.Members = members
		f.Groups = append(f.Groups, g)
	}
	f.Mappings = append(f.Mappings, part.Mappings...)
	f.Functions = append(f.Functions, part.Functions...)
}
