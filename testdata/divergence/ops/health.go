package ops

import "net/http"

// CheckResponse validates an HTTP response: its status is an HTTP status.
func CheckResponse(r *http.Response) bool {
	if r.StatusCode >= 500 {
		return false
	}
	return r.Status == "200 OK"
}

// ValidateProbe checks a liveness probe.
func ValidateProbe(status string, failures int) bool {
	if failures >= 3 {
		return false
	}
	return status == "ok"
}
