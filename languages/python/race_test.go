//go:build race

package python

const raceEnabled = true
