package divergence

import (
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/extract"
)

// TestErrorHandlersAreNoEscalationDecisions: functions that only call an
// escalate_* helper for some errors, reading fields named as the
// protocol's (error, context, budget), are escalation decisions only in
// a file that shows the protocol.
func TestErrorHandlersAreNoEscalationDecisions(t *testing.T) {
	const handlers = `class OnboardingErrors:
    def on_analysis_error(self, error, context):
        if isinstance(error, MissingFields):
            return self.ask_again(error.missing_fields)
        elif isinstance(error, OverBudget):
            return self.cheaper_plan(error.budget, error.requirements)
        else:
            return self.escalate_to_human_analyst(error, context)

    def on_deploy_error(self, error, context):
        if isinstance(error, NoCapacity):
            return self.retry_elsewhere(error.budget, error.requirements)
        elif isinstance(error, BadConfig):
            return self.rollback(error.missing_fields)
        else:
            return self.escalate_to_operations(error, context)
`
	if got := scanSources(t, map[string]string{"errors.py": handlers}); len(got) != 0 {
		t.Errorf("error handlers: got %d findings, want none: %v", len(got), got)
	}
	// the same in a file that handles HANDBACKs: the protocol's decision
	shown := "KIND = \"HANDBACK\"\n\n" + handlers
	if got := scanSources(t, map[string]string{"errors.py": shown}); len(got) == 0 || got[0].Rule != RuleDuplicateEscalation {
		t.Errorf("handlers of HANDBACK errors: got %v, want a duplicate-escalation", got)
	}
}

// TestEscalationActionsAreNoDecisions: helpers named for escalation that
// compare nothing (they open a gate and log the task_id) are the actions
// a decision takes, not copies of the decision.
func TestEscalationActionsAreNoDecisions(t *testing.T) {
	const actions = `class Worker:
    async def _escalate_stuck(self, state):
        ctx = {"task": state.task_id, "why": "loop"}
        await self.gate.open(ctx)
        state.waiting = True
        return self.finish(state)

    async def _escalate_unsure(self, state):
        ctx = {"task": state.task_id, "why": "unsure"}
        await self.gate.open(ctx)
        state.waiting = True
        return self.finish(state)
`
	if got := scanSources(t, map[string]string{"worker.py": actions}); len(got) != 0 {
		t.Errorf("escalation actions: got %d findings, want none: %v", len(got), got)
	}
}

// TestEvidenceInProse: a kind's word in a comment or docstring of the
// file is protocol evidence, as DESIGN.md says: two functions named for
// escalation comparing a bare confidence are copies there, and nothing
// where the file never names a kind.
func TestEvidenceInProse(t *testing.T) {
	decide := func(prose string, cut string) string {
		return prose + `
def should_escalate(confidence):
    if confidence < ` + cut + `:
        return True
    return False
`
	}
	m := testModel(Options{})
	run := func(prose string) []finding.Finding {
		var cands []Candidate
		for p, src := range map[string]string{"a.py": decide(prose, "0.85"), "b.py": decide(prose, "0.80")} {
			f, err := extract.File(p, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			cands = append(cands, CandidatesIn(f, []byte(src), m)...)
		}
		return Cluster(cands, m)
	}
	for _, prose := range []string{"# Decides whether a HANDBACK goes up.\n", "\"\"\"Decides whether a HANDBACK goes up.\"\"\"\n"} {
		if got := run(prose); len(got) != 2 {
			t.Errorf("%q: got %d findings, want a duplicate and a conflict: %v", prose, len(got), got)
		}
	}
	if got := run("# Decides whether a ticket goes up.\n"); len(got) != 0 {
		t.Errorf("no kind named: got %v", got)
	}
}
