package offheap

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page on the platforms Go
// runs Linux on with 4 KiB pages (x86-64, most arm64).
const hugePage = 2 << 20

// mapBlock maps size bytes aligned to hugePage, so that every huge page
// of the block can be one, and asks for huge pages. Where the kernel
// gives none (THP off or absent), the advice fails and the block is
// plain memory, still off the heap. If the mapping itself fails, the
// block comes from the Go heap, and mapped is false.
func mapBlock(size int) (b []byte, mapped bool) {
	size = (size + hugePage - 1) &^ (hugePage - 1)
	raw, err := unix.MmapPtr(-1, 0, nil, uintptr(size+hugePage), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return make([]byte, size), false
	}
	// give back the unaligned head and the tail beyond the block
	head := -uintptr(raw) & (hugePage - 1)
	if head > 0 {
		_ = unix.MunmapPtr(raw, head)
	}
	start := unsafe.Add(raw, head)
	if tail := hugePage - head; tail > 0 {
		_ = unix.MunmapPtr(unsafe.Add(start, size), tail)
	}
	b = unsafe.Slice((*byte)(start), size)
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
	return b, true
}

// unmapBlock unmaps a block mapBlock mapped.
func unmapBlock(b []byte) {
	_ = unix.MunmapPtr(unsafe.Pointer(unsafe.SliceData(b)), uintptr(len(b)))
}
