// Package suppress reads the inline suppressions written in source comments
// and applies them to findings.
//
// Two directives exist, in the comment syntax of each language protoscan
// reads (Go "//" and "/* */", Python and YAML "#", Markdown "<!-- -->" and,
// inside a fenced code block or the front matter, the comments of the
// block's language; JSON has no comments, but JSONC "//" and "/* */" are
// accepted):
//
//	protoscan:ignore RULE[,RULE...] -- reason
//	protoscan:file-ignore RULE[,RULE...] -- reason
//
// RULE is a rule id (enumdrift/legacy-status) or a doublestar glob over rule
// ids (enumdrift/*), compiled by internal/glob under its caps (at most
// glob.MaxLen bytes, braces expanding to at most glob.MaxAlternatives
// patterns); "*" and "**" match every rule. Rules are separated by
// commas and/or blanks. The reason, after "--", is required: a directive
// without one suppresses nothing and is reported.
//
// protoscan:ignore applies to the line it is written on when code precedes
// it there (a trailing comment); otherwise to the next line that holds
// code, skipping blank lines and lines of comments only, so that several
// directives and ordinary comments may be stacked above a line. In
// Markdown, an HTML comment whose next line is the opening fence of a code
// block applies to the whole block (the only way to suppress a finding in a
// JSON block, which cannot hold a comment). protoscan:file-ignore applies to
// the whole file wherever it is written, including findings without a line.
//
// The marker must start the comment's text (after blanks and comment
// decoration such as the "*" of a block comment's continuation lines), or
// follow a "#" or "//" inside it ("# noqa # protoscan:ignore ..."), and
// its words must read as rules, so that prose that mentions
// protoscan:ignore is not read as a directive.
//
// Apply reports, as findings of their own, the directives that suppressed
// nothing (protoscan/unused-suppression), those without a reason
// (protoscan/suppression-without-reason) and the globs over the caps
// (protoscan/suppression-bad-glob), which suppress nothing.
package suppress

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/glob"
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/markdown"
)

// Rules of the problems Apply reports.
const (
	RuleUnused   = "protoscan/unused-suppression"
	RuleNoReason = "protoscan/suppression-without-reason"
	RuleBadGlob  = "protoscan/suppression-bad-glob"
)

// Directive is one protoscan:ignore or protoscan:file-ignore comment.
type Directive struct {
	// Rules are the rule ids and globs as written, in order; empty when
	// the directive names none (it then suppresses nothing).
	Rules []string
	// Reason is the text after "--", trimmed; "" when there is none.
	Reason string
	// File marks protoscan:file-ignore; Line and EndLine are then 0.
	File bool
	// Line..EndLine (inclusive, 1-based) are the lines a protoscan:ignore
	// applies to: one line (EndLine == Line), or in Markdown a whole code
	// block. Both are 0 when no line of code follows the directive (in
	// its code block): it then suppresses nothing.
	Line, EndLine int
	// Pos is where the directive is written: Line and Col of the
	// "protoscan:" marker, EndLine and EndCol (exclusive) of the end of the
	// directive's text. Parse leaves Path empty; Apply reports problems at
	// the path the directive is filed under.
	Pos finding.Location
}

var marker = []byte("protoscan:")

// Parse returns the directives in src, a file whose comments are written
// in syntax, in the order they are written; fences gives the comment
// syntax of a Markdown block by its label (as markdown.Normalize spells
// it), for Markdown and MDX. A language without comments has none.
// Parse accepts any bytes and never fails.
func Parse(syntax facts.CommentSyntax, src []byte, fences func(label string) facts.CommentSyntax) []Directive {
	if !bytes.Contains(src, marker) {
		return nil
	}
	if syntax == facts.MarkdownComments || syntax == facts.MDXComments {
		return parseMarkdown(src, syntax == facts.MDXComments, fences)
	}
	lx, ok := lex(syntax, splitLines(src))
	if !ok {
		return nil
	}
	return directives(lx, nil)
}

// lex runs the lexer of a comment syntax over lines.
func lex(syntax facts.CommentSyntax, lines [][]byte) (lexed, bool) {
	switch syntax {
	case facts.CComments:
		return lexCLike(lines, true), true
	case facts.JSONComments:
		return lexCLike(lines, false), true
	case facts.JSComments:
		return lexJS(lines), true
	case facts.PythonComments:
		return lexPython(lines), true
	case facts.YAMLComments:
		return lexYAML(lines), true
	}
	return lexed{}, false
}

// directives reads the directives in the comments lx found. blockEnd, when
// set, gives for the line of a Markdown code block's opening fence the
// block's last line (0 for other lines): a directive alone on its line
// whose next code line is a fence applies to the whole block.
func directives(lx lexed, blockEnd func(fence int) int) []Directive {
	var out []Directive
	var next []int // next[i]: the first line at or after line i+1 with code
	for _, p := range lx.parts {
		for _, d := range parsePart(p) {
			if !d.File {
				if next == nil {
					next = nextCode(lx.code)
				}
				if d.Pos.Line >= 1 && d.Pos.Line <= len(next) {
					d.Line = next[d.Pos.Line-1]
				}
				d.EndLine = d.Line
				if d.Line > 0 && d.Line != d.Pos.Line && blockEnd != nil {
					if end := blockEnd(d.Line); end > 0 {
						d.EndLine = end
					}
				}
			}
			out = append(out, d)
		}
	}
	return out
}

// nextCode returns for every line the first line at or after it that
// holds code, or 0.
func nextCode(code []bool) []int {
	next := make([]int, len(code))
	n := 0
	for i := len(code) - 1; i >= 0; i-- {
		if code[i] {
			n = i + 1
		}
		next[i] = n
	}
	return next
}

// parsePart finds the directives in one line of comment text.
func parsePart(p part) []Directive {
	var out []Directive
	text := p.text
	for off := 0; off < len(text); {
		k := bytes.Index(text[off:], marker)
		if k < 0 {
			break
		}
		k += off
		off = k + len(marker)
		if !markerStarts(text[:k]) {
			continue
		}
		rest := text[off:]
		var file bool
		switch {
		case hasWord(rest, "ignore"):
			rest = rest[len("ignore"):]
		case hasWord(rest, "file-ignore"):
			rest, file = rest[len("file-ignore"):], true
		default:
			continue
		}
		rules, reason := parseArgs(string(rest))
		if !meant(rules, reason) {
			continue
		}
		d := Directive{Rules: rules, Reason: reason, File: file,
			Pos: finding.Location{Line: p.line, Col: p.col + k, EndLine: p.line, EndCol: p.col + len(bytes.TrimRight(text, " \t\r"))}}
		out = append(out, d)
		break // the rest of the comment is this directive's reason
	}
	return out
}

// meant tells whether a marker's words are a directive rather than prose
// that quotes the syntax ("protoscan:ignore RULE[,RULE...] -- reason",
// "protoscan:ignore applies to the next line"): no rule at all, a rule id
// or pattern (enumdrift/status-case, enumdrift/*, *), or, before a reason,
// lower-case names only (status-case: a rule id without its analyzer,
// reported as a suppression that matches nothing).
func meant(rules []string, reason string) bool {
	if len(rules) == 0 {
		return true
	}
	names := true
	for _, r := range rules {
		if r == "*" || r == "**" || strings.Contains(r, "/") && strings.Trim(r, ruleChars) == "" {
			return true
		}
		names = names && strings.Trim(r, "abcdefghijklmnopqrstuvwxyz0123456789-_") == ""
	}
	return names && reason != ""
}

// ruleChars are the bytes of rule ids and their doublestar patterns.
const ruleChars = "abcdefghijklmnopqrstuvwxyz0123456789-_/*?{},[]!^."

// markerStarts tells whether a marker preceded by before (in the same
// comment) starts a directive: before is blanks and comment decoration
// only, or ends with a nested comment opener.
func markerStarts(before []byte) bool {
	t := bytes.TrimRight(before, " \t")
	if len(bytes.Trim(t, "*/#-! \t")) == 0 {
		return true
	}
	return bytes.HasSuffix(t, []byte("#")) || bytes.HasSuffix(t, []byte("//"))
}

// hasWord tells whether s starts with w followed by a blank or the end.
func hasWord(s []byte, w string) bool {
	return bytes.HasPrefix(s, []byte(w)) && (len(s) == len(w) || isBlank(s[len(w)]))
}

// parseArgs splits "RULE, RULE -- reason" into the rules and the reason.
// The reason starts at the first "--" that begins a word. Rules are
// separated by commas and blanks, except for commas inside a glob's
// {alternatives} or [class].
func parseArgs(s string) (rules []string, reason string) {
	ruleText := s
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '-' && s[i+1] == '-' && (i == 0 || isBlank(s[i-1]) || s[i-1] == ',') {
			ruleText, reason = s[:i], strings.TrimSpace(s[i+2:])
			break
		}
	}
	depth, start := 0, -1
	for i := 0; i <= len(ruleText); i++ {
		sep := i == len(ruleText) || isBlank(ruleText[i])
		if !sep {
			switch ruleText[i] {
			case '{', '[':
				depth++
			case '}', ']':
				depth = max(depth-1, 0)
			case ',':
				sep = depth == 0
			}
		}
		switch {
		case sep && start >= 0:
			rules = append(rules, ruleText[start:i])
			start, depth = -1, 0
		case !sep && start < 0:
			start = i
		}
	}
	return rules, reason
}

// parseMarkdown reads the directives of a Markdown document: HTML comments
// in the prose, and in the front matter and the fenced code blocks the
// comments of the block's language, with lines mapped back to the file.
func parseMarkdown(src []byte, mdx bool, fences func(label string) facts.CommentSyntax) []Directive {
	lines := splitLinesMarkdown(src)
	prose := slices.Clone(lines)
	type block struct{ fence, last int } // opening fence line, line after the body
	var blocks []block
	var out []Directive
	read := markdown.Blocks
	if mdx {
		read = markdown.BlocksMDX // the blocks the scan reads
	}
	for _, b := range read(src) {
		body := splitLines(b.Body)
		if len(b.Body) > 0 && b.Body[len(b.Body)-1] == '\n' {
			body = body[:len(body)-1] // the empty "line" after the last ending
		}
		if len(b.Body) == 0 {
			body = nil
		}
		for i := range body {
			if l := b.Line + i; l <= len(prose) {
				prose[l-1] = nil
			}
		}
		if !b.FrontMatter {
			blocks = append(blocks, block{fence: b.Line - 1, last: b.Line + len(body)})
		}
		if !bytes.Contains(b.Body, marker) {
			continue
		}
		syntax := facts.NoComments
		if label := markdown.Normalize(b.Lang); label != "" {
			syntax = fences(label)
		} else if markdown.Guess(b.Body) != "" {
			// a plain fence the scan reads as data: JSON has no
			// comments, so its "#" comments are YAML's
			syntax = facts.YAMLComments
		}
		lx, ok := lex(syntax, body)
		if !ok {
			continue
		}
		for _, d := range directives(lx, nil) {
			shift := b.Line - 1
			d.Pos.Line += shift
			d.Pos.EndLine += shift
			if d.Line > 0 {
				d.Line += shift
				d.EndLine += shift
			}
			// inside containers a body line lost a prefix: take the
			// column from the file's own line
			if d.Pos.Line <= len(lines) {
				orig := lines[d.Pos.Line-1]
				if k := bytes.Index(orig, marker); k >= 0 && k+1 != d.Pos.Col {
					d.Pos.EndCol += k + 1 - d.Pos.Col
					d.Pos.Col = k + 1
				}
			}
			out = append(out, d)
		}
	}
	lastLine := make(map[int]int, len(blocks)) // opening fence -> last line
	for _, s := range blocks {
		lastLine[s.fence] = max(s.last, s.fence)
	}
	blockEnd := func(line int) int { return lastLine[line] }
	out = append(out, directives(lexHTML(prose), blockEnd)...)
	slices.SortStableFunc(out, func(a, b Directive) int {
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		return a.Pos.Col - b.Pos.Col
	})
	return out
}

// matcher is a directive ready to match rules, its rules compiled once,
// with a use count per rule.
type matcher struct {
	d     *Directive
	globs []*glob.Glob // nil where Rules[i] is not a pattern glob.Compile takes
	errs  []error      // why, when over a cap of internal/glob
	used  []bool
}

func newMatcher(d *Directive) *matcher {
	n := len(d.Rules)
	m := &matcher{d: d, globs: make([]*glob.Glob, n), errs: make([]error, n), used: make([]bool, n)}
	for i, r := range d.Rules {
		g, err := glob.Compile(r)
		switch {
		case err == nil:
			m.globs[i] = g
		case !errors.Is(err, glob.ErrBadPattern):
			m.errs[i] = err
		}
	}
	return m
}

// match marks and reports the rules of m that match rule.
func (m *matcher) match(rule string) bool {
	hit := false
	for i, pat := range m.d.Rules {
		if m.errs[i] != nil {
			continue // over a cap: suppresses nothing, reported as such
		}
		if pat == rule || pat == "*" || pat == "**" || m.globs[i] != nil && m.globs[i].Match(rule) {
			m.used[i] = true
			hit = true
		}
	}
	return hit
}

// group is the directives of a file that apply to the same lines, with
// the outcome of matching each rule seen so far, so that a file with many
// findings and many directives costs one match per (group, rule).
type group struct {
	ms   []*matcher
	hits map[string]bool
}

func (g *group) match(rule string) bool {
	if g == nil {
		return false
	}
	if hit, ok := g.hits[rule]; ok {
		return hit
	}
	hit := false
	for _, m := range g.ms {
		if m.match(rule) {
			hit = true
		}
	}
	if g.hits == nil {
		g.hits = map[string]bool{}
	}
	g.hits[rule] = hit
	return hit
}

// span is a group of directives over several lines (a Markdown block).
type span struct {
	line, end int
	g         *group
	maxEnd    int // the largest end of this span and those before it
}

// fileIndex holds the directives of one file by the lines they cover.
type fileIndex struct {
	file   *group
	lines  map[int]*group
	spans  []span // sorted by line
	byDecl map[*Directive]*matcher
}

func newIndex(ds []Directive) *fileIndex {
	ix := &fileIndex{lines: map[int]*group{}, byDecl: map[*Directive]*matcher{}}
	spans := map[[2]int]*group{}
	for i := range ds {
		d := &ds[i]
		if d.Reason == "" {
			continue
		}
		m := newMatcher(d)
		ix.byDecl[d] = m
		switch {
		case d.File:
			if ix.file == nil {
				ix.file = &group{}
			}
			ix.file.ms = append(ix.file.ms, m)
		case d.Line <= 0:
			// applies to no line
		case d.EndLine <= d.Line:
			g := ix.lines[d.Line]
			if g == nil {
				g = &group{}
				ix.lines[d.Line] = g
			}
			g.ms = append(g.ms, m)
		default:
			k := [2]int{d.Line, d.EndLine}
			g := spans[k]
			if g == nil {
				g = &group{}
				spans[k] = g
				ix.spans = append(ix.spans, span{line: d.Line, end: d.EndLine, g: g})
			}
			g.ms = append(g.ms, m)
		}
	}
	slices.SortFunc(ix.spans, func(a, b span) int { return a.line - b.line })
	for i := range ix.spans {
		ix.spans[i].maxEnd = ix.spans[i].end
		if i > 0 {
			ix.spans[i].maxEnd = max(ix.spans[i].maxEnd, ix.spans[i-1].maxEnd)
		}
	}
	return ix
}

// suppresses tells whether a directive suppresses a finding of rule at
// line (0: no line), marking every directive that matches as used.
func (ix *fileIndex) suppresses(rule string, line int) bool {
	hit := ix.file.match(rule)
	if line <= 0 {
		return hit
	}
	if ix.lines[line].match(rule) {
		hit = true
	}
	// the spans that start at or before line and may reach it
	i, _ := slices.BinarySearchFunc(ix.spans, line+1, func(s span, l int) int { return s.line - l })
	for i--; i >= 0 && ix.spans[i].maxEnd >= line; i-- {
		if ix.spans[i].end >= line && ix.spans[i].g.match(rule) {
			hit = true
		}
	}
	return hit
}

// Apply drops the findings that a directive suppresses. directives maps a
// path, exactly as in the findings' Path, to the directives Parse found in
// that file; a file whose directives are not given suppresses nothing.
//
// A finding is suppressed when a directive of its file with a reason
// names its rule (exactly or by a glob) and is a file-ignore, or an ignore
// whose line (or Markdown block) holds the finding's Line; a finding
// without a line is suppressed by file-ignore only. Related locations play
// no part. Every directive that matches a finding counts as used, so a
// line directive under a file-ignore of the same rule is not reported.
//
// kept holds the other findings in their order; suppressed counts the
// dropped ones. problems are warnings at the directives' positions, sorted
// as finding.Sort orders: protoscan/suppression-without-reason for a
// directive without a reason (it suppresses nothing), and
// protoscan/unused-suppression for a directive with rules that matched no
// finding (one problem per directive, naming those rules). Problems are
// not themselves subject to the directives.
func Apply(findings []finding.Finding, directives map[string][]Directive) (kept []finding.Finding, suppressed int, problems []finding.Finding) {
	idx := make(map[string]*fileIndex, len(directives))
	for path, ds := range directives {
		idx[path] = newIndex(ds)
	}
	kept = make([]finding.Finding, 0, len(findings))
	for _, f := range findings {
		ix := idx[f.Path]
		// a directive naming the rule a finding stands for (its alias)
		// suppresses it too; both are evaluated, so each counts as used
		hit := ix != nil && ix.suppresses(f.Rule, f.Line)
		if ix != nil && f.StandsFor != "" && ix.suppresses(f.StandsFor, f.Line) {
			hit = true
		}
		if hit {
			suppressed++
		} else {
			kept = append(kept, f)
		}
	}
	for path, ds := range directives {
		ix := idx[path]
		for i := range ds {
			d := &ds[i]
			loc := d.Pos
			loc.Path = path
			if d.Reason == "" {
				problems = append(problems, finding.Finding{Rule: RuleNoReason, Severity: finding.Warning, Location: loc,
					Message: fmt.Sprintf("%s has no reason, so it suppresses nothing: write %q", describe(d), usage(d))})
				continue
			}
			m := ix.byDecl[d]
			for i, err := range m.errs {
				if err != nil {
					problems = append(problems, finding.Finding{Rule: RuleBadGlob, Severity: finding.Warning, Location: loc,
						Message: fmt.Sprintf("%s: rule %s, so it suppresses nothing", keyword(d), capMessage(d.Rules[i], err))})
				}
			}
			if msg := unusedMessage(m); msg != "" {
				problems = append(problems, finding.Finding{Rule: RuleUnused, Severity: finding.Warning, Location: loc, Message: msg})
			}
		}
	}
	finding.Sort(problems)
	return kept, suppressed, problems
}

// capMessage says which cap of internal/glob the rule pattern p is over.
func capMessage(p string, err error) string {
	if errors.Is(err, glob.ErrTooLong) {
		return fmt.Sprintf("glob %s is %d bytes, over the limit of %d", glob.Short(p), len(p), glob.MaxLen)
	}
	return fmt.Sprintf("glob %s expands to more than %d patterns (braces), the limit", glob.Short(p), glob.MaxAlternatives)
}

func keyword(d *Directive) string {
	if d.File {
		return "protoscan:file-ignore"
	}
	return "protoscan:ignore"
}

// describe names a directive and its rules: "protoscan:ignore a, b".
func describe(d *Directive) string {
	if len(d.Rules) == 0 {
		return keyword(d)
	}
	return keyword(d) + " " + strings.Join(d.Rules, ", ")
}

// usage is the directive as it should be written.
func usage(d *Directive) string {
	rules := strings.Join(d.Rules, ",")
	if rules == "" {
		rules = "RULE"
	}
	return keyword(d) + " " + rules + " -- why"
}

// unusedMessage describes the rules of m that matched nothing, or is "".
func unusedMessage(m *matcher) string {
	d := m.d
	if len(d.Rules) == 0 {
		return fmt.Sprintf("%s names no rule, so it suppresses nothing: write %q", keyword(d), usage(d))
	}
	var unused, invalid []string
	for i, r := range d.Rules {
		if m.errs[i] != nil {
			continue // reported as protoscan/suppression-bad-glob
		}
		if !m.used[i] {
			unused = append(unused, r)
			if m.globs[i] == nil {
				invalid = append(invalid, r)
			}
		}
	}
	if len(unused) == 0 {
		return ""
	}
	var where string
	switch {
	case d.File:
		where = "in this file"
	case d.Line == 0:
		where = "after it: no line of code follows it"
	case d.EndLine > d.Line:
		where = fmt.Sprintf("on lines %d-%d", d.Line, d.EndLine)
	default:
		where = fmt.Sprintf("on line %d", d.Line)
	}
	msg := fmt.Sprintf("unused suppression: no %s finding %s", strings.Join(unused, ", "), where)
	if len(unused) < len(d.Rules) {
		msg = fmt.Sprintf("unused rule in suppression: no %s finding %s", strings.Join(unused, ", "), where)
	}
	if len(invalid) > 0 {
		msg += fmt.Sprintf(" (%s is not a valid rule pattern)", strings.Join(invalid, ", "))
	}
	return msg + "; remove it"
}

// Counter counts the findings of one file that directives would
// suppress (Counter.Hides), for reporting what a new directive hides.
type Counter struct {
	groups []ruleLines
}

// ruleLines are the lines of the findings of one rule (and the rule it
// stands for), sorted.
type ruleLines struct {
	rule, standsFor string
	lines           []int
}

// NewCounter indexes fs, the findings of one file before Apply, by rule.
func NewCounter(fs []finding.Finding) *Counter {
	at := map[[2]string]int{}
	c := &Counter{}
	for _, f := range fs {
		k := [2]string{f.Rule, f.StandsFor}
		i, ok := at[k]
		if !ok {
			i = len(c.groups)
			at[k] = i
			c.groups = append(c.groups, ruleLines{rule: f.Rule, standsFor: f.StandsFor})
		}
		c.groups[i].lines = append(c.groups[i].lines, f.Line)
	}
	for i := range c.groups {
		slices.Sort(c.groups[i].lines)
	}
	return c
}

// Hides returns how many of the counted findings d suppresses, as Apply
// decides: a rule d names (or the rule a finding stands for), on a line
// d applies to, or anywhere for a file-ignore. A directive without a
// reason hides nothing. The cost is one match per rule of the file, and
// a binary search per rule matched.
func (c *Counter) Hides(d *Directive) int {
	if d.Reason == "" || !d.File && d.Line <= 0 {
		return 0
	}
	m := newMatcher(d)
	n := 0
	for _, g := range c.groups {
		if !m.match(g.rule) && (g.standsFor == "" || !m.match(g.standsFor)) {
			continue
		}
		if d.File {
			n += len(g.lines)
			continue
		}
		lo, _ := slices.BinarySearch(g.lines, d.Line)
		hi, _ := slices.BinarySearch(g.lines, d.EndLine+1)
		n += hi - lo
	}
	return n
}
