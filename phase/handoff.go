package phase

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxHandoffBytes bounds a HANDOFF text; real ones are a few kilobytes.
const MaxHandoffBytes = 4 << 20

// Handoff is a HANDOFF text split into lines, each knowing the section it
// sits in ("Files changed", "Verification"...).
type Handoff struct {
	// Blocks is the number of ---HANDOFF--- blocks in the input; 0 when
	// the whole input is the HANDOFF. Only the first block is judged.
	Blocks int
	lines  []hline
}

// hline is one non-blank line of the HANDOFF.
type hline struct {
	text    string   // the line, list marker and heading markup removed
	section string   // the heading of its section as written; "" outside one
	files   bool     // the section lists files (Files changed, Built...)
	item    bool     // a list item or an indented line of its section
	clauses []string // text split into clauses
}

// Empty reports whether the HANDOFF has no text.
func (h *Handoff) Empty() bool { return h == nil || len(h.lines) == 0 }

// fileSections are the headings (normalized) under which a HANDOFF lists
// the files it created or changed.
var fileSections = map[string]bool{
	"files changed": true, "changed files": true, "files created": true, "created files": true,
	"files modified": true, "modified files": true, "files added": true, "added files": true,
	"new files": true, "files": true, "files touched": true, "built": true, "created": true,
	"modified": true, "added": true, "changes": true, "artifacts": true, "deliverables": true,
	"files created or modified": true, "files created/modified": true, "what was built": true,
}

// ParseHandoff reads a HANDOFF. When the text holds a line
// "---HANDOFF---", the HANDOFF is what follows it up to a line "---" (or
// the end); otherwise it is the whole text. Invalid UTF-8 is replaced.
func ParseHandoff(data []byte) (*Handoff, error) {
	if len(data) > MaxHandoffBytes {
		return nil, fmt.Errorf("HANDOFF is %d bytes, more than the limit of %d", len(data), MaxHandoffBytes)
	}
	text := string(data)
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	text = strings.TrimPrefix(text, "\uFEFF")
	raw := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	h := &Handoff{}
	start, end := 0, len(raw)
	for i, l := range raw {
		if isFence(l) {
			if h.Blocks == 0 {
				start, end = i+1, len(raw)
				for j := i + 1; j < len(raw); j++ {
					if t := strings.TrimSpace(raw[j]); t == "---" || isFence(t) {
						end = j
						break
					}
				}
			}
			h.Blocks++
		}
	}
	h.parse(raw[start:end])
	return h, nil
}

func isFence(l string) bool { return strings.EqualFold(strings.TrimSpace(l), "---HANDOFF---") }

func (h *Handoff) parse(raw []string) {
	section, files, md := "", false, false // md: under a Markdown heading, which only the next heading ends
	for _, l := range raw {
		l = strings.TrimRightFunc(l, unicode.IsSpace)
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "```") {
			continue // blank lines and code fences keep the section
		}
		indented := len(l) > len(strings.TrimLeftFunc(l, unicode.IsSpace))
		body, isItem := listItem(t)
		if !isItem {
			if name, rest, ok := heading(t, indented); ok {
				section, files, md = name, fileSections[normSection(name)], strings.HasPrefix(t, "#")
				if files {
					h.add(rest, section, true, true) // "Files changed: a.ts, b.ts"
				} else {
					// a field keeps its name: "typecheck: 0 errors" is one claim
					h.add(strings.ReplaceAll(strings.TrimSpace(strings.TrimLeft(t, "#")), "**", ""), section, false, false)
				}
				continue
			}
			if !indented && !md {
				section, files = "", false // prose ends a field's section
			}
		}
		h.add(body, section, files, isItem || indented || md)
	}
}

func (h *Handoff) add(text, section string, files, item bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	h.lines = append(h.lines, hline{text: text, section: section, files: files && item, item: item, clauses: clauses(text)})
}

// listItem strips a list marker ("- ", "* ", "1. ", "- [x] ").
func listItem(t string) (string, bool) {
	rest := ""
	switch {
	case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "), strings.HasPrefix(t, "+ "):
		rest = t[2:]
	case strings.HasPrefix(t, "• "):
		rest = t[len("• "):]
	default:
		i := 0
		for i < len(t) && i < 4 && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == 0 || i+1 >= len(t) || (t[i] != '.' && t[i] != ')') || t[i+1] != ' ' {
			return t, false
		}
		rest = t[i+2:]
	}
	rest = strings.TrimSpace(rest)
	for _, box := range []string{"[x] ", "[X] ", "[ ] "} {
		rest = strings.TrimPrefix(rest, box)
	}
	return rest, true
}

// heading recognizes a section heading: "## Files changed", "**Built:**",
// "Files changed:", "Verification: tsc 0 errors" (a field, with its value
// as rest). An indented line is only a heading when it names a file section
// ("  files_changed:" in YAML-like HANDOFFs).
func heading(t string, indented bool) (name, rest string, ok bool) {
	md := strings.HasPrefix(t, "#")
	s := strings.TrimSpace(strings.TrimLeft(t, "#"))
	s = strings.TrimPrefix(strings.TrimPrefix(s, "**"), "__")
	name = s
	if i := strings.IndexByte(s, ':'); i >= 0 {
		name, rest = s[:i], s[i+1:]
	} else if !md {
		name = strings.TrimSuffix(strings.TrimSuffix(s, "**"), "__")
		if !fileSections[normSection(name)] {
			return "", "", false
		}
	}
	name = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(name), "**"), "__"))
	rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(rest), "**"), "__"))
	if name == "" || len(strings.Fields(name)) > 4 || strings.ContainsAny(name, "`/\\()[]{}<>=") {
		return "", "", false
	}
	if indented && !fileSections[normSection(name)] {
		return "", "", false
	}
	return name, rest, true
}

func normSection(s string) string {
	s = strings.ToLower(strings.NewReplacer("_", " ", "-", " ", "*", "", "`", "").Replace(s))
	return strings.Join(strings.Fields(s), " ")
}

// clauseSeps split a line into clauses: a claim and its contradiction in
// one line ("tests pass; lint not run") are judged apart.
var clauseSeps = []string{"; ", " — ", " – ", " -- ", ". ", " | "}

func clauses(text string) []string {
	parts := []string{text}
	for _, sep := range clauseSeps {
		var next []string
		for _, p := range parts {
			next = append(next, strings.Split(p, sep)...)
		}
		parts = next
	}
	out := parts[:0]
	for _, p := range parts {
		if p = strings.Trim(strings.TrimSpace(p), "|"); strings.TrimSpace(p) != "" {
			out = append(out, strings.TrimSpace(p))
		}
	}
	return out
}
