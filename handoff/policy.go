package handoff

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// Kind is the message kind of a handoff in the spec.
const Kind = "nexus_handoff_v2"

// SpecName is the embedded spec that defines Kind.
const SpecName = "nexus-handoff-v2.yaml"

// PolicyKey is the x- annotation of the kind that holds the policy.
const PolicyKey = "x-nexus-handoff"

// SpecGlob is where a repository keeps its own handoff spec, relative to
// its root.
const SpecGlob = "docs/specs/nexus-handoff-v2*.yaml"

// The fields of the protocol the policy acts on.
const (
	fieldStep       = "step"
	fieldAgent      = "agent"
	fieldStatus     = "status"
	fieldConfidence = "confidence"
	fieldBreakdown  = "confidence_breakdown"
	fieldNextAgent  = "next_agent"
	fieldNextAction = "next_action"
)

// axes are the components of confidence_breakdown, in the seed's order.
var axes = [3]string{"task_completion", "output_quality", "next_step_clarity"}

// policy is the x-nexus-handoff block of a spec, checked and compiled.
type policy struct {
	weights  [3]float64         // per axis
	inferred map[string]float64 // status -> confidence (compliance level 1)

	correctRule string  // the rule id auto_correct may repair; "" for none
	maxCorrect  float64 // largest discrepancy auto-corrected

	autoRoute, assume float64
	pauseStatuses     []string
	pauseFields       []string
	escalateStatuses  []string
	escalateActions   []string
}

// parsePolicy reads the policy block of s's handoff kind.
func parsePolicy(s *msgcheck.Spec) (*policy, error) {
	raw, ok := s.Extension(Kind, PolicyKey)
	if !ok {
		return nil, fmt.Errorf("%s: kind %s has no %s block (copy it from the embedded %s)", s.Source, Kind, PolicyKey, SpecName)
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: %s must be a mapping", s.Source, PolicyKey)
	}
	p := &policy{inferred: map[string]float64{}}
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s: "+format, append([]any{s.Source, PolicyKey}, args...)...))
	}
	score := func(where string, v any) float64 {
		f, ok := number(v)
		if !ok || f < 0 || f > 1 {
			bad("%s must be a number from 0 to 1 (got %v)", where, v)
		}
		return f
	}
	weights, _ := m["weights"].(map[string]any)
	sum := 0.0
	for i, a := range axes {
		p.weights[i] = score("weights."+a, weights[a])
		sum += p.weights[i]
	}
	if math.Abs(sum-1) > 1e-9 {
		bad("weights must add up to 1 (they add up to %s)", fmtScore(sum))
	}
	inferred, ok := m["inferred_confidence"].(map[string]any)
	if !ok {
		bad("inferred_confidence must map each status to a confidence")
	}
	for st, v := range inferred {
		p.inferred[st] = score("inferred_confidence."+st, v)
	}
	if ac, ok := m["auto_correct"].(map[string]any); ok {
		rule, _ := ac["rule"].(string)
		if rule == "" {
			bad("auto_correct.rule must name the reason of a rule of the kind")
		}
		p.correctRule = "msgcheck/" + Kind + "-" + rule
		if !slices.ContainsFunc(s.Rules(Kind), func(r msgcheck.RuleInfo) bool { return r.ID == p.correctRule }) {
			bad("auto_correct.rule %q is not the reason of a rule of %s", rule, Kind)
		}
		p.maxCorrect = score("auto_correct.max_discrepancy", ac["max_discrepancy"])
	}
	routing, ok := m["routing"].(map[string]any)
	if !ok {
		bad("routing must be a mapping")
	}
	p.autoRoute = score("routing.auto_route", routing["auto_route"])
	p.assume = score("routing.route_with_assumption", routing["route_with_assumption"])
	if p.assume > p.autoRoute {
		bad("routing.route_with_assumption (%s) is above routing.auto_route (%s)", fmtScore(p.assume), fmtScore(p.autoRoute))
	}
	for key, dst := range map[string]*[]string{"pause_statuses": &p.pauseStatuses, "pause_fields": &p.pauseFields,
		"escalate_statuses": &p.escalateStatuses, "escalate_actions": &p.escalateActions} {
		list, _ := routing[key].([]any)
		for _, v := range list {
			str, ok := v.(string)
			if !ok {
				bad("routing.%s must be a list of strings", key)
				break
			}
			*dst = append(*dst, str)
		}
	}
	if len(errs) > 0 {
		slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
		return nil, errors.Join(errs...)
	}
	return p, nil
}

// weighted is the breakdown's weighted average; ok is false unless all
// three axes are numbers.
func (p *policy) weighted(b map[string]any) (avg float64, ok bool) {
	for i, a := range axes {
		f, isNum := number(b[a])
		if !isNum {
			return 0, false
		}
		avg += p.weights[i] * f
	}
	return avg, true
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, !math.IsNaN(x)
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	}
	return 0, false
}

// fmtScore writes a score with at least two decimals: 0.6 as 0.60, 0.745
// as it is.
func fmtScore(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	dot := strings.IndexByte(s, '.')
	switch {
	case dot < 0:
		return s + ".00"
	case len(s)-dot == 2:
		return s + "0"
	}
	return s
}

// round2 rounds to two decimals, as agents write scores.
func round2(f float64) float64 { return math.Round(f*100+1e-9) / 100 }

// round3 rounds a discrepancy to three decimals, enough to tell 0.055
// from the 0.05 tolerance.
func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// DefaultSpec returns the embedded handoff spec.
func DefaultSpec() (*msgcheck.Spec, error) { return msgcheck.EmbeddedSpec(SpecName) }

// Discover returns the handoff spec of a repository: the highest version
// among root/docs/specs/nexus-handoff-v2*.yaml (each read as
// msgcheck.LoadSpecIn reads it: inside root, bounded), else the embedded
// spec. A repository extends the agents or enums (or changes the thresholds) by
// shipping a copy of the embedded spec there.
func Discover(root string) (*msgcheck.Spec, error) {
	specs, err := msgcheck.DiscoverGlob(root, SpecGlob)
	switch {
	case err != nil:
		return nil, err
	case len(specs) == 0:
		return DefaultSpec()
	}
	return specs[0], nil
}
