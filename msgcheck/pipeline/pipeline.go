// Package pipeline is msgcheck's public entry point: the layered validation
// pipeline every artifact (a DELEGATE, a HANDBACK, a NEXUS handoff...) goes
// through before it may advance a workflow.
//
// Four stages run in a fixed order, and the first that rejects ends the run:
//
//  1. routing: the kind of the message is known to the spec, and the
//     transition from the current stage to that kind is allowed by the
//     spec's pipeline section (msgcheck.PipelineSpec);
//  2. payload: the message against its kind's schema (msgcheck.Validator);
//  3. semantic: pluggable SemanticValidators (see package
//     msgcheck/pipeline/semantic for the built-in ones), which read the
//     message and a frozen view of the repository, nothing else;
//  4. approval: the spec's approval rules put the message in a tier:
//     auto-approved, needs approval, or denied.
//
// The outcome is Passed, Rejected (with reasons) or NeedsApproval (with the
// tier and the message for the person asked). A validator that panics or
// fails rejects the artifact with a system error: nothing is ever partly
// accepted.
//
// Every run emits events (ArtifactValidationStarted, then one of
// ArtifactValidated, ArtifactRejected, ApprovalRequired) carrying a
// causation id derived from the input and the duration of each stage run;
// JSONL writes them as JSON Lines and ReadEvents reads them back. A Log of
// recorded events reproduces the decisions without running the semantic
// validators or the approval stage again (see Pipeline.Replay).
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// Stage is one layer of the pipeline.
type Stage uint8

// The stages, in the order they run.
const (
	Routing Stage = iota
	Payload
	Semantic
	Approval
	numStages
)

var stageNames = [numStages]string{"routing", "payload", "semantic", "approval"}

// String returns the stage's name as events write it: "routing"...
func (s Stage) String() string {
	if s < numStages {
		return stageNames[s]
	}
	return fmt.Sprintf("stage(%d)", uint8(s))
}

// Outcome is what a stage, or the whole pipeline, decides.
type Outcome uint8

// The outcomes.
const (
	Passed Outcome = iota
	Rejected
	NeedsApproval
)

var outcomeNames = [...]string{"passed", "rejected", "needs_approval"}

// String returns the outcome's name as events write it: "passed"...
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return fmt.Sprintf("outcome(%d)", uint8(o))
}

// Reason is why an artifact was rejected.
type Reason struct {
	Stage     Stage
	Validator string // the semantic validator that gave it; "" for the other stages
	Field     string // "plan[1]", "metrics.quality"; "" for the whole message
	Rule      string // "msgcheck/semantic-unsafe-command"
	Message   string // "plan[1]: ..."
	Line      int    // in the source, when the message came from a yaml.Node
	Column    int
}

// Rule ids of the pipeline's own rejections.
const (
	RuleNotAMessage  = "msgcheck/not-a-message"
	RuleUnknownKind  = "msgcheck/unknown-kind"
	RuleUnknownStage = "msgcheck/pipeline-unknown-stage"
	RuleTransition   = "msgcheck/pipeline-transition"
	RuleDenied       = "msgcheck/pipeline-denied"
	RuleSystemError  = "msgcheck/pipeline-system-error"
)

// Artifact is what a semantic validator sees: the message, read-only. A
// validator must not change it.
type Artifact struct {
	Kind    string         // "delegate", "handback"...
	Message map[string]any // the decoded message
	Spec    *msgcheck.Spec // the spec the kind comes from
}

// SemanticValidator is a pluggable check of the semantic stage. It must
// read only the artifact and what it was built with (a frozen view of the
// repository): no writes, no network, no processes, no mutable globals.
// It must be safe for concurrent use. The pipeline fills each reason's
// Stage and Validator (see SemanticChecks for a validator of several
// checks).
//
// A validator that returns an error or panics rejects the artifact with a
// system error.
type SemanticValidator interface {
	Name() string
	Validate(ctx context.Context, a *Artifact) ([]Reason, error)
}

// SemanticChecks is implemented by a SemanticValidator that runs several
// named checks in one pass over the message, as the built-in validators
// do (see package semantic). The semantic layer counts each check as a
// validator, and a reason keeps the Validator it gives when that is one
// of the checks; other reasons get the validator's Name.
type SemanticChecks interface {
	Checks() []string
}

// Sink receives the events of every run, in order. The pipeline never
// changes an event (or its Reasons) once emitted, so a Sink may keep it. A
// Sink shared by concurrent runs must be safe for concurrent use.
type Sink interface {
	Emit(Event)
}

// Options configure a Pipeline.
type Options struct {
	// Validator is the payload stage; required. Its default spec provides
	// the kinds, the transitions and the approval rules.
	Validator *msgcheck.Validator
	// Semantic are the validators of the semantic stage, run in order.
	Semantic []SemanticValidator
	// AutoApprove names approval rules (tiers) the session has granted
	// auto-approval: a message they match passes.
	AutoApprove []string
	// Sink receives the events; nil drops them.
	Sink Sink
	// Clock measures the stages; nil is time.Now. Tests inject a fake one
	// for deterministic durations.
	Clock func() time.Time
	// NoTiming leaves every duration 0 and never reads the clock.
	NoTiming bool
}

// Pipeline runs artifacts through the four stages. It is immutable after
// New and safe for concurrent use.
type Pipeline struct {
	v           *msgcheck.Validator
	spec        *msgcheck.Spec
	ps          *msgcheck.PipelineSpec // nil: no pipeline section
	semantic    []SemanticValidator
	checks      [][]string // of each semantic validator (SemanticChecks)
	autoApprove map[string]bool
	sink        Sink
	elapsed     func() time.Duration // the clock's time since epoch (Options.Clock)
	timing      bool
	// texts of routing rejections, built once
	undetectable string
	kinds        map[string]bool
	kindsText    string
	stagesText   string
}

// epoch is what the stages are timed from.
var epoch = time.Now()

// New returns a pipeline. The spec's pipeline section is read here, once.
func New(opts Options) (*Pipeline, error) {
	if opts.Validator == nil {
		return nil, errors.New("pipeline: no msgcheck.Validator given")
	}
	for i, s := range opts.Semantic {
		if s == nil {
			return nil, fmt.Errorf("pipeline: semantic validator %d is nil", i)
		}
	}
	p := &Pipeline{
		v:        opts.Validator,
		spec:     opts.Validator.Spec(),
		semantic: slices.Clone(opts.Semantic),
		sink:     opts.Sink,
		timing:   !opts.NoTiming,
	}
	p.ps = p.spec.Pipeline()
	p.checks = make([][]string, len(p.semantic))
	for i, sv := range p.semantic {
		if sc, ok := sv.(SemanticChecks); ok {
			p.checks[i] = slices.Clone(sc.Checks())
		}
	}
	if clock := opts.Clock; clock == nil {
		// one monotonic clock read per stage; time.Now reads the wall
		// clock too, which no duration needs
		p.elapsed = func() time.Duration { return time.Since(epoch) }
	} else {
		p.elapsed = func() time.Duration { return clock().Sub(epoch) }
	}
	if len(opts.AutoApprove) > 0 {
		p.autoApprove = map[string]bool{}
		for _, name := range opts.AutoApprove {
			p.autoApprove[name] = true
		}
	}
	var sigs []string
	for _, k := range p.spec.Kinds() {
		if sig := p.spec.Signature(k); len(sig) > 0 {
			sigs = append(sigs, fmt.Sprintf("a %s has %s", strings.ToUpper(k), strings.Join(sig, ", ")))
		}
	}
	if len(sigs) == 0 {
		p.undetectable = "cannot tell the message kind: the spec gives no signatures; name the kind"
	} else {
		p.undetectable = "cannot tell the message kind: " + strings.Join(sigs, "; ") + "; name the kind to validate it anyway"
	}
	p.kinds = map[string]bool{}
	for _, k := range p.spec.Kinds() {
		p.kinds[k] = true
	}
	p.kindsText = strings.Join(p.spec.Kinds(), ", ")
	if p.ps != nil {
		p.stagesText = strings.Join(p.ps.Stages(), ", ")
	}
	return p, nil
}

// Input is one artifact to validate.
type Input struct {
	// Kind names the message kind; "" tells it from the spec's signatures.
	Kind string
	// Message is the decoded message (map[string]any from JSON or YAML).
	// When nil, it is read from Node.
	Message any
	// Node is the message's YAML/JSON source, optional: with it, payload
	// findings carry line and column.
	Node *yaml.Node
	// From is the stage of the workflow the artifact would move on from
	// (msgcheck.StartStage, or the kind of the previous message). "" checks
	// only that some transition leads to the kind.
	From string
	// Artifact names the artifact in events ("queue/a.yaml#2"); optional.
	Artifact string
	// Causation is the id of the event that produced the artifact; when
	// "", it is derived from Kind, From and the message's content (see
	// CausationOf).
	Causation string
}

// Layer is what one stage did in a run.
type Layer struct {
	Stage      Stage
	Result     Outcome
	Validators int // semantic validators invoked (the semantic stage)
	Duration   time.Duration
}

// Decision is the outcome of a run.
type Decision struct {
	Outcome   Outcome
	Stage     Stage    // the stage that decided: the one that rejected or asks for approval; Approval when passed
	Reasons   []Reason // when rejected
	Tier      string   // when it needs approval (or was denied): the approval rule's name
	Message   string   // when it needs approval: what to ask
	System    bool     // rejected because a validator or the pipeline failed
	Kind      string   // the message kind, when known
	Causation string   // Input.Causation, else CausationOf the input when events are emitted (Options.Sink)
	// Payload is msgcheck's result, when the payload stage ran: its
	// warnings are kept even when the message passes.
	Payload msgcheck.Result
	// Replayed is set when the decision came from a recorded event log.
	Replayed bool

	layers  [numStages]Layer
	nLayers int
}

// Layers returns the stages that ran, in order, with their durations.
func (d *Decision) Layers() []Layer { return d.layers[:d.nLayers] }

func (d *Decision) addLayer(s Stage, o Outcome, validators int, dur time.Duration) {
	d.layers[d.nLayers] = Layer{Stage: s, Result: o, Validators: validators, Duration: dur}
	d.nLayers++
}

func (d *Decision) reject(s Stage, reasons ...Reason) {
	d.Outcome, d.Stage, d.Reasons = Rejected, s, reasons
}

func (d *Decision) systemError(s Stage, format string, args ...any) {
	d.reject(s, Reason{Stage: s, Rule: RuleSystemError, Message: "system error: " + fmt.Sprintf(format, args...)})
	d.System = true
}

// Run validates one artifact: the stages in order, the first rejection
// ending the run. It emits ArtifactValidationStarted and then the event
// of the outcome.
func (p *Pipeline) Run(ctx context.Context, in Input) Decision {
	var d Decision
	d.Causation = in.Causation
	msg, convErr := in.Message, error(nil)
	if msg == nil && in.Node != nil {
		msg, convErr = nodeValue(in)
	}
	if d.Causation == "" && p.sink != nil {
		// hashing the message is for the events: a run without them
		// (most of a scan's) does not pay for it
		d.Causation = CausationOf(in.Kind, in.From, msg)
	}
	p.emit(Event{Type: ValidationStarted, Causation: d.Causation, Artifact: in.Artifact, Kind: in.Kind, From: in.From})
	p.run(ctx, &d, in, msg, convErr)
	p.emit(terminalEvent(&d, in))
	return d
}

func (p *Pipeline) emit(e Event) {
	if p.sink != nil {
		p.sink.Emit(e)
	}
}

// run is Run without the events; it guards against a panic anywhere in
// the stages, which becomes a system rejection.
func (p *Pipeline) run(ctx context.Context, d *Decision, in Input, msg any, convErr error) {
	stage := Routing
	defer func() {
		if r := recover(); r != nil {
			d.systemError(stage, "%s stage panicked: %v", stage, r)
		}
	}()
	var t time.Duration
	if p.timing {
		t = p.elapsed()
	}
	lap := func() time.Duration {
		if !p.timing {
			return 0
		}
		now := p.elapsed()
		dur := now - t
		t = now
		return dur
	}
	cancelled := func() bool {
		if err := ctx.Err(); err != nil {
			d.systemError(stage, "validation cancelled before the %s stage: %v", stage, err)
			return true
		}
		return false
	}
	if cancelled() {
		return
	}

	// routing
	m, kind := p.route(d, in, msg, convErr)
	d.addLayer(Routing, d.Outcome, 0, lap())
	if d.Outcome != Passed {
		return
	}

	// payload
	stage = Payload
	if cancelled() {
		return
	}
	p.payload(d, in, kind, m)
	d.addLayer(Payload, d.Outcome, 0, lap())
	if d.Outcome != Passed {
		return
	}

	// semantic
	stage = Semantic
	if cancelled() {
		return
	}
	n := p.runSemantic(ctx, d, &Artifact{Kind: d.Kind, Message: m, Spec: p.spec})
	d.addLayer(Semantic, d.Outcome, n, lap())
	if d.Outcome != Passed {
		return
	}

	// approval
	stage = Approval
	if cancelled() {
		return
	}
	p.approve(d, m)
	d.addLayer(Approval, d.Outcome, 0, lap())
	if d.Outcome == Passed {
		d.Stage = Approval
	}
}

// route is the routing stage: it finds the kind and checks the transition.
func (p *Pipeline) route(d *Decision, in Input, msg any, convErr error) (map[string]any, string) {
	if convErr != nil {
		d.reject(Routing, Reason{Stage: Routing, Rule: RuleNotAMessage, Message: "cannot read the message: " + convErr.Error()})
		return nil, ""
	}
	m, ok := msg.(map[string]any)
	if !ok {
		d.reject(Routing, Reason{Stage: Routing, Rule: RuleNotAMessage, Message: "message must be a mapping of fields (got " + jsonType(msg) + ")"})
		return nil, ""
	}
	kind := in.Kind
	if kind == "" {
		if kind = p.spec.Detect(m); kind == "" {
			d.reject(Routing, Reason{Stage: Routing, Rule: RuleUnknownKind, Message: p.undetectable})
			return nil, ""
		}
	} else if !p.kinds[kind] {
		d.reject(Routing, Reason{Stage: Routing, Rule: RuleUnknownKind,
			Message: fmt.Sprintf("unknown message kind %q (spec %s defines %s)", kind, p.spec.Version, p.kindsText)})
		return nil, ""
	}
	d.Kind = kind
	if p.ps == nil {
		return m, kind
	}
	if in.From != "" {
		switch {
		case !p.ps.HasStage(in.From):
			d.reject(Routing, Reason{Stage: Routing, Rule: RuleUnknownStage,
				Message: fmt.Sprintf("unknown stage %q to move on from (the pipeline has %s)", in.From, p.stagesText)})
			return nil, kind
		case !p.ps.Allowed(in.From, kind):
			targets, _ := p.ps.Targets(in.From)
			d.reject(Routing, Reason{Stage: Routing, Rule: RuleTransition,
				Message: fmt.Sprintf("transition %s -> %s is not allowed (from %s the spec allows %s)", in.From, kind, in.From, orNothing(targets))})
			return nil, kind
		}
	} else if !p.ps.Allowed("", kind) {
		d.reject(Routing, Reason{Stage: Routing, Rule: RuleTransition,
			Message: fmt.Sprintf("no transition of the spec's pipeline leads to a %s", strings.ToUpper(kind))})
		return nil, kind
	}
	return m, kind
}

func orNothing(list []string) string {
	if len(list) == 0 {
		return "nothing"
	}
	return strings.Join(list, ", ")
}

// payload is the payload stage: msgcheck's validator.
func (p *Pipeline) payload(d *Decision, in Input, kind string, m map[string]any) {
	if in.Node != nil {
		res, err := p.v.ValidateNode(kind, in.Node)
		if err != nil {
			d.reject(Payload, Reason{Stage: Payload, Rule: RuleNotAMessage, Message: "cannot read the message: " + err.Error()})
			return
		}
		d.Payload = res
	} else {
		d.Payload = p.v.Validate(kind, m)
	}
	if d.Payload.Valid {
		return
	}
	reasons := make([]Reason, len(d.Payload.Errors))
	for i, f := range d.Payload.Errors {
		reasons[i] = Reason{Stage: Payload, Field: f.Field, Rule: f.Rule, Message: f.Message, Line: f.Line, Column: f.Column}
	}
	d.reject(Payload, reasons...)
}

// runSemantic is the semantic stage; it returns how many validators it
// invoked.
func (p *Pipeline) runSemantic(ctx context.Context, d *Decision, a *Artifact) int {
	var reasons []Reason
	ran := 0
	for i, sv := range p.semantic {
		checks := p.checks[i]
		ran += max(1, len(checks))
		got, err := callValidator(ctx, sv, a)
		if err != nil {
			d.systemError(Semantic, "semantic validator %q failed: %v", sv.Name(), err)
			d.Reasons[0].Validator = sv.Name()
			return ran
		}
		for _, r := range got {
			if r.Stage = Semantic; !slices.Contains(checks, r.Validator) {
				r.Validator = sv.Name()
			}
			reasons = append(reasons, r)
		}
	}
	if len(reasons) > 0 {
		d.reject(Semantic, reasons...)
	}
	return ran
}

// callValidator runs one semantic validator, turning a panic into an error.
func callValidator(ctx context.Context, sv SemanticValidator, a *Artifact) (reasons []Reason, err error) {
	defer func() {
		if r := recover(); r != nil {
			reasons, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return sv.Validate(ctx, a)
}

// approve is the approval stage.
func (p *Pipeline) approve(d *Decision, m map[string]any) {
	if p.ps == nil {
		return
	}
	r := p.ps.Match(d.Kind, m)
	if r == nil {
		return
	}
	switch r.Tier {
	case msgcheck.TierDeny:
		field := ""
		if fs := r.Fields(); len(fs) > 0 {
			field = fs[0]
		}
		d.reject(Approval, Reason{Stage: Approval, Field: field, Rule: RuleDenied,
			Message: fmt.Sprintf("denied by approval rule %q: %s", r.Name, r.Message)})
		d.Tier = r.Name
	case msgcheck.TierNeedsApproval:
		if p.autoApprove[r.Name] {
			return
		}
		d.Outcome, d.Stage, d.Tier, d.Message = NeedsApproval, Approval, r.Name, r.Message
	}
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "number"
}

// nodeValue reads the message from its source node.
func nodeValue(in Input) (any, error) { return yamlnode.ToValue(in.Node, yamlnode.DefaultLimits()) }
