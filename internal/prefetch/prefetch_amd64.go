package prefetch

import "unsafe"

// Line starts loading the cache line that holds p into every level of
// the cache (PREFETCHT0).
//
//go:noescape
func Line(p unsafe.Pointer)
