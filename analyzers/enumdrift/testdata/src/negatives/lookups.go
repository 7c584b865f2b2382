package negatives

import "slices"

// Lookups of fields that are no protocol field, and of a status whose
// words are not the protocol's: silent.

type Job struct{ Status, Color, Agent string }

var colors = []string{"red", "green", "blue"}

var jobStates = map[string]bool{"queued": true, "running": true, "done": false}

var userAgents = []string{"Mozilla", "curl", "Wget"}

func checks(j Job) bool {
	if slices.Contains(colors, j.Color) {
		return true
	}
	if slices.Contains(userAgents, j.Agent) {
		return true
	}
	return jobStates[j.Status]
}

// An HTTP status switch: not a HANDBACK.
func phrase(code string) string {
	switch code {
	case "OK", "Not Found":
		return code
	}
	return ""
}
