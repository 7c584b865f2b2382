package markdown

// Guess tells what an unlabelled code block (Lang "") may hold, from the
// start of its text: "json" when its first line of content opens with "{"
// or "[", "yaml" when it opens with a mapping key ("task_id:", "- status:",
// `"output":`), and "" for anything else (prose, shell commands, code in
// another language, diagrams). Blank lines, "#" comments, "%" directives
// and "---" document markers before it are skipped.
//
// It only picks the parser to try: a guess is confirmed by parsing the
// block, and a block that does not parse is not data. It reads at most the
// first line of content, so a block that is not data costs next to nothing.
func Guess(body []byte) string {
	for len(body) > 0 {
		var line []byte
		line, body = cutLine(body)
		line = trimSpace(line)
		if len(line) == 0 || line[0] == '#' || line[0] == '%' || isDocStart(line) {
			continue
		}
		switch {
		case line[0] == '{' || line[0] == '[':
			return "json"
		case isKeyLine(line):
			return "yaml"
		case line[0] == '-' && len(line) > 1 && (line[1] == ' ' || line[1] == '\t') && isKeyLine(trimSpace(line[2:])):
			return "yaml" // a list of mappings
		}
		return ""
	}
	return ""
}

// cutLine splits off the first line of b, without its ending.
func cutLine(b []byte) (line, rest []byte) {
	for i, c := range b {
		if c == '\n' || c == '\r' {
			return b[:i], b[i+1:]
		}
	}
	return b, nil
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// isDocStart reports a YAML document start: "---" alone or before content.
func isDocStart(line []byte) bool {
	return len(line) >= 3 && line[0] == '-' && line[1] == '-' && line[2] == '-' &&
		(len(line) == 3 || line[3] == ' ' || line[3] == '\t')
}

// isKeyLine reports a line that opens with a mapping key: a quoted string
// or a word of name bytes (no spaces: "Step 1: run it" is a sentence),
// then ":" at the end of the line or before a space or tab. A URL
// ("https://...") or a drive path has no space after its colon.
func isKeyLine(line []byte) bool {
	n := 0
	if len(line) > 0 && (line[0] == '"' || line[0] == '\'') {
		n = 1
		for n < len(line) && line[n] != line[0] {
			n++
		}
		if n == len(line) {
			return false
		}
		n++
	} else {
		for n < len(line) && isKeyByte(line[n]) {
			n++
		}
		if n == 0 {
			return false
		}
	}
	return n < len(line) && line[n] == ':' && (n+1 == len(line) || line[n+1] == ' ' || line[n+1] == '\t')
}

// isKeyByte reports the bytes of the keys protocol messages use
// (task_id, successCriteria, x-trace, metrics.quality, $schema).
func isKeyByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' ||
		b == '_' || b == '-' || b == '.' || b == '$'
}
