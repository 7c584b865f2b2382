// Package former holds DELEGATEs whose agent is written under role, the
// field's former name, and chat messages whose role is no agent at all.
package former

// A DELEGATE map of an older agent: role is its agent.
func delegate(id, scope string) map[string]any {
	return map[string]any{"task_id": id, "role": "Senior Engineer", "skill": "debugging", "scope": scope} // want `DELEGATE agent value "Senior Engineer" differs from the canonical "senior-engineer" only in case and separators`
}

// Routing on a delegate's role compares it with agents.
func route(delegate map[string]any) string {
	switch {
	case delegate["role"] == "senior_engineer": // want `DELEGATE agent value "senior_engineer" differs from the canonical "senior-engineer"`
		return "review"
	case delegate["role"] == "engineer":
		return "build"
	case delegate["role"] == "orchestrator":
		return "plan"
	}
	return ""
}

// Message is a chat message: its roles are no agents.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

func chat(q string) []Message {
	msgs := []Message{{Role: "system", Content: "be brief"}, {Role: "user", Content: q}}
	if msgs[0].Role == "assistant" {
		return nil
	}
	return append(msgs, Message{Role: "assistant", Content: "engineer"})
}

func openai(prompt string) []map[string]string {
	return []map[string]string{
		{"role": "system", "content": "You are a senior engineer."},
		{"role": "user", "content": prompt},
	}
}
