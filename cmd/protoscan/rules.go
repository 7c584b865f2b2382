package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/protoscan-dev/protoscan/internal/rules"
)

// rules lists the catalogue: protoscan rules [--json].
func (e *env) rules(args []string) int {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	asJSON := fs.Bool("json", false, "print a JSON array of every rule with all its documentation")
	var rest []string
	if code, done := parseFlags(e, fs, "usage: protoscan rules [--json]", args, func(a string) { rest = append(rest, a) }); done {
		return code
	}
	if len(rest) > 0 {
		fmt.Fprintf(e.stderr, "protoscan rules: unexpected argument %q (protoscan explain RULE documents one rule)\n", rest[0])
		return exitTrouble
	}
	docs := rules.All()
	if *asJSON {
		out := make([]ruleJSON, len(docs))
		for i, d := range docs {
			out[i] = toJSON(d)
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fmt.Fprintln(e.stderr, "protoscan rules:", err)
			return exitTrouble
		}
		return exitOK
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for _, d := range docs {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", d.ID, d.Severity, d.Title)
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintln(e.stderr, "protoscan rules:", err)
		return exitTrouble
	}
	return exitOK
}

// ruleJSON is a Doc as `protoscan rules --json` prints it.
type ruleJSON struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Title    string `json:"title"`
	Severity string `json:"severity"`
	What     string `json:"what"`
	Why      string `json:"why"`
	Example  string `json:"example"`
	Fix      string `json:"fix"`
}

func toJSON(d rules.Doc) ruleJSON {
	return ruleJSON{ID: d.ID, Name: d.Name, Title: d.Title, Severity: d.Severity.String(),
		What: d.What, Why: d.Why, Example: d.Example, Fix: d.Fix}
}

// specRuleFamily is the catalogue's family of the spec's own CEL rules;
// numberedRule is the id such a rule gets when it has no reason.
const specRuleFamily = "msgcheck/*-rule-*"

var numberedRule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-rule-[0-9]+$`) })

// explain prints one rule's documentation: protoscan explain RULE.
func (e *env) explain(args []string) int {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var rest []string
	if code, done := parseFlags(e, fs, "usage: protoscan explain RULE", args, func(a string) { rest = append(rest, a) }); done {
		return code
	}
	if len(rest) != 1 {
		fmt.Fprintln(e.stderr, "usage: protoscan explain RULE   (protoscan rules lists them)")
		return exitTrouble
	}
	id := rest[0]
	d, ok := rules.Lookup(id)
	if !ok {
		d, ok = rules.Lookup(strings.ToLower(id))
	}
	if !ok {
		msg := fmt.Sprintf("protoscan explain: unknown rule %s; `protoscan rules` lists them", id)
		if near := rules.Nearest(id); near != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", near)
		}
		fmt.Fprintln(e.stderr, msg)
		return exitTrouble
	}
	writeDoc(e.stdout, d, id)
	return exitOK
}

func writeDoc(w io.Writer, d rules.Doc, asked string) {
	fmt.Fprintf(w, "%s: %s\n", d.ID, d.Title)
	fmt.Fprintf(w, "severity: %s (default)\n", d.Severity)
	if fam := rules.Family(d); fam != d.ID {
		fmt.Fprintf(w, "family: %s\n", fam)
		if fam == specRuleFamily && !numberedRule().MatchString(d.ID) {
			note := "not a built-in id: taken for a rule of the spec's x-protoscan-validations named by its reason"
			if near := rules.Nearest(asked); near != "" {
				note += fmt.Sprintf(" (did you mean %s?)", near)
			}
			fmt.Fprintf(w, "note: %s\n", note)
		}
	}
	for _, s := range []struct{ head, text string }{
		{"What it reports", d.What},
		{"Why it matters", d.Why},
		{"Example", d.Example},
		{"How to fix it", d.Fix},
	} {
		fmt.Fprintf(w, "\n%s:\n", s.head)
		if s.head == "Example" {
			for line := range strings.SplitSeq(s.text, "\n") {
				fmt.Fprintf(w, "    %s\n", line)
			}
			continue
		}
		for _, line := range wrap(s.text, 76) {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
}

// wrap breaks text into lines of at most width bytes at spaces (a longer
// word gets a line of its own).
func wrap(text string, width int) []string {
	var lines []string
	var cur strings.Builder
	for _, word := range strings.Fields(text) {
		if cur.Len() > 0 && cur.Len()+1+len(word) > width {
			lines = append(lines, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
		}
		cur.WriteString(word)
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}
