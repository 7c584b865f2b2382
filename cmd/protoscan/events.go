package main

// validate --events F: every message goes through msgcheck's layered
// pipeline (routing, payload, semantic, approval; see msgcheck/pipeline)
// and the events of every run are written to F as JSON Lines.

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/engine"
	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"github.com/protoscan-dev/protoscan/msgcheck"
	"github.com/protoscan-dev/protoscan/msgcheck/pipeline"
	"github.com/protoscan-dev/protoscan/msgcheck/pipeline/semantic"
)

// eventLog is validate's --events option and the pipeline behind it; with
// no --events it validates with msgcheck alone, as before.
type eventLog struct {
	path string
	p    *pipeline.Pipeline
	f    outFile
	w    *bufio.Writer
	sink *pipeline.JSONL
}

// addEventsFlag registers --events on the validate flag set.
func addEventsFlag(fs *flag.FlagSet) *eventLog {
	el := &eventLog{}
	fs.StringVar(&el.path, "events", "", "run every message through the layered pipeline (routing, payload, semantic, approval) and write its events to `FILE` as JSON Lines")
	return el
}

// start builds the pipeline over v when --events was given: the semantic
// validators get a snapshot of the repository's paths, taken once here.
// The events file is written with e.create, inside roots and the
// repository root.
func (el *eventLog) start(e *env, v *msgcheck.Validator, root string, roots []string) error {
	if el.path == "" {
		return nil
	}
	if root == "" {
		root = engine.FindRoot()
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	snap, err := semantic.FromFS(os.DirFS(abs), semantic.SnapshotOptions{Root: filepath.ToSlash(abs)})
	if err != nil {
		return fmt.Errorf("root %s: %w", root, err)
	}
	el.f, err = e.create(el.path, append(roots, root))
	if err != nil {
		return fmt.Errorf("events: %w", err)
	}
	el.w = bufio.NewWriter(el.f)
	el.sink = pipeline.NewJSONL(el.w)
	el.p, err = pipeline.New(pipeline.Options{Validator: v, Semantic: semantic.Builtin(snap), Sink: el.sink})
	if err != nil {
		el.f.Abort()
		el.f = nil
	}
	return err
}

// validate checks one message: with msgcheck alone, or through the
// pipeline, whose rejections after the payload stage become errors of the
// result and whose approval request becomes a warning.
func (el *eventLog) validate(v *msgcheck.Validator, kind, name string, doc int, n *yaml.Node) (msgcheck.Result, error) {
	if el.p == nil {
		return v.ValidateNode(kind, n)
	}
	msg, err := yamlnode.ToValue(n, yamlnode.DefaultLimits())
	if err != nil {
		return msgcheck.Result{}, err
	}
	d := el.p.Run(context.Background(), pipeline.Input{Kind: kind, Message: msg, Node: n, Artifact: name + "#" + strconv.Itoa(doc)})
	res := d.Payload
	if res.Kind == "" {
		res.Kind = d.Kind
	}
	switch {
	case d.Outcome == pipeline.Rejected && d.Stage != pipeline.Payload:
		res.Valid = false
		for _, r := range d.Reasons {
			f := msgcheck.Finding{Field: r.Field, Rule: r.Rule, Message: r.Message, Line: r.Line, Column: r.Column}
			if f.Line == 0 && r.Field != "" {
				f.Line, f.Column = yamlnode.Locate(n, yamlnode.ParsePath(r.Field), false)
			}
			res.Errors = append(res.Errors, f)
		}
	case d.Outcome == pipeline.NeedsApproval:
		res.Warnings = append(res.Warnings, msgcheck.Finding{Rule: "msgcheck/pipeline-needs-approval",
			Message: "needs approval (" + d.Tier + "): " + d.Message})
	}
	return res, nil
}

// close flushes the events file and puts it in place; a file the events
// could not all be written to is dropped.
func (el *eventLog) close() error {
	if el.f == nil {
		return nil
	}
	err := el.sink.Err()
	if ferr := el.w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		el.f.Abort()
		return fmt.Errorf("events: %w", err)
	}
	if err := el.f.Close(); err != nil {
		return fmt.Errorf("events: %w", err)
	}
	return nil
}
