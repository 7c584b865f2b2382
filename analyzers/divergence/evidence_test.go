package divergence

import (
	"testing"

	"github.com/protoscan-dev/protoscan/languages/extract"
)

// TestNamedForField: a validation named for a field (validate_context)
// checks that field, not a message: it is a DELEGATE or HANDBACK
// validation only with protocol evidence inside it (a kind's word in
// capitals, a marker, the fields of a message).
func TestNamedForField(t *testing.T) {
	const body = `
    errors = []
    if not context.get("skill"):
        errors.append("context needs a skill")
    if len(context.get("scope", "").split()) < 15:
        errors.append("scope too short")
    if context.get("agent") not in ("engineer", "orchestrator"):
        errors.append("unknown agent")
    if not context.get("plan"):
        errors.append("no plan")
`
	for _, c := range []struct {
		name, src string
		want      Concept
	}{
		{"a skill design's context, no evidence", "def validate_context(context):" + body + "    return errors\n", 0},
		{"the kind in capitals inside", "def validate_context(context):" + body +
			"    if context.get(\"handoff_type\") != \"DELEGATE\":\n        errors.append(\"not a DELEGATE\")\n    return errors\n", DelegateValidation},
		{"a message's fields inside", "def validate_context(context):" + body +
			"    if not context.get(\"task_id\"):\n        errors.append(\"no task\")\n    return errors\n", DelegateValidation},
		{"not named for a field: as before", "def check(context):" + body + "    return errors\n", DelegateValidation},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := extract.File("skills/design/validator.py", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			var got Concept
			for _, cand := range Candidates(f, testModel(Options{})) {
				got = cand.Concept
			}
			if got != c.want {
				t.Errorf("concept = %v, want %v", got, c.want)
			}
		})
	}
}
