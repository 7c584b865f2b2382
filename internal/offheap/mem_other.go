//go:build !linux

package offheap

// mapBlock takes the block from the Go heap: outside Linux an Arena
// still keeps the garbage collector from scanning it, and nothing more.
func mapBlock(size int) (b []byte, mapped bool) { return make([]byte, size), false }

func unmapBlock([]byte) {}
