// Package extract is the registry of the languages protoscan reads
// (Lang: suffixes, fence labels, comment syntax, which analyzers read
// it, its extractor) and turns a file's bytes into facts by its
// language: Go, Python, YAML, JSON (and JSON Lines), and Markdown and
// MDX, whose fenced blocks and front matter go through the extractor of
// their own language with positions mapped back to the Markdown file; a
// block without a language is read when it is data. A language is added
// with Register.
package extract

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/golang"
	"github.com/protoscan-dev/protoscan/languages/jsondoc"
	"github.com/protoscan-dev/protoscan/languages/markdown"
	"github.com/protoscan-dev/protoscan/languages/nodefacts"
	"github.com/protoscan-dev/protoscan/languages/yamldoc"
)

// Language names a file's language by its name (see ForPath), or ""
// when protoscan does not read it.
func Language(name string) string {
	if l := ForPath(name); l != nil {
		return l.Name
	}
	return ""
}

// File extracts the facts of one file; rel is its slash path relative to
// the scan root. A parse error comes back with whatever facts the parser
// could recover (possibly none): the error of the first broken part Parse
// finds outside Markdown blocks (a Markdown file always parses).
func File(rel string, src []byte) (*facts.File, error) {
	f, broken := Parse(rel, src)
	for _, b := range broken {
		if !b.Block {
			return f, b.Err
		}
	}
	return f, nil
}

// Broken is a part of a file that does not parse, and so gives no facts:
// a YAML document (its aliases over budget count), a JSON value, a line
// of JSON Lines, a YAML or JSON document of a Markdown block, or the
// whole file (Go, Python, input over the parsers' size limit). The other
// parts of the file give their facts all the same.
type Broken struct {
	// Part names what is broken: "file", "YAML document", "JSON value",
	// "JSON Lines line", or "yaml block" and so on in Markdown.
	Part string
	// Line and Col are where the problem is in the file (1-based), or
	// where the part starts when the parser does not say; 0 when unknown
	// (the whole file).
	Line, Col int
	// Err is why: an *yamldoc.Error (a jsondoc error is one too), or the
	// language's error for a whole file.
	Err error
	// Raw is the part's text, for telling a broken message from broken
	// data; nil for a whole file of code.
	Raw []byte
	// Block is set for a part of a Markdown block: an example in prose,
	// which matters only when it looks like a message.
	Block bool
}

// Why is what is wrong, without the file name and position Err carries.
func (b Broken) Why() string {
	var e *yamldoc.Error
	if errors.As(b.Err, &e) {
		return e.Msg
	}
	return b.Err.Error()
}

// Parse extracts the facts of one file, as File does, and lists its
// broken parts in source order: each YAML document, JSON value, JSON
// Lines line and Markdown block is read on its own, so that a broken one
// costs only itself. Cutting a file into its parts is linear in its size.
func Parse(rel string, src []byte) (*facts.File, []Broken) {
	var f *facts.File
	var broken []Broken
	lang := ForPath(rel)
	if lang != nil {
		f, broken = lang.Parse(rel, src)
	}
	if f == nil {
		f = &facts.File{}
	}
	f.Path = rel
	if lang != nil {
		f.Lang = lang.Name
	}
	return f, broken
}

// nodeFacts adds the facts of a data file's documents to f.
func nodeFacts(f *facts.File, src []byte, docs []*yaml.Node) {
	nodefacts.Extract(f, src, docs, 0, 0)
}

// dataParts parses src, a YAML, JSON or JSON Lines text (lang), part by
// part: the root nodes of the parts that parse, and the parts that do
// not, with their lines in src.
func dataParts(lang, rel string, src []byte) ([]*yaml.Node, []Broken) {
	var docs []*yaml.Node
	var broken []Broken
	var lines lineIndex
	if max := yamldoc.DefaultLimits().MaxBytes; int64(len(src)) > max { // jsondoc's too
		return nil, []Broken{{Part: "file", Err: &yamldoc.Error{Name: rel, Msg: fmt.Sprintf("input is %d bytes, more than the limit of %d", len(src), max)}}}
	}
	switch lang {
	case "yaml":
		ds, err := yamldoc.ParseDocs(rel, src, yamldoc.DefaultLimits())
		if err != nil { // not for the size: checked above
			return nil, []Broken{{Part: "file", Err: err}}
		}
		for i, d := range ds {
			if d.Err != nil {
				broken = append(broken, brokenAt("YAML document", d.Err, d.Line, src[d.From:d.To]))
				continue
			}
			if aerr := yamlnode.CheckAliases(d.Node, yamlnode.DefaultLimits()); aerr != nil {
				// the facts of a document hold an anchor's value at each
				// of its aliases, and the analyzers walk those values,
				// so a billion laughs would cost them billions of steps
				if lines == nil {
					lines = newLineIndex(src)
				}
				next := 0
				if i+1 < len(ds) {
					next = ds[i+1].Line
				}
				broken = append(broken, brokenAt("YAML document", aliasError(rel, aerr), d.Line, lines.text(src, d.Line, next)))
				continue
			}
			docs = append(docs, d.Node)
		}
	case "json":
		jsondoc.ParseParts(rel, src, jsondoc.DefaultLimits(), func(p jsondoc.Part) bool {
			if p.Err != nil {
				broken = append(broken, brokenAt("JSON value", p.Err, 0, src[p.From:p.To]))
			} else {
				docs = append(docs, p.Node)
			}
			return true
		})
	case "jsonl":
		// most files parse whole (a value may then span lines); one that
		// does not is read line by line, each line on its own
		nodes, err := jsondoc.Parse(rel, src, jsondoc.DefaultLimits())
		if err == nil {
			return nodes, nil
		}
		lines = newLineIndex(src)
		jsondoc.ParseLines(rel, src, jsondoc.DefaultLimits(), func(line int, n *yaml.Node, err error) bool {
			switch {
			case err != nil:
				broken = append(broken, brokenAt("JSON Lines line", err, line, lines.text(src, line, line+1)))
			default:
				docs = append(docs, n)
			}
			return true
		})
	}
	return docs, broken
}

// brokenAt is a broken part whose text is raw and which starts on line
// (0: unknown), at the line and column err gives, else at line. yaml.v3
// names the line before some errors, which may be the line before the
// part: the part's own first line stands for it then.
func brokenAt(part string, err error, line int, raw []byte) Broken {
	b := Broken{Part: part, Line: line, Err: err, Raw: raw}
	var e *yamldoc.Error
	if errors.As(err, &e) && e.Line >= line && e.Line > 0 {
		b.Line, b.Col = e.Line, e.Column
	}
	return b
}

// aliasError words a document's aliases over budget (see
// yamlnode.CheckAliases) as a yamldoc error, at the alias.
func aliasError(rel string, aerr error) error {
	ye := &yamldoc.Error{Name: rel, Msg: aerr.Error()}
	var ne *yamlnode.Error
	if errors.As(aerr, &ne) {
		ye.Line, ye.Column, ye.Msg = ne.Line, ne.Column, ne.Msg
	}
	return ye
}

// lineIndex holds where each line of a text starts, lines ending at '\n'.
type lineIndex []int

func newLineIndex(src []byte) lineIndex {
	idx := lineIndex{0}
	for i, c := range src {
		if c == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

// text is the text of lines from to before (1-based; before 0 or past
// the end: to the end of src).
func (idx lineIndex) text(src []byte, from, before int) []byte {
	start, end := len(src), len(src)
	if from >= 1 && from <= len(idx) {
		start = idx[from-1]
	}
	if before >= 1 && before <= len(idx) {
		end = idx[before-1]
	}
	if end < start {
		end = start
	}
	return src[start:end]
}

// markdownFile extracts every block it can read, each YAML document and
// JSON value of a block on its own. A part of a YAML or JSON block that
// does not parse gives no facts and is listed, with Block set: it is an
// example in prose, not a file of the repository, unless it looks like a
// message (the scan decides). A block without a language is read when it
// is data, and is nothing when it is not (see unlabelled).
func markdownFile(rel string, src []byte) (*facts.File, []Broken) {
	f := &facts.File{}
	var broken []Broken
	for _, b := range markdown.BlocksOf(rel, src) {
		lang := markdown.Normalize(b.Lang)
		var part *facts.File
		var bad []Broken
		if lang == "" {
			part = unlabelled(rel, b.Body)
		} else if l := ForFence(lang); l != nil && l.Block != nil {
			part, bad = l.Block(rel, b.Body)
		}
		if part != nil {
			merge(f, part, &b)
		}
		var idx lineIndex // of the body, once for all its broken parts
		if len(bad) > 0 {
			idx = newLineIndex(b.Body)
		}
		for _, x := range bad {
			broken = append(broken, inBlock(x, &b, lang, idx))
		}
	}
	return f, broken
}

// blockFacts are the facts of the documents of a block's body, or nil
// when none parsed.
func blockFacts(body []byte, docs []*yaml.Node) *facts.File {
	if len(docs) == 0 {
		return nil
	}
	part := &facts.File{}
	nodefacts.Extract(part, body, docs, 0, 0)
	return part
}

// inBlock maps x, a broken part of the body of block b (lang is its
// language; idx the body's lines), to the Markdown file.
func inBlock(x Broken, b *markdown.Block, lang string, idx lineIndex) Broken {
	x.Block = true
	if lang == "" {
		lang = "unlabelled"
	}
	if x.Part == "file" {
		x.Part = lang + " block"
	} else {
		x.Part += " of a " + lang + " block"
	}
	line, col := x.Line, x.Col
	if line == 0 {
		line = 1
	}
	if col == 0 {
		col = 1
	}
	p := facts.Pos{Line: line, Col: col, Offset: idx.offset(line, col, len(b.Body))}
	relocate(b, &p)
	x.Line = p.Line
	if x.Col > 0 {
		x.Col = p.Col
	}
	return x
}

// offset is the byte offset of line:col (col counted in bytes), within
// n bytes.
func (idx lineIndex) offset(line, col, n int) int {
	if line < 1 || line > len(idx) {
		return n
	}
	return min(idx[line-1]+col-1, n)
}

// unlabelled reads a block without a language as JSON when it starts with
// "{" or "[" and parses as JSON, else as YAML when it parses as YAML; it is
// data only when every document is a mapping or a list of mappings. Docs
// show messages in plain fences as often as in labelled ones, and just as
// often shell sessions, diagrams, prose and outlines with "..." in them:
// whatever is not data is nothing, never a broken part (a block labelled
// yaml or json says it is data; an unlabelled one says nothing).
func unlabelled(rel string, body []byte) *facts.File {
	guess := markdown.Guess(body)
	if guess == "" {
		return nil
	}
	var docs []*yaml.Node
	var broken []Broken
	if guess == "json" {
		docs, broken = dataParts("json", rel, body)
	}
	if guess == "yaml" || len(broken) > 0 {
		// Not JSON: a YAML flow mapping ({task_id: t-1}) is still data.
		docs, broken = dataParts("yaml", rel, body)
	}
	if len(broken) > 0 {
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
	return blockFacts(body, docs)
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
