package enumdrift_test

import (
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/languages/extract"
)

// TestLearnedFromAliasSet: a set of old spellings (named, commented or
// united so) is an alias table without targets. Its words used elsewhere
// in the repository are legacy spellings with the set as their source,
// not unknown words; a table that names a target wins over the set.
func TestLearnedFromAliasSet(t *testing.T) {
	v := shapesVocabulary(t)
	const worker = `
def route(handback):
    if handback["status"] == "success":
        return "merge"
    if handback["status"] == "finished_ok":
        return "merge"
    if handback["status"] == "failure":
        return "retry"
`
	for _, c := range []struct {
		name, sets string
		want       string // the rule of the finding at finished_ok and a part of its message
	}{
		{"no set", `X = 1
`, "enumdrift/unknown-status|is not a HANDBACK status"},
		{"named", `LEGACY_STATUSES = {"finished_ok", "Done"}
`, "enumdrift/legacy-status|the set of old spellings at sets.py:1 accepts it"},
		{"commented", `# old spellings of v0 workers, still accepted
OLD = ["finished_ok", "complete"]

def accepts(handback):
    return handback["status"] in OLD
`, "enumdrift/legacy-status|the set of old spellings at sets.py:2 accepts it"},
		{"united", `CANONICAL = {"success", "failure", "partial", "blocked", "escalate"}
OLD = {"finished_ok", "complete"}
ACCEPTED = CANONICAL | OLD
`, "enumdrift/legacy-status|the set of old spellings at sets.py:2 accepts it"},
		{"a table names the target", `LEGACY_STATUSES = {"finished_ok", "Done"}
ALIASES = {"finished_ok": "success", "complete": "success", "failed": "failure"}
`, "enumdrift/legacy-status|the protocol spells it \"success\", as the alias table at sets.py:2 says"},
		{"an unrelated set named legacy", `LEGACY_COLORS = {"finished_ok", "mauve"}
`, "enumdrift/unknown-status|is not a HANDBACK status"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sets, err := extract.File("sets.py", []byte(c.sets))
			if err != nil {
				t.Fatal(err)
			}
			w, err := extract.File("worker_handback.py", []byte(worker))
			if err != nil {
				t.Fatal(err)
			}
			tables := append(enumdrift.Analyze(sets, v).Tables, enumdrift.Analyze(w, v).Tables...)
			rule, text, _ := strings.Cut(c.want, "|")
			got := ""
			for _, fd := range enumdrift.Analyze(w, v.WithAliases(tables)).Findings {
				if fd.Literal == "finished_ok" {
					got = fd.Rule + "|" + fd.Message
					if fd.Fix != nil && fd.Canonical == "" {
						t.Errorf("a fix without a target: %+v", fd.Fix)
					}
				}
			}
			if !strings.HasPrefix(got, rule+"|") || !strings.Contains(got, text) {
				t.Errorf("finished_ok: got %q, want rule %s and %q", got, rule, text)
			}
		})
	}
}
