package offheap

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// smapsOf returns the /proc/self/smaps entry of the mapping at p, or ""
// when nothing is mapped there.
func smapsOf(t *testing.T, p uintptr) string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	var entry strings.Builder
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			if in {
				break
			}
			in = lo <= p && p < hi
		}
		if in {
			entry.WriteString(line + "\n")
		}
	}
	return entry.String()
}

func TestBlocksAreHugePageAligned(t *testing.T) {
	var a Arena
	b := a.Bytes(10, 1)
	p := uintptr(unsafe.Pointer(&b[0]))
	if p%hugePage != 0 {
		t.Errorf("first block at %#x: not aligned to a huge page", p)
	}
	entry := smapsOf(t, p)
	if entry == "" {
		t.Fatalf("no mapping at %#x", p)
	}
	// the advice is on the mapping, where the kernel has THP at all
	_, thp := os.Stat("/sys/kernel/mm/transparent_hugepage")
	if thp == nil && !strings.Contains(entry, " hg") {
		t.Errorf("the block is not advised for huge pages:\n%s", entry)
	}
	a.Free()
	if entry := smapsOf(t, p); entry != "" {
		t.Errorf("the block is still mapped after Free:\n%s", entry)
	}
}

func TestDetach(t *testing.T) {
	var a Arena
	b := a.Bytes(10, 1)
	b[0] = 42
	p := uintptr(unsafe.Pointer(&b[0]))
	free := a.Detach()
	if a.size != 0 || a.mapped != nil || a.free != nil {
		t.Errorf("the Arena after Detach still holds blocks: %+v", a)
	}
	a.Free() // frees nothing of the detached blocks
	if b[0] != 42 || smapsOf(t, p) == "" {
		t.Fatal("a detached block was unmapped before its free")
	}
	c := a.Bytes(10, 1) // the Arena is usable again, with blocks of its own
	if uintptr(unsafe.Pointer(&c[0])) == p {
		t.Error("the Arena handed out a detached block again")
	}
	free()
	if entry := smapsOf(t, p); entry != "" {
		t.Errorf("the detached block is still mapped after free:\n%s", entry)
	}
	a.Free()
}
