// Package holders holds the DELEGATE agent's values in other spellings
// (Title Case, snake case, upper case) in the places Go code keeps a
// field's vocabulary: each is drift of the agent enum.
package holders

import "slices"

type Delegate struct {
	TaskID string `json:"task_id"`
	Agent  string `json:"agent"`
	Scope  string `json:"scope"`
}

// a package slice tested with the field
var validAgents = []string{"orchestrator", "Senior Engineer", "lead_engineer"} // want `"Senior Engineer" differs from the canonical "senior-engineer" only in case and separators` `"lead_engineer" differs from the canonical "lead-engineer"`

func accepts(delegate Delegate) bool {
	return slices.Contains(validAgents, delegate.Agent)
}

// a slice on a field of a struct, set where the struct is built and
// tested by its methods
type Router struct {
	allowed []string
	queues  map[string]int
}

func NewRouter() *Router {
	return &Router{allowed: []string{"Orchestrator", "engineer"}} // want `"Orchestrator" differs from the canonical "orchestrator" only in case`
}

func (r *Router) accepts(delegate Delegate) bool {
	return slices.Contains(r.allowed, delegate.Agent)
}

// a map keyed by agents, looked up with the field
var handlers = map[string]func(Delegate){
	"Senior Engineer": func(Delegate) {}, // want `"Senior Engineer" differs from the canonical "senior-engineer"`
	"orchestrator":    func(Delegate) {},
}

func dispatch(delegate Delegate) {
	if h, ok := handlers[delegate.Agent]; ok {
		h(delegate)
	}
}

// an array read through an index
var tiers = [...]string{"ENGINEER", "SENIOR_ENGINEER"} // want `"ENGINEER" differs from the canonical "engineer" only in case` `"SENIOR_ENGINEER" differs from the canonical "senior-engineer"`

func promote(delegate *Delegate) {
	if delegate.Agent == tiers[0] {
		delegate.Agent = tiers[1]
	}
}

// a local holding the field
func route(d Delegate) int {
	agent := d.Agent
	switch agent {
	case "orchestrator", "engineer":
		return 1
	case "Senior Engineer": // want `"Senior Engineer" differs from the canonical "senior-engineer"`
		return 2
	}
	return 0
}
