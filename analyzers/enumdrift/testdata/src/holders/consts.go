package holders

// constants compared with the field: each holds one of its values
const (
	agentSecurity = "Security Engineer" // want `"Security Engineer" differs from the canonical "security-engineer" only in case and separators \(compared with delegate.Agent\)`
	agentQuality  = "QUALITY_ENGINEER"  // want `"QUALITY_ENGINEER" differs from the canonical "quality-engineer" only in case and separators`
	themeDark     = "Dark Mode"
)

func review(delegate Delegate, theme string) int {
	switch delegate.Agent {
	case agentSecurity:
		return 1
	}
	if agentQuality == delegate.Agent {
		return 2
	}
	if theme == themeDark {
		return 3
	}
	return 0
}

// a slice read at an index in a case of a switch over the field
var reviewers = []string{"Principal Engineer", "orchestrator"} // want `"Principal Engineer" differs from the canonical "principal-engineer" only in case and separators`

func reviewer(delegate Delegate) bool {
	switch delegate.Agent {
	case reviewers[0]:
		return true
	}
	return false
}
