package handoff

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// Result is the verdict of the validation event.
type Result string

// The results: PASS (valid), WARN (valid with warnings, migrations or
// corrections), FAIL (an error: the handoff is sent back).
const (
	Pass Result = "PASS"
	Warn Result = "WARN"
	Fail Result = "FAIL"
)

// Action is what was done with the handoff.
type Action string

// The actions of the seed's validation event.
const (
	Proceed         Action = "proceed"
	RequestResubmit Action = "request_resubmit"
	AutoCorrect     Action = "auto_correct"
)

// Routing is where the chain goes after the handoff.
type Routing string

// The routing decisions.
const (
	AutoRoute           Routing = "auto_route"
	RouteWithAssumption Routing = "route_with_assumption"
	PauseForUser        Routing = "pause_for_user"
	Escalate            Routing = "escalate"
)

// The checks of the event, in the seed's order.
const (
	CheckRequiredFields  = "required_fields"
	CheckConfidenceValid = "confidence_valid"
	CheckConsistency     = "consistency"
)

// The rule ids of the findings the evaluation adds to msgcheck's.
const (
	RuleMigration   = "msgcheck/handoff-v1-migration"
	RuleAutoCorrect = "msgcheck/handoff-auto-correct"
)

// Checks are the per-check results: "PASS", or "FAIL: " / "WARN: "
// followed by the findings of the check.
type Checks struct {
	RequiredFields  string `json:"required_fields"`
	ConfidenceValid string `json:"confidence_valid"`
	Consistency     string `json:"consistency"`
}

// Finding is a msgcheck finding (or one of the evaluation's own) with its
// severity and the check it counts against.
type Finding struct {
	Severity string `json:"severity"` // error or warning
	Check    string `json:"check"`
	msgcheck.Finding

	// at is the top-level field the finding is placed at when that is not
	// Field: a migration is about the inferred field, which the source
	// does not have, and points at the field it was inferred from.
	at string
}

// At is the field path the finding points at in the source: Field, or
// for a migration the field the missing one was inferred from. A reader
// of a handoff that has its own positions (the repository scan's facts)
// places the finding there, as Evaluate does.
func (f Finding) At() string {
	if f.at != "" {
		return f.at
	}
	return f.Field
}

// Event is the seed's validation event of one handoff, with the routing
// decision.
type Event struct {
	HandoffFrom string `json:"handoff_from"`
	Step        string `json:"step"`
	// ComplianceLevel is 3 with confidence and breakdown, 2 with
	// confidence only, 1 with neither (a V1 handoff), 0 for no mapping.
	ComplianceLevel  int    `json:"compliance_level"`
	ValidationResult Result `json:"validation_result"`
	Checks           Checks `json:"checks"`
	ActionTaken      Action `json:"action_taken"`
	// Notes are the warnings, corrections and assumptions, for the log.
	Notes         []string `json:"notes"`
	Routing       Routing  `json:"routing"`
	RoutingReason string   `json:"routing_reason"`
	NextAgent     string   `json:"next_agent,omitempty"`
	// Confidence is the confidence routing used: as written, inferred
	// (levels 1 and 2) or corrected; nil when there is none.
	Confidence *float64  `json:"confidence"`
	Findings   []Finding `json:"findings"`
}

// Evaluator evaluates handoffs against one spec. It is immutable and safe
// for concurrent use.
type Evaluator struct {
	spec  *msgcheck.Spec
	v     *msgcheck.Validator
	pol   *policy
	rules map[string]msgcheck.RuleInfo // the kind's CEL rules by id
}

// New returns an Evaluator for a spec that defines the nexus_handoff_v2
// kind and its x-nexus-handoff policy.
func New(spec *msgcheck.Spec) (*Evaluator, error) {
	if !slices.Contains(spec.Kinds(), Kind) {
		return nil, fmt.Errorf("%s: spec defines no %s kind (it defines %s)", spec.Source, Kind, strings.Join(spec.Kinds(), ", "))
	}
	pol, err := parsePolicy(spec)
	if err != nil {
		return nil, err
	}
	v, err := msgcheck.New(msgcheck.Options{}, spec)
	if err != nil {
		return nil, err
	}
	e := &Evaluator{spec: spec, v: v, pol: pol, rules: map[string]msgcheck.RuleInfo{}}
	for _, r := range spec.Rules(Kind) {
		e.rules[r.ID] = r
	}
	return e, nil
}

// Spec returns the spec the Evaluator checks against.
func (e *Evaluator) Spec() *msgcheck.Spec { return e.spec }

// Evaluate evaluates a handoff read by Read; findings carry the line and
// column of what they are about. An error means the node could not be
// turned into a value at all (an alias bomb, nesting too deep).
func (e *Evaluator) Evaluate(h Handoff) (Event, error) {
	val, err := yamlnode.ToValue(h.Node, yamlnode.DefaultLimits())
	if err != nil {
		return Event{}, err
	}
	return e.evaluate(val, h.Node), nil
}

// EvaluateValue evaluates a decoded handoff (map[string]any from JSON or
// YAML); findings carry no positions.
func (e *Evaluator) EvaluateValue(msg any) Event { return e.evaluate(msg, nil) }

func (e *Evaluator) evaluate(val any, n *yaml.Node) Event {
	ev := Event{Notes: []string{}, Findings: []Finding{}}
	m, isMap := val.(map[string]any)
	var own []Finding // the evaluation's own findings: migration, correction
	if isMap {
		ev.HandoffFrom, _ = m[fieldAgent].(string)
		ev.Step, _ = m[fieldStep].(string)
		ev.NextAgent, _ = m[fieldNextAgent].(string)
		var f *Finding
		m, ev.ComplianceLevel, f = e.migrate(m, n)
		if f != nil {
			own = append(own, *f)
		}
		val = m
	}
	res := e.v.ValidateAt(Kind, val, n)
	action := Proceed
	if !res.Valid && isMap {
		if fixed, f, note := e.autoCorrect(m, res, n); fixed != nil {
			res, m, action = fixed.Result, fixed.value, AutoCorrect
			own = append(own, *f)
		} else if note != "" {
			ev.Notes = append(ev.Notes, note)
		}
	}
	if isMap {
		if c, ok := number(m[fieldConfidence]); ok {
			ev.Confidence = &c
		}
	}
	e.collect(&ev, res, own, m)
	switch {
	case !res.Valid:
		ev.ValidationResult, ev.ActionTaken = Fail, RequestResubmit
	case len(ev.Findings) > 0:
		ev.ValidationResult, ev.ActionTaken = Warn, action
	default:
		ev.ValidationResult, ev.ActionTaken = Pass, action
	}
	e.route(&ev, m)
	return ev
}

// migrate brings a handoff of compliance level 1 or 2 to level 3, as the
// seed's V1 migration says: a missing confidence is inferred from the
// status, a missing breakdown gets the confidence on every axis. The
// handoff is copied, never changed. Nothing is inferred from a value that
// is itself invalid: its error stands.
func (e *Evaluator) migrate(m map[string]any, n *yaml.Node) (map[string]any, int, *Finding) {
	_, hasConf := m[fieldConfidence]
	_, hasBreakdown := m[fieldBreakdown]
	switch {
	case hasConf && hasBreakdown:
		return m, 3, nil
	case hasConf:
		c, ok := number(m[fieldConfidence])
		if !ok || c < 0 || c > 1 {
			return m, 2, nil
		}
		out := withField(m, fieldBreakdown, spread(c))
		agent := agentName(m)
		return out, 2, &Finding{Severity: "warning", Check: CheckConfidenceValid, at: fieldConfidence, Finding: msgcheck.Finding{
			Field: fieldBreakdown, Rule: RuleMigration, Line: line(n, fieldConfidence), Column: column(n, fieldConfidence),
			Message: fmt.Sprintf("handoff from %s has no confidence_breakdown (compliance level 2): every axis set to confidence %s; %s should move to NEXUS_HANDOFF_V2 with the full breakdown",
				agent, fmtScore(c), agent),
		}}
	}
	status, _ := m[fieldStatus].(string)
	c, ok := e.pol.inferred[status]
	if !ok {
		return m, 1, nil // no status to infer from: confidence stays missing, an error
	}
	out := withField(m, fieldConfidence, c)
	what := "set on every confidence_breakdown axis"
	if !hasBreakdown {
		out[fieldBreakdown] = spread(c)
	} else {
		what = "beside the breakdown it has"
	}
	agent := agentName(m)
	return out, 1, &Finding{Severity: "warning", Check: CheckConfidenceValid, at: fieldStatus, Finding: msgcheck.Finding{
		Field: fieldConfidence, Rule: RuleMigration, Line: line(n, fieldStatus), Column: column(n, fieldStatus),
		Message: fmt.Sprintf("V1 handoff from %s: confidence %s inferred from status %s and %s; %s should move to NEXUS_HANDOFF_V2",
			agent, fmtScore(c), status, what, agent),
	}}
}

func withField(m map[string]any, key string, v any) map[string]any {
	out := make(map[string]any, len(m)+2)
	for k, x := range m {
		out[k] = x
	}
	out[key] = v
	return out
}

func spread(c float64) map[string]any {
	return map[string]any{axes[0]: c, axes[1]: c, axes[2]: c}
}

func agentName(m map[string]any) string {
	if a, ok := m[fieldAgent].(string); ok && a != "" {
		return a
	}
	return "an unnamed agent"
}

// corrected is a revalidated handoff after an auto-correction.
type corrected struct {
	msgcheck.Result
	value map[string]any
}

// autoCorrect repairs a minor discrepancy: when the only error is the
// policy's auto_correct rule (the breakdown average) and the confidence
// is at most max_discrepancy from the weighted average, the confidence
// becomes the average, if the handoff is then valid. Otherwise it returns
// nil and, for a discrepancy too large, a note saying so.
func (e *Evaluator) autoCorrect(m map[string]any, res msgcheck.Result, n *yaml.Node) (*corrected, *Finding, string) {
	if e.pol.correctRule == "" || len(res.Errors) != 1 || res.Errors[0].Rule != e.pol.correctRule {
		return nil, nil, ""
	}
	b, _ := m[fieldBreakdown].(map[string]any)
	avg, ok := e.pol.weighted(b)
	c, isNum := number(m[fieldConfidence])
	if !ok || !isNum {
		return nil, nil, ""
	}
	diff := math.Abs(avg - c)
	if diff > e.pol.maxCorrect+1e-9 {
		return nil, nil, fmt.Sprintf("confidence %s is %s from the weighted breakdown average %s: too far to auto-correct (more than %s)",
			fmtScore(c), fmtScore(round3(diff)), fmtScore(round3(avg)), fmtScore(e.pol.maxCorrect))
	}
	fixed := withField(m, fieldConfidence, round2(avg))
	again := e.v.ValidateAt(Kind, fixed, n)
	if !again.Valid {
		return nil, nil, fmt.Sprintf("confidence %s corrected to the weighted breakdown average %s would break another rule: not auto-corrected",
			fmtScore(c), fmtScore(round2(avg)))
	}
	return &corrected{again, fixed}, &Finding{Severity: "warning", Check: CheckConsistency, Finding: msgcheck.Finding{
		Field: fieldConfidence, Rule: RuleAutoCorrect, Line: line(n, fieldConfidence), Column: column(n, fieldConfidence),
		Message: fmt.Sprintf("confidence %s auto-corrected to %s, the weighted average of confidence_breakdown (a minor discrepancy of %s, at most %s)",
			fmtScore(c), fmtScore(round2(avg)), fmtScore(round3(diff)), fmtScore(e.pol.maxCorrect)),
	}}, ""
}

// collect sorts the findings into the checks and writes the notes.
func (e *Evaluator) collect(ev *Event, res msgcheck.Result, own []Finding, m map[string]any) {
	for _, f := range res.Errors {
		ev.Findings = append(ev.Findings, Finding{Severity: "error", Check: e.check(f), Finding: f})
	}
	for _, f := range res.Warnings {
		ev.Findings = append(ev.Findings, Finding{Severity: "warning", Check: e.check(f), Finding: f})
	}
	ev.Findings = append(ev.Findings, own...)
	texts := map[string][]string{}
	worst := map[string]string{}
	for _, f := range ev.Findings {
		texts[f.Check] = append(texts[f.Check], f.Message)
		if f.Severity == "error" {
			worst[f.Check] = "FAIL"
		} else if worst[f.Check] == "" {
			worst[f.Check] = "WARN"
		}
		switch {
		case f.Severity == "warning":
			ev.Notes = append(ev.Notes, f.Message)
		case strings.HasSuffix(f.Rule, "-required"):
			ev.Notes = append(ev.Notes, "Handoff missing required field: "+f.Field)
		case e.rules[f.Rule].FieldPath == fieldConfidence:
			status, _ := m[fieldStatus].(string)
			ev.Notes = append(ev.Notes, fmt.Sprintf("Confidence score %s inconsistent with status %s", scoreText(m[fieldConfidence]), status))
		}
	}
	verdict := func(check string) string {
		if worst[check] == "" {
			return "PASS"
		}
		return worst[check] + ": " + strings.Join(texts[check], "; ")
	}
	ev.Checks = Checks{verdict(CheckRequiredFields), verdict(CheckConfidenceValid), verdict(CheckConsistency)}
}

func scoreText(v any) string {
	if f, ok := number(v); ok {
		return fmtScore(f)
	}
	return fmt.Sprint(v)
}

// check is the check a msgcheck finding counts against: a missing field
// is required_fields; a CEL rule about the confidence is
// confidence_valid, any other CEL rule consistency; any other finding
// about the confidence or its breakdown is confidence_valid, the rest
// required_fields.
func (e *Evaluator) check(f msgcheck.Finding) string {
	if strings.HasSuffix(f.Rule, "-required") {
		return CheckRequiredFields
	}
	if r, ok := e.rules[f.Rule]; ok {
		if r.FieldPath == fieldConfidence {
			return CheckConfidenceValid
		}
		return CheckConsistency
	}
	top := f.Field
	if i := strings.IndexAny(top, ".["); i >= 0 {
		top = top[:i]
	}
	if top == fieldConfidence || top == fieldBreakdown {
		return CheckConfidenceValid
	}
	return CheckRequiredFields
}

// route decides where the chain goes. A failed handoff is not routed: it
// waits (pause_for_user) for the agent to resubmit it. Otherwise, in
// order: a status or next_action that escalates, a status or a pending
// confirmation that pauses, then the confidence bands.
func (e *Evaluator) route(ev *Event, m map[string]any) {
	p := e.pol
	if ev.ValidationResult == Fail {
		who := "the agent"
		if ev.HandoffFrom != "" {
			who = ev.HandoffFrom
		}
		ev.Routing, ev.RoutingReason = PauseForUser, "validation failed: not routed until "+who+" resubmits the handoff"
		return
	}
	status, _ := m[fieldStatus].(string)
	action, _ := m[fieldNextAction].(string)
	switch {
	case slices.Contains(p.escalateStatuses, status):
		ev.Routing, ev.RoutingReason = Escalate, "status "+status+" escalates"
		return
	case slices.Contains(p.escalateActions, action):
		ev.Routing, ev.RoutingReason = Escalate, "next_action "+action+" escalates"
		return
	case slices.Contains(p.pauseStatuses, status):
		ev.Routing, ev.RoutingReason = PauseForUser, "status "+status+" pauses for the user's answer to pending_confirmations"
		return
	}
	for _, f := range p.pauseFields {
		if present(m[f]) {
			ev.Routing, ev.RoutingReason = PauseForUser, f+" awaits the user"
			return
		}
	}
	c := 0.0
	if ev.Confidence != nil {
		c = *ev.Confidence
	}
	to := ev.NextAgent
	switch {
	case c >= p.autoRoute:
		ev.Routing, ev.RoutingReason = AutoRoute, fmt.Sprintf("confidence %s >= %s: auto-route to %s", fmtScore(c), fmtScore(p.autoRoute), to)
	case c >= p.assume:
		ev.Routing, ev.RoutingReason = RouteWithAssumption, fmt.Sprintf("confidence %s is below %s: route to %s with a logged assumption", fmtScore(c), fmtScore(p.autoRoute), to)
		ev.Notes = append(ev.Notes, fmt.Sprintf("assumption logged: routed to %s at confidence %s (below %s)", to, fmtScore(c), fmtScore(p.autoRoute)))
	default:
		ev.Routing, ev.RoutingReason = PauseForUser, fmt.Sprintf("confidence %s < %s: pause for user input", fmtScore(c), fmtScore(p.assume))
	}
}

// present reports a value that is there and not empty.
func present(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	case string:
		return strings.TrimSpace(x) != ""
	case bool:
		return x
	}
	return true
}

// line and column place a finding at a top-level field of the handoff (or
// at the handoff, when the field is not there).
func line(n *yaml.Node, key string) int {
	l, _ := yamlnode.Locate(n, []yamlnode.Step{{Key: key, Index: -1}}, false)
	return l
}

func column(n *yaml.Node, key string) int {
	_, c := yamlnode.Locate(n, []yamlnode.Step{{Key: key, Index: -1}}, false)
	return c
}
