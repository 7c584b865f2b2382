package validators

// Package-level sets tested in another file of the package (checks.go):
// the test there gates them here.
var handbackStates = []string{"success", "failure", "partial", "escalate"} // want `set handbackStates rejects the valid HANDBACK status blocked \(tested against h.Status in .*checks.go`

var routed = []string{"success", "failure"}
