package treesitter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

var pyLang = sitter.NewLanguage(python.Language())

const sample = `import os

class Status(str, Enum):
    SUCCESS = "success"

def route(msg):
    """Doc."""
    if msg.get("status") in ("done", "failed"):
        return {"status": f"x{msg}", "n": [1, 2.5, None]}
    match msg.status:
        case "a" | "b":
            pass
    x = = broken(
`

func TestParse(t *testing.T) {
	var kind string
	err := Parse(pyLang, []byte(sample), func(root *sitter.Node) error {
		kind = root.Kind()
		return nil
	})
	if err != nil || kind != "module" {
		t.Fatalf("Parse: %q, %v", kind, err)
	}
	if PoolFor(pyLang) != PoolFor(sitter.NewLanguage(python.Language())) {
		t.Error("PoolFor: one pool per language expected")
	}
	want := errors.New("from callback")
	if err := Parse(pyLang, []byte("x = 1"), func(*sitter.Node) error { return want }); err != want {
		t.Errorf("callback error: got %v", err)
	}
}

// cursorWalk flattens with the binding's own cursor, the slow way, to check
// Flatten against.
func cursorWalk(t *Tree) []Node {
	var out []Node
	var open []int
	c := t.Cursor(t.Root())
	for {
		n := c.Node()
		var f Flags
		if n.IsNamed() {
			f |= Named
		}
		if n.IsMissing() {
			f |= Missing
		}
		if n.IsExtra() {
			f |= Extra
		}
		if n.IsError() {
			f |= Error
		}
		if n.HasError() {
			f |= HasError
		}
		out = append(out, Node{StartByte: uint32(n.StartByte()), EndByte: uint32(n.EndByte()),
			Kind: n.KindId(), Field: c.FieldId(), Flags: f})
		open = append(open, len(out)-1)
		if c.GotoFirstChild() {
			continue
		}
		for {
			last := open[len(open)-1]
			open = open[:len(open)-1]
			out[last].End = int32(len(out))
			if c.GotoNextSibling() {
				break
			}
			if !c.GotoParent() {
				for _, o := range open {
					out[o].End = int32(len(out))
				}
				return out
			}
		}
	}
}

func TestFlattenMatchesCursor(t *testing.T) {
	pool := NewPool(pyLang, Options{Parsers: 1})
	defer pool.Close()
	srcs := []string{sample, "", "x", "(((((", "\x00\xff\"'", strings.Repeat("[", 3000) + strings.Repeat("]", 3000)}
	if b, err := os.ReadFile("treesitter.go"); err == nil {
		srcs = append(srcs, string(b)) // Go source: full of Python errors
	}
	for i, src := range srcs {
		err := pool.Parse(context.Background(), []byte(src), func(tr *Tree) error {
			flat := tr.Flatten(nil)
			slow := cursorWalk(tr)
			if len(flat) != len(slow) {
				return fmt.Errorf("%d nodes, cursor %d", len(flat), len(slow))
			}
			for k := range flat {
				if flat[k] != slow[k] {
					return fmt.Errorf("node %d: %+v, cursor %+v", k, flat[k], slow[k])
				}
			}
			// Reusing the buffer gives the same result.
			again := tr.Flatten(flat[:0])
			if len(again) != len(slow) || again[0] != slow[0] {
				return errors.New("reused buffer differs")
			}
			return nil
		})
		if err != nil {
			t.Errorf("source %d: %v", i, err)
		}
	}
}

func TestLimits(t *testing.T) {
	pool := NewPool(pyLang, Options{Parsers: 1, MaxBytes: 100})
	defer pool.Close()
	err := pool.Parse(context.Background(), make([]byte, 101), func(*Tree) error { return nil })
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the cap: %v", err)
	}

	// A parse over its budget of operations (this input takes about two
	// a byte), then a normal one with the same parser: the stopped state
	// must not leak into it. The budget is counted, so the outcome is the
	// same on any machine under any load.
	slow := NewPool(pyLang, Options{Parsers: 1, OpsPerByte: 1})
	defer slow.Close()
	big := bytes.Repeat([]byte("match x:\n    case {'a': [1, (2, 3)]} | 'b':\n        f(a=1, *b, **c)\n"), 50000)
	err = slow.Parse(context.Background(), big, func(*Tree) error { return errors.New("callback ran") })
	if !errors.Is(err, ErrBudget) || errors.Is(err, ErrTimeout) {
		t.Errorf("over budget: %v", err)
	}
	if err := NewPool(pyLang, Options{Parsers: 1}).Parse(context.Background(), big, func(*Tree) error { return nil }); err != nil {
		t.Errorf("within the default budget: %v", err)
	}
	var kind string
	if err := slow.ParseRoot(context.Background(), []byte("x = 1\n"), func(r *sitter.Node) error {
		kind = r.ToSexp()
		return nil
	}); err != nil || !strings.HasPrefix(kind, "(module (expression_statement") {
		t.Errorf("after a timeout: %q %v", kind, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = NewPool(pyLang, Options{}).Parse(ctx, big, func(*Tree) error { return nil })
	if !errors.Is(err, context.Canceled) && !errors.Is(err, ErrTimeout) {
		t.Errorf("cancelled: %v", err)
	}
	// cancelled once the parse has its parser: Parse watches ctx from
	// then on, and the parse stops at its first progress check
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	pool2 := NewPool(pyLang, Options{Parsers: 1})
	defer pool2.Close()
	during := &cancelWhenBusy{Context: ctx, pool: pool2, cancel: cancel}
	err = pool2.Parse(during, big, func(*Tree) error { return errors.New("callback ran") })
	if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrTimeout) {
		t.Errorf("cancel during parse: %v", err)
	}
}

// cancelWhenBusy is a context cancelled when its Done is asked for while
// pool has a parser out: by Parse, after taking its parser.
type cancelWhenBusy struct {
	context.Context
	pool   *Pool
	cancel func()
}

func (c *cancelWhenBusy) Done() <-chan struct{} {
	if len(c.pool.slots) > 0 {
		c.cancel()
	}
	return c.Context.Done()
}

func TestPoolBoundAndClose(t *testing.T) {
	const parsers = 3
	pool := NewPool(pyLang, Options{Parsers: parsers})
	var inside, peak atomic.Int32
	var wg sync.WaitGroup
	for g := 0; g < 20; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				err := pool.Parse(context.Background(), []byte(sample), func(tr *Tree) error {
					n := inside.Add(1)
					for {
						p := peak.Load()
						if n <= p || peak.CompareAndSwap(p, n) {
							break
						}
					}
					tr.Flatten(nil)
					tr.Cursor(tr.Root()).GotoFirstChild()
					runtime.Gosched()
					inside.Add(-1)
					return nil
				})
				if err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > parsers || p < 1 {
		t.Errorf("peak concurrent parses %d, bound %d", p, parsers)
	}
	if n := len(pool.idle); n > parsers {
		t.Errorf("%d idle parsers, bound %d", n, parsers)
	}

	// A panicking callback still returns its parser and closes its tree.
	func() {
		defer func() { recover() }()
		pool.Parse(context.Background(), []byte("x"), func(*Tree) error { panic("boom") })
	}()
	if err := pool.Parse(context.Background(), []byte("x"), func(*Tree) error { return nil }); err != nil {
		t.Errorf("after a panic: %v", err)
	}

	// Close waits for a parse in progress, then refuses new ones.
	started, release := make(chan struct{}), make(chan struct{})
	go pool.Parse(context.Background(), []byte("x"), func(*Tree) error {
		close(started)
		<-release
		return nil
	})
	<-started
	closed := make(chan struct{})
	go func() { pool.Close(); close(closed) }()
	// Close returns, or blocks waiting for the parse's slot
	for !blockedSending("treesitter.(*Pool).Close") {
		select {
		case <-closed:
			t.Fatal("Close returned while a parse was running")
		default:
			runtime.Gosched()
		}
	}
	close(release)
	<-closed
	pool.Close() // idempotent
	if err := pool.Parse(context.Background(), []byte("x"), func(*Tree) error { return nil }); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
	if n := len(pool.idle); n != 0 {
		t.Errorf("%d parsers left open after Close", n)
	}
}

// blockedSending reports whether a goroutine is blocked sending on a
// channel in the function fn (named as in a stack trace, after its
// package's path).
func blockedSending(fn string) bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, " [chan send") && strings.Contains(g, "/"+fn+"(") {
			return true
		}
	}
	return false
}

// rss returns the resident set size, from /proc/self/statm.
func rss(t testing.TB) int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm")
	}
	f := strings.Fields(string(b))
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// TestNoLeak parses 1000 times (trees, flattened copies and cursors) and
// checks that RSS stays flat: the binding has no finalizers, so anything
// not closed would pile up in C memory.
func TestNoLeak(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	src := bytes.Repeat([]byte(sample), 20) // ~6 KB, with syntax errors
	pool := NewPool(pyLang, Options{})
	defer pool.Close()
	run := func(n int) {
		var wg sync.WaitGroup
		per := n / runtime.GOMAXPROCS(0)
		for g := 0; g < runtime.GOMAXPROCS(0); g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var buf []Node
				for i := 0; i < per; i++ {
					pool.Parse(context.Background(), src, func(tr *Tree) error {
						buf = tr.Flatten(buf)
						c := tr.Cursor(tr.Root())
						c.GotoFirstChild()
						return nil
					})
				}
			}()
		}
		wg.Wait()
		runtime.GC()
	}
	run(100) // warm up: allocator arenas, pools
	before := rss(t)
	start := time.Now()
	run(1000)
	after := rss(t)
	t.Logf("RSS %.1f MB -> %.1f MB over 1000 parses of %d bytes (%v)", float64(before)/1e6, float64(after)/1e6, len(src), time.Since(start).Round(time.Millisecond))
	// One leaked tree of this source is ~350 KB (measured with the tree
	// left open): 1000 of them would be 350 MB.
	if after-before > 50<<20 {
		t.Errorf("RSS grew by %.1f MB", float64(after-before)/1e6)
	}
}

func TestLines(t *testing.T) {
	var l Lines
	l.Reset([]byte("ab\ncd\r\n\nxyz"))
	for _, c := range []struct{ off, line, col int }{
		{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {5, 2, 3}, {6, 2, 4}, {7, 3, 1}, {8, 4, 1}, {11, 4, 4},
	} {
		if line, col := l.Position(c.off); line != c.line || col != c.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", c.off, line, col, c.line, c.col)
		}
	}
	var empty Lines
	if line, col := empty.Position(3); line != 1 || col != 4 {
		t.Errorf("zero Lines: %d:%d", line, col)
	}
}

// BenchmarkAllocator compares the binding's allocator (a Go callback per
// malloc and free) with tree-sitter's default, which init restores.
func BenchmarkAllocator(b *testing.B) {
	src := bytes.Repeat([]byte(sample), 100)
	for _, name := range []string{"binding", "default"} {
		b.Run(name, func(b *testing.B) {
			if name == "binding" {
				sitter.SetAllocator(nil, nil, nil, nil)
				defer useDefaultAllocator()
			}
			pool := NewPool(pyLang, Options{Parsers: 1})
			defer pool.Close()
			b.SetBytes(int64(len(src)))
			for i := 0; i < b.N; i++ {
				pool.Parse(context.Background(), src, func(*Tree) error { return nil })
			}
		})
	}
}

func BenchmarkFlatten(b *testing.B) {
	src := bytes.Repeat([]byte(sample), 100)
	pool := NewPool(pyLang, Options{Parsers: 1})
	defer pool.Close()
	pool.Parse(context.Background(), src, func(tr *Tree) error {
		var buf []Node
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			buf = tr.Flatten(buf)
		}
		b.ReportMetric(float64(len(buf)), "nodes")
		return nil
	})
}

// FuzzFlatten checks Flatten against the binding's cursor on any input,
// which also exercises parsing with the pool.
func FuzzFlatten(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte("x = (((("))
	f.Add([]byte("\x00\xff'\"\"\"{[("))
	pool := NewPool(pyLang, Options{})
	f.Fuzz(func(t *testing.T, src []byte) {
		err := pool.Parse(context.Background(), src, func(tr *Tree) error {
			flat, slow := tr.Flatten(nil), cursorWalk(tr)
			if len(flat) != len(slow) {
				return fmt.Errorf("%d nodes, cursor %d", len(flat), len(slow))
			}
			for k := range flat {
				if flat[k] != slow[k] {
					return fmt.Errorf("node %d: %+v, cursor %+v", k, flat[k], slow[k])
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
