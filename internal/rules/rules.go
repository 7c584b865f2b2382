// Package rules is protoscan's catalogue of rules: for every rule id a
// finding can carry, its documentation (what it reports, why it matters,
// an example, the fix) and its default severity. `protoscan rules` and
// `protoscan explain RULE` print it and the SARIF renderer writes it into
// tool.driver.rules. It is data only: analyzers do not import it.
package rules

import (
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/editdist"
)

// Doc documents one rule, or a family of generated rule ids (msgcheck's
// per-field rules: Pattern "msgcheck/<kind>-<field>-<constraint>").
type Doc struct {
	ID       string           // "enumdrift/legacy-status"
	Name     string           // PascalCase for SARIF: "LegacyStatus"
	Title    string           // one line: "A legacy alias of a HANDBACK status"
	Severity finding.Severity // the default level
	What     string           // what the rule reports (a paragraph)
	Why      string           // why it matters
	Example  string           // a short example that triggers it
	Fix      string           // how to fix it
}

// Nearest suggests the catalogued rule id closest to a mistyped one,
// or "" when none is close: within an edit distance of a third of its
// length (at least 2), or containing it. An id given without its family
// ("legacy-status") is compared with the names after the slash too.
func Nearest(id string) string {
	id = strings.ToLower(id)
	best, bestDist := "", -1
	for _, d := range All() {
		if strings.Contains(d.ID, "*") {
			continue // family ids are patterns, not ids to type
		}
		dist := editdist.Distance(id, d.ID)
		if !strings.Contains(id, "/") {
			_, name, _ := strings.Cut(d.ID, "/")
			dist = min(dist, editdist.Distance(id, name))
		}
		isNear := dist <= max(2, len(id)/3) || (len(id) >= 4 && strings.Contains(d.ID, id))
		if isNear && (bestDist < 0 || dist < bestDist) {
			best, bestDist = d.ID, dist
		}
	}
	return best
}
