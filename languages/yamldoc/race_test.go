//go:build race

package yamldoc

// raceEnabled reports whether the race detector is on. It slows parsing down
// some twentyfold and finds nothing in single-goroutine code, so the tests
// skip their largest inputs under it.
const raceEnabled = true
