package messages

import (
	"github.com/protoscan-dev/protoscan/handoff"
	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// Handoffs is the protocol of NEXUS handoffs, judged by e as `protoscan
// validate --handoff` judges them: a V1 handoff (no confidence, or no
// breakdown) is migrated with a msgcheck/handoff-v1-migration warning
// rather than failed on the fields it lacks, the spec's consistency rules
// apply, and a minor breakdown discrepancy is auto-corrected with a
// msgcheck/handoff-auto-correct warning.
//
// Only data documents are read (YAML, JSON, the blocks of Markdown), and
// only two kinds of mapping are handoffs, so that no arbitrary mapping is
// validated: the value of a top-level NEXUS_HANDOFF_V2: or NEXUS_HANDOFF:
// key (when it is a mapping), and a mapping with every field of the
// kind's signature in e's spec (step, agent, next_agent) whose foreign
// fields do not outnumber the kind's own (msgcheck's Spec.FitsKind).
func Handoffs(e *handoff.Evaluator) Protocol {
	if e == nil {
		return nil
	}
	return handoffs{e}
}

type handoffs struct{ e *handoff.Evaluator }

func (h handoffs) specOf() *msgcheck.Spec { return h.e.Spec() }
func (h handoffs) kindNames() []string    { return []string{handoff.Kind} }

// prefilterWords: both wrapper keys start with NEXUS_HANDOFF.
func (h handoffs) prefilterWords() []string { return []string{handoff.KeyV1} }

func (h handoffs) find(f *facts.File, m *facts.Mapping, keys map[string]any, byPos map[facts.Pos]int) []message {
	if m.InCode {
		return nil
	}
	var out []message
	wrapped := false
	for _, e := range m.Entries {
		if e.Key != handoff.KeyV2 && e.Key != handoff.KeyV1 {
			continue
		}
		wrapped = true
		if _, isMap := e.Value.(map[string]any); !isMap {
			continue // a prose mention, a placeholder: not a handoff to judge
		}
		if i, ok := byPos[e.ValPos]; ok {
			out = append(out, message{&f.Mappings[i], handoff.Kind})
		}
	}
	if wrapped {
		return out
	}
	if sp := h.e.Spec(); sp.Detect(keys) == handoff.Kind && sp.FitsKind(handoff.Kind, recordOf(m)) {
		return []message{{m, handoff.Kind}}
	}
	return nil
}

func (h handoffs) judge(_ string, msg map[string]any) []judged {
	ev := h.e.EvaluateValue(msg)
	out := make([]judged, 0, len(ev.Findings))
	for _, f := range ev.Findings {
		j := placed(f.Finding, f.Severity != "error")
		if at := f.At(); at != f.Field {
			// a migration points at the field the missing one was inferred from
			j.at, j.atKey = yamlnode.ParsePath(at), false
		}
		out = append(out, j)
	}
	return out
}

// Verdicts is the protocol of phase verdicts, checked by v (the verdict
// contract's validator, phase.Validator()) as `protoscan validate
// --verdict` checks them, with the same rule ids: fail-closed, a verdict
// that does not fit the contract is invalid.
//
// A verdict is a JSON document: a top-level mapping of a .json or .jsonl
// file (or an element of a top-level list) with every field of a
// signature of v's spec (verdict, conditions_checked, conditions_met,
// conditions_failed), its foreign fields not outnumbering the kind's own.
// An API response that merely has a "verdict" key is not one.
func Verdicts(v *msgcheck.Validator) Protocol {
	if v == nil {
		return nil
	}
	return verdicts{v}
}

type verdicts struct{ v *msgcheck.Validator }

func (p verdicts) specOf() *msgcheck.Spec   { return p.v.Spec() }
func (p verdicts) kindNames() []string      { return p.v.Spec().Kinds() }
func (p verdicts) prefilterWords() []string { return nil }

func (p verdicts) find(f *facts.File, m *facts.Mapping, keys map[string]any, _ map[facts.Pos]int) []message {
	if m.InCode || f.Lang != "json" && f.Lang != "jsonl" {
		return nil
	}
	if k := p.v.Spec().Detect(keys); k != "" && p.v.Spec().FitsKind(k, recordOf(m)) {
		return []message{{m, k}}
	}
	return nil
}

func (p verdicts) judge(kind string, msg map[string]any) []judged {
	return fromResult(p.v.ValidateAt(kind, msg, nil))
}
