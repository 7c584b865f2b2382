package offheap

import (
	"strings"
	"testing"
	"unsafe"
)

func TestBytes(t *testing.T) {
	var a Arena
	defer a.Free()
	seen := map[uintptr]bool{}
	var prevEnd uintptr
	for i, n := range []int{1, 7, 8, 4096, 3, blockSize - 100, blockSize + 1, 64} {
		align := []int{1, 8, 16, 64}[i%4]
		b := a.Bytes(n, align)
		if len(b) != n || cap(b) != n {
			t.Fatalf("Bytes(%d): len %d cap %d", n, len(b), cap(b))
		}
		p := uintptr(unsafe.Pointer(&b[0]))
		if p%uintptr(align) != 0 {
			t.Errorf("Bytes(%d, %d) at %#x: not aligned", n, align, p)
		}
		if seen[p] || (p >= prevEnd-uintptr(n) && p < prevEnd) {
			t.Errorf("Bytes(%d) at %#x overlaps the previous buffer", n, p)
		}
		seen[p] = true
		prevEnd = p + uintptr(n)
		for j, c := range b {
			if c != 0 {
				t.Fatalf("Bytes(%d)[%d] = %d, want zeroed memory", n, j, c)
			}
		}
		for j := range b {
			b[j] = 0xff // writable, and the next buffer must not see it
		}
	}
	if len(a.Bytes(0, 8)) != 0 {
		t.Error("Bytes(0) is not empty")
	}
	if a.size < 4*blockSize { // the first block, the second (doubled), the next to come
		t.Errorf("next block of %d bytes after more than a block: the blocks do not grow", a.size)
	}
}

type rec struct {
	a    int64
	b    [3]uint32
	c    bool
	pair struct{ x, y float64 }
}

func TestMake(t *testing.T) {
	var a Arena
	defer a.Free()
	rs := Make[rec](&a, 1000)
	if len(rs) != 1000 || cap(rs) != 1000 {
		t.Fatalf("len %d cap %d", len(rs), cap(rs))
	}
	if uintptr(unsafe.Pointer(&rs[0]))%unsafe.Alignof(rs[0]) != 0 {
		t.Error("not aligned")
	}
	for i := range rs {
		rs[i].a, rs[i].b[2] = int64(i), uint32(i)
	}
	ints := Make[int32](&a, 10)
	ints[9] = -1
	if rs[999].a != 999 || rs[999].b[2] != 999 {
		t.Error("a later Make overwrote an earlier one")
	}
	if len(Make[uint64](&a, 0)) != 0 {
		t.Error("Make(0) is not empty")
	}
}

func TestMakeRefusesPointers(t *testing.T) {
	refuse := func(name string, f func()) {
		t.Helper()
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), "holds pointers") {
				t.Errorf("%s: recovered %v, want a refusal", name, r)
			}
		}()
		f()
	}
	var a Arena
	defer a.Free()
	refuse("string", func() { Make[string](&a, 1) })
	refuse("*int", func() { Make[*int](&a, 1) })
	refuse("[]byte", func() { Make[[]byte](&a, 1) })
	refuse("map", func() { Make[map[int]int](&a, 1) })
	refuse("any", func() { Make[any](&a, 1) })
	refuse("unsafe.Pointer", func() { Make[unsafe.Pointer](&a, 1) })
	refuse("struct with a slice", func() {
		Make[struct {
			n int
			s []int
		}](&a, 1)
	})
	refuse("array of strings", func() { Make[[2]string](&a, 1) })
	// an empty array of pointers holds none
	_ = Make[struct {
		n int
		p [0]*int
	}](&a, 1)
}

func TestFreeAndReuse(t *testing.T) {
	var a Arena
	b := a.Bytes(100, 8)
	b[0] = 1
	a.Free()
	if a.size != 0 || a.mapped != nil || a.free != nil {
		t.Errorf("the Arena after Free still holds blocks: %+v", a)
	}
	c := a.Bytes(100, 8)
	if c[0] != 0 {
		t.Error("memory after Free is not zeroed")
	}
	a.Free()
	a.Free() // twice is harmless
}

// TestRecycle: memory given back is handed out again, zeroed and
// aligned, before fresh memory; what does not fit goes to fresh memory.
func TestRecycle(t *testing.T) {
	var a Arena
	defer a.Free()
	old := Make[uint64](&a, 1024) // 8 KiB
	for i := range old {
		old[i] = ^uint64(0)
	}
	lo := uintptr(unsafe.Pointer(&old[0]))
	hi := lo + 8<<10
	in := func(b []byte) bool {
		p := uintptr(unsafe.Pointer(&b[0]))
		return p >= lo && p+uintptr(len(b)) <= hi
	}
	Recycle(&a, old)
	b := a.Bytes(3, 1)
	c := a.Bytes(4096, 64)
	if !in(b) || !in(c) {
		t.Fatal("a request that fits was not served from the memory given back")
	}
	if uintptr(unsafe.Pointer(&c[0]))%64 != 0 {
		t.Error("memory given back was handed out unaligned")
	}
	for i, x := range append(b, c...) {
		if x != 0 {
			t.Fatalf("byte %d of the memory given back is %#x, not zeroed", i, x)
		}
	}
	if d := a.Bytes(8<<10, 8); in(d) {
		t.Error("a request larger than what is left was served from it")
	}
	// a smaller region given back later does not replace a larger one
	Recycle(&a, b)
	if e := a.Bytes(1024, 8); !in(e) {
		t.Error("the larger region left was dropped for a smaller one")
	}
}

func BenchmarkTouchFresh(b *testing.B) {
	// the cost this package is for: touching fresh memory, a byte per page
	const n = 16 << 20
	touch := func(m []byte) {
		for i := 0; i < len(m); i += 4096 {
			m[i] = 1
		}
	}
	b.Run("heap", func(b *testing.B) {
		for range b.N {
			touch(make([]byte, n))
		}
	})
	b.Run("arena", func(b *testing.B) {
		for range b.N {
			var a Arena
			touch(a.Bytes(n, 8))
			a.Free()
		}
	})
}
