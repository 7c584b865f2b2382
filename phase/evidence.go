package phase

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// polarity is what a clause says about a condition.
type polarity int

const (
	silent  polarity = iota // says nothing about it
	mention                 // names it, claims nothing
	vague                   // hedged: "should pass", "I think it's done"
	claim                   // an explicit claim: "typecheck: 0 errors"
	against                 // contradicts it: "typecheck not run", "3 failed"
)

// lexicon is the words that claim or contradict one kind of condition.
type lexicon struct {
	pos, neg map[string]bool
	counts   bool // "0 errors" claims, "3 failed" contradicts, "47/47" claims
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

var (
	fileLex = lexicon{
		pos: set("created", "create", "creates", "added", "adds", "wrote", "written", "writes", "modified", "modifies",
			"updated", "updates", "changed", "edited", "edits", "implemented", "implements", "built", "generated",
			"saved", "exists", "moved", "renamed", "new", "touched", "refactored", "rewrote", "rewritten",
			"introduced", "scaffolded", "extended", "extracted", "ported", "committed", "delivered", "✓", "✅", "✔"),
		neg: set("missing", "deleted", "removed", "todo", "pending", "skipped", "absent", "reverted", "❌", "✗"),
	}
	commandLex = lexicon{
		pos: set("pass", "passes", "passed", "passing", "green", "succeeded", "succeeds", "succeed", "success",
			"successful", "successfully", "clean", "ok", "okay", "verified", "✓", "✅", "✔"),
		neg: set("fail", "fails", "failed", "failing", "failure", "failures", "broken", "red", "crashed", "crash",
			"crashes", "timeout", "error", "errors", "erroring", "skipped", "untested", "❌", "✗"),
		counts: true,
	}
	visualLex = lexicon{
		pos: set("screenshot", "screenshots", "screenshotted", "capture", "captured", "screencast", "recording",
			"recorded", "video", "visually", "visual", "rendered", "renders", "render", "inspected", "image",
			"browser", "manually", "✓", "✅", "✔"),
		neg: set("missing", "broken", "skipped", "todo", "pending", "blank", "fails", "failed", "failing",
			"error", "errors", "❌", "✗"),
	}
	// hedges make a clause vague whatever else it says.
	hedges = set("should", "probably", "maybe", "perhaps", "hopefully", "likely", "might", "may", "seems", "seem",
		"seemingly", "presumably", "supposedly", "assume", "assuming", "assumed", "guess", "will", "would", "could",
		"ought", "unverified", "unconfirmed", "theoretically", "possibly", "apparently")
	hedgePairs = [][2]string{{"i", "think"}, {"i", "believe"}, {"i", "hope"}, {"appears", "to"}, {"expected", "to"},
		{"supposed", "to"}, {"not", "sure"}, {"in", "theory"}, {"going", "to"}, {"need", "to"}, {"needs", "to"},
		{"plan", "to"}}
	negators     = set("not", "no", "never", "without", "cannot", "unable", "nor", "none")
	neutralizers = set("fix", "fixed", "fixes", "fixing", "resolved", "resolves", "resolving", "addressed",
		"repaired", "previously", "formerly")
	// neutral verbs claim nothing, but negated they contradict: "not run".
	neutralVerbs = set("run", "ran", "executed", "tested", "checked", "attempted", "done", "finished", "completed",
		"created", "verified", "taken")
	failNouns = set("error", "errors", "failure", "failures", "failed", "failing", "fails", "warning", "warnings",
		"issue", "issues", "problem", "problems", "regression", "regressions")
	zeroWords = set("0", "no", "zero", "without")
)

// tokenize splits lowercased text into words: letters, digits and
// apostrophes, "3.5" and "47/47" kept whole, check marks as words.
func tokenize(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for i, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		case r == '\'' || r == '’':
			b.WriteByte('\'')
		case (r == '.' || r == '/') && b.Len() > 0 && isDigitsEnd(b.String()) && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			b.WriteRune(r)
		case r == '✓' || r == '✅' || r == '✔' || r == '❌' || r == '✗':
			flush()
			out = append(out, string(r))
		default:
			flush()
		}
	}
	flush()
	return out
}

func isDigitsEnd(s string) bool { return s[len(s)-1] >= '0' && s[len(s)-1] <= '9' }

func isNegator(toks []string, j int) bool {
	t := toks[j]
	if negators[t] || strings.HasSuffix(t, "n't") {
		return true
	}
	return (t == "failed" || t == "fails" || t == "fail") && j+1 < len(toks) && toks[j+1] == "to"
}

// negated reports a negator among the three words before toks[i].
func negated(toks []string, i int) bool {
	for j := max(0, i-3); j < i; j++ {
		if isNegator(toks, j) {
			return true
		}
	}
	return false
}

// neutralized reports a negative word undone by its neighbours: "fixed
// the failing test", "the failing test is fixed".
func neutralized(toks []string, i int) bool {
	for j := max(0, i-3); j < min(len(toks), i+4); j++ {
		if j != i && neutralizers[toks[j]] {
			return true
		}
	}
	return false
}

func hedged(toks []string) bool {
	for i, t := range toks {
		if hedges[t] {
			return true
		}
		if i+1 < len(toks) {
			for _, p := range hedgePairs {
				if t == p[0] && toks[i+1] == p[1] {
					return true
				}
			}
		}
	}
	return false
}

// classify judges one clause with a lexicon: vague when hedged; against
// when anything contradicts (a claim and a contradiction in one clause,
// "46 passed, 1 failed", contradict); claim when something claims; else
// mention.
func classify(clause string, lex lexicon) polarity {
	toks := tokenize(clause)
	if hedged(toks) {
		return vague
	}
	pos, neg := false, false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if lex.counts {
			if zeroWords[t] && i+1 < len(toks) {
				if failNouns[toks[i+1]] {
					pos, i = true, i+1
					continue
				}
				if i+2 < len(toks) && failNouns[toks[i+2]] {
					pos, i = true, i+2
					continue
				}
			}
			if a, b, ok := strings.Cut(t, "/"); ok {
				if x, err1 := strconv.Atoi(a); err1 == nil {
					if y, err2 := strconv.Atoi(b); err2 == nil {
						if x == y && x > 0 {
							pos = true
						} else {
							neg = true
						}
						continue
					}
				}
			}
			if n, err := strconv.Atoi(t); err == nil && n > 0 && i+1 < len(toks) &&
				(failNouns[toks[i+1]] || i+2 < len(toks) && failNouns[toks[i+2]] && toks[i+1] != "of") {
				if toks[i+1] == "warning" || toks[i+1] == "warnings" || neutralized(toks, i) {
					continue // warnings do not fail a command; "fixed 2 errors" is no failure
				}
				neg = true
				continue
			}
			if t == "exit" || t == "exited" || t == "exits" {
				// "exit 0", "exit code 0", "exited with 0"
				for j := i + 1; j < min(len(toks), i+4); j++ {
					if n, err := strconv.Atoi(toks[j]); err == nil {
						if n == 0 {
							pos = true
						} else {
							neg = true
						}
						break
					}
				}
				continue
			}
		}
		switch {
		case lex.pos[t]:
			if negated(toks, i) {
				neg = true
			} else {
				pos = true
			}
		case lex.neg[t]:
			if !neutralized(toks, i) {
				neg = true
			}
		case neutralVerbs[t] && negated(toks, i):
			neg = true
		}
	}
	switch {
	case neg:
		return against
	case pos:
		return claim
	}
	return mention
}

func pathByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '/' || c >= 0x80
}

// containsPath reports p in text as a whole path: "src/x.ts" is in
// "created `src/x.ts`." and "./src/x.ts", not in "src/x.tsx" or
// "lib/src/x.ts". A route ("/auth") may follow a host: "localhost:3000/auth".
func containsPath(text, p string) bool {
	if p == "" {
		return false
	}
	for off := 0; off < len(text); {
		i := strings.Index(text[off:], p)
		if i < 0 {
			return false
		}
		i += off
		j := i + len(p)
		before := i == 0 || !pathByte(text[i-1]) || p[0] == '/' ||
			(text[i-1] == '/' && i >= 2 && text[i-2] == '.' && (i == 2 || !pathByte(text[i-3])))
		after := j == len(text) || !pathByte(text[j]) ||
			((text[j] == '.' || text[j] == '/') && (j+1 == len(text) || !pathByte(text[j+1])))
		if before && after {
			return true
		}
		off = i + 1
	}
	return false
}

// quote shortens a clause for a verdict note.
func quote(s string) string {
	const maxRunes = 100
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= maxRunes {
		return "'" + s + "'"
	}
	r := []rune(s)
	return "'" + strings.TrimSpace(string(r[:maxRunes])) + "…'"
}
