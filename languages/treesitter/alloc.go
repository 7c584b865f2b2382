//go:build cgo

package treesitter

/*
#include <stddef.h>

// Declared here rather than included: the binding's headers are not on our
// include path. The definition is in the binding's C library, linked into
// the same binary.
void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t),
                      void *(*)(void *, size_t), void (*)(void *));

static void protoscan_ts_default_allocator(void) {
	ts_set_allocator(NULL, NULL, NULL, NULL);
}
*/
import "C"

// The binding's init routes every tree-sitter malloc and free through Go
// callbacks (go_malloc...), which only call C malloc and free again: a
// C->Go->C round trip per allocation. Restoring tree-sitter's default
// allocator (plain malloc/free, directly) makes parsing about 1.4x faster
// (BenchmarkAllocator: 12.7 ms -> 9.0 ms a parse) and is safe because both allocators use the same C
// heap: memory allocated before the switch may be freed after it.
//
// It runs in init, after the binding's init (we import it) and before any
// parse, since ts_set_allocator is not synchronised with allocation. A
// program that calls sitter.SetAllocator with its own functions must not
// use this package.
func init() {
	useDefaultAllocator()
}

// useDefaultAllocator restores tree-sitter's own allocator. The benchmark
// also calls it to switch back after measuring the binding's.
func useDefaultAllocator() {
	C.protoscan_ts_default_allocator()
}
