//go:build unix

package golang

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) used by the process so
// far: on a shared machine a better measure than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
