package main

import (
	"fmt"
	"io"
	"runtime/pprof"

	"github.com/protoscan-dev/protoscan/internal/safefile"
)

// envCPUProfile names a file to write a CPU profile of the run to (any
// subcommand; not the go vet tool mode, which exits on its own), for `go
// tool pprof`: where a slow scan or audit spends its time, in the real
// binary, start-up included.
const envCPUProfile = "PROTOSCAN_CPUPROFILE"

// startCPUProfile starts profiling into path, unless path is empty, and
// returns what stops it. A profile that cannot be written is a warning:
// the run itself goes on.
func startCPUProfile(path string, stderr io.Writer) (stop func()) {
	if path == "" {
		return func() {}
	}
	// named by the environment, not the tree: the working directory is
	// the only tree to stay in
	f, err := safefile.Create(path, 0o644, ".")
	if err == nil {
		err = pprof.StartCPUProfile(f)
		if err != nil {
			f.Abort()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "protoscan: %s: %v (no profile written)\n", envCPUProfile, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "protoscan: %s: %v\n", envCPUProfile, err)
		}
	}
}
