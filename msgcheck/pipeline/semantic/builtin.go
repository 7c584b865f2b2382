package semantic

import "github.com/protoscan/protoscan/msgcheck/pipeline"

// Builtin returns the built-in semantic validators, in the order they
// run: paths (over the snapshot), commands, claims.
func Builtin(snap *Snapshot) []pipeline.SemanticValidator {
	return []pipeline.SemanticValidator{NewPaths(snap), NewCommands(), NewClaims()}
}
