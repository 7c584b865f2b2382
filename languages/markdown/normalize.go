package markdown

import "strings"

// Normalize maps a code block language, as found in Lang, to the canonical
// name of its language, so that callers can pick an extractor with one
// switch:
//
//	yml                       -> yaml
//	py, py3, python3          -> python
//	golang                    -> go
//	ndjson, jsonl, jsonlines  -> jsonl
//	js, javascript, node      -> javascript
//	ts, typescript            -> typescript
//
// It lower-cases ASCII letters, trims spaces, and keeps only the leading name
// of decorated tags: "{python}" and "{.python}" (Pandoc, R Markdown),
// "yaml{1,3}" (line highlighting) and "json:example" all give the bare name.
// Other names are returned as they are after that, "" included.
//
// jsonc and json5 stay themselves and are not mapped to json: they allow
// comments and trailing commas, which a strict JSON parser reports as syntax
// errors, and a linter must not report errors the author did not make. A
// caller with a tolerant parser can accept them explicitly. python2 and py2
// stay too: the Python extractor reads Python 3.
func Normalize(lang string) string {
	s := strings.TrimSpace(lang)
	s = strings.TrimPrefix(s, "{")
	s = strings.TrimPrefix(s, ".")
	n := 0
	for n < len(s) && isNameByte(s[n]) {
		n++
	}
	s = asciiLower(s[:n])
	switch s {
	case "yml":
		return "yaml"
	case "py", "py3", "python3":
		return "python"
	case "golang":
		return "go"
	case "ndjson", "jsonlines":
		return "jsonl"
	case "js", "node":
		return "javascript"
	case "ts":
		return "typescript"
	}
	return s
}

// isNameByte reports the bytes of language names such as "c++", "c#",
// "objective-c" and "json5".
func isNameByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' ||
		b == '_' || b == '-' || b == '+' || b == '#'
}
