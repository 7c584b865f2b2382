// Package extract picks the extractor for a source file by its name and
// turns its bytes into facts: Go, Python, YAML, JSON (and JSON Lines), and
// Markdown and MDX, whose fenced blocks and front matter go through the
// extractor of their own language with positions mapped back to the
// Markdown file; a block without a language is read when it is data.
package extract

import (
	"errors"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/golang"
	"github.com/protoscan-dev/protoscan/languages/jsondoc"
	"github.com/protoscan-dev/protoscan/languages/markdown"
	"github.com/protoscan-dev/protoscan/languages/nodefacts"
	"github.com/protoscan-dev/protoscan/languages/python"
	"github.com/protoscan-dev/protoscan/languages/yamldoc"
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
	case ".md", ".markdown", ".mdx":
		return "markdown" // MDX is Markdown with JSX, whose lines are prose here
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
		docs, err = boundedAliases(rel, docs, err)
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

// boundedAliases keeps the YAML documents whose aliases are safe to share
// (see yamlnode.CheckAliases): the facts of a document hold an anchor's
// value at each of its aliases, and the analyzers walk those values, so a
// billion laughs would cost them billions of steps. The first document
// left out is the error, unless parsing already failed.
func boundedAliases(rel string, docs []*yaml.Node, err error) ([]*yaml.Node, error) {
	kept := docs[:0]
	for _, d := range docs {
		aerr := yamlnode.CheckAliases(d, yamlnode.DefaultLimits())
		if aerr == nil {
			kept = append(kept, d)
			continue
		}
		if err == nil {
			ye := &yamldoc.Error{Name: rel, Msg: aerr.Error()}
			var ne *yamlnode.Error
			if errors.As(aerr, &ne) {
				ye.Line, ye.Column, ye.Msg = ne.Line, ne.Column, ne.Msg
			}
			err = ye
		}
	}
	return kept, err
}

// markdownFile extracts every block it can read. A block that does not
// parse is an example in prose, not a file of the repository: it yields no
// facts and no error. A block without a language is read when it is data
// (see unlabelled).
func markdownFile(rel string, src []byte) *facts.File {
	f := &facts.File{}
	for _, b := range markdown.BlocksOf(rel, src) {
		lang := markdown.Normalize(b.Lang)
		var part *facts.File
		switch lang {
		case "":
			part = unlabelled(rel, b.Body)
		case "yaml", "nexus_handoff", "nexus_handoff_v2": // a handoff block is YAML (or JSON, which YAML reads)
			docs, err := yamldoc.Parse(rel, b.Body, yamldoc.DefaultLimits())
			if docs, err = boundedAliases(rel, docs, err); err != nil {
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
			merge(f, part, &b)
		}
	}
	return f
}

// unlabelled reads a block without a language as JSON when it starts with
// "{" or "[" and parses as JSON, else as YAML when it parses as YAML; it is
// data only when every document is a mapping or a list of mappings. Docs
// show messages in plain fences as often as in labelled ones, and just as
// often shell sessions, diagrams and prose: whatever is not data is
// nothing, never a parse error.
func unlabelled(rel string, body []byte) *facts.File {
	guess := markdown.Guess(body)
	if guess == "" {
		return nil
	}
	var docs []*yaml.Node
	var err error
	if guess == "json" {
		docs, err = jsondoc.Parse(rel, body, jsondoc.DefaultLimits())
	}
	if guess == "yaml" || err != nil {
		// Not JSON: a YAML flow mapping ({task_id: t-1}) is still data.
		docs, err = yamldoc.Parse(rel, body, yamldoc.DefaultLimits())
		docs, err = boundedAliases(rel, docs, err)
	}
	if err != nil || len(docs) == 0 {
		return nil
	}
	for _, d := range docs {
		if d.Kind != yaml.MappingNode && !yamlnode.IsListOfMappings(d) {
			return nil
		}
		if d.Kind == yaml.MappingNode && describesTypes(d) {
			return nil
		}
		for _, m := range d.Content {
			if d.Kind == yaml.SequenceNode && describesTypes(m) {
				return nil
			}
		}
	}
	part := &facts.File{}
	nodefacts.Extract(part, body, docs, 0, 0)
	return part
}

// describesTypes reports a mapping that documents a message's fields
// rather than being one: most of its scalar values, at least two, are type
// names ("task_id: str", "status": "string", "metrics: Optional[Metrics]",
// "string | null"). Docs write such outlines in plain fences as often as
// examples, and judging "str" as a status helps nobody.
func describesTypes(m *yaml.Node) bool {
	scalars, types := 0, 0
	for i := 1; i < len(m.Content); i += 2 {
		v := m.Content[i]
		if v.Kind != yaml.ScalarNode {
			continue
		}
		scalars++
		if isTypeName(v.Value) {
			types++
		}
	}
	return types >= 2 && 2*types >= scalars
}

// typeNames are the names of types in Python, TypeScript, Go and JSON
// Schema that field outlines use, lower-cased. null and None are not
// among them: alone they are values, which messages carry.
var typeNames = map[string]bool{
	"str": true, "string": true, "int": true, "integer": true, "float": true, "number": true,
	"bool": true, "boolean": true, "dict": true, "list": true, "object": true, "array": true,
	"any": true, "datetime": true, "uuid": true, "bytes": true,
	"int64": true, "float64": true, "map": true, "enum": true, "timestamp": true, "date": true,
}

// isTypeName reports a value spelled as a type: a known type name
// (optionally with "?" or "[]"), a generic (List[str], Optional[int],
// Literal["a", "b"]) or Go map, or a union of those ("str | None").
func isTypeName(v string) bool {
	v = strings.TrimSpace(v)
	if strings.Contains(v, "|") {
		for _, p := range strings.Split(v, "|") {
			p = strings.Trim(strings.TrimSpace(p), `"'`)
			if p != "" && !isTypeName(p) && !isWord(p) {
				return false
			}
		}
		return true
	}
	v = strings.TrimSuffix(strings.TrimSuffix(v, "?"), "[]")
	if typeNames[strings.ToLower(v)] {
		return true
	}
	if strings.HasPrefix(v, "map[") {
		return true // Go's map[string]any
	}
	// A generic: a name, then [...] to the end.
	if i := strings.IndexByte(v, '['); i > 0 && strings.HasSuffix(v, "]") && isWord(v[:i]) {
		return true
	}
	return false
}

// isWord reports a non-empty name of letters, digits, '_' and '.'.
func isWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.') {
			return false
		}
	}
	return true
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
	moveOthers(f, move)
}

// moveOthers applies move to every position of f but its strings' (which
// merge maps with care of their ends).
func moveOthers(f *facts.File, move func(*facts.Pos)) {
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
	for i := range f.Lists {
		l := &f.Lists[i]
		move(&l.Pos)
		for j := range l.Items {
			move(&l.Items[j])
		}
	}
	for i := range f.Tests {
		move(&f.Tests[i].Pos)
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

// merge appends part's facts, extracted from the body of block b, to f,
// with every position mapped back to the Markdown file: lines, byte
// columns that count the container prefixes the body lost ("> ", list
// indentation), and offsets into the Markdown file. The end of a string
// is kept only where the mapping is exact (the literal lies in the text of
// one line, as the input spells it), so that a fix offered inside Markdown
// edits exactly the literal's bytes; elsewhere it is dropped and no fix is
// offered. Mapped offsets stay ordered, and those of two blocks do not
// overlap.
func merge(f, part *facts.File, b *markdown.Block) {
	for i := range part.Strings {
		s := &part.Strings[i]
		start, end, line := s.Pos.Offset, s.End.Offset, s.Pos.Line
		exact := relocate(b, &s.Pos)
		if s.End.Line == 0 {
			continue
		}
		from, to, ok := b.Span(start, end)
		if !ok || !exact || s.End.Line != line || from != s.Pos.Offset {
			s.End = facts.Pos{}
			continue
		}
		s.End = facts.Pos{Line: s.Pos.Line, Col: s.Pos.Col + to - from, Offset: to}
	}
	moveOthers(part, func(p *facts.Pos) { relocate(b, p) })
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
	f.Lists = append(f.Lists, part.Lists...)
	f.Functions = append(f.Functions, part.Functions...)
	f.Tests = append(f.Tests, part.Tests...)
}

// relocate maps p, a position in the body of block b (line 1 is the body's
// first line), to the Markdown file, and reports whether the mapping of
// its offset is exact. The position's offset decides; when the extractor's
// line disagrees with it (an offset the extractor did not know), the line
// decides and the column is carried over.
func relocate(b *markdown.Block, p *facts.Pos) (exact bool) {
	if p.Line == 0 {
		return false
	}
	src, line, col, exact := b.Position(p.Offset)
	if want := b.Line + p.Line - 1; line != want {
		if len(b.Lines) == 0 {
			p.Line = want
			return false
		}
		l := b.Lines[min(max(p.Line-1, 0), len(b.Lines)-1)]
		src = l.Source + min(max(p.Col-1-l.Pad, 0), l.Len)
		line, col, exact = want, src-l.Start+1, false
	}
	*p = facts.Pos{Line: line, Col: col, Offset: src}
	return exact
}
