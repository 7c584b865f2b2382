package validators

import "slices"

// Spellings of v0 workers, still accepted: deprecated, kept for old queues.
var oldStatuses = []string{"complete", "failed", "Success"}

var oldAgents = []string{"Senior Engineer", "qa"} // legacy names of the agents

// acceptOld reads queues written before the protocol.
func acceptOld(h Handback, d Delegate) bool {
	return slices.Contains(oldStatuses, h.Status) && slices.Contains(oldAgents, d.Agent)
}
