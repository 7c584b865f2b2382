// Command gentree writes a synthetic agent-system repository of about N
// lines, for measuring how the scan time grows with the size of a tree.
//
//	go run ./bench/gentree -lines 100000 -out /tmp/tree-100k
//
// The tree mixes what protoscan reads (Go, Python, YAML and JSON message
// fixtures, Markdown docs with code blocks) in the proportions of a real
// repository: most files are ordinary code, a few carry protocol
// messages, status enums or escalation logic, and some of those drift
// (a lower-case status, a legacy spelling, a different threshold), so
// the findings grow with the tree too. The same flags give the same tree,
// byte for byte.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	lines := flag.Int("lines", 100000, "approximate number of lines to write")
	out := flag.String("out", "", "output `DIR` (created; must not exist)")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gentree: -out is required")
		os.Exit(2)
	}
	if _, err := os.Stat(*out); err == nil {
		fmt.Fprintf(os.Stderr, "gentree: %s exists\n", *out)
		os.Exit(2)
	}
	g := &gen{rnd: rand.New(rand.NewPCG(*seed, 0)), root: *out}
	g.write("skills/parsing/SKILL.md", "# Parsing\n\nReads queue formats.\n")
	for g.lines < *lines {
		g.next()
	}
	if g.err != nil {
		fmt.Fprintln(os.Stderr, "gentree:", g.err)
		os.Exit(1)
	}
	fmt.Printf("%d files, %d lines in %s\n", g.files, g.lines, *out)
}

type gen struct {
	rnd          *rand.Rand
	root         string
	files, lines int
	err          error
}

var statuses = []string{"success", "failure", "partial", "blocked", "escalate"}

// drifted are spellings enumdrift reports.
var drifted = []string{"SUCCESS", "done", "failed", "Success", "complete"}

func (g *gen) write(rel, text string) {
	if g.err != nil {
		return
	}
	p := filepath.Join(g.root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		g.err = err
		return
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		g.err = err
		return
	}
	g.files++
	g.lines += strings.Count(text, "\n")
}

// next writes one file, chosen by weight: plain code dominates.
func (g *gen) next() {
	n := g.files
	pkg := fmt.Sprintf("pkg%03d", n/40)
	switch r := g.rnd.IntN(100); {
	case r < 40:
		g.write(fmt.Sprintf("go/%s/file%05d.go", pkg, n), g.goFile(pkg, n))
	case r < 75:
		g.write(fmt.Sprintf("py/%s/mod%05d.py", pkg, n), g.pyFile(n))
	case r < 88:
		g.write(fmt.Sprintf("queue/%s/DELEGATE-task-%05d.yaml", pkg, n), g.delegate(n))
	case r < 94:
		g.write(fmt.Sprintf("fixtures/%s/handbacks-%05d.json", pkg, n), g.handbacks(n))
	default:
		g.write(fmt.Sprintf("docs/%s/guide%05d.md", pkg, n), g.doc(n))
	}
}

func (g *gen) status() string {
	if g.rnd.IntN(20) == 0 {
		return drifted[g.rnd.IntN(len(drifted))]
	}
	return statuses[g.rnd.IntN(len(statuses))]
}

func (g *gen) goFile(pkg string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n\t\"strings\"\n)\n\n", pkg)
	if n%25 == 0 {
		b.WriteString("// Status is the outcome a worker hands back.\ntype Status string\n\nconst (\n")
		for i, s := range statuses {
			v := s
			if i == 0 && n%50 == 0 {
				v = strings.ToUpper(s)
			}
			fmt.Fprintf(&b, "\tStatus%s Status = %q\n", strings.ToUpper(s[:1])+s[1:], v)
		}
		b.WriteString(")\n\n")
	}
	if n%60 == 0 {
		fmt.Fprintf(&b, "func shouldEscalate%d(h map[string]any) bool {\n\tq, _ := h[\"quality\"].(float64)\n\tif q < 0.%d {\n\t\treturn true\n\t}\n\treturn h[\"status\"] == \"blocked\"\n}\n\n", n, 5+g.rnd.IntN(3))
	}
	for f := 0; f < 6+g.rnd.IntN(6); f++ {
		fmt.Fprintf(&b, "// helper%d_%d joins the parts it is given and checks them.\n", n, f)
		fmt.Fprintf(&b, "func helper%d_%d(parts []string, limit int) (string, error) {\n", n, f)
		b.WriteString("\tif len(parts) == 0 {\n\t\treturn \"\", errors.New(\"no parts\")\n\t}\n")
		b.WriteString("\tout := make([]string, 0, len(parts))\n\tfor i, p := range parts {\n")
		b.WriteString("\t\tif i >= limit {\n\t\t\tbreak\n\t\t}\n\t\tout = append(out, strings.TrimSpace(p))\n\t}\n")
		fmt.Fprintf(&b, "\treturn fmt.Sprintf(\"%%d:%%s\", %d, strings.Join(out, \",\")), nil\n}\n\n", f)
	}
	return b.String()
}

func (g *gen) pyFile(n int) string {
	var b strings.Builder
	b.WriteString("\"\"\"Workers of the pipeline.\"\"\"\n\nimport json\nimport logging\n\nlog = logging.getLogger(__name__)\n\n")
	if n%10 == 0 {
		fmt.Fprintf(&b, "def hand_back_%d(task_id, summary):\n    return {\n        \"task_id\": task_id,\n        \"status\": %q,\n        \"output\": summary,\n        \"metrics\": {\"quality\": 0.9, \"tokens\": 1200, \"cost\": 0.02, \"duration_seconds\": 31},\n    }\n\n", n, g.status())
	}
	if n%15 == 0 {
		b.WriteString("def health():\n    return {\"status\": \"ok\", \"uptime\": 1}\n\n")
	}
	for f := 0; f < 5+g.rnd.IntN(6); f++ {
		fmt.Fprintf(&b, "def transform_%d_%d(records, limit=10):\n", n, f)
		b.WriteString("    \"\"\"Normalise the records and keep the first few.\"\"\"\n    out = []\n")
		b.WriteString("    for i, record in enumerate(records):\n        if i >= limit:\n            break\n")
		b.WriteString("        out.append({k.lower(): v for k, v in record.items()})\n")
		b.WriteString("    log.debug(\"kept %d records\", len(out))\n    return json.dumps(out)\n\n\n")
	}
	return b.String()
}

func (g *gen) delegate(n int) string {
	scope := "Implement the parser for the queue format, document every field it reads and test each error it can report"
	if n%30 == 0 {
		scope = "Fix the parser"
	}
	return fmt.Sprintf(`task_id: task-%05d
skill: parsing
agent: engineer
scope: %s
success_criteria:
  - The parser reads every message of the sample queue
  - Errors name the file and the line they are on
plan:
  - Read the format notes and list every field
  - Write the parser with one function per message kind
  - Add table tests for each field and each error
context:
  - The queue holds one YAML file per message
  - Generated for the growth benchmark
`, n, scope)
}

func (g *gen) handbacks(n int) string {
	var b strings.Builder
	b.WriteString("[\n")
	for i := 0; i < 3; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "  {\n    \"task_id\": \"task-%05d-%d\",\n    \"status\": %q,\n    \"output\": \"The parser reads the whole sample queue\",\n    \"metrics\": {\"quality\": 0.9, \"tokens\": 1200, \"cost\": 0.02, \"duration_seconds\": 31}\n  }", n, i, g.status())
	}
	b.WriteString("\n]\n")
	return b.String()
}

func (g *gen) doc(n int) string {
	return fmt.Sprintf("# Guide %d\n\nA worker hands its result back like this:\n\n```yaml\ntask_id: task-%05d\nstatus: %s\noutput: The parser reads the whole sample queue\nmetrics: {quality: 0.9, tokens: 1200, cost: 0.02, duration_seconds: 31}\n```\n\nThe orchestrator reads the status and routes the next task.\n", n, n, g.status())
}
