// Package negatives holds look-alikes that are not protocol decisions.
package negatives

import (
	"errors"
	"strings"
)

// URL is a parsed URL, with the fields of net/url's that Validate reads.
// The look-alikes here declare the standard library's types they use:
// analysistest type-checks every package a test package imports from
// source, and net/http's are 185, cgo included.
type URL struct{ Scheme, Host string }

// parseURL splits raw into a scheme and a host.
func parseURL(raw string) (*URL, error) {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return nil, errors.New("no scheme")
	}
	host, _, _ := strings.Cut(rest, "/")
	return &URL{Scheme: scheme, Host: host}, nil
}

// Validate checks a URL: a validate() that never touches the protocol.
func Validate(raw string) bool {
	u, err := parseURL(raw)
	if err != nil {
		return false
	}
	return u.Scheme == "https" && len(u.Host) > 3
}

// ValidateURL is the same check again: duplicated, but not protocol code.
func ValidateURL(raw string) bool {
	u, err := parseURL(raw)
	if err != nil {
		return false
	}
	return u.Scheme == "https" && len(u.Host) > 5
}

// Level is a log level.
type Level struct{ Value, Count int }

// EscalateLevel raises repeated warnings: escalation of log levels.
func EscalateLevel(l Level) Level {
	if l.Value < 40 && l.Count >= 3 {
		l.Value = 40
	}
	return l
}

// escalateLevelAgain is a copy with another limit: still not protocol code.
func escalateLevelAgain(l Level) Level {
	if l.Value < 30 && l.Count >= 5 {
		l.Value = 30
	}
	return l
}

// Response is an HTTP response, with the fields of net/http's that
// CheckResponse reads.
type Response struct {
	Status     string
	StatusCode int
}

// CheckResponse checks an HTTP status.
func CheckResponse(r *Response) bool {
	return r.StatusCode < 500 && strings.HasPrefix(r.Status, "2")
}

// CheckHealth checks a health endpoint's status.
func CheckHealth(status map[string]string) bool {
	return status["status"] == "ok"
}

// Condition is a Kubernetes condition.
type Condition struct{ Type, Status string }

// CheckReady validates a Ready condition.
func CheckReady(c Condition) bool {
	return c.Type == "Ready" && c.Status == "True"
}

// CheckReadyAgain validates it again.
func CheckReadyAgain(c Condition) bool {
	return c.Type == "Ready" && c.Status == "True"
}
