package engine

// step is one post-processing step of a scan: what turns the findings
// of the roots into the report. Each lives in its own file, with the
// code it runs. An error ends the scan without a report (exit 2);
// trouble a step can go on from is notified and set in state.trouble.
type step interface {
	name() string
	run(s *state) error
}

// steps are the post-processing steps, in the order they run. The order
// is the contract of the gate (DESIGN.md): change it and reports change.
var steps = []step{
	// The spec problems of the tree first, in place of the parse errors
	// of the same spec files: they are findings like the others, which
	// the config's rule settings and suppressions apply to.
	specFindings{},
	// The config's rule settings before the suppressions: a rule turned
	// off hides its findings without a comment, and a comment on it
	// then suppresses nothing.
	ruleSettings{},
	// protoscan:ignore comments; with --new-from-rev the findings before
	// them are kept, for the notes that say what a new comment hides.
	suppressions{},
	// The rule settings again: the notices the suppressions add (unused,
	// no reason) are rules the config may turn off or down.
	ruleSettings{},
	// Sorted once the set of findings is settled: the report is
	// deterministic, and the baseline is written in this order.
	sortFindings{},
	// The tree's problems as they are now, for the summaries: before the
	// baseline and --new-from-rev, which hide findings, not problems.
	liveProblems{},
	// The baseline, written or read, before --new-from-rev: a baseline
	// records the whole tree's findings, not the change's.
	baselineStep{},
	// --new-from-rev keeps the findings on changed lines, then adds the
	// gate-changed notes, after the suppressions and the baseline, so
	// that neither hides them.
	newFromRev{},
	// --fix and --diff apply the fixes of what is left to report, before
	// the summaries, which are of the tree with the fixes applied.
	fixes{},
	// The summaries: messages per kind, the status spellings, the docs
	// of the rules the report shows.
	summaries{},
	// Last, the repository root SARIF names files relative to.
	pathKeys{},
}
