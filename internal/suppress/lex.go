package suppress

import "bytes"

// The lexers below read a file line by line, carrying only the state that
// spans lines (an open block comment, raw string, triple-quoted string or
// YAML block scalar). They know just enough of each language to tell a
// comment from a string literal in the common cases; they are not parsers
// and never fail.

// part is the text of one comment on one line: a line comment's text after
// its opener, or one line of a block comment without its delimiters.
type part struct {
	line, col int // 1-based line, and 1-based byte column of text[0]
	text      []byte
}

// lexed is what a lexer found: the comment texts in order, and for every
// line whether it holds anything besides comments and blanks.
type lexed struct {
	parts []part
	code  []bool // code[i] is line i+1
}

func newLexed(n int) lexed { return lexed{code: make([]bool, n)} }

func (l *lexed) comment(line, col int, text []byte) {
	l.parts = append(l.parts, part{line: line, col: col, text: text})
}

// splitLines splits src at "\n", dropping the "\n"; a "\r" before it is
// kept and read as a blank by the lexers. The last line may be empty.
func splitLines(src []byte) [][]byte {
	lines := make([][]byte, 0, bytes.Count(src, []byte{'\n'})+1)
	for {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			return append(lines, src)
		}
		lines = append(lines, src[:i])
		src = src[i+1:]
	}
}

// splitLinesMarkdown splits src at "\n", "\r\n" and a lone "\r", as
// CommonMark (and package markdown's line numbers) count them.
func splitLinesMarkdown(src []byte) [][]byte {
	var lines [][]byte
	start := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			lines = append(lines, src[start:i])
			start = i + 1
		case '\r':
			lines = append(lines, src[start:i])
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	return append(lines, src[start:])
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' }

// skipQuoted returns the index just past the closing quote q of the string
// that starts at l[i] (the opening quote), honouring backslash escapes, or
// len(l) when the string does not end on this line.
func skipQuoted(l []byte, i int, q byte) int {
	for j := i + 1; j < len(l); j++ {
		switch l[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(l)
}

// lexCLike reads Go (goSyntax) or JSON with JSONC comments: "//" and
// "/* */" comments; "..." and '...' strings with escapes, and for Go `...`
// raw strings, which may span lines.
func lexCLike(lines [][]byte, goSyntax bool) lexed {
	out := newLexed(len(lines))
	inBlock, inRaw := false, false
	for n, l := range lines {
		line := n + 1
		i := 0
		if inBlock {
			j := bytes.Index(l, []byte("*/"))
			if j < 0 {
				out.comment(line, 1, l)
				continue
			}
			out.comment(line, 1, l[:j])
			inBlock, i = false, j+2
		} else if inRaw {
			out.code[n] = true
			j := bytes.IndexByte(l, '`')
			if j < 0 {
				continue
			}
			inRaw, i = false, j+1
		}
	scan:
		for i < len(l) {
			c := l[i]
			switch {
			case isBlank(c):
				i++
			case c == '/' && i+1 < len(l) && l[i+1] == '/':
				out.comment(line, i+3, l[i+2:])
				break scan
			case c == '/' && i+1 < len(l) && l[i+1] == '*':
				j := bytes.Index(l[i+2:], []byte("*/"))
				if j < 0 {
					out.comment(line, i+3, l[i+2:])
					inBlock = true
					break scan
				}
				out.comment(line, i+3, l[i+2:i+2+j])
				i += 2 + j + 2
			case c == '"' || c == '\'':
				out.code[n] = true
				i = skipQuoted(l, i, c)
			case c == '`' && goSyntax:
				out.code[n] = true
				j := bytes.IndexByte(l[i+1:], '`')
				if j < 0 {
					inRaw = true
					break scan
				}
				i += 1 + j + 1
			default:
				out.code[n] = true
				i++
			}
		}
	}
	return out
}

// lexJS reads TypeScript and JavaScript as lexCLike reads Go (a template
// string `...` may span lines, as a raw string; its ${} are not read), and
// a JSX comment, {/* ... */} with blanks only around the comment, is a
// comment and no code: alone on its line, it applies to the next one.
func lexJS(lines [][]byte) lexed {
	masked := make([][]byte, len(lines))
	for n, l := range lines {
		masked[n] = l
		if !bytes.Contains(l, []byte("{/*")) && !bytes.Contains(l, []byte("{ /*")) {
			continue
		}
		var m []byte
		for i := 0; i < len(l); {
			if l[i] != '{' {
				i++
				continue
			}
			j := i + 1
			for j < len(l) && isBlank(l[j]) {
				j++
			}
			if !bytes.HasPrefix(l[j:], []byte("/*")) {
				i++
				continue
			}
			k := bytes.Index(l[j+2:], []byte("*/"))
			if k < 0 {
				break
			}
			e := j + 2 + k + 2
			for e < len(l) && isBlank(l[e]) {
				e++
			}
			if e >= len(l) || l[e] != '}' {
				i++
				continue
			}
			if m == nil {
				m = append([]byte(nil), l...)
			}
			// the braces become blanks: the comment keeps its columns
			m[i], m[e] = ' ', ' '
			i = e + 1
		}
		if m != nil {
			masked[n] = m
		}
	}
	return lexCLike(masked, true)
}

// lexPython reads Python: "#" comments; strings in single or double
// quotes, tripled or not, with any prefix; the triple-quoted ones may span
// lines.
func lexPython(lines [][]byte) lexed {
	out := newLexed(len(lines))
	var triple []byte // the open triple quote, if any
	for n, l := range lines {
		line := n + 1
		i := 0
		if triple != nil {
			out.code[n] = true
			j := closeTriple(l, 0, triple)
			if j < 0 {
				continue
			}
			triple, i = nil, j
		}
	scan:
		for i < len(l) {
			c := l[i]
			switch {
			case isBlank(c):
				i++
			case c == '#':
				out.comment(line, i+2, l[i+1:])
				break scan
			case c == '"' || c == '\'':
				out.code[n] = true
				if i+2 < len(l) && l[i+1] == c && l[i+2] == c {
					q := l[i : i+3]
					j := closeTriple(l, i+3, q)
					if j < 0 {
						triple = q
						break scan
					}
					i = j
					continue
				}
				i = skipQuoted(l, i, c)
			default:
				out.code[n] = true
				i++
			}
		}
	}
	return out
}

// closeTriple returns the index just past the triple quote q that closes a
// string, searching l from i, or -1.
func closeTriple(l []byte, i int, q []byte) int {
	for ; i < len(l); i++ {
		if l[i] == '\\' {
			i++
			continue
		}
		if bytes.HasPrefix(l[i:], q) {
			return i + 3
		}
	}
	return -1
}

// lexYAML reads YAML: a "#" at the start of a line or after a blank starts
// a comment, outside single- and double-quoted scalars (read on one line
// only) and outside the content of block scalars ("key: |" and the lines
// indented deeper than the key's line after it).
func lexYAML(lines [][]byte) lexed {
	out := newLexed(len(lines))
	scalarIndent := -1 // indentation of the line that opened a block scalar
	for n, l := range lines {
		line := n + 1
		indent := 0
		for indent < len(l) && l[indent] == ' ' {
			indent++
		}
		if scalarIndent >= 0 {
			if len(bytes.TrimLeft(l, " \t\r")) == 0 {
				continue
			}
			if indent > scalarIndent {
				out.code[n] = true
				continue
			}
			scalarIndent = -1
		}
		end := len(l) // end of the code on this line
		var last byte // last non-blank byte of code before i
		afterBlank := true
	scan:
		for i := 0; i < len(l); {
			c := l[i]
			switch {
			case isBlank(c):
				afterBlank = true
				i++
				continue
			case c == '#' && afterBlank:
				out.comment(line, i+2, l[i+1:])
				end = i
				break scan
			case (c == '"' || c == '\'') && yamlQuoteStarts(last, afterBlank):
				out.code[n] = true
				if c == '"' {
					i = skipQuoted(l, i, c)
				} else {
					i = skipSingleQuoted(l, i)
				}
				last = c
			default:
				out.code[n] = true
				last = c
				i++
			}
			afterBlank = false
		}
		if blockScalarHeader(l[:end]) {
			scalarIndent = indent
		}
	}
	return out
}

// yamlQuoteStarts tells whether a quote opens a quoted scalar: at the start
// of the line's content, after "key: ", "- ", "? ", or inside a flow
// collection after "[", "{" or ",".
func yamlQuoteStarts(last byte, afterBlank bool) bool {
	switch last {
	case 0, '[', '{', ',':
		return true
	case ':', '-', '?':
		return afterBlank
	}
	return false
}

// skipSingleQuoted is skipQuoted for YAML's single-quoted scalars, where
// a doubled quote is an escaped quote and a backslash is an ordinary byte.
func skipSingleQuoted(l []byte, i int) int {
	for j := i + 1; j < len(l); j++ {
		if l[j] == '\'' {
			if j+1 < len(l) && l[j+1] == '\'' {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(l)
}

// blockScalarHeader tells whether code (a YAML line without its comment)
// ends with a block scalar indicator: "|" or ">" with optional chomping
// and indentation indicators ("|-", ">+", "|2"), alone or after a blank.
func blockScalarHeader(code []byte) bool {
	code = bytes.TrimRight(code, " \t\r")
	k := len(code)
	for k > 0 && k > len(code)-3 && (code[k-1] == '-' || code[k-1] == '+' || '1' <= code[k-1] && code[k-1] <= '9') {
		k--
	}
	if k == 0 || code[k-1] != '|' && code[k-1] != '>' {
		return false
	}
	return k == 1 || isBlank(code[k-2])
}

// lexHTML reads Markdown prose: "<!-- -->" comments, and MDX's "{/* */}"
// (MDX has no HTML comments), which may span lines, outside `code spans`.
func lexHTML(lines [][]byte) lexed {
	out := newLexed(len(lines))
	var end []byte // the delimiter that closes the open comment, if any
	for n, l := range lines {
		line := n + 1
		i := 0
		if end != nil {
			j := bytes.Index(l, end)
			if j < 0 {
				out.comment(line, 1, l)
				continue
			}
			out.comment(line, 1, l[:j])
			i, end = j+len(end), nil
		}
	scan:
		for i < len(l) {
			c := l[i]
			open, close, from := 0, []byte(nil), 0
			switch {
			case isBlank(c):
				i++
				continue
			case c == '`':
				out.code[n] = true
				i = skipCodeSpan(l, i)
				continue
			case c == '<' && bytes.HasPrefix(l[i:], []byte("<!--")):
				// "<!-->" and "<!--->" are complete (empty) comments
				open, close, from = 4, []byte("-->"), 2
			case c == '{' && bytes.HasPrefix(l[i:], []byte("{/*")):
				open, close, from = 3, []byte("*/}"), 3
			default:
				out.code[n] = true
				i++
				continue
			}
			j := bytes.Index(l[i+from:], close)
			if j < 0 {
				out.comment(line, i+open+1, l[i+open:])
				end = close
				break scan
			}
			text := l[i+open : max(i+open, i+from+j)]
			out.comment(line, i+open+1, text)
			i += from + j + len(close)
		}
	}
	return out
}

// skipCodeSpan returns the index past the code span that opens with the
// backtick run at l[i], or past the run itself when no run of the same
// length closes it on this line.
func skipCodeSpan(l []byte, i int) int {
	n := 0
	for i+n < len(l) && l[i+n] == '`' {
		n++
	}
	for j := i + n; j < len(l); {
		if l[j] != '`' {
			j++
			continue
		}
		m := 0
		for j+m < len(l) && l[j+m] == '`' {
			m++
		}
		if m == n {
			return j + m
		}
		j += m
	}
	return i + n
}
