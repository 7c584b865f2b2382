package msgcheck

// Differential test: msgcheck against an independent JSON Schema validator
// (github.com/santhosh-tekuri/jsonschema/v6) running the hand-written
// testdata/protocol-core-v1.0.schema.json, over a few thousand generated
// DELEGATE and HANDBACK messages. Both must give every message the same
// valid/invalid verdict, and that verdict must be the one the generator
// meant to produce.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const diffSchemaFile = "testdata/protocol-core-v1.0.schema.json"

// diffSkills are every skill the generator names; diffRoot creates them, so
// the existsIn check (which JSON Schema cannot express) always passes.
var diffSkills = []string{"queue-management", "code-review", "refactor", "write-docs", "ünïcode-skill", "a", "Skill.With.Dots"}

var diffAgents = []string{"orchestrator", "engineer", "senior-engineer", "lead-engineer",
	"principal-engineer", "security-engineer", "quality-engineer", "model-engineer"}

var diffStatuses = []string{"success", "failure", "partial", "blocked", "escalate"}

// diffVocab holds words: runs of non-separators, some of them glued with
// characters that look like spaces but are not separators (U+200B, U+2060...).
var diffVocab = []string{
	"update", "the", "parser", "so", "that", "empty", "tokens", "are", "rejected", "with",
	"a", "clear", "error", "message", "and", "tests", "x", "I", "a1", "foo-bar", "snake_case",
	"naïve", "café", "über", "données", "e\u0301", "Ελληνικά", "日本語", "テスト", "中文", "😀",
	"π", "Ω", "über-long-hyphenated-word", "zero\u200bwidth", "word\u2060joiner", "soft\u00adhyphen",
	"mongolian\u180evowel", "zwnj\u200cword", "zwj\u200dword", "'quoted'", "(paren)", "#42", "1.5",
}

// diffSeps are word separators for msgcheck (isWordSeparator).
var diffSeps = []string{
	" ", " ", " ", "  ", "\t", "\n", "\r\n", "\v", "\f", "\u00a0", "\u1680", "\u2000",
	"\u2003", "\u2007", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff", " \u00a0\t",
}

// diffGlue are characters that are NOT word separators although they look
// like (or are sometimes taken for) spaces.
var diffGlue = []string{"\u200b", "\u200c", "\u200d", "\u2060", "\u180e", "\u00ad", "\u034f"}

type diffGen struct {
	r     *rand.Rand
	ascii bool // the message being built uses plain spaces only
}

func diffPick[T any](g *diffGen, xs []T) T { return xs[g.r.IntN(len(xs))] }

func (g *diffGen) word() string { return diffPick(g, diffVocab) }

func (g *diffGen) sep() string {
	if g.ascii {
		return " "
	}
	return diffPick(g, diffSeps)
}

// words joins n words with sep (random separators when sep is empty), and
// sometimes pads with separators on either side.
func (g *diffGen) words(n int, sep string) string {
	var b strings.Builder
	next := func() string {
		if sep != "" {
			return sep
		}
		return g.sep()
	}
	if g.r.IntN(4) == 0 {
		b.WriteString(next())
	}
	for i := range n {
		if i > 0 {
			b.WriteString(next())
		}
		b.WriteString(g.word())
	}
	if n > 0 && g.r.IntN(4) == 0 {
		b.WriteString(next())
	}
	return b.String()
}

func (g *diffGen) text(n int) string { return g.words(n, "") }

// glued writes n+1 words of which two are joined by a non-separator, so the
// text has n words although it looks like n+1.
func (g *diffGen) glued(n int) string {
	parts := make([]string, n+1)
	for i := range parts {
		parts[i] = g.word()
	}
	at := g.r.IntN(n)
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			if i == at+1 {
				b.WriteString(diffPick(g, diffGlue))
			} else {
				b.WriteString(g.sep())
			}
		}
		b.WriteString(p)
	}
	return b.String()
}

// onlySeps is a non-empty string of separators: zero words.
func (g *diffGen) onlySeps() string {
	var b strings.Builder
	for range 1 + g.r.IntN(5) {
		b.WriteString(diffPick(g, diffSeps))
	}
	return b.String()
}

// anyText is any string, words or not.
func (g *diffGen) anyText() string {
	switch g.r.IntN(5) {
	case 0:
		return ""
	case 1:
		return g.onlySeps()
	}
	return g.text(1 + g.r.IntN(6))
}

// step is a valid plan step: at least 3 words and 9 characters.
func (g *diffGen) step() string {
	s := g.text(3 + g.r.IntN(5))
	for utf8.RuneCountInString(s) < 9 || countWords(s, 0) < 3 {
		s += g.sep() + g.word()
	}
	return s
}

const diffIDChars = "abcdefghijklmnopqrstuvwxyz0123456789"

// taskID is a valid task id of n characters.
func (g *diffGen) taskIDLen(n int) string {
	b := make([]byte, n)
	for i := range b {
		if i == 0 || i == n-1 || g.r.IntN(5) > 0 {
			b[i] = diffIDChars[g.r.IntN(len(diffIDChars))]
		} else {
			b[i] = '-'
		}
	}
	return string(b)
}

func (g *diffGen) taskID() string { return g.taskIDLen(3 + g.r.IntN(48)) }

func (g *diffGen) list(n int, f func() any) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = f()
	}
	return out
}

// diffVariant is one way a rule sets (or removes) its field.
type diffVariant struct {
	name   string
	valid  bool // the message stays valid with this variant
	clean  bool // warn-only rules: no warning expected
	value  func(g *diffGen) any
	remove bool
	apply  func(g *diffGen, root any) any // whole-message variants
}

// diffRule is a rule of the spec and the variants that exercise it.
type diffRule struct {
	name     string
	kind     string
	path     []string // the field mutated; empty for the whole message
	warnOnly bool     // extensions and unknown fields: warnings, never errors
	variants []diffVariant
}

func diffOK(name string, f func(g *diffGen) any) diffVariant {
	return diffVariant{name: name, valid: true, value: f}
}

func diffBad(name string, f func(g *diffGen) any) diffVariant {
	return diffVariant{name: name, value: f}
}

func diffOKLit(name string, x any) diffVariant { return diffOK(name, func(*diffGen) any { return x }) }
func diffBadLit(name string, x any) diffVariant {
	return diffBad(name, func(*diffGen) any { return x })
}

var diffMissing = diffVariant{name: "missing", remove: true}

// diffWrongTypes are values of every JSON type but strings.
func diffWrongTypes() []diffVariant {
	return []diffVariant{diffBadLit("number", json.Number("12")), diffBadLit("float", 1.5), diffBadLit("null", nil),
		diffBadLit("bool", true), diffBadLit("object", map[string]any{"x": "y"}), diffBadLit("array", []any{"abc"})}
}

func (v diffVariant) applyAt(g *diffGen, path []string, root any) any {
	if v.apply != nil {
		return v.apply(g, root)
	}
	m := root.(map[string]any)
	for _, k := range path[:len(path)-1] {
		m = m[k].(map[string]any)
	}
	last := path[len(path)-1]
	if v.remove {
		delete(m, last)
	} else {
		m[last] = v.value(g)
	}
	return root
}

func diffNum(s string) json.Number { return json.Number(s) }

func diffJSON(x any) string {
	b, err := json.Marshal(x)
	if err != nil {
		return fmt.Sprint(x)
	}
	return string(b)
}

func diffRules() []diffRule {
	var rules []diffRule
	add := func(kind, name string, path []string, vs ...diffVariant) {
		rules = append(rules, diffRule{name: kind + "/" + name, kind: kind, path: path, variants: vs})
	}
	ext := func(kind, field string, clean []any, warn []any) {
		r := diffRule{name: kind + "/ext-" + field, kind: kind, path: []string{field}, warnOnly: true}
		other := map[string]string{"protocol_version": "spec_version", "spec_version": "protocol_version"}[field]
		mk := func(x any, isClean bool) diffVariant {
			return diffVariant{name: field + "=" + diffJSON(x), valid: true, clean: isClean,
				apply: func(g *diffGen, root any) any {
					m := root.(map[string]any)
					if other != "" {
						delete(m, other) // msgcheck reads protocol_version first
					}
					m[field] = x
					return root
				}}
		}
		for _, x := range clean {
			r.variants = append(r.variants, mk(x, true))
		}
		for _, x := range warn {
			r.variants = append(r.variants, mk(x, false))
		}
		rules = append(rules, r)
	}

	for _, kind := range []string{"delegate", "handback"} {
		add(kind, "message", nil,
			diffVariant{name: "unchanged", valid: true, apply: func(_ *diffGen, root any) any { return root }},
			diffVariant{name: "empty object", apply: func(*diffGen, any) any { return map[string]any{} }},
			diffVariant{name: "array of the message", apply: func(_ *diffGen, root any) any { return []any{root} }},
			diffVariant{name: "string", apply: func(*diffGen, any) any { return strings.ToUpper(kind) }},
			diffVariant{name: "null", apply: func(*diffGen, any) any { return nil }},
			diffVariant{name: "number", apply: func(*diffGen, any) any { return diffNum("42") }},
		)
		taskID := []diffVariant{
			diffOKLit("3 chars", "abc"), diffOKLit("digits", "123"), diffOKLit("a-b", "a-b"), diffOKLit("double hyphen", "a--b"),
			diffOK("random", func(g *diffGen) any { return g.taskID() }),
			diffOK("50 chars", func(g *diffGen) any { return g.taskIDLen(50) }),
			diffOK("49 chars", func(g *diffGen) any { return g.taskIDLen(49) }),
			diffBad("51 chars", func(g *diffGen) any { return g.taskIDLen(51) }),
			diffBadLit("2 chars", "ab"), diffBadLit("1 char", "a"), diffBadLit("empty", ""),
			diffBadLit("leading hyphen", "-abc"), diffBadLit("trailing hyphen", "abc-"), diffBadLit("upper case", "Abc"),
			diffBadLit("TaskID001", "TaskID001"), diffBadLit("underscore", "a_b"), diffBadLit("space", "a b"),
			diffBadLit("trailing newline", "abc\n"), diffBadLit("leading newline", "\nabc"), diffBadLit("non-ascii", "abç"),
			diffBadLit("fullwidth", "ａbc"), diffBadLit("nbsp", "ab\u00a0c"), diffBadLit("zwsp", "ab\u200bc"),
			diffMissing,
		}
		taskID = append(taskID, diffWrongTypes()...)
		add(kind, "task_id", []string{"task_id"}, taskID...)

		unknown := []diffVariant{
			diffOKLit("x-custom", "v"), diffOKLit("notes", diffNum("12")), diffOKLit("empty key", "empty key"),
			diffOKLit("nested", map[string]any{"a": []any{1.0, nil}}), diffOKLit("Task_ID", "abc"), diffOKLit("null", nil),
		}
		names := []string{"x-custom", "notes", "", "nested", "Task_ID", "comment"}
		for i := range unknown {
			name := names[i]
			x := unknown[i].value
			unknown[i].clean = false
			unknown[i].value = nil
			unknown[i].apply = func(g *diffGen, root any) any {
				root.(map[string]any)[name] = x(g)
				return root
			}
		}
		other := diffVariant{name: "field of the other kind", valid: true, apply: func(_ *diffGen, root any) any {
			if kind == "delegate" {
				root.(map[string]any)["status"] = "complete"
			} else {
				root.(map[string]any)["scope"] = diffNum("5")
			}
			return root
		}}
		rules = append(rules, diffRule{name: kind + "/unknown-field", kind: kind, path: []string{"~unknown"},
			warnOnly: true, variants: append(unknown, other)})

		ext(kind, "protocol_version", []any{"1.0", "v1.0", "1", diffNum("1"), diffNum("1.0")}, []any{"2.0", true, []any{}})
		ext(kind, "spec_version", []any{"1.0", diffNum("1")}, []any{"0.9", map[string]any{}})
		ext(kind, "handoff_type", []any{"sync", ""}, []any{diffNum("0"), nil})
	}

	// DELEGATE
	add("delegate", "skill", []string{"skill"}, append([]diffVariant{
		diffOK("existing", func(g *diffGen) any { return diffPick(g, diffSkills) }),
		diffOKLit("1 char", "a"), diffBadLit("empty", ""), diffMissing,
	}, diffWrongTypes()...)...)

	agent := []diffVariant{diffBadLit("capitalised", "Engineer"), diffBadLit("padded", " engineer"), diffBadLit("nbsp", "engineer\u00a0"),
		diffBadLit("empty", ""), diffBadLit("underscore", "senior_engineer"), diffBadLit("unknown", "developer"), diffMissing}
	for _, a := range diffAgents {
		agent = append(agent, diffOKLit(a, a))
	}
	add("delegate", "agent", []string{"agent"}, append(agent, diffWrongTypes()...)...)

	// minWords 15
	scope := []diffVariant{
		diffOK("15 words", func(g *diffGen) any { return g.text(15) }),
		diffOK("16 words", func(g *diffGen) any { return g.text(16) }),
		diffOK("60 words", func(g *diffGen) any { return g.text(60) }),
		diffBad("14 words", func(g *diffGen) any { return g.text(14) }),
		diffBad("1 word", func(g *diffGen) any { return g.text(1) }),
		diffBadLit("empty", ""),
		diffBad("only separators", func(g *diffGen) any { return g.onlySeps() }),
		diffOK("16 looking like 17 (glue)", func(g *diffGen) any { return g.glued(16) }),
		diffOK("15 looking like 16 (glue)", func(g *diffGen) any { return g.glued(15) }),
		diffBad("14 looking like 15 (glue)", func(g *diffGen) any { return g.glued(14) }),
		diffBad("15 words joined by U+200B", func(g *diffGen) any { return g.words(15, "\u200b") }),
		diffBad("15 words joined by U+2060", func(g *diffGen) any { return g.words(15, "\u2060") }),
		diffBad("15 words joined by U+180E", func(g *diffGen) any { return g.words(15, "\u180e") }),
		diffBad("15 words joined by '-'", func(g *diffGen) any { return g.words(15, "-") }),
		diffMissing,
	}
	for _, sep := range []string{"\u00a0", "\u3000", "\u2003", "\u202f", "\u2028", "\u2029", "\v", "\ufeff", "\t", "\r\n", "\u1680"} {
		scope = append(scope,
			diffOK(fmt.Sprintf("15 words sep %+q", sep), func(g *diffGen) any { return g.words(15, sep) }),
			diffBad(fmt.Sprintf("14 words sep %+q", sep), func(g *diffGen) any { return g.words(14, sep) }))
	}
	add("delegate", "scope", []string{"scope"}, append(scope, diffWrongTypes()...)...)

	// minItems 1, items minWords 1
	add("delegate", "success_criteria", []string{"success_criteria"}, []diffVariant{
		diffOK("1-4 criteria", func(g *diffGen) any {
			return g.list(1+g.r.IntN(4), func() any { return g.text(1 + g.r.IntN(8)) })
		}),
		diffOKLit("one letter", []any{"x"}), diffOKLit("zero width space is a word", []any{"\u200b"}),
		diffOKLit("word joiner is a word", []any{"\u2060"}), diffOKLit("padded word", []any{"\u3000\u00a0é\ufeff"}),
		diffBadLit("empty list", []any{}), diffBadLit("empty string", []any{""}),
		diffBad("only separators", func(g *diffGen) any { return []any{g.onlySeps()} }),
		diffBadLit("BOM only", []any{"\ufeff"}), diffBadLit("VT only", []any{"\v"}),
		diffBadLit("ideographic space only", []any{"\u3000"}),
		diffBad("second empty", func(g *diffGen) any { return []any{g.text(3), ""} }),
		diffBadLit("number item", []any{diffNum("1")}), diffBadLit("null item", []any{nil}), diffBadLit("list item", []any{[]any{"x"}}),
		diffBadLit("string", "all tests pass"), diffBadLit("null", nil), diffBadLit("number", diffNum("1")), diffBadLit("object", map[string]any{}),
		diffMissing,
	}...)

	// minItems 2, items minWords 3 and minLength 9
	steps := []struct {
		s     string
		valid bool
	}{
		{"ab cd efg", true}, {"ab cd ef", false}, {"a b c", false}, {"a b c d e", true}, {"Refactor everything", false},
		{"Read\u00a0the\u00a0code", true}, {"Read\u200bthe code", false}, {"😀 😀 😀 😀 😀", true}, {"😀 😀 😀", false},
		{"日本 語の テスト", true}, {"日本 語 テ", false}, {"abc\u3000de\u3000fg", true}, {"ab\u3000cd\u3000ef", false},
		{"\u3000ab cd efg\u3000", true}, {"   ab cd   ", false}, {"one two\u2060three four", true},
		{"one\u2060two three", false}, {"write\vthe\vtests", true}, {"write\u0085the\u0085tests", false},
		{"write\ufeffthe\ufefftests", true}, {"", false}, {"\t\t\t\t\t\t\t\t\t", false},
		{"e\u0301 e\u0301 e\u0301", false}, // 8 code points (e + combining acute)
		{"ee\u0301 e\u0301 e\u0301", true}, // 9 code points, 6 characters on screen
		{"é é é é é", true}, {"é é é é", false},
	}
	plan := []diffVariant{
		diffOK("2 steps", func(g *diffGen) any { return []any{g.step(), g.step()} }),
		diffOK("5 steps", func(g *diffGen) any { return g.list(5, func() any { return g.step() }) }),
		diffBad("1 step", func(g *diffGen) any { return []any{g.step()} }),
		diffBadLit("empty list", []any{}),
		diffBad("number step", func(g *diffGen) any { return []any{g.step(), diffNum("5")} }),
		diffBad("null step", func(g *diffGen) any { return []any{nil, g.step()} }),
		diffBad("list step", func(g *diffGen) any { return []any{g.step(), []any{"Read the code"}} }),
		diffBad("string", func(g *diffGen) any { return g.step() }),
		diffBadLit("number", diffNum("3")), diffBadLit("null", nil), diffBadLit("object", map[string]any{"1": "Read the code"}),
		diffMissing,
	}
	for _, st := range steps {
		plan = append(plan, diffVariant{name: fmt.Sprintf("step %+q", st.s), valid: st.valid, value: func(g *diffGen) any {
			list := []any{g.step(), st.s, g.step()}[:2+g.r.IntN(2)]
			g.r.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
			if !slices.Contains(list, any(st.s)) {
				list[0] = st.s
			}
			return list
		}})
	}
	add("delegate", "plan", []string{"plan"}, plan...)

	// oneOf: a string of >=20 words, or a non-empty list of strings
	context := []diffVariant{
		diffOK("20 words", func(g *diffGen) any { return g.text(20) }),
		diffOK("35 words", func(g *diffGen) any { return g.text(35) }),
		diffBad("19 words", func(g *diffGen) any { return g.text(19) }),
		diffBadLit("empty string", ""),
		diffOK("20 looking like 21 (glue)", func(g *diffGen) any { return g.glued(20) }),
		diffBad("19 looking like 20 (glue)", func(g *diffGen) any { return g.glued(19) }),
		diffBad("20 words joined by U+200B", func(g *diffGen) any { return g.words(20, "\u200b") }),
		diffOK("list of strings", func(g *diffGen) any { return g.list(1+g.r.IntN(4), func() any { return g.anyText() }) }),
		diffOKLit("list of one empty string", []any{""}),
		diffOKLit("list of one separator", []any{"\u3000"}),
		diffBadLit("empty list", []any{}),
		diffBadLit("list with a number", []any{"background", diffNum("1")}),
		diffBadLit("list with null", []any{nil}),
		diffBadLit("list with a list", []any{[]any{"x"}}),
		diffBadLit("list with an object", []any{map[string]any{"text": "x"}}),
		diffBadLit("number", diffNum("5")), diffBadLit("zero", diffNum("0")), diffBadLit("null", nil), diffBadLit("bool", true),
		diffBadLit("empty object", map[string]any{}),
		diffBad("object with text", func(g *diffGen) any { return map[string]any{"text": g.text(25)} }),
		diffMissing,
	}
	for _, sep := range []string{"\u00a0", "\u3000", "\u2009", "\v", "\ufeff", "\u2029"} {
		context = append(context,
			diffOK(fmt.Sprintf("20 words sep %+q", sep), func(g *diffGen) any { return g.words(20, sep) }),
			diffBad(fmt.Sprintf("19 words sep %+q", sep), func(g *diffGen) any { return g.words(19, sep) }))
	}
	add("delegate", "context", []string{"context"}, context...)

	ext("delegate", "parent_task_id", []any{"parent-001", "abc"}, []any{"Not_An_Id", diffNum("5"), "ab"})
	ext("delegate", "effort", []any{"high", ""}, []any{diffNum("5"), []any{"high"}})
	ext("delegate", "model", []any{"claude"}, []any{nil, diffNum("1")})
	ext("delegate", "budget", []any{diffNum("100"), 2.5, map[string]any{"usd": diffNum("5")}}, []any{"lots", []any{}, nil})
	ext("delegate", "deadline", []any{"2026-01-01"}, []any{diffNum("20260101"), true})
	ext("delegate", "retry_context", []any{map[string]any{}, "previous attempt failed"}, []any{diffNum("3"), []any{}})
	ext("delegate", "dependencies", []any{[]any{"dep-one", "dep-two"}, []any{}},
		[]any{[]any{"Bad ID"}, "dep-one", []any{diffNum("5")}, []any{"ok-id", "ab"}})
	ext("delegate", "priority", []any{"high", diffNum("2"), diffNum("2.0"), diffNum("-1"), diffNum("1e2")}, []any{1.5, true, nil})

	// HANDBACK
	status := []diffVariant{diffBadLit("alias complete", "complete"), diffBadLit("alias failed", "failed"),
		diffBadLit("alias escalated", "escalated"), diffBadLit("upper case", "SUCCESS"), diffBadLit("padded", "success "),
		diffBadLit("empty", ""), diffBadLit("unknown", "done"), diffMissing}
	for _, s := range diffStatuses {
		status = append(status, diffOKLit(s, s))
	}
	add("handback", "status", []string{"status"}, append(status, diffWrongTypes()...)...)

	add("handback", "output", []string{"output"},
		diffOKLit("null", nil), diffOKLit("empty string", ""), diffOKLit("zero", diffNum("0")), diffOKLit("false", false),
		diffOKLit("empty object", map[string]any{}), diffOKLit("empty list", []any{}),
		diffOKLit("object", map[string]any{"files": []any{"a.go"}, "summary": "done"}),
		diffOK("text", func(g *diffGen) any { return g.text(5) }),
		diffMissing)

	add("handback", "metrics", []string{"metrics"},
		diffOK("full", func(g *diffGen) any { return g.metrics() }),
		diffOK("extra metrics", func(g *diffGen) any {
			m := g.metrics()
			m["latency_ms"] = diffNum("-5")
			m["notes"] = "fine"
			return m
		}),
		diffBad("missing quality", func(g *diffGen) any { m := g.metrics(); delete(m, "quality"); return m }),
		diffBad("missing tokens", func(g *diffGen) any { m := g.metrics(); delete(m, "tokens"); return m }),
		diffBad("missing cost", func(g *diffGen) any { m := g.metrics(); delete(m, "cost"); return m }),
		diffBad("missing duration_seconds", func(g *diffGen) any { m := g.metrics(); delete(m, "duration_seconds"); return m }),
		diffBadLit("empty object", map[string]any{}), diffBadLit("string", "fast"), diffBadLit("list", []any{}),
		diffBadLit("null", nil), diffBadLit("number", diffNum("1")),
		diffMissing)

	numbers := func(field string, good, wrong []string) {
		var vs []diffVariant
		for _, x := range good {
			vs = append(vs, diffOKLit(x, diffNum(x)))
		}
		for _, x := range wrong {
			vs = append(vs, diffBadLit(x, diffNum(x)))
		}
		vs = append(vs, diffBadLit("string", "0.5"), diffBadLit("null", nil), diffBadLit("bool", true),
			diffBadLit("list", []any{diffNum("1")}), diffBadLit("object", map[string]any{}), diffMissing)
		add("handback", field, []string{"metrics", field}, vs...)
	}
	numbers("quality",
		[]string{"0", "1", "0.0", "1.0", "-0", "-0.0", "0.5", "1e0", "1E-7", "0.9999999", "1.00000000", "10e-1"},
		[]string{"1.0000001", "-0.0000001", "-1", "2", "1e1", "100", "-1e-300"})
	numbers("tokens",
		[]string{"3", "3.0", "0", "-0", "1e2", "1.0E3", "9007199254740993", "1e15", "42"},
		[]string{"3.5", "-1", "0.1", "-0.5", "1e-2", "-1e2", "2.000001"})
	numbers("cost",
		[]string{"0", "0.0", "-0", "0.01", "1e6", "12", "1e-300"},
		[]string{"-0.01", "-1e-9", "-1", "-1e300"})
	numbers("duration_seconds",
		[]string{"0", "-0", "0.5", "3600", "1.5e3"},
		[]string{"-0.5", "-1", "-1e-7"})

	ext("handback", "children_created", []any{[]any{"child-1"}, []any{}}, []any{[]any{"X"}, "child-1", []any{nil}})
	ext("handback", "children_results", []any{[]any{}, map[string]any{}}, []any{"x", diffNum("1")})
	ext("handback", "retry_count", []any{diffNum("0"), diffNum("3"), diffNum("3.0")}, []any{diffNum("-1"), 1.5, "3", nil})
	ext("handback", "model_used", []any{"m"}, []any{diffNum("1"), nil})
	ext("handback", "effort_actual", []any{"high", 2.5}, []any{true, []any{}})
	ext("handback", "flags", []any{[]any{}, map[string]any{}}, []any{"x", diffNum("0")})
	ext("handback", "error", []any{"boom", map[string]any{"code": diffNum("1")}}, []any{diffNum("5"), []any{}})
	return rules
}

func (g *diffGen) metrics() map[string]any {
	q := g.r.Float64()
	switch g.r.IntN(6) {
	case 0:
		q = 0
	case 1:
		q = 1
	}
	return map[string]any{
		"quality":          q,
		"tokens":           float64(g.r.IntN(200000)),
		"cost":             g.r.Float64() * 3,
		"duration_seconds": float64(g.r.IntN(100000)) / 10,
	}
}

// base builds a valid, warning-free message of a kind, with some valid
// extensions taken from the clean variants of the extension rules.
func (g *diffGen) base(kind string, rules []diffRule) map[string]any {
	g.ascii = g.r.IntN(2) == 0
	var m map[string]any
	if kind == "delegate" {
		m = map[string]any{
			"task_id":          g.taskID(),
			"skill":            diffPick(g, diffSkills),
			"agent":            diffPick(g, diffAgents),
			"scope":            g.text(15 + g.r.IntN(25)),
			"success_criteria": g.list(1+g.r.IntN(4), func() any { return g.text(1 + g.r.IntN(8)) }),
			"plan":             g.list(2+g.r.IntN(4), func() any { return g.step() }),
		}
		if g.r.IntN(2) == 0 {
			m["context"] = g.text(20 + g.r.IntN(20))
		} else {
			m["context"] = g.list(1+g.r.IntN(3), func() any { return g.anyText() })
		}
	} else {
		m = map[string]any{
			"task_id": g.taskID(),
			"status":  diffPick(g, diffStatuses),
			"output":  diffPick(g, []any{nil, "done", map[string]any{"files": []any{"a.go"}}, []any{}}),
			"metrics": g.metrics(),
		}
	}
	for range g.r.IntN(4) {
		r := diffPick(g, rules)
		if r.kind != kind || !r.warnOnly || r.name == kind+"/unknown-field" {
			continue
		}
		var clean []diffVariant
		for _, v := range r.variants {
			if v.clean {
				clean = append(clean, v)
			}
		}
		if len(clean) > 0 {
			diffPick(g, clean).applyAt(g, r.path, m)
		}
	}
	return m
}

// diffMsg is one generated message.
type diffMsg struct {
	kind   string
	label  string // the mutations applied
	want   bool   // the verdict the generator meant
	single *diffRule
	vari   *diffVariant // set with single
	body   []byte       // JSON
}

func diffOverlaps(a, b []string) bool {
	k := min(len(a), len(b))
	return slices.Equal(a[:k], b[:k])
}

// diffGenerate makes repeat messages for every variant of every rule (the
// variant alone on a valid base), then random messages with up to three
// variants each.
func diffGenerate(seed uint64, repeat, random int) []diffMsg {
	g := &diffGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	rules := diffRules()
	var out []diffMsg
	emit := func(kind string, root any, label string, want bool, single *diffRule, v *diffVariant) {
		body, err := json.Marshal(root)
		if err != nil {
			panic(fmt.Sprintf("%s: %v", label, err))
		}
		out = append(out, diffMsg{kind: kind, label: label, want: want, single: single, vari: v, body: body})
	}
	// every variant of every rule, alone
	for ri := range rules {
		r := &rules[ri]
		for vi := range r.variants {
			v := &r.variants[vi]
			for range repeat {
				root := v.applyAt(g, r.path, g.base(r.kind, rules))
				emit(r.kind, root, r.name+": "+v.name, v.valid, r, v)
			}
		}
	}
	// random messages: a base and up to three mutations of distinct fields
	byKind := map[string][]*diffRule{}
	for ri := range rules {
		byKind[rules[ri].kind] = append(byKind[rules[ri].kind], &rules[ri])
	}
	for i := range random {
		kind := []string{"delegate", "handback"}[i%2]
		var root any = g.base(kind, rules)
		want := true
		var labels []string
		var paths [][]string
		for range g.r.IntN(4) {
			r := diffPick(g, byKind[kind])
			if slices.ContainsFunc(paths, func(p []string) bool { return diffOverlaps(p, r.path) }) {
				continue
			}
			paths = append(paths, r.path)
			v := &r.variants[g.r.IntN(len(r.variants))]
			root = v.applyAt(g, r.path, root)
			want = want && v.valid
			labels = append(labels, r.name+": "+v.name)
		}
		if len(labels) == 0 {
			labels = append(labels, "base")
		}
		emit(kind, root, strings.Join(labels, "; "), want, nil, nil)
	}
	return out
}

// diffRoot is a repository whose skills/ holds every skill in diffSkills,
// as directories and as NAME.md files.
func diffRoot(t testing.TB) string {
	root := t.TempDir()
	for i, s := range diffSkills {
		var err error
		if i%2 == 0 {
			err = os.MkdirAll(filepath.Join(root, "skills", s), 0o755)
		} else {
			if err = os.MkdirAll(filepath.Join(root, "skills"), 0o755); err == nil {
				err = os.WriteFile(filepath.Join(root, "skills", s+".md"), []byte("# "+s+"\n"), 0o644)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func diffSchemas(t testing.TB) map[string]*jsonschema.Schema {
	abs, err := filepath.Abs(diffSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	out := map[string]*jsonschema.Schema{}
	for _, k := range []string{"delegate", "handback"} {
		sch, err := c.Compile(abs + "#/$defs/" + k)
		if err != nil {
			t.Fatalf("compile %s: %v", diffSchemaFile, err)
		}
		out[k] = sch
	}
	return out
}

func TestDiffJSONSchema(t *testing.T) {
	schemas := diffSchemas(t)
	v, err := New(Options{Root: diffRoot(t)}, DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	repeat, random := 3, 4000
	if testing.Short() || diffRace() {
		repeat, random = 1, 800 // the race detector makes this 20-40 times slower
	}
	msgs := diffGenerate(20240601, repeat, random)

	type outcome struct{ valid, warned bool }
	seen := map[string]map[outcome]bool{} // rule -> outcomes of its single-variant messages
	verdicts := map[bool]int{}
	mismatches := 0
	report := func(format string, args ...any) {
		mismatches++
		if mismatches <= 15 {
			t.Errorf(format, args...)
		}
	}
	for i, m := range msgs {
		var forMsgcheck any
		if err := json.Unmarshal(m.body, &forMsgcheck); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		forSchema, err := jsonschema.UnmarshalJSON(bytes.NewReader(m.body))
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		for _, kind := range []string{"delegate", "handback"} {
			res := v.Validate(kind, forMsgcheck)
			serr := schemas[kind].Validate(forSchema)
			if res.Valid != (len(res.Errors) == 0) {
				report("message %d (%s): Valid=%v with %d errors", i, m.label, res.Valid, len(res.Errors))
			}
			if res.Valid != (serr == nil) {
				report("message %d validated as %s (%s): msgcheck valid=%v, JSON Schema valid=%v\nmessage: %s\nquoted:  %+q\nmsgcheck errors:%s\nJSON Schema: %v",
					i, kind, m.label, res.Valid, serr == nil, m.body, m.body, diffFindings(res.Errors), serr)
				continue
			}
			if kind != m.kind {
				continue
			}
			verdicts[res.Valid]++
			if res.Valid != m.want {
				report("message %d (%s): both validators say valid=%v, the generator meant %v\nmessage: %s\nquoted:  %+q\nmsgcheck errors:%s\nJSON Schema: %v",
					i, m.label, res.Valid, m.want, m.body, m.body, diffFindings(res.Errors), serr)
			}
			if m.single != nil {
				if seen[m.single.name] == nil {
					seen[m.single.name] = map[outcome]bool{}
				}
				seen[m.single.name][outcome{res.Valid, len(res.Warnings) > 0}] = true
				if m.single.warnOnly && (len(res.Warnings) == 0) != m.vari.clean {
					report("message %d (%s): %d warnings, the generator meant clean=%v\nmessage: %+q\nwarnings:%s",
						i, m.label, len(res.Warnings), m.vari.clean, m.body, diffFindings(res.Warnings))
				}
			}
			if m.label == "base" && len(res.Warnings) > 0 {
				report("message %d: the base message has warnings:%s\nmessage: %+q", i, diffFindings(res.Warnings), m.body)
			}
		}
	}
	if mismatches > 15 {
		t.Errorf("... %d problems in all", mismatches)
	}

	// the generator must have hit both verdicts for every rule (both a
	// clean and a warned message for extensions), or the test proves little
	for _, r := range diffRules() {
		got := seen[r.name]
		if r.warnOnly {
			if got[outcome{false, false}] || got[outcome{false, true}] {
				t.Errorf("rule %s: an extension or unknown field made a message invalid", r.name)
			}
			if !got[outcome{true, true}] {
				t.Errorf("rule %s: no message with a warning", r.name)
			}
			hasClean := slices.ContainsFunc(r.variants, func(v diffVariant) bool { return v.clean })
			if hasClean && !got[outcome{true, false}] {
				t.Errorf("rule %s: no message without a warning", r.name)
			}
			continue
		}
		if !got[outcome{true, false}] && !got[outcome{true, true}] {
			t.Errorf("rule %s: no message of this rule was valid", r.name)
		}
		if !got[outcome{false, false}] && !got[outcome{false, true}] {
			t.Errorf("rule %s: no message of this rule was invalid", r.name)
		}
	}
	if verdicts[true] < len(msgs)/10 || verdicts[false] < len(msgs)/10 {
		t.Errorf("verdicts are lopsided: %d valid, %d invalid", verdicts[true], verdicts[false])
	}
	t.Logf("%d messages, %d valid and %d invalid as their own kind; %d rules", len(msgs), verdicts[true], verdicts[false], len(seen))
}

// diffRace reports whether the test binary was built with -race.
func diffRace() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

func diffFindings(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("\n  ")
		b.WriteString(f.Rule)
		b.WriteString(": ")
		b.WriteString(f.Message)
	}
	if b.Len() == 0 {
		return " none"
	}
	return b.String()
}

// TestDiffGeneratorDeterministic: the same seed gives the same messages, so
// a failure can be reproduced.
func TestDiffGeneratorDeterministic(t *testing.T) {
	a, b := diffGenerate(7, 1, 100), diffGenerate(7, 1, 100)
	if len(a) != len(b) {
		t.Fatalf("%d messages, then %d", len(a), len(b))
	}
	for i := range a {
		if !bytes.Equal(a[i].body, b[i].body) || a[i].label != b[i].label {
			t.Fatalf("message %d differs between two runs:\n%s\n%s", i, a[i].body, b[i].body)
		}
	}
}

// TestDiffVocabulary: the generator's words are single words and its
// separators and glue are what the generator assumes.
func TestDiffVocabulary(t *testing.T) {
	for _, w := range diffVocab {
		if countWords(w, 0) != 1 {
			t.Errorf("vocabulary word %+q is %d words", w, countWords(w, 0))
		}
	}
	for _, s := range diffSeps {
		if countWords(s, 0) != 0 {
			t.Errorf("separator %+q has words", s)
		}
	}
	for _, s := range diffGlue {
		if countWords("a"+s+"b", 0) != 1 {
			t.Errorf("glue %+q separates words", s)
		}
	}
}

// TestDiffSchemaWordSeparators checks the schema's minWords patterns: each
// is built from one separator class S, and S holds exactly the code points
// isWordSeparator accepts.
func TestDiffSchemaWordSeparators(t *testing.T) {
	data, err := os.ReadFile(diffSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	at := func(path ...any) string {
		var cur any = doc
		for _, p := range path {
			switch p := p.(type) {
			case string:
				cur = cur.(map[string]any)[p]
			case int:
				cur = cur.([]any)[p]
			}
		}
		return cur.(string)
	}
	d := []any{"$defs", "delegate", "properties"}
	patterns := []struct {
		words   int
		pattern string
	}{
		{1, at(append(d, "success_criteria", "items", "pattern")...)},
		{3, at(append(d, "plan", "items", "pattern")...)},
		{15, at(append(d, "scope", "pattern")...)},
		{20, at(append(d, "context", "oneOf", 0, "pattern")...)},
	}
	// the class, from the one-word pattern ^[S]*[^S]+
	class, ok := strings.CutPrefix(patterns[0].pattern, "^[")
	class, ok2 := strings.CutSuffix(class, "]+")
	class, _, ok3 := strings.Cut(class, "]*[^")
	if !ok || !ok2 || !ok3 {
		t.Fatalf("the one-word pattern is not ^[S]*[^S]+: %+q", patterns[0].pattern)
	}
	sep, word := "["+class+"]", "[^"+class+"]"
	for _, p := range patterns {
		want := "^" + sep + "*" + word + "+"
		if p.words > 1 {
			want = fmt.Sprintf("^%s*(?:%s+%s+){%d}%s+", sep, word, sep, p.words-1, word)
		}
		if p.pattern != want {
			t.Errorf("minWords %d pattern\n got %+q\nwant %+q", p.words, p.pattern, want)
		}
	}
	// every code point, in one string, through the class and its complement
	var all strings.Builder
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !(r >= 0xD800 && r <= 0xDFFF) {
			all.WriteRune(r)
		}
	}
	text := all.String()
	inClass := map[rune]bool{}
	for _, run := range regexp.MustCompile(sep+"+").FindAllString(text, -1) {
		for _, r := range run {
			inClass[r] = true
		}
	}
	words := 0
	for _, run := range regexp.MustCompile(word+"+").FindAllString(text, -1) {
		for _, r := range run {
			if inClass[r] {
				t.Errorf("U+%04X is in the class and in its complement", r)
			}
			words++
		}
	}
	if words+len(inClass) != utf8.RuneCountInString(text) {
		t.Errorf("the class and its complement cover %d + %d code points of %d", len(inClass), words, utf8.RuneCountInString(text))
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		if inClass[r] != isWordSeparator(r) {
			t.Errorf("U+%04X: a separator for msgcheck: %v, for the schema: %v", r, isWordSeparator(r), inClass[r])
		}
	}
	// and through the patterns themselves, for the separators and the glue
	var probe []rune
	for r := range inClass {
		probe = append(probe, r)
	}
	for _, g := range append(diffGlue, "x", "-", "\u0000", "\u00ad") {
		probe = append(probe, []rune(g)[0])
	}
	for _, p := range patterns[1:] {
		re := regexp.MustCompile(p.pattern)
		for _, r := range probe {
			s := strings.Repeat("w"+string(r), p.words-1) + "w"
			if re.MatchString(s) != isWordSeparator(r) {
				t.Errorf("U+%04X: %d words separated by it: schema matches=%v, msgcheck separator=%v", r, p.words, re.MatchString(s), isWordSeparator(r))
			}
			if short := strings.Repeat("w"+string(r), p.words-2) + "w"; re.MatchString(short) {
				t.Errorf("U+%04X: %d words match a minWords %d pattern", r, p.words-1, p.words)
			}
		}
	}
}
