// Package markdown finds the code inside Markdown documents: the fenced code
// blocks and the YAML front matter, each with its language and the line of
// the Markdown file where its text starts, so that the extractor of that
// language can parse the text and report positions in the Markdown file.
//
// Blocks is a scanner for the block structure of CommonMark 0.31, reduced to
// what decides where a fenced code block starts, what its content is and
// where it ends: block quotes (nested too), bullet and ordered lists and
// their items (content indentation, lazy continuation lines, the rules for
// an item that interrupts a paragraph or starts with a blank line),
// paragraphs, setext and ATX headings, thematic breaks and indented code
// blocks. Tabs count to tab stops of 4 columns from the start of the line
// wherever indentation is measured, partially consumed tabs included, as in
// cmark and commonmark.js. It runs in time linear in the input, never
// panics, and accepts any bytes: only ASCII bytes mean anything to it.
//
// BlocksMDX reads MDX pages with the one block rule MDX changes: there is
// no indented code, so fences nested in JSX components are found however
// deep they are indented; JSX and import lines are paragraphs. Guess tells
// whether an unlabelled block may be data (JSON or YAML) worth parsing.
//
// Not handled, deliberately:
//
//   - HTML blocks are ordinary paragraphs here, so a fence inside an HTML
//     comment or a <details> element is found (CommonMark would make it raw
//     HTML). For a linter, code in a collapsed section is still code.
//   - The info string is not unescaped: Info holds the text as written
//     (trimmed), backslash escapes and entity references included. NUL
//     bytes are kept, not replaced by U+FFFD.
//   - Containers nested more than 100 deep (a list item counts twice: list
//     and item) are not opened; the rest of such a line is read as
//     paragraph text. This bounds the work per line.
//   - Front matter is YAML only (---); TOML (+++) front matter is not
//     recognised.
//   - Where cmark and commonmark.js disagree (a whitespace-only line after
//     an empty list item; the width of tabs before a fence), this package
//     follows commonmark.js and the spec's wording in columns.
//   - Inside containers and indented fences each body line loses a prefix
//     of its own width ("> " or ">", list indentation), so an offset or a
//     column in Body is not one of the Markdown file. Lines records, for
//     every line of Body, where its text is in the input: Position and
//     Span map offsets of Body back exactly.
//
// Line endings are "\n", "\r\n" and a lone "\r", as in CommonMark, and Line
// counts them all. Body keeps "\n" and "\r\n" endings as they are (YAML,
// JSON, Go and Python parsers all read "\r\n" as one line break), so that
// Body stays a sub-slice of the input; a lone "\r" ending is rewritten to
// "\n" (which costs a copy) because most parsers count lines by "\n" only.
// Either way, the n-th "\n" in Body ends Markdown line Line+n-1. When the
// document's last line has no ending, neither has Body's.
package markdown

import (
	"bytes"
	"path"
	"strings"
)

// Block is a fenced code block or the front matter of a Markdown document.
type Block struct {
	// Lang is the first word of the info string, with ASCII letters
	// lower-cased ("yaml", "yml", "json", "python", "go"...), or "" when
	// there is no info string. It is not mapped to a canonical name: see
	// Normalize. For front matter it is "yaml".
	Lang string
	// Info is the whole info string, trimmed of spaces and tabs.
	Info string
	// Body is the content: every line between the fences, each with its
	// line ending (the last one may have none at the end of the input),
	// with the container prefixes ("> ", list item indentation) and up to
	// as many columns of indentation as the opening fence had removed, as
	// CommonMark says. It is a sub-slice of the input (with its capacity
	// cut to its length, so appending to it does not write into the input)
	// unless something had to be removed from the middle, a partially
	// consumed tab had to become spaces or a lone "\r" ending became "\n";
	// then it is a copy.
	Body []byte
	// Line is the 1-based line of the Markdown file on which Body starts.
	// For an empty Body it is the line after the opening fence, or the
	// opening fence's own line when the document ends there.
	Line int
	// Lines maps Body back to the input: one entry per line of Body, in
	// order; line i of Body is line Line+i of the Markdown file. An empty
	// Body has none, or one when it is an empty last line of the input
	// (after the fence's indentation is removed).
	Lines []Line
	// FrontMatter marks the YAML front matter: "---" on the first line (after
	// an optional UTF-8 byte order mark) up to a line "---" or "...". Both
	// delimiter lines may have trailing spaces or tabs.
	FrontMatter bool
}

// Line locates one line of a Block's Body in the Markdown input. The
// line's text in Body, after Pad spaces, is the same bytes as
// input[Source:Source+Len]; its ending follows with the same length ("\n",
// "\r\n", or a lone "\r" that Body spells "\n").
type Line struct {
	// Body is the offset in Body of the line's first byte.
	Body int
	// Start is the offset in the input of the Markdown line, container
	// prefixes included: Source-Start+1 is the byte column of Source.
	Start int
	// Source is the offset in the input of the first byte of Body's line
	// that is an input byte (the one after Pad).
	Source int
	// Pad is the number of spaces at the start of Body's line that stand
	// for the rest of a partially consumed tab (at input offset Source-1):
	// they are not bytes of the input.
	Pad int
	// Len is the length of the line's text, without Pad and line ending.
	Len int
}

// lineAt returns the index in Lines of the line of Body holding offset off
// (the last line for an offset at or past the end), or -1 when Lines is
// empty.
func (b *Block) lineAt(off int) int {
	lo, hi := 0, len(b.Lines) // the first line starting after off is in [lo, hi]
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if b.Lines[m].Body <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 && len(b.Lines) > 0 {
		return 0 // off < 0
	}
	return lo - 1
}

// Position maps offset off of Body to the Markdown input: the input
// offset, its 1-based line and its 1-based column in bytes. exact reports
// whether off is in the text of its line (or just past it), where Body and
// the input hold the same bytes; an offset in Pad maps to the tab it stands
// for, one in a line ending to that ending, and one outside Body to the
// nearest end of it, all with exact false. With no Lines (an empty Body)
// it returns the block's Line, column 1, offset 0 and false.
func (b *Block) Position(off int) (src, line, col int, exact bool) {
	i := b.lineAt(off)
	if i < 0 {
		return 0, b.Line, 1, false
	}
	l := b.Lines[i]
	rel := off - l.Body - l.Pad
	switch {
	case off < l.Body:
		src, exact = l.Source-min(l.Pad, 1), false
	case rel < 0:
		src, exact = l.Source-1, false // inside the partially consumed tab
	default:
		src, exact = l.Source+rel, rel <= l.Len
	}
	if src < l.Start {
		src = l.Start
	}
	return src, b.Line + i, src - l.Start + 1, exact
}

// Span maps the range [start, end) of Body to the input when it lies
// within the text of one line, where the mapping is exact; ok is false
// otherwise (a range across lines may span removed container prefixes).
func (b *Block) Span(start, end int) (srcStart, srcEnd int, ok bool) {
	if start > end || start < 0 {
		return 0, 0, false
	}
	i := b.lineAt(start)
	if i < 0 {
		return 0, 0, false
	}
	l := b.Lines[i]
	from, to := start-l.Body-l.Pad, end-l.Body-l.Pad
	if from < 0 || to > l.Len {
		return 0, 0, false
	}
	return l.Source + from, l.Source + to, true
}

// maxDepth bounds the nesting of block quotes, lists and list items, so that
// the work per line stays bounded however the input nests.
const maxDepth = 100

const tabStop = 4

// Blocks returns the front matter and the fenced code blocks of a Markdown
// document, in the order of the document.
func Blocks(data []byte) []Block { return blocks(data, false) }

// BlocksMDX is Blocks for an MDX document. MDX has no indented code
// blocks, so indentation never keeps a line from being a fence, a closing
// fence, a block quote or a list item: fences nested in JSX components
// (<Tabs>, <Step>) are usually indented 4 columns or more. JSX and import
// lines are read as paragraphs, which a fence interrupts.
func BlocksMDX(data []byte) []Block { return blocks(data, true) }

// BlocksOf reads the document named name (a path; only its extension
// counts) with BlocksMDX when it is a .mdx file, else with Blocks.
func BlocksOf(name string, data []byte) []Block {
	return blocks(data, strings.EqualFold(path.Ext(name), ".mdx"))
}

func blocks(data []byte, mdx bool) []Block {
	p := &parser{data: data, nextLF: -1, nextCR: -1, mdx: mdx}
	pos := 0
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		pos = 3
	}
	pos = p.frontMatter(pos)
	for pos < len(data) {
		le, next := p.lineEnd(pos)
		p.line(pos, le, next)
		pos = next
	}
	p.closeLeaf()
	for i := range p.blocks {
		// An empty block at the very end has no line after its fence.
		if p.blocks[i].Line > p.lineNo {
			p.blocks[i].Line = p.lineNo
		}
	}
	return p.blocks
}

type kind uint8

const (
	quoteKind kind = iota
	listKind
	itemKind
)

// A container is an open block quote, list or list item.
type container struct {
	kind kind
	// marker is a list's bullet character or ordered-list delimiter: a list
	// item with another marker starts a new list.
	marker  byte
	ordered bool
	// width is a list item's content indentation in columns, relative to
	// the content of its parent.
	width int
	// hasContent is false for a list item that has held only blank lines:
	// such an item ends at the next blank line.
	hasContent bool
}

type leafKind uint8

const (
	noLeaf   leafKind = iota // nothing open, or a block that never continues a line (heading, indented code)
	paraLeaf                 // a paragraph, which lazy continuation lines extend
	fenceLeaf
)

type parser struct {
	data   []byte
	mdx    bool // no indented code blocks (BlocksMDX)
	blocks []Block
	lines  []Line // the Lines of every block, in order
	lineNo int    // number of the line being read, 1-based

	// Cached offsets of the next "\n" and "\r" at or after the line being
	// read, so that finding line ends stays linear even when one of the two
	// never occurs.
	nextLF, nextCR int

	stack []container
	leaf  leafKind
	fence fence

	// The cursor in the current line data[start:le]: byte offset off is
	// at column col (tabs expanded); partial says the tab at off is only
	// partly consumed.
	start   int
	le      int
	off     int
	col     int
	partial bool

	// The first non-space byte at or after off, valid while nsOK.
	nsOK   bool
	nsOff  int
	nsCol  int
	indent int // nsCol - col
	blank  bool
}

// fence is the open fenced code block.
type fence struct {
	char   byte
	length int
	indent int // columns of indentation of the opening fence
	info   string
	line   int // line of the opening fence
	body   body
}

// body collects a block's content lines. It stays a window on data while the
// lines are contiguous and unchanged, and becomes a copy at the first line
// that is not. Its Lines are appended to lines, which all the blocks of a
// document share (one growing slice, not one per block): they are
// (*lines)[first:first+n].
type body struct {
	start, end int
	lines      *[]Line
	first, n   int
	copied     bool
	buf        []byte
}

func (b *body) reset(at int, lines *[]Line) {
	*b = body{start: at, end: at, lines: lines, first: len(*lines)}
}

// lineMap returns the body's Lines, with their capacity cut so that
// appending to them does not write into another block's.
func (b *body) lineMap() []Line {
	if b.n == 0 {
		return nil
	}
	return (*b.lines)[b.first : b.first+b.n : b.first+b.n]
}

// add appends the line data[from:le] and its ending data[le:next], preceded
// by spaces spaces (the rest of a partially consumed tab); the Markdown line
// starts at lineStart.
func (b *body) add(data []byte, lineStart, spaces, from, le, next int) {
	loneCR := next == le+1 && data[le] == '\r'
	ln := Line{Start: lineStart, Source: from, Pad: spaces, Len: le - from}
	if !b.copied {
		if spaces == 0 && !loneCR && (b.n == 0 || from == b.end) {
			if b.n == 0 {
				b.start, b.end = from, from
			}
			ln.Body = b.end - b.start
			b.end = next
			*b.lines = append(*b.lines, ln)
			b.n++
			return
		}
		b.copied = true
		b.buf = make([]byte, 0, b.end-b.start+spaces+next-from)
		if b.n > 0 {
			b.buf = append(b.buf, data[b.start:b.end]...)
		}
	}
	ln.Body = len(b.buf)
	*b.lines = append(*b.lines, ln)
	b.n++
	for ; spaces > 0; spaces-- {
		b.buf = append(b.buf, ' ')
	}
	if loneCR {
		b.buf = append(b.buf, data[from:le]...)
		b.buf = append(b.buf, '\n')
	} else {
		b.buf = append(b.buf, data[from:next]...)
	}
}

func (b *body) bytes(data []byte) []byte {
	if b.copied {
		return b.buf
	}
	return data[b.start:b.end:b.end]
}

// lineEnd returns the end of the line's text and the start of the next line.
func (p *parser) lineEnd(pos int) (le, next int) {
	d := p.data
	if p.nextLF < pos {
		p.nextLF = len(d)
		if i := bytes.IndexByte(d[pos:], '\n'); i >= 0 {
			p.nextLF = pos + i
		}
	}
	if p.nextCR < pos {
		p.nextCR = len(d)
		if i := bytes.IndexByte(d[pos:], '\r'); i >= 0 {
			p.nextCR = pos + i
		}
	}
	le = min(p.nextLF, p.nextCR)
	switch {
	case le == len(d):
		return le, le
	case d[le] == '\r' && le+1 < len(d) && d[le+1] == '\n':
		return le, le + 2
	}
	return le, le + 1
}

// frontMatter reads YAML front matter starting at pos, the start of the
// document, and returns where the Markdown text starts.
func (p *parser) frontMatter(pos int) int {
	le, next := p.lineEnd(pos)
	if !isDelimiter(p.data[pos:le], "---") {
		return pos
	}
	var b body
	b.reset(next, &p.lines)
	for n, start := 2, next; start < len(p.data); n++ {
		le, next := p.lineEnd(start)
		if line := p.data[start:le]; isDelimiter(line, "---") || isDelimiter(line, "...") {
			p.blocks = append(p.blocks, Block{Lang: "yaml", Body: b.bytes(p.data), Lines: b.lineMap(), Line: 2, FrontMatter: true})
			p.lineNo = n
			return next
		}
		b.add(p.data, start, 0, start, le, next)
		start = next
	}
	// No closing line: the first line is a thematic break, not front matter.
	// Forget the cached line ends: they were found beyond the first line,
	// and the lines collected.
	p.nextLF, p.nextCR = -1, -1
	p.lines = p.lines[:b.first]
	return pos
}

// isDelimiter reports whether line is delim followed only by spaces or tabs.
func isDelimiter(line []byte, delim string) bool {
	return bytes.HasPrefix(line, []byte(delim)) && len(bytes.TrimRight(line[len(delim):], " \t")) == 0
}

// line reads the line data[start:le], whose ending runs to next. It follows
// the CommonMark parsing strategy: match the open containers, then open new
// ones, then give the rest of the line to the open leaf block or start one.
func (p *parser) line(start, le, next int) {
	p.lineNo++
	p.start, p.le, p.off, p.col, p.partial, p.nsOK = start, le, start, 0, false, false
	d := p.data

	matched := 0
	for ; matched < len(p.stack); matched++ {
		c := &p.stack[matched]
		p.findNonspace()
		ok := false
		switch c.kind {
		case quoteKind:
			if !p.tooIndented() && !p.blank && d[p.nsOff] == '>' {
				p.advanceTo(p.nsOff + 1)
				p.skipOneSpace()
				ok = true
			}
		case listKind:
			ok = true // a list ends only when its parent or a non-item block says so
		case itemKind:
			if p.blank {
				if c.hasContent {
					p.advanceTo(p.nsOff)
					ok = true
				}
			} else if p.indent >= c.width {
				p.advance(c.width, true)
				ok = true
			}
		}
		if !ok {
			break
		}
	}
	all := matched == len(p.stack)

	if all && p.leaf == fenceLeaf {
		p.findNonspace()
		if !p.tooIndented() && p.isClosingFence() {
			p.closeLeaf()
			return
		}
		for i := p.fence.indent; i > 0 && p.off < le && (d[p.off] == ' ' || d[p.off] == '\t'); i-- {
			p.advance(1, true)
		}
		p.addBodyLine(next)
		return
	}

	// Open new blocks. Only a fence opens a block this package reports, but
	// the others decide which later lines can be fences.
	const (
		startText = iota // text or a blank line
		startFence
		startOther // heading, thematic break, indented code
	)
	started := startText
	opened := false
	maybeLazy := p.leaf == paraLeaf
	var f fence
	for {
		p.findNonspace()
		indented := p.tooIndented()
		var c byte
		if !p.blank {
			c = d[p.nsOff]
		}
		// Whether the line would otherwise continue the open paragraph:
		// only then is "---" a setext underline, and only then must a list
		// item not be empty nor an ordered one start at other than 1.
		inPara := !opened && all && p.leaf == paraLeaf
		depth := len(p.stack)
		if !opened {
			depth = matched
		}
		if !indented && c == '>' && depth < maxDepth {
			p.open(matched, &opened)
			p.advanceTo(p.nsOff + 1)
			p.skipOneSpace()
			p.push(container{kind: quoteKind})
			maybeLazy = false
			continue
		}
		if !indented && c == '#' && p.isATXHeading() {
			started = startOther
			break
		}
		if !indented && (c == '`' || c == '~') && p.openingFence(&f) {
			started = startFence
			break
		}
		if !indented && inPara && (c == '=' || c == '-') && p.isSetextUnderline() {
			started = startOther
			break
		}
		if !indented && (c == '-' || c == '*' || c == '_') && p.isThematicBreak() {
			started = startOther
			break
		}
		if !indented && depth+1 < maxDepth {
			if m, ok := p.listMarker(inPara); ok {
				p.open(matched, &opened)
				p.openItem(m)
				maybeLazy = false
				continue
			}
		}
		if indented && !maybeLazy && !p.blank {
			started = startOther // indented code block
		}
		break
	}

	if !opened && started == startText && !p.blank && p.leaf == paraLeaf {
		return // paragraph continuation, possibly lazy: containers stay open
	}
	if !opened {
		p.truncate(matched)
	}
	if started != startText || !p.blank {
		// A list holds only items: any other block ends it.
		for n := len(p.stack); n > 0 && p.stack[n-1].kind == listKind; n-- {
			p.stack = p.stack[:n-1]
		}
		if n := len(p.stack); n > 0 {
			p.stack[n-1].hasContent = true
		}
	}
	switch {
	case started == startFence:
		p.leaf = fenceLeaf
		p.fence = f
		p.fence.line = p.lineNo
		p.fence.body.reset(next, &p.lines)
	case started == startText && !p.blank:
		p.leaf = paraLeaf
	default:
		p.leaf = noLeaf
	}
}

// open is called before the first new container of a line is pushed: the
// containers that did not match the line end, and so does the open leaf.
func (p *parser) open(matched int, opened *bool) {
	if !*opened {
		p.truncate(matched)
		*opened = true
	}
}

// truncate ends the containers from index n on and the open leaf block.
func (p *parser) truncate(n int) {
	p.stack = p.stack[:n]
	p.closeLeaf()
}

func (p *parser) push(c container) {
	if n := len(p.stack); n > 0 {
		p.stack[n-1].hasContent = true
	}
	p.stack = append(p.stack, c)
}

// closeLeaf ends the open leaf block; a fenced code block becomes a Block.
func (p *parser) closeLeaf() {
	if p.leaf == fenceLeaf {
		f := &p.fence
		p.blocks = append(p.blocks, Block{
			Lang:  lang(f.info),
			Info:  f.info,
			Body:  f.body.bytes(p.data),
			Lines: f.body.lineMap(),
			Line:  f.line + 1,
		})
		*f = fence{}
	}
	p.leaf = noLeaf
}

func (p *parser) addBodyLine(next int) {
	spaces, from := 0, p.off
	if p.partial {
		spaces, from = tabStop-p.col%tabStop, p.off+1
	}
	p.fence.body.add(p.data, p.start, spaces, from, p.le, next)
}

// findNonspace finds the first byte at or after the cursor that is not a
// space or tab, and the indentation in columns up to it. Moving the cursor
// within that whitespace keeps the result valid, so a line with long
// indentation and many containers is scanned once.
func (p *parser) findNonspace() {
	if !p.nsOK || p.off > p.nsOff {
		off, col := p.off, p.col
	scan:
		for off < p.le {
			switch p.data[off] {
			case ' ':
				col++
			case '\t':
				col += tabStop - col%tabStop
			default:
				break scan
			}
			off++
		}
		p.nsOK, p.nsOff, p.nsCol = true, off, col
		p.blank = off == p.le
	}
	p.indent = p.nsCol - p.col
}

// tooIndented reports whether the indentation found by findNonspace makes
// the line indented code (or its continuation) rather than a block marker.
func (p *parser) tooIndented() bool { return !p.mdx && p.indent >= 4 }

// advance moves the cursor count columns (or count bytes, when columns is
// false) forward. Counting columns may stop inside a tab, which is then
// partially consumed.
func (p *parser) advance(count int, columns bool) {
	for count > 0 && p.off < p.le {
		if p.data[p.off] != '\t' {
			p.partial = false
			p.off++
			p.col++
			count--
			continue
		}
		toStop := tabStop - p.col%tabStop
		if !columns {
			p.partial = false
			p.col += toStop
			p.off++
			count--
			continue
		}
		n := min(count, toStop)
		p.partial = toStop > count
		p.col += n
		if !p.partial {
			p.off++
		}
		count -= n
	}
}

// advanceTo moves the cursor to byte offset off.
func (p *parser) advanceTo(off int) { p.advance(off-p.off, false) }

// skipOneSpace skips the optional space (or one column of a tab) after a
// block quote marker.
func (p *parser) skipOneSpace() {
	if p.off < p.le && (p.data[p.off] == ' ' || p.data[p.off] == '\t') {
		p.advance(1, true)
	}
}

// rest returns the line from the first non-space byte on.
func (p *parser) rest() []byte { return p.data[p.nsOff:p.le] }

func (p *parser) isATXHeading() bool {
	s := p.rest()
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	return n <= 6 && (n == len(s) || s[n] == ' ' || s[n] == '\t')
}

// isSetextUnderline reports a run of "=" or "-" followed only by spaces or
// tabs.
func (p *parser) isSetextUnderline() bool {
	s := p.rest()
	n := 1
	for n < len(s) && s[n] == s[0] {
		n++
	}
	return len(bytes.TrimRight(s[n:], " \t")) == 0
}

// isThematicBreak reports three or more "-", "*" or "_" (all the same),
// with any spaces or tabs between them and nothing else.
func (p *parser) isThematicBreak() bool {
	s := p.rest()
	n := 0
	for _, b := range s {
		switch b {
		case s[0]:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// openingFence reports whether the rest of the line opens a fenced code
// block, and if so fills f.
func (p *parser) openingFence(f *fence) bool {
	s := p.rest()
	n := 1
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 {
		return false
	}
	info := bytes.Trim(s[n:], " \t")
	if s[0] == '`' && bytes.IndexByte(info, '`') >= 0 {
		return false // `` ```a`b `` is inline code, not a fence
	}
	*f = fence{char: s[0], length: n, indent: p.indent, info: string(info)}
	return true
}

// isClosingFence reports whether the rest of the line closes the open fence:
// the same character, at least as many, then only spaces or tabs.
func (p *parser) isClosingFence() bool {
	s := p.rest()
	n := 0
	for n < len(s) && s[n] == p.fence.char {
		n++
	}
	return n >= p.fence.length && len(bytes.TrimRight(s[n:], " \t")) == 0
}

// marker is a list item marker found at the first non-space byte.
type marker struct {
	char    byte // bullet, or the delimiter of an ordered marker
	ordered bool
	length  int // in bytes
}

// listMarker finds a list item marker. When the item would interrupt a
// paragraph, it must not start with a blank line and an ordered list must
// start at 1.
func (p *parser) listMarker(interruptsParagraph bool) (marker, bool) {
	s := p.rest()
	var m marker
	switch {
	case len(s) == 0:
		return m, false
	case s[0] == '-' || s[0] == '+' || s[0] == '*':
		m = marker{char: s[0], length: 1}
	case isDigit(s[0]):
		n, start := 0, 0
		for n < len(s) && n < 9 && isDigit(s[n]) {
			start = start*10 + int(s[n]-'0')
			n++
		}
		if n == len(s) || s[n] != '.' && s[n] != ')' || interruptsParagraph && start != 1 {
			return m, false
		}
		m = marker{char: s[n], ordered: true, length: n + 1}
	default:
		return m, false
	}
	after := s[m.length:]
	if len(after) > 0 && after[0] != ' ' && after[0] != '\t' {
		return m, false
	}
	if interruptsParagraph && len(bytes.TrimLeft(after, " \t")) == 0 {
		return m, false
	}
	return m, true
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// openItem pushes a list item for marker m at the first non-space byte, and a
// list for it unless it continues the list on top of the stack. The item's
// content starts 1 to 4 columns after the marker; 5 or more columns make an
// indented code block inside the item, which starts 1 column after it.
func (p *parser) openItem(m marker) {
	markerOffset := p.indent
	p.advanceTo(p.nsOff + m.length)
	off, col, partial := p.off, p.col, p.partial
	for p.col-col <= 5 && p.off < p.le && (p.data[p.off] == ' ' || p.data[p.off] == '\t') {
		p.advance(1, true)
	}
	spaces := p.col - col
	width := m.length + spaces
	if spaces >= 5 || spaces < 1 || p.off == p.le {
		width = m.length + 1
		p.off, p.col, p.partial = off, col, partial
		if spaces > 0 {
			p.advance(1, true)
		}
	}
	if n := len(p.stack); n > 0 && p.stack[n-1].kind == listKind {
		if top := p.stack[n-1]; top.marker != m.char || top.ordered != m.ordered {
			p.stack = p.stack[:n-1]
			p.push(container{kind: listKind, marker: m.char, ordered: m.ordered})
		}
	} else {
		p.push(container{kind: listKind, marker: m.char, ordered: m.ordered})
	}
	p.push(container{kind: itemKind, width: markerOffset + width})
}

// lang returns the first word of an info string, with ASCII letters
// lower-cased.
func lang(info string) string {
	if i := strings.IndexAny(info, " \t"); i >= 0 {
		info = info[:i]
	}
	return asciiLower(info)
}

func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
