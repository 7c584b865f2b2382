package util

// Cache is a cache entry; Warm has the shape of an escalation decision and
// nothing of one.
type Cache struct {
	Age  float64
	Hits int
	Kind string
}

// Warm reports whether a cache entry is warm.
func Warm(c Cache) bool {
	age := c.Age
	if age < 0.7 {
		return true
	}
	if c.Hits >= 3 {
		return true
	}
	if c.Kind == "hot" || c.Kind == "pinned" {
		return true
	}
	return false
}
