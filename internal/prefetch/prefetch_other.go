//go:build !amd64

package prefetch

import "unsafe"

// Line does nothing here: no prefetch instruction is wired up off amd64.
func Line(p unsafe.Pointer) {}
