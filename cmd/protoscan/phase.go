package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/protoscan-dev/protoscan/internal/textsafe"
	"github.com/protoscan-dev/protoscan/phase"
)

// phase judges a HANDOFF against exit conditions and prints the verdict
// JSON: exit 0 for pass, 1 for fail, 2 for usage or read errors.
func (e *env) phase(args []string) int {
	fs := flag.NewFlagSet("phase", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	conditions := fs.String("conditions", "", "exit conditions `FILE`: a YAML list, one '- kind: argument' a line (\"-\" is stdin)")
	handoff := fs.String("handoff", "", "the HANDOFF text `FILE`, with or without ---HANDOFF--- fences (\"-\" is stdin)")
	repo := fs.String("repo", "", "repository `DIR`: file_exists paths are also looked up under it (stat only)")
	campaign := fs.String("campaign", "", "campaign `SLUG` for the verdict (default: the conditions' Campaign: line)")
	var opts phase.Options
	fs.Func("phase", "phase number `N` for the verdict (default: the conditions' Phase: line)", func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return fmt.Errorf("want a phase number >= 0")
		}
		opts.Phase, opts.PhaseSet = n, true
		return nil
	})
	usage := "usage: protoscan phase --conditions F --handoff F [--repo DIR] [--campaign SLUG] [--phase N]"
	var rest []string
	if code, done := parseFlags(e, fs, usage, args, func(a string) { rest = append(rest, a) }); done {
		return code
	}
	switch {
	case len(rest) > 0:
		fmt.Fprintf(e.stderr, "protoscan phase: unexpected argument %q\n%s\n", rest[0], usage)
		return exitTrouble
	case *conditions == "" || *handoff == "":
		fmt.Fprintf(e.stderr, "protoscan phase: give both --conditions F and --handoff F\n%s\n", usage)
		return exitTrouble
	case *conditions == "-" && *handoff == "-":
		fmt.Fprintln(e.stderr, "protoscan phase: only one of --conditions and --handoff can be - (stdin)")
		return exitTrouble
	case *campaign != "" && !phase.ValidSlug(*campaign):
		fmt.Fprintf(e.stderr, "protoscan phase: --campaign %q: must be a slug: lowercase letters and digits, words joined by '-', '_' or '.'\n", *campaign)
		return exitTrouble
	}
	opts.Campaign = *campaign
	if *repo != "" {
		fi, err := os.Stat(*repo)
		if err != nil {
			fmt.Fprintln(e.stderr, "protoscan phase: repo:", textsafe.Error(err))
			return exitTrouble
		}
		if !fi.IsDir() {
			fmt.Fprintf(e.stderr, "protoscan phase: repo %s: not a directory\n", *repo)
			return exitTrouble
		}
		opts.Repo = *repo
	}
	cdata, err := e.readLimited(*conditions, phase.MaxConditionsBytes)
	if err != nil {
		fmt.Fprintln(e.stderr, "protoscan phase:", textsafe.Error(err))
		return exitTrouble
	}
	exit, err := phase.ParseConditions(displayName(*conditions), cdata)
	if err != nil {
		fmt.Fprintln(e.stderr, "protoscan phase:", textsafe.Error(err))
		return exitTrouble
	}
	hdata, err := e.readLimited(*handoff, phase.MaxHandoffBytes)
	if err != nil {
		fmt.Fprintln(e.stderr, "protoscan phase:", textsafe.Error(err))
		return exitTrouble
	}
	h, err := phase.ParseHandoff(hdata)
	if err != nil {
		fmt.Fprintf(e.stderr, "protoscan phase: %s: %s\n", textsafe.String(displayName(*handoff)), textsafe.Error(err))
		return exitTrouble
	}
	v := phase.Judge(exit, h, opts)
	e.stdout.Write(v.JSON())
	if v.Verdict == phase.Pass {
		return exitOK
	}
	return exitFailed
}

// verdictJSONResult is one line of validate --verdict --json: msgcheck's
// result, then what the verdict means to its reader, fail-closed.
type verdictJSONResult struct {
	jsonResult
	EffectiveVerdict string `json:"effective_verdict"`
}

// validateVerdicts checks phase verdict files against the contract,
// fail-closed: exit 0 when every verdict fits, 1 when one does not (it
// counts as a fail), 2 when a file cannot be read.
func (e *env) validateVerdicts(paths []string, asJSON bool) int {
	code := exitOK
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	for _, p := range paths {
		data, err := e.readLimited(p, phase.MaxVerdictBytes)
		if err != nil {
			fmt.Fprintln(e.stderr, "protoscan validate:", textsafe.Error(err))
			code = exitTrouble
			continue
		}
		name := displayName(p)
		for i, c := range phase.CheckVerdicts(name, data) {
			res := c.Result
			if !res.Valid && code == exitOK {
				code = exitFailed
			}
			if asJSON {
				enc.Encode(verdictJSONResult{jsonResult{File: name, Document: i + 1, Line: c.Line, ResultJSON: res.JSON()}, c.Effective()})
				continue
			}
			for _, f := range res.Errors {
				fmt.Fprintf(e.stdout, "%s: error: %s [%s]\n", place(name, f), textsafe.String(f.Message), textsafe.String(f.Rule))
			}
			for _, f := range res.Warnings {
				fmt.Fprintf(e.stdout, "%s: warning: %s [%s]\n", place(name, f), textsafe.String(f.Message), textsafe.String(f.Rule))
			}
			if res.Valid {
				fmt.Fprintf(e.stdout, "%s:%d: PHASE_VERDICT valid (%s): %s\n", textsafe.Path(name), c.Line, counts(len(res.Errors), len(res.Warnings)), textsafe.String(c.Effective()))
			} else {
				fmt.Fprintf(e.stdout, "%s:%d: PHASE_VERDICT invalid (%s): treated as fail\n", textsafe.Path(name), c.Line, counts(len(res.Errors), len(res.Warnings)))
			}
		}
	}
	return code
}
