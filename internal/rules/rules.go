// Package rules is protoscan's catalogue of rules: for every rule id a
// finding can carry, its documentation (what it reports, why it matters,
// an example, the fix) and its default severity. `protoscan rules` and
// `protoscan explain RULE` print it and the SARIF renderer writes it into
// tool.driver.rules. It is data only: analyzers do not import it.
package rules

import "github.com/protoscan-dev/protoscan/finding"

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
