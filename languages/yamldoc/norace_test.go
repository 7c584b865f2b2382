//go:build !race

package yamldoc

const raceEnabled = false
