package prefetch

import (
	"testing"
	"unsafe"
)

// TestLineChangesNothing: a prefetch is a hint, valid on the nil pointer
// too, and it changes no memory.
func TestLineChangesNothing(t *testing.T) {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	for i := range b {
		Line(unsafe.Pointer(&b[i]))
	}
	Line(nil)
	for i := range b {
		if b[i] != byte(i) {
			t.Fatalf("byte %d is %d after the prefetches", i, b[i])
		}
	}
}
