package divergence

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// scanSources runs Candidates and Cluster over sources by path, as the
// scan does (without Resolve: every constant here is a literal).
func scanSources(t *testing.T, srcs map[string]string) []finding.Finding {
	t.Helper()
	return scanWith(t, testModel(Options{}), srcs)
}

// scanWith is scanSources with model m.
func scanWith(t *testing.T, m *Model, srcs map[string]string) []finding.Finding {
	t.Helper()
	var cands []Candidate
	for _, p := range slices.Sorted(maps.Keys(srcs)) {
		f, err := extract.File(p, []byte(srcs[p]))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		cands = append(cands, Candidates(f, m)...)
	}
	return Cluster(cands, m)
}

const (
	dupEsc     = "divergence/duplicate-escalation"
	conflictTh = "divergence/conflicting-threshold"
	specTh     = "divergence/spec-threshold"
)

// ruleList is the findings' rules, in order.
func ruleList(fs []finding.Finding) string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule)
	}
	return strings.Join(out, " ")
}

// escalationCase is two or more copies of a decision and what divergence
// says of them: the rules in order and words of the messages.
type escalationCase struct {
	name  string
	srcs  map[string]string
	rules string
	says  []string
}

func (c escalationCase) run(t *testing.T) {
	t.Run(c.name, func(t *testing.T) {
		fs := scanSources(t, c.srcs)
		if got := ruleList(fs); got != c.rules {
			for _, f := range fs {
				t.Logf("%s %s:%d %s", f.Rule, f.Path, f.Line, f.Message)
			}
			t.Fatalf("rules %q, want %q", got, c.rules)
		}
		var all strings.Builder
		for _, f := range fs {
			all.WriteString(f.Message + "\n")
			for _, r := range f.Related {
				all.WriteString(r.Message + "\n")
			}
		}
		for _, s := range c.says {
			if !strings.Contains(all.String(), s) {
				t.Errorf("the findings do not say %q:\n%s", s, all.String())
			}
		}
	})
}

const pyIssuePair1 = `def should_escalate(handback):
    q = handback.get("quality_score")
    if q < 70:
        return True
    return False
`

const pyIssuePair2 = `def should_escalate(handback):
    if handback.get("quality_score") < 60:
        return True
    return False
`

// TestEscalationByBehaviour: an escalation decision is one that decides
// to escalate on a score of the work, or one named for it with protocol
// evidence; its subject is the number it compares, through locals,
// parameters and attributes, whatever the spec calls the field.
func TestEscalationByBehaviour(t *testing.T) {
	for _, c := range []escalationCase{
		{"the issue's pair: quality_score through a local and a get", map[string]string{
			"agents/a.py": pyIssuePair1, "workers/b.py": pyIssuePair2,
		}, dupEsc + " " + conflictTh, []string{"70 (0.70) in should_escalate (agents/a.py:1)", "60 (0.60) in should_escalate (workers/b.py:1)"}},
		{"Go: named, a HANDBACK type, a field through a local", map[string]string{
			"router/a.go": `package router

// Handback is a HANDBACK message.
type Handback struct{ QualityScore float64 }

func ShouldEscalate(h Handback) bool {
	q := h.QualityScore
	if q < 70 {
		return true
	}
	return false
}
`,
			"gate/b.go": `package gate

// Handback is a HANDBACK message.
type Handback struct{ QualityScore float64 }

func NeedsEscalation(h *Handback) bool {
	if h.QualityScore < 65 {
		return true
	}
	return false
}
`,
		}, dupEsc + " " + conflictTh, []string{"65 (0.65) in NeedsEscalation", "70 (0.70) in ShouldEscalate"}},
		{"an escalate status set, an escalate action returned", map[string]string{
			"review/a.py": `def review(result):
    score = result["quality_score"]
    if score < 70:
        result["status"] = "escalate"
    return result
`,
			"review/b.py": `def decide(result):
    if result.quality_score < 75:
        return {"action": "escalate"}
    return {"action": "accept"}
`,
		}, dupEsc + " " + conflictTh, []string{"70 (0.70) in review", "75 (0.75) in decide"}},
		{"Go: escalate called, escalate returned, on a receiver's attribute", map[string]string{
			"svc/a.go": `package svc

type Reviewer struct{ confidence float64 }

func escalate(r *Reviewer) {}

func (r *Reviewer) Finish() {
	if r.confidence < 0.7 {
		escalate(r)
	}
}
`,
			"svc/b.go": `package svc

type Grader struct{ Confidence float64 }

func (g Grader) Outcome() string {
	if g.Confidence < 0.8 {
		return "escalate"
	}
	return "done"
}
`,
		}, dupEsc + " " + conflictTh, []string{"confidence < 0.7", "0.8 in Grader.Outcome"}},
		{"routed to a human or a principal reviewer", map[string]string{
			"flow/a.py": `def finish(result):
    if result.confidence < 0.6:
        return route_to_human(result)
    return result
`,
			"flow/b.py": `def next_agent(result):
    if result["confidence"] < 0.5:
        return "principal-engineer"
    return "engineer"
`,
		}, dupEsc + " " + conflictTh, []string{"0.6 in finish", "0.5 in next_agent"}},
		{"a named constant on 0–100", map[string]string{
			"agents/a.py":  "QUALITY_FLOOR = 70\n\n" + strings.ReplaceAll(pyIssuePair1, "q < 70", "q < QUALITY_FLOOR"),
			"workers/b.py": pyIssuePair2,
		}, dupEsc + " " + conflictTh, []string{"quality_score < QUALITY_FLOOR = 70 (0.70) in should_escalate", "70 (0.70) in should_escalate (agents/a.py:3)"}},
		{"a Python and a Go copy form one cluster", map[string]string{
			"agents/a.py": pyIssuePair1,
			"router/b.go": `package router

// Handback is a HANDBACK message.
type Handback struct{ Metrics struct{ Quality float64 } }

func ShouldEscalate(h Handback) bool {
	if h.Metrics.Quality < 0.5 {
		return true
	}
	return false
}
`,
		}, dupEsc + " " + conflictTh, []string{"in 2 languages", "70 (0.70) in should_escalate (agents/a.py:1); 0.5 in ShouldEscalate (router/b.go:6)"}},
	} {
		c.run(t)
	}
}

// TestEscalationNamesAlone: a name alone (needs_review, or should_escalate
// without protocol evidence) makes no escalation decision.
func TestEscalationNamesAlone(t *testing.T) {
	for _, c := range []escalationCase{
		{"needs_review with evidence, no escalate outcome", map[string]string{
			"a.py": strings.ReplaceAll(pyIssuePair1, "should_escalate", "needs_review"),
			"b.py": strings.ReplaceAll(pyIssuePair2, "should_escalate", "needs_review"),
		}, "", nil},
		{"should_escalate of an item, no evidence", map[string]string{
			"a.py": strings.ReplaceAll(pyIssuePair1, "handback", "item"),
			"b.py": strings.ReplaceAll(pyIssuePair2, "handback", "item"),
		}, "", nil},
		{"Go: ShouldEscalate of a ticket, no evidence", map[string]string{
			"a.go": "package a\n\ntype Ticket struct{ Score float64 }\n\nfunc ShouldEscalate(t Ticket) bool {\n\tif t.Score < 70 {\n\t\treturn true\n\t}\n\treturn false\n}\n",
			"b.go": "package a\n\nfunc NeedsEscalation(t Ticket) bool {\n\tif t.Score < 60 {\n\t\treturn true\n\t}\n\treturn false\n}\n",
		}, "", nil},
	} {
		c.run(t)
	}
}

// TestScales: 0–1 and 0–100 are one quantity when the name says percent
// and the literal lies in 10–100 (or the field is the spec's); a rating,
// a bare score on 0–100 and a literal of 1–10 keep their own scales.
func TestScales(t *testing.T) {
	esc := func(name, field, v string) string {
		return "def " + name + "(handback):\n    if handback." + field + " < " + v + ":\n        return {\"action\": \"escalate\"}\n    return None\n"
	}
	goEsc := func(name, field, v string) string {
		return "package p\n\n// Handback is a HANDBACK message.\ntype Handback struct{ " + field + " float64 }\n\nfunc " + name +
			"(h Handback) string {\n\tif h." + field + " < " + v + " {\n\t\treturn \"escalate\"\n\t}\n\treturn \"\"\n}\n"
	}
	for _, c := range []escalationCase{
		{"a percent name in 10–100 and 0–1", map[string]string{
			"a.py": esc("gate", "confidence_pct", "80"), "b/b.go": goEsc("Gate", "Confidence", "0.7"),
		}, dupEsc + " " + conflictTh, []string{"80 (0.80) in gate (a.py:1); 0.7 in Gate (b/b.go:6)"}},
		{"the spec's quality and a quality score", map[string]string{
			"a.py": esc("gate", "quality_score", "70"), "b.py": esc("route", "metrics.quality", "0.7"),
		}, dupEsc, []string{"quality_score < 70 (0.70)", "metrics.quality < 0.7"}},
		{"a bare score on 0–100 and on 0–1: not one quantity", map[string]string{
			"a.py": esc("gate", "score", "70"), "b.py": esc("route", "score", "0.6"),
		}, "", nil},
		{"a bare score on 0–100 twice", map[string]string{
			"a.py": esc("gate", "score", "70"), "b.py": esc("route", "score", "60"),
		}, dupEsc + " " + conflictTh, []string{"70 in gate (a.py:1); 60 in route (b.py:1)"}},
		{"a 1–5 quality rating is its own scale", map[string]string{
			"a.py": esc("gate", "quality_rating", "3"), "b/b.go": goEsc("Gate", "Quality", "0.6"),
		}, "", nil},
		{"two 1–5 ratings", map[string]string{
			"a.py": esc("gate", "quality_rating", "3"), "b/b.go": goEsc("Gate", "QualityRating", "4"),
		}, dupEsc + " " + conflictTh, []string{"3 in gate", "4 in Gate"}},
		{"a percent name below 10 is not a percentage", map[string]string{
			"a.py": esc("gate", "quality_score", "5"), "b.py": esc("route", "quality_score", "0.6"),
		}, "", nil},
	} {
		c.run(t)
	}
	// a quality score on 0–100 is judged by the spec on 0–1: 70 is 0.70,
	// inside minimum 0, maximum 1; the spec's field written as 70 is not
	if fs := scanSources(t, map[string]string{"a.py": esc("gate", "quality_score", "70")}); len(fs) != 0 {
		t.Errorf("quality_score < 70 (0.70) judged outside the spec: %v", fs)
	}
	fs := scanSources(t, map[string]string{"a.py": esc("gate", "metrics.quality", "70")})
	if ruleList(fs) != specTh {
		t.Errorf("metrics.quality < 70: %v", fs)
	}
}

// TestEscalationLookalikes: scores of other things, back-off tables, HTTP
// statuses, chat messages of a human and vendored copies are no
// escalation decisions, even beside protocol evidence and with differing
// cut-offs.
func TestEscalationLookalikes(t *testing.T) {
	pair := func(name string, a, b string) escalationCase {
		return escalationCase{name, map[string]string{"app/a.py": a, "app/b.py": b}, "", nil}
	}
	coverage := func(v string) string {
		return "def check_handback(handback):\n    if handback[\"coverage\"] < " + v + ":\n        return {\"action\": \"escalate\"}\n    return None\n"
	}
	similarity := func(v string) string {
		return "def dedupe(handback, other):\n    score = cosine_similarity(handback, other)\n    if score > " + v + ":\n        escalate(handback)\n"
	}
	relevance := func(v string) string {
		return "def answer(handback, hits):\n    if hits[0][\"relevance_score\"] < " + v + ":\n        return route_to_human(handback)\n    return hits[0]\n"
	}
	backoff := func(v string) string {
		return "BACKOFF = {1: 1, 2: 2, 3: 4, 4: 8}\n\ndef next_delay(handback, attempt):\n    if attempt > " + v +
			":\n        escalate(handback, \"retries exhausted\")\n    return BACKOFF.get(attempt, 16)\n"
	}
	httpStatus := func(v string) string {
		return "def forward(handback, resp):\n    if resp.status_code >= " + v + ":\n        escalate_to_oncall(handback)\n    return resp\n"
	}
	chat := func(v string) string {
		return "def reply(handback, messages):\n    if handback.confidence < " + v + ":\n        messages.append(HumanMessage(content=\"check\"))\n    return messages\n"
	}
	for _, c := range []escalationCase{
		pair("test coverage", coverage("80"), coverage("70")),
		pair("similarity", similarity("0.9"), similarity("0.8")),
		pair("retrieval relevance", relevance("0.5"), relevance("0.3")),
		pair("retry back-off", backoff("3"), backoff("5")),
		pair("HTTP status", httpStatus("500"), httpStatus("502")),
		pair("a human's chat message", chat("0.5"), chat("0.6")),
		{"Go: coverage and HTTP status", map[string]string{
			"a.go": "package a\n\n// Handback is a HANDBACK message.\ntype Handback struct{ Coverage float64; StatusCode int }\n\nfunc escalate(h Handback) {}\n\n" +
				"func Check(h Handback) {\n\tif h.Coverage < 80 {\n\t\tescalate(h)\n\t}\n}\n\nfunc Forward(h Handback) {\n\tif h.StatusCode >= 500 {\n\t\tescalate(h)\n\t}\n}\n",
			"b.go": "package a\n\nfunc CheckAgain(h Handback) {\n\tif h.Coverage < 70 {\n\t\tescalate(h)\n\t}\n}\n\nfunc ForwardAgain(h Handback) {\n\tif h.StatusCode >= 502 {\n\t\tescalate(h)\n\t}\n}\n",
		}, "", nil},
		{"a vendored copy of a whole file", map[string]string{
			"agents/escalation.py":                  pyIssuePair1,
			"third_party/agentkit/escalation.py":    pyIssuePair1,
			"third_party/agentkit/v2/escalation.py": pyIssuePair2,
		}, "", nil},
	} {
		c.run(t)
	}
}

// TestPrefilterScores: the prefilter lets through a file that routes to a
// human on a score without the word escalate, and no file with one of
// the two alone.
func TestPrefilterScores(t *testing.T) {
	m := testModel(Options{})
	for src, want := range map[string]bool{
		"def finish(r):\n    if r.confidence < 0.6:\n        return route_to_human(r)\n":               true,
		"func (r *R) Next() string { if r.Score < 70 { return \"principal-engineer\" }; return \"\" }": true,
		"def finish(r):\n    return route_to_human(r)\n":                                               false,
		"def rank(r):\n    return r.score > 0.6\n":                                                     false,
	} {
		if got := m.MayHaveCandidates("x.py", []byte(strings.ToLower(src))); got != want {
			t.Errorf("MayHaveCandidates(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestScalesBySpec: a spec that holds quality on 0–100 says a quality
// score of 10–100 is metrics.quality as written, not a percentage of 0–1;
// a spec on another scale keeps the percentages apart from its field.
func TestScalesBySpec(t *testing.T) {
	src, err := msgcheck.EmbeddedSpecSource("protocol-core-v1.0.yaml")
	if err != nil {
		t.Fatal(err)
	}
	withMax := func(max string) *Model {
		text := strings.Replace(string(src), "maximum: 1.0", "maximum: "+max, 1)
		sp, err := msgcheck.ParseSpec("spec.yaml", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return NewModel(sp, Options{})
	}
	srcs := map[string]string{
		"a.py": "def should_escalate(handback):\n    if handback.quality_score < 60:\n        return True\n    return False\n",
		"b.py": "def needs_escalation(handback):\n    if handback.metrics.quality < 70:\n        return True\n    return False\n",
	}
	for _, c := range []struct {
		max, rules, says string
	}{
		{"100", dupEsc + " " + conflictTh, "60 in should_escalate (a.py:1); 70 in needs_escalation (b.py:1)"},
		{"10", specTh, "compares metrics.quality with 70"},
	} {
		fs := scanWith(t, withMax(c.max), srcs)
		var all strings.Builder
		for _, f := range fs {
			all.WriteString(f.Message + "\n")
		}
		if got := ruleList(fs); got != c.rules || !strings.Contains(all.String(), c.says) {
			t.Errorf("maximum %s: %s\n%s", c.max, got, all.String())
		}
	}
}
