package msgcheck

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// This file holds the optional top-level `pipeline:` section of a spec:
// the transitions the routing stage of msgcheck/pipeline allows, and the
// approval tiers its approval stage applies. Both are data, checked when
// the spec is loaded:
//
//	pipeline:
//	  transitions:              # stage -> the kinds a message may move it to
//	    start: [delegate]       # start is the state before any message
//	    delegate: [delegate, handback]
//	  approval:                 # the first rule that matches decides
//	    - name: escalation
//	      tier: needs_approval  # auto, needs_approval or deny
//	      kind: handback        # optional: any kind when absent
//	      when: {status: [escalate]}
//	      message: the agent escalates; a person decides how the task goes on
//
// A `when` condition is, per field path (dotted, from the message's top):
// a value or a list of values (any of them), or a mapping of numeric
// bounds lt, le, gt, ge and/or present: true|false. A message no rule
// matches is auto-approved.

// StartStage is the stage before any message: the transitions from it are
// the kinds a workflow may begin with.
const StartStage = "start"

// ApprovalTier is what an approval rule decides.
type ApprovalTier string

// The approval tiers.
const (
	TierAuto          ApprovalTier = "auto"           // approved without asking
	TierNeedsApproval ApprovalTier = "needs_approval" // a person must approve
	TierDeny          ApprovalTier = "deny"           // rejected by policy
)

// PipelineSpec is the pipeline section of a spec. It is immutable and safe
// for concurrent use.
type PipelineSpec struct {
	// transitions maps a stage to the kinds a message may move it to.
	transitions map[string][]string
	stages      []string // the from-stages, in spec order
	routable    map[string]bool
	rules       []*ApprovalRule
}

// ApprovalRule is one entry of pipeline.approval.
type ApprovalRule struct {
	Name    string       // names the tier in outcomes and events ("escalation")
	Tier    ApprovalTier // auto, needs_approval or deny
	Kind    string       // the kind it applies to; "" for every kind
	Message string       // why, for the person asked or the rejection
	Line    int          // where the rule is in the spec
	Column  int

	conds []condition
}

// condition is one field of a rule's when.
type condition struct {
	field   string   // dotted path as written
	path    []string // its keys
	values  []any    // any of (strings, float64, bool, nil); nil slice: not a value test
	present int      // 0 not tested, 1 must be present, -1 must be absent
	lt, le  bound
	gt, ge  bound
}

// Pipeline returns the pipeline section of the spec, or nil when the spec
// has none (every transition between its kinds is then allowed and every
// message is auto-approved).
func (s *Spec) Pipeline() *PipelineSpec { return s.pipeline }

// Allowed reports whether a message of kind may move the workflow from
// stage from. An empty from is not checked: the kind only has to be the
// target of some transition.
func (p *PipelineSpec) Allowed(from, kind string) bool {
	if from == "" {
		return p.routable[kind]
	}
	return slices.Contains(p.transitions[from], kind)
}

// Targets returns the kinds a message may move stage from to, in spec
// order, and whether from is a stage of the pipeline at all.
func (p *PipelineSpec) Targets(from string) ([]string, bool) {
	t, ok := p.transitions[from]
	return slices.Clone(t), ok
}

// HasStage reports whether transitions lead from the stage.
func (p *PipelineSpec) HasStage(stage string) bool {
	_, ok := p.transitions[stage]
	return ok
}

// Stages returns the stages transitions lead from, in spec order.
func (p *PipelineSpec) Stages() []string { return slices.Clone(p.stages) }

// Approval returns the approval rules in spec order; the first that
// matches a message decides its tier.
func (p *PipelineSpec) Approval() []*ApprovalRule { return slices.Clone(p.rules) }

// Match returns the first approval rule that matches a message of the
// kind, or nil. It reads the message only and does not allocate.
func (p *PipelineSpec) Match(kind string, m map[string]any) *ApprovalRule {
	for _, r := range p.rules {
		if r.Matches(kind, m) {
			return r
		}
	}
	return nil
}

// Matches reports whether the rule applies to a message of the kind.
func (r *ApprovalRule) Matches(kind string, m map[string]any) bool {
	if r.Kind != "" && r.Kind != kind {
		return false
	}
	for i := range r.conds {
		if !r.conds[i].matches(m) {
			return false
		}
	}
	return true
}

// Fields returns the field paths the rule's when tests, in spec order.
func (r *ApprovalRule) Fields() []string {
	out := make([]string, len(r.conds))
	for i, c := range r.conds {
		out[i] = c.field
	}
	return out
}

func (c *condition) matches(m map[string]any) bool {
	var v any = m
	present := true
	for _, key := range c.path {
		obj, ok := v.(map[string]any)
		if !ok {
			present = false
			break
		}
		if v, ok = obj[key]; !ok {
			present = false
			break
		}
	}
	switch {
	case c.present == 1 && !present, c.present == -1 && present:
		return false
	case !present:
		return c.present == -1
	}
	if c.values != nil && !slices.ContainsFunc(c.values, func(want any) bool { return sameScalar(want, v) }) {
		return false
	}
	if c.lt.set || c.le.set || c.gt.set || c.ge.set {
		f, ok := asFloat(v)
		if !ok || math.IsNaN(f) {
			return false
		}
		if (c.lt.set && f >= c.lt.v) || (c.le.set && f > c.le.v) || (c.gt.set && f <= c.gt.v) || (c.ge.set && f < c.ge.v) {
			return false
		}
	}
	return true
}

// sameScalar compares a rule's value with a message's, numbers by value.
func sameScalar(want, got any) bool {
	switch w := want.(type) {
	case string:
		g, ok := got.(string)
		return ok && g == w
	case float64:
		g, ok := asFloat(got)
		return ok && g == w
	case bool:
		g, ok := got.(bool)
		return ok && g == w
	case nil:
		return got == nil
	}
	return false
}

// pipeline compiles the pipeline section; it runs after the kinds are
// compiled, since it names them.
func (c *compiler) pipeline(s *Spec, n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		c.errorf(n, "pipeline must be a mapping with transitions and/or approval")
		return
	}
	p := &PipelineSpec{transitions: map[string][]string{}, routable: map[string]bool{}}
	for _, kv := range pairs(n) {
		switch key := kv[0].Value; {
		case key == "transitions":
			c.transitions(s, p, kv[1])
		case key == "approval":
			c.approvalRules(s, p, kv[1])
		case isAnnotation(key):
		default:
			c.errorf(kv[0], "unknown key %q in pipeline (want transitions, approval)", key)
		}
	}
	s.pipeline = p
}

func (c *compiler) transitions(s *Spec, p *PipelineSpec, n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		c.errorf(n, "pipeline.transitions must map a stage to the list of kinds it may move to")
		return
	}
	for _, kv := range pairs(n) {
		from := kv[0].Value
		if from != StartStage && s.kind(from) == nil {
			c.errorf(kv[0], "pipeline.transitions: %q is neither %q nor a message kind of the spec (%s)", from, StartStage, strings.Join(s.Kinds(), ", "))
			continue
		}
		to := c.strings(kv[1])
		for i, k := range to {
			if s.kind(k) == nil {
				c.errorf(deref(kv[1].Content[i]), "pipeline.transitions.%s: %q is not a message kind of the spec (%s)", from, k, strings.Join(s.Kinds(), ", "))
				continue
			}
			p.routable[k] = true
		}
		p.stages = append(p.stages, from)
		p.transitions[from] = to
	}
}

func (c *compiler) approvalRules(s *Spec, p *PipelineSpec, n *yaml.Node) {
	if n.Kind != yaml.SequenceNode {
		c.errorf(n, "pipeline.approval must be a list of rules (name, tier, kind, when, message)")
		return
	}
	names := map[string]bool{}
	for i, item := range n.Content {
		item = deref(item)
		at := "pipeline.approval[" + strconv.Itoa(i) + "]"
		if item.Kind != yaml.MappingNode {
			c.errorf(item, "%s must be a mapping (name, tier, kind, when, message)", at)
			continue
		}
		r := &ApprovalRule{Line: item.Line, Column: item.Column}
		var tierNode, whenNode *yaml.Node
		for _, kv := range pairs(item) {
			switch key, v := kv[0].Value, kv[1]; {
			case key == "name":
				r.Name = v.Value
				if names[r.Name] {
					c.errorf(v, "%s: name %q is used by an earlier rule", at, r.Name)
				}
				names[r.Name] = true
			case key == "tier":
				tierNode = v
				r.Tier = ApprovalTier(v.Value)
			case key == "kind":
				r.Kind = v.Value
				if s.kind(r.Kind) == nil {
					c.errorf(v, "%s.kind: %q is not a message kind of the spec (%s)", at, r.Kind, strings.Join(s.Kinds(), ", "))
				}
			case key == "message":
				r.Message = v.Value
			case key == "when":
				whenNode = v
			case isAnnotation(key):
			default:
				c.errorf(kv[0], "unknown key %q in %s (want name, tier, kind, when, message)", key, at)
			}
		}
		if r.Name == "" {
			c.errorf(item, "%s has no name", at)
		}
		switch r.Tier {
		case TierAuto, TierNeedsApproval, TierDeny:
		case "":
			c.errorf(item, "%s has no tier (auto, needs_approval or deny)", at)
		default:
			c.errorf(tierNode, "%s.tier must be auto, needs_approval or deny (got %q)", at, string(r.Tier))
		}
		if r.Message == "" && r.Tier != TierAuto && r.Tier != "" {
			c.errorf(item, "%s needs a message: it is shown to the person asked or in the rejection", at)
		}
		if whenNode != nil {
			r.conds = c.conditions(s, r.Kind, at, whenNode)
		}
		p.rules = append(p.rules, r)
	}
}

func (c *compiler) conditions(s *Spec, kindName, at string, n *yaml.Node) []condition {
	if n.Kind != yaml.MappingNode {
		c.errorf(n, "%s.when must map field paths to values or bounds", at)
		return nil
	}
	var out []condition
	for _, kv := range pairs(n) {
		cd := condition{field: kv[0].Value, path: strings.Split(kv[0].Value, ".")}
		if !c.fieldOfKind(s, kindName, cd.path[0]) {
			what := "any message kind of the spec"
			if kindName != "" {
				what = "kind " + kindName
			}
			c.errorf(kv[0], "%s.when: %q is not a field of %s", at, cd.path[0], what)
		}
		switch v := kv[1]; v.Kind {
		case yaml.ScalarNode:
			cd.values = []any{c.scalar(v)}
		case yaml.SequenceNode:
			if len(v.Content) == 0 {
				c.errorf(v, "%s.when.%s: the list of values is empty", at, cd.field)
			}
			cd.values = []any{}
			for _, e := range v.Content {
				cd.values = append(cd.values, c.scalar(deref(e)))
			}
		case yaml.MappingNode:
			for _, b := range pairs(v) {
				switch op := b[0].Value; op {
				case "lt":
					cd.lt = c.bound(b[1], op)
				case "le":
					cd.le = c.bound(b[1], op)
				case "gt":
					cd.gt = c.bound(b[1], op)
				case "ge":
					cd.ge = c.bound(b[1], op)
				case "present":
					switch b[1].Value {
					case "true":
						cd.present = 1
					case "false":
						cd.present = -1
					default:
						c.errorf(b[1], "%s.when.%s.present must be true or false (got %q)", at, cd.field, b[1].Value)
					}
				default:
					c.errorf(b[0], "%s.when.%s: unknown test %q (want lt, le, gt, ge, present)", at, cd.field, op)
				}
			}
		default:
			c.errorf(v, "%s.when.%s must be a value, a list of values or a mapping of lt, le, gt, ge, present", at, cd.field)
		}
		for i, val := range cd.values {
			if f, ok := asFloat(val); ok {
				cd.values[i] = f // numbers compare by value
			}
		}
		out = append(out, cd)
	}
	return out
}

// fieldOfKind reports whether name is a field of the kind, or of any kind
// when kindName is empty.
func (c *compiler) fieldOfKind(s *Spec, kindName, name string) bool {
	for _, k := range s.kinds {
		if (kindName == "" || k.name == kindName) && k.fields[name] != nil {
			return true
		}
	}
	return false
}
