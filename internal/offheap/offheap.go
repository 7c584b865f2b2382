// Package offheap hands out large pointer-free buffers from memory the
// Go heap does not own, backed by transparent huge pages where Linux
// offers them.
//
// It exists for bulk data that a fresh process builds once and drops at
// the end, like the audit's index: tens of megabytes of records that
// hold no pointers. On the Go heap each new 4 KiB page of such data is
// a page fault, and on a virtual machine a fault can cost microseconds
// (8-14 µs where protoscan is measured, depending on the hour: 8 MiB of
// fresh memory took 28-31 ms to touch, the same in huge pages 0.5-0.7
// ms). An Arena maps its blocks itself, asks for huge pages (madvise
// MADV_HUGEPAGE), and unmaps them all in Free. The garbage collector
// never scans them.
//
// The price is manual lifetime: after Free, every slice an Arena handed
// out is gone (on Linux, touching it is a segmentation fault, which
// makes a leaked view loud in tests). Nothing that outlives the Arena
// may point into it, and nothing in it may point into the Go heap (Make
// refuses types with pointers: the collector would not see them).
package offheap

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"unsafe"
)

// blockSize is the smallest block an Arena maps: two huge pages. A
// block is only address space until touched, so a large one costs
// nothing for a small audit.
const blockSize = 4 << 20

// An Arena hands out zeroed memory from blocks it maps and unmaps
// together. It is not safe for concurrent use.
type Arena struct {
	mapped [][]byte // the blocks mapped, for Free (the others are on the heap)
	free   []byte   // the untouched tail of the last block
	size   int      // the size of the next block
	spare  []byte   // memory given back (Recycle), handed out before free
}

// Bytes returns n zeroed bytes aligned to align (a power of two, at
// most the page size).
func (a *Arena) Bytes(n, align int) []byte {
	if n < 0 || align <= 0 || align&(align-1) != 0 || align > 4096 {
		panic(fmt.Sprintf("offheap: Bytes(%d, %d)", n, align))
	}
	if n == 0 {
		return []byte{}
	}
	// memory given back first: clearing pages already touched costs less
	// than faulting in fresh ones
	if b, ok := carve(&a.spare, n, align); ok {
		clear(b)
		return b
	}
	if b, ok := carve(&a.free, n, align); ok {
		return b
	}
	a.grow(n)
	b, _ := carve(&a.free, n, align) // a block starts page aligned
	return b
}

// carve cuts n bytes aligned to align off the front of *region, when
// they fit.
func carve(region *[]byte, n, align int) ([]byte, bool) {
	r := *region
	pad := -int(uintptr(unsafe.Pointer(unsafe.SliceData(r)))) & (align - 1)
	if len(r) < pad+n {
		return nil, false
	}
	*region = r[pad+n:]
	return r[pad : pad+n : pad+n], true
}

// grow maps a block with room for n bytes: at least the next block size,
// which doubles up to 64 MiB so that a large index takes few blocks.
func (a *Arena) grow(n int) {
	size := max(a.size, blockSize)
	for size < n {
		size *= 2
	}
	a.size = min(2*size, 64<<20)
	b, mapped := mapBlock(size)
	if mapped {
		a.mapped = append(a.mapped, b)
	}
	a.free = b
}

// Recycle gives s back to the arena that handed it out (by Bytes or
// Make), for later requests: memory nothing uses any more, such as a
// table that grew into a bigger one. Bytes hands it out again, zeroed,
// before it touches fresh memory. Of what is given back, the arena keeps
// the larger part: the last region given, or what is left of the one
// before.
func Recycle[T any](a *Arena, s []T) {
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), uintptr(cap(s))*unsafe.Sizeof(*new(T)))
	if len(b) > len(a.spare) {
		a.spare = b
	}
}

// Free unmaps every block. The Arena can be used again afterwards.
func (a *Arena) Free() { a.Detach()() }

// Detach takes the arena's blocks out of it and returns the function
// that unmaps them; the Arena is left empty, to be used again or not.
// The slices handed out so far stay valid until free is called. It is
// for memory that outlives the code that filled it, freed by a cleanup
// (runtime.AddCleanup) once the object viewing it is unreachable: free
// holds the blocks itself, so it keeps nothing of that object alive.
func (a *Arena) Detach() (free func()) {
	blocks := slices.Clone(a.mapped)
	*a = Arena{}
	return func() {
		for _, b := range blocks {
			unmapBlock(b)
		}
	}
}

// Make returns a zeroed slice of n Ts from the arena. T must hold no
// pointers (no pointers, strings, slices, maps, interfaces, channels or
// funcs): Make panics otherwise.
func Make[T any](a *Arena, n int) []T {
	t := reflect.TypeFor[T]()
	if hasPointers(t) {
		panic("offheap: " + t.String() + " holds pointers")
	}
	if n == 0 {
		return []T{}
	}
	size := int(t.Size())
	if size == 0 || n > math.MaxInt/size {
		panic(fmt.Sprintf("offheap: Make of %d %s", n, t))
	}
	b := a.Bytes(n*size, t.Align())
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// hasPointers reports whether a value of type t holds a pointer the
// garbage collector would have to see.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return true
}
