package audit

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/protoscan/protoscan/msgcheck"
)

// hugeAdvised counts this process's mappings advised for huge pages:
// the offheap arenas (the Go runtime advises none of its heap).
func hugeAdvised(t *testing.T) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); strings.HasPrefix(line, "VmFlags:") && strings.Contains(line+" ", " hg ") {
			n++
		}
	}
	return n
}

// TestRunUnmapsItsMemory checks that an audit gives back the memory it
// mapped off the heap (the index, the read buffers) before it returns,
// whether it runs to the end or is cancelled: a queue consumer calling
// Run again and again must not grow.
func TestRunUnmapsItsMemory(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skip("no transparent huge pages: the arenas carry no advice to count")
	}
	var in strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&in, `{"task_id":"t-%d","status":"success","output":"o","metrics":{"quality":0.5,"tokens":1,"cost":0,"duration_seconds":1}}`+"\n", i)
	}
	v, err := msgcheck.New(msgcheck.Options{}, msgcheck.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	before := hugeAdvised(t)
	run := func(ctx context.Context) {
		s, err := Run(ctx, []string{"-"}, strings.NewReader(in.String()), Options{Validator: v, Spec: msgcheck.DefaultSpec()})
		if s == nil || (err != nil) != (ctx.Err() != nil) {
			t.Fatalf("Run: %v", err)
		}
	}
	for range 3 {
		run(context.Background())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	run(ctx)
	if after := hugeAdvised(t); after != before {
		t.Errorf("%d mappings advised for huge pages before the audits, %d after: an arena was not freed", before, after)
	}
}
