package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/protoscan-dev/protoscan/handoff"
	"github.com/protoscan-dev/protoscan/internal/engine"
	"github.com/protoscan-dev/protoscan/internal/textsafe"
	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// validateHandoffs is protoscan validate --handoff F...: every NEXUS
// handoff in the files evaluated into its validation event and routing
// decision. Exit code 0 when every handoff passes or warns, 1 when one
// fails, 2 when a file or the spec cannot be read.
func (e *env) validateHandoffs(paths []string, asJSON bool, specPath specPaths, root string) int {
	ev, err := handoffEvaluator(specPath, root)
	if err != nil {
		fmt.Fprintln(e.stderr, "protoscan validate:", textsafe.Error(err))
		return exitTrouble
	}
	code := exitOK
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	for _, path := range paths {
		name := displayName(path)
		data, err := e.readLimited(path, maxInputBytes)
		if err != nil {
			fmt.Fprintln(e.stderr, "protoscan validate:", textsafe.Error(err))
			code = exitTrouble
			continue
		}
		hs, err := handoff.Read(readName(path), data)
		if err != nil {
			fmt.Fprintln(e.stderr, "protoscan validate:", textsafe.String(strings.Replace(err.Error(), readName(path), name, 1)))
			code = exitTrouble
			continue
		}
		cols := yamlnode.NewColumns(data)
		for i, h := range hs {
			event, err := ev.Evaluate(h)
			if err != nil {
				fmt.Fprintf(e.stderr, "protoscan validate: %s: handoff %d: %s\n", textsafe.String(name), i+1, textsafe.Error(err))
				code = exitTrouble
				continue
			}
			for j := range event.Findings { // byte columns, as the scan's
				f := &event.Findings[j]
				f.Column = cols.Byte(f.Line, f.Column)
			}
			if event.ValidationResult == handoff.Fail && code == exitOK {
				code = exitFailed
			}
			if asJSON {
				enc.Encode(handoffJSON{File: name, Handoff: i + 1, Line: h.Line, Event: event})
				continue
			}
			printEvent(e.stdout, name, h, event)
		}
	}
	return code
}

// handoffJSON is one line of validate --handoff --json: where the handoff
// came from, then its event.
type handoffJSON struct {
	File    string `json:"file"`
	Handoff int    `json:"handoff"`
	Line    int    `json:"line"`
	handoff.Event
}

// readName is the name the handoff reader tells the format by: stdin is
// told by its content.
func readName(path string) string {
	if path == "-" {
		return "stdin"
	}
	return path
}

// handoffEvaluator builds the evaluator: --spec wins (it must define the
// nexus_handoff_v2 kind), else the repository's
// docs/specs/nexus-handoff-v2*.yaml, else the embedded spec.
func handoffEvaluator(specPath specPaths, root string) (*handoff.Evaluator, error) {
	var spec *msgcheck.Spec
	var err error
	if len(specPath) > 0 {
		spec, err = msgcheck.LoadSpecs(specPath...)
	} else {
		if root == "" {
			root = engine.FindRoot()
		} else if fi, serr := os.Stat(root); serr != nil {
			return nil, fmt.Errorf("root: %w", serr)
		} else if !fi.IsDir() {
			return nil, fmt.Errorf("root %s: not a directory", root)
		}
		spec, err = handoff.Discover(root)
	}
	if err != nil {
		return nil, err
	}
	return handoff.New(spec)
}

// printEvent writes an event as text: the findings as validate writes
// them, then the event, one check per line.
func printEvent(w io.Writer, name string, h handoff.Handoff, ev handoff.Event) {
	for _, f := range ev.Findings {
		fmt.Fprintf(w, "%s: %s: %s [%s]\n", place(name, f.Finding), f.Severity, textsafe.String(f.Message), textsafe.String(f.Rule))
	}
	what := "NEXUS_HANDOFF_V2"
	if ev.ComplianceLevel < 3 && ev.ComplianceLevel > 0 {
		what = fmt.Sprintf("NEXUS_HANDOFF (compliance level %d)", ev.ComplianceLevel)
	}
	if ev.HandoffFrom != "" {
		what += " from " + textsafe.String(ev.HandoffFrom)
	}
	if ev.Step != "" {
		what += ", step " + textsafe.String(ev.Step)
	}
	fmt.Fprintf(w, "%s:%d: %s: %s\n", textsafe.Path(name), h.Line, what, ev.ValidationResult)
	fmt.Fprintf(w, "  required_fields:  %s\n", ev.Checks.RequiredFields)
	fmt.Fprintf(w, "  confidence_valid: %s\n", ev.Checks.ConfidenceValid)
	fmt.Fprintf(w, "  consistency:      %s\n", ev.Checks.Consistency)
	fmt.Fprintf(w, "  action_taken:     %s\n", ev.ActionTaken)
	fmt.Fprintf(w, "  routing:          %s (%s)\n", ev.Routing, textsafe.String(ev.RoutingReason))
	for _, n := range ev.Notes {
		fmt.Fprintf(w, "  note: %s\n", textsafe.String(n))
	}
}
