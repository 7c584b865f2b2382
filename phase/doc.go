// Package phase judges a phase agent's HANDOFF against the phase's exit
// conditions, and checks phase verdict JSON against its contract.
//
// The judge is deterministic and read-only: it parses the exit conditions
// (file_exists, command_passes, metric_threshold, visual_verify, manual),
// looks in the HANDOFF text for evidence of each (an explicit statement, a
// "Files changed" or "Built" section, a field with verifiable language),
// rejects hedged wording ("should work", "probably passes") as evidence,
// and writes the verdict in the contract's JSON shape. It never runs a
// command; with a repository directory it may stat file_exists paths
// under it, never outside it.
//
// A verdict read back (from a repository, or from another judge) is
// checked fail-closed against the embedded spec phase-verdict-v1.yaml:
// anything that does not parse or fit the contract is a fail.
package phase
