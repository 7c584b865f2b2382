// Command corpus writes a deterministic corpus of DELEGATE and HANDBACK
// messages as JSON Lines, for the audit benchmark (bench/audit.sh):
//
//	go run ./bench/corpus -n 100000 -seed 1 > corpus.jsonl
//
// Every line is one JSON object with "handoff_type": "DELEGATE" or
// "HANDBACK". About 70% of the messages are valid against protocol-core
// v1.0 and 30% break exactly one rule, spread over every rule of the spec
// (task_id format, skill, agent enum, scope word count, success_criteria,
// plan, context, status enum and its drifted spellings, metrics ranges and
// types, missing required fields, wrong types). Some valid messages carry
// unknown fields or extensions with bad values (warnings, still valid), and
// some scopes separate their words with U+00A0 no-break spaces.
//
// Task ids form a realistic graph: DELEGATE ids are unique, most HANDBACKs
// answer an earlier DELEGATE, and a few messages are duplicates (a DELEGATE
// reusing an id, a second HANDBACK for one task) or orphans (a HANDBACK no
// DELEGATE asked for), for the audit's integrity checks.
//
// Skills: a DELEGATE's skill must exist under skills/ of the audited root,
// which JSON Schema cannot express. Valid messages name one of the skills
// -print-skills lists (audit.sh creates them as directories); with
// -unknown-skills RATE, that share of DELEGATEs names a skill that does not
// exist (invalid for msgcheck, valid for a JSON Schema validator; off by
// default so that both validators can agree on every line).
//
// -labels FILE writes, per message, the verdict the generator meant (1/0),
// the mutation applied and the message's place in the task graph, tab
// separated, to explain disagreements between validators.
//
// -tree DIR writes the messages as a queue tree instead, one file per
// message (-tree-format yaml or json; see WriteTree), with the skills:
//
//	go run ./bench/corpus -n 5000 -tree /tmp/queue-tree -tree-format yaml
//	protoscan audit --root /tmp/queue-tree /tmp/queue-tree/queue
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Skills are the skill names of valid DELEGATEs; the audited root must hold
// skills/NAME for each.
var Skills = []string{"queue-management", "code-review", "refactor", "write-docs", "data-pipeline"}

var agents = []string{"orchestrator", "engineer", "senior-engineer", "lead-engineer",
	"principal-engineer", "security-engineer", "quality-engineer", "model-engineer"}

var statuses = []string{"success", "failure", "partial", "blocked", "escalate"}

var vocab = []string{
	"update", "the", "parser", "so", "that", "empty", "tokens", "are", "rejected", "with",
	"a", "clear", "error", "message", "and", "tests", "cover", "queue", "retry", "logic",
	"migrate", "schema", "to", "version", "two", "keep", "backwards", "compatible", "reads",
	"document", "endpoint", "latency", "budget", "under", "load", "foo-bar", "snake_case",
	"naïve", "café", "données", "日本語", "über", "#42", "1.5",
}

// raw is a JSON value written as is (numbers such as 3.0 or -0).
type raw string

// kv is a member of an object; objects keep their members in order.
type kv struct {
	k string
	v any
}

type obj []kv

func (o obj) get(k string) any {
	for _, m := range o {
		if m.k == k {
			return m.v
		}
	}
	return nil
}

func (o obj) set(k string, v any) obj {
	for i := range o {
		if o[i].k == k {
			o[i].v = v
			return o
		}
	}
	return append(o, kv{k, v})
}

func (o obj) del(k string) obj {
	for i := range o {
		if o[i].k == k {
			return append(o[:i:i], o[i+1:]...)
		}
	}
	return o
}

// mutation breaks (or, for warn-only ones, decorates) one field.
type mutation struct {
	name string
	f    func(g *gen, m obj) obj
}

type gen struct {
	r *rand.Rand
}

func pick[T any](g *gen, xs []T) T { return xs[g.r.IntN(len(xs))] }

// words joins n words with sep.
func (g *gen) words(n int, sep string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(pick(g, vocab))
	}
	return b.String()
}

// text is n words, mostly separated by spaces, sometimes by other
// separators msgcheck and the JSON Schema both accept.
func (g *gen) text(n int) string {
	switch g.r.IntN(10) {
	case 0:
		return g.words(n, "\u00a0")
	case 1:
		return g.words(n, "\n")
	}
	return g.words(n, " ")
}

// step is a valid plan step: at least 3 words and 9 characters.
func (g *gen) step() string {
	s := g.words(3+g.r.IntN(4), " ")
	for utf8.RuneCountInString(s) < 9 {
		s += " " + pick(g, vocab)
	}
	return s
}

func (g *gen) strings(n int, f func() string) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = f()
	}
	return out
}

func (g *gen) delegate(id string) obj {
	m := obj{
		{"handoff_type", "DELEGATE"},
		{"task_id", id},
		{"skill", pick(g, Skills)},
		{"agent", pick(g, agents)},
		{"scope", g.text(15 + g.r.IntN(20))},
		{"success_criteria", g.strings(1+g.r.IntN(3), func() string { return g.words(2+g.r.IntN(6), " ") })},
		{"plan", g.strings(2+g.r.IntN(4), g.step)},
	}
	if g.r.IntN(3) > 0 {
		m = append(m, kv{"context", g.text(20 + g.r.IntN(25))})
	} else {
		m = append(m, kv{"context", g.strings(1+g.r.IntN(3), func() string { return g.words(g.r.IntN(8), " ") })})
	}
	return m
}

func (g *gen) metrics() obj {
	return obj{
		{"quality", raw(strconv.FormatFloat(float64(g.r.IntN(10001))/10000, 'f', -1, 64))},
		{"tokens", g.r.IntN(200000)},
		{"cost", raw(strconv.FormatFloat(float64(g.r.IntN(300000))/100000, 'f', -1, 64))},
		{"duration_seconds", raw(strconv.FormatFloat(float64(g.r.IntN(100000))/10, 'f', -1, 64))},
	}
}

func (g *gen) handback(id string) obj {
	var out any
	switch g.r.IntN(4) {
	case 0:
		out = nil
	case 1:
		out = g.words(3+g.r.IntN(10), " ")
	case 2:
		out = obj{{"files", []any{"src/parser.go", "src/parser_test.go"}}, {"summary", g.words(6, " ")}}
	default:
		out = []any{}
	}
	return obj{
		{"handoff_type", "HANDBACK"},
		{"task_id", id},
		{"status", pick(g, statuses)},
		{"output", out},
		{"metrics", g.metrics()},
	}
}

func lit(name string, field string, v any) mutation {
	return mutation{name, func(_ *gen, m obj) obj { return m.set(field, v) }}
}

func missing(field string) mutation {
	return mutation{field + ": missing", func(_ *gen, m obj) obj { return m.del(field) }}
}

func metric(name, field string, v any) mutation {
	return mutation{"metrics." + field + ": " + name, func(_ *gen, m obj) obj {
		mm, _ := m.get("metrics").(obj)
		if v == nil && strings.HasSuffix(name, "missing") {
			mm = mm.del(field)
		} else {
			mm = mm.set(field, v)
		}
		return m.set("metrics", mm)
	}}
}

// taskIDBreakers are invalid task ids (both kinds).
var taskIDBreakers = []mutation{
	lit("task_id: upper case", "task_id", "TaskID001"),
	lit("task_id: 2 chars", "task_id", "ab"),
	lit("task_id: 51 chars", "task_id", strings.Repeat("a", 51)),
	lit("task_id: leading hyphen", "task_id", "-fix-parser"),
	lit("task_id: trailing hyphen", "task_id", "fix-parser-"),
	lit("task_id: underscore", "task_id", "fix_parser"),
	lit("task_id: space", "task_id", "fix parser"),
	lit("task_id: empty", "task_id", ""),
	lit("task_id: number", "task_id", 42),
	lit("task_id: null", "task_id", nil),
	missing("task_id"),
}

var delegateBreakers = append(append([]mutation{}, taskIDBreakers...),
	lit("skill: empty", "skill", ""),
	lit("skill: number", "skill", 7),
	lit("skill: list", "skill", []any{"code-review"}),
	missing("skill"),
	lit("agent: capitalised", "agent", "Engineer"),
	lit("agent: unknown", "agent", "developer"),
	lit("agent: snake case", "agent", "senior_engineer"),
	lit("agent: empty", "agent", ""),
	lit("agent: number", "agent", 3),
	missing("agent"),
	mutation{"scope: 14 words", func(g *gen, m obj) obj { return m.set("scope", g.text(14)) }},
	mutation{"scope: 5 words", func(g *gen, m obj) obj { return m.set("scope", g.text(5)) }},
	mutation{"scope: 14 words glued by U+200B", func(g *gen, m obj) obj {
		return m.set("scope", g.words(14, " ")+"\u200b"+pick(g, vocab))
	}},
	lit("scope: empty", "scope", ""),
	lit("scope: number", "scope", 15),
	mutation{"scope: list", func(g *gen, m obj) obj { return m.set("scope", []any{g.words(15, " ")}) }},
	missing("scope"),
	lit("success_criteria: empty list", "success_criteria", []any{}),
	lit("success_criteria: empty string", "success_criteria", []any{""}),
	lit("success_criteria: only spaces", "success_criteria", []any{"tests pass", " \u00a0 "}),
	lit("success_criteria: number item", "success_criteria", []any{"tests pass", 1}),
	lit("success_criteria: string", "success_criteria", "all tests pass"),
	missing("success_criteria"),
	mutation{"plan: 1 step", func(g *gen, m obj) obj { return m.set("plan", []any{g.step()}) }},
	lit("plan: empty list", "plan", []any{}),
	mutation{"plan: 2-word step", func(g *gen, m obj) obj { return m.set("plan", []any{g.step(), "Test it"}) }},
	mutation{"plan: 3 words under 9 chars", func(g *gen, m obj) obj { return m.set("plan", []any{"a b c", g.step()}) }},
	mutation{"plan: null step", func(g *gen, m obj) obj { return m.set("plan", []any{g.step(), nil}) }},
	mutation{"plan: string", func(g *gen, m obj) obj { return m.set("plan", g.step()) }},
	missing("plan"),
	mutation{"context: 19 words", func(g *gen, m obj) obj { return m.set("context", g.text(19)) }},
	lit("context: empty string", "context", ""),
	lit("context: empty list", "context", []any{}),
	lit("context: list with a number", "context", []any{"background", 1}),
	lit("context: number", "context", 5),
	mutation{"context: object", func(g *gen, m obj) obj { return m.set("context", obj{{"text", g.text(25)}}) }},
	missing("context"),
	mutation{"message: no fields", func(_ *gen, m obj) obj { return m[:1] }},
)

var handbackBreakers = append(append([]mutation{}, taskIDBreakers...),
	lit("status: SUCCESS", "status", "SUCCESS"),
	lit("status: Success", "status", "Success"),
	lit("status: failed", "status", "failed"),
	lit("status: complete", "status", "complete"),
	lit("status: escalated", "status", "escalated"),
	lit("status: done", "status", "done"),
	lit("status: padded", "status", "success "),
	lit("status: empty", "status", ""),
	lit("status: number", "status", 1),
	missing("status"),
	missing("output"),
	missing("metrics"),
	lit("metrics: string", "metrics", "fast"),
	lit("metrics: null", "metrics", nil),
	lit("metrics: empty object", "metrics", obj{}),
	lit("metrics: list", "metrics", []any{}),
	metric("missing", "quality", nil),
	metric("missing", "tokens", nil),
	metric("missing", "cost", nil),
	metric("missing", "duration_seconds", nil),
	metric("1.5", "quality", raw("1.5")),
	metric("-0.1", "quality", raw("-0.1")),
	metric("string", "quality", "0.9"),
	metric("null", "quality", nil),
	metric("-1", "tokens", raw("-1")),
	metric("3.5", "tokens", raw("3.5")),
	metric("string", "tokens", "100"),
	metric("-0.01", "cost", raw("-0.01")),
	metric("string", "cost", "0.5"),
	metric("-1", "duration_seconds", raw("-1")),
	metric("string", "duration_seconds", "12s"),
	metric("bool", "duration_seconds", true),
	mutation{"message: no fields", func(_ *gen, m obj) obj { return m[:1] }},
)

// decorations keep a message valid: unknown fields and extensions (some
// with values msgcheck warns about), unusual but valid values.
var delegateDecorations = []mutation{
	lit("unknown field", "x_trace_id", "trace-7f3a"),
	lit("unknown field (nested)", "annotations", obj{{"team", "core"}, {"labels", []any{"a", "b"}}}),
	lit("parent_task_id", "parent_task_id", "parent-task-001"),
	lit("parent_task_id (bad, warning)", "parent_task_id", "Not_An_Id"),
	lit("priority", "priority", raw("2")),
	lit("priority (float, warning)", "priority", raw("1.5")),
	lit("effort", "effort", "high"),
	lit("model", "model", "claude"),
	lit("budget (string, warning)", "budget", "lots"),
	lit("dependencies", "dependencies", []any{"dep-one", "dep-two"}),
	mutation{"scope with U+00A0", func(g *gen, m obj) obj { return m.set("scope", g.words(15+g.r.IntN(10), "\u00a0")) }},
	mutation{"scope 15 words looking like 16 (U+200B)", func(g *gen, m obj) obj {
		return m.set("scope", g.words(15, " ")+"\u200b"+pick(g, vocab))
	}},
	lit("context: list with an empty string", "context", []any{""}),
}

var handbackDecorations = []mutation{
	lit("unknown field", "x_trace_id", "trace-7f3a"),
	lit("unknown field (Task_ID)", "Task_ID", "abc"),
	lit("retry_count", "retry_count", 2),
	lit("retry_count (negative, warning)", "retry_count", raw("-1")),
	lit("model_used", "model_used", "claude"),
	lit("children_created", "children_created", []any{"child-one"}),
	lit("children_created (bad, warning)", "children_created", []any{"X"}),
	lit("error", "error", "boom"),
	metric("0", "quality", raw("0")),
	metric("1.0", "quality", raw("1.0")),
	metric("3.0", "tokens", raw("3.0")),
	metric("1e2", "tokens", raw("1e2")),
	metric("-0", "cost", raw("-0")),
	lit("metrics: extra", "metrics", obj{{"quality", raw("0.5")}, {"tokens", 10}, {"cost", raw("0")}, {"duration_seconds", raw("1.5")}, {"latency_ms", raw("-5")}}),
}

// Options are the generator's knobs.
type Options struct {
	N             int
	Seed          uint64
	InvalidRate   float64 // share of messages that break a rule
	UnknownSkills float64 // share of DELEGATEs naming a skill that does not exist
}

// Label describes a generated message.
type Label struct {
	Valid    bool   // the verdict the generator meant
	Mutation string // the rule broken, or the decoration applied
	Graph    string // new, answer, orphan, duplicate-delegate, duplicate-handback
}

const idChars = "abcdefghijklmnopqrstuvwxyz0123456789"

// taskID is a unique, valid task id: a slug and the message's number.
func (g *gen) taskID(n int) string {
	b := []byte(pick(g, []string{"fix", "add", "migrate", "review", "doc", "tune", "port"}))
	b = append(b, '-')
	for range 2 + g.r.IntN(8) {
		b = append(b, idChars[g.r.IntN(len(idChars))])
	}
	b = append(b, '-')
	return string(strconv.AppendInt(b, int64(n), 36))
}

// Generate writes o.N messages to w, one a line, and calls label (if not
// nil) for each.
func Generate(w io.Writer, o Options, label func(Label)) error {
	g := &gen{r: rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))}
	bw := bufio.NewWriterSize(w, 1<<16)
	var open []string     // DELEGATE ids awaiting a HANDBACK
	var answered []string // ids already handed back
	var buf []byte
	for i := range o.N {
		var m obj
		var l Label
		r := g.r.Float64()
		switch {
		case r < 0.01: // an orphan: a HANDBACK of a task never delegated
			m, l.Graph = g.handback("orphan-"+g.taskID(i)), "orphan"
		case r < 0.015 && len(answered) > 0: // a second HANDBACK for one task
			m, l.Graph = g.handback(pick(g, answered)), "duplicate-handback"
		case r < 0.02 && len(answered) > 0: // a DELEGATE reusing an id
			m, l.Graph = g.delegate(pick(g, answered)), "duplicate-delegate"
		case r < 0.47 && len(open) > 0: // the HANDBACK of an earlier DELEGATE
			j := g.r.IntN(len(open))
			id := open[j]
			open[j] = open[len(open)-1]
			open = open[:len(open)-1]
			answered = append(answered, id)
			m, l.Graph = g.handback(id), "answer"
		default:
			id := g.taskID(i)
			open = append(open, id)
			m, l.Graph = g.delegate(id), "new"
		}
		delegate := m[0].v == "DELEGATE"
		switch {
		case g.r.Float64() < o.InvalidRate:
			ms := handbackBreakers
			if delegate {
				ms = delegateBreakers
			}
			mu := pick(g, ms)
			m, l.Mutation = mu.f(g, m), mu.name
		case delegate && g.r.Float64() < o.UnknownSkills:
			m = m.set("skill", "no-such-skill")
			l.Mutation = "skill: not under skills/"
		default:
			l.Valid = true
			if g.r.IntN(4) == 0 {
				ms := handbackDecorations
				if delegate {
					ms = delegateDecorations
				}
				mu := pick(g, ms)
				m, l.Mutation = mu.f(g, m), mu.name
			}
		}
		buf = appendJSON(buf[:0], m)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
		if label != nil {
			label(l)
		}
	}
	return bw.Flush()
}

// appendJSON writes v as JSON: obj, []any, string, int, bool, nil, raw.
func appendJSON(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, v)
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case raw:
		return append(b, v...)
	case string:
		return appendString(b, v)
	case []any:
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, x)
		}
		return append(b, ']')
	case obj:
		b = append(b, '{')
		for i, m := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, m.k)
			b = append(b, ':')
			b = appendJSON(b, m.v)
		}
		return append(b, '}')
	}
	panic(fmt.Sprintf("appendJSON: %T", v))
}

func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

func main() {
	var o Options
	n := flag.Int("n", 100000, "number of messages")
	flag.Uint64Var(&o.Seed, "seed", 1, "random seed")
	flag.Float64Var(&o.InvalidRate, "invalid", 0.30, "share of messages that break a rule")
	flag.Float64Var(&o.UnknownSkills, "unknown-skills", 0, "share of valid DELEGATEs naming a skill absent from skills/ (invalid for msgcheck only)")
	labels := flag.String("labels", "", "write the generator's verdict, mutation and graph role of each message to this file (TSV)")
	printSkills := flag.Bool("print-skills", false, "print the skill names valid messages use, one a line, and exit")
	tree := flag.String("tree", "", "write the messages as a queue tree under this directory, one file each, instead of JSON Lines")
	treeFormat := flag.String("tree-format", "yaml", "the files of -tree: yaml or json")
	flag.Parse()
	if *printSkills {
		fmt.Println(strings.Join(Skills, "\n"))
		return
	}
	o.N = *n
	var label func(Label)
	var lw *bufio.Writer
	if *labels != "" {
		f, err := os.Create(*labels)
		if err != nil {
			fmt.Fprintln(os.Stderr, "corpus:", err)
			os.Exit(1)
		}
		defer f.Close()
		lw = bufio.NewWriter(f)
		label = func(l Label) {
			v := "0"
			if l.Valid {
				v = "1"
			}
			fmt.Fprintf(lw, "%s\t%s\t%s\n", v, l.Graph, l.Mutation)
		}
	}
	out := io.Writer(os.Stdout)
	var lines bytes.Buffer
	if *tree != "" {
		out = &lines
	}
	if err := Generate(out, o, label); err != nil {
		fmt.Fprintln(os.Stderr, "corpus:", err)
		os.Exit(1)
	}
	if *tree != "" {
		if err := WriteTree(*tree, lines.Bytes(), *treeFormat); err != nil {
			fmt.Fprintln(os.Stderr, "corpus:", err)
			os.Exit(1)
		}
	}
	if lw != nil {
		if err := lw.Flush(); err != nil {
			fmt.Fprintln(os.Stderr, "corpus:", err)
			os.Exit(1)
		}
	}
}
