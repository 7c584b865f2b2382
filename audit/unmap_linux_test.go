package audit

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/protoscan-dev/protoscan/msgcheck"
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
// mapped off the heap, whether it runs to the end or is cancelled: the
// read buffers before Run returns, the index once the Summary's
// Integrity is unreachable. A queue consumer calling Run again and again
// must not grow.
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
	// the indexes go with their Integrity's cleanup, which runs some time
	// after a collection finds it unreachable: one round of the loop, 30 ms,
	// under -race; its 5 s are a watchdog, which only ends the wait for an
	// arena never freed
	after := hugeAdvised(t)
	for deadline := time.Now().Add(5 * time.Second); after != before && time.Now().Before(deadline); after = hugeAdvised(t) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if after != before {
		t.Errorf("%d mappings advised for huge pages before the audits, %d after: an arena was not freed", before, after)
	}
}

// TestIntegrityKeepsItsIndex checks that the index stays mapped while
// its Integrity is in use, through collections: a report is written
// after Run returns.
func TestIntegrityKeepsItsIndex(t *testing.T) {
	var in strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&in, `{"handoff_type":"HANDBACK","task_id":"t-%d","status":"success","output":"o","metrics":{"quality":0.5,"tokens":1,"cost":0,"duration_seconds":1}}`+"\n", i)
	}
	v, err := msgcheck.New(msgcheck.Options{}, msgcheck.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	s, err := Run(context.Background(), []string{"-"}, strings.NewReader(in.String()), Options{Validator: v, Spec: msgcheck.DefaultSpec()})
	if err != nil {
		t.Fatal(err)
	}
	integrity := s.Integrity // and nothing else of the Summary
	for range 3 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	n := 0
	for _, c := range integrity.Checks() {
		integrity.Each(c.Name, func(p Problem) bool {
			runtime.GC() // while Each runs, too
			if want := fmt.Sprintf(`HANDBACK "t-%d" answers no DELEGATE`, n); p.Message != want {
				t.Fatalf("problem %d: %q, want %q", n, p.Message, want)
			}
			n++
			return n < 50
		})
	}
	if n != 50 || integrity.Len() != 20000 {
		t.Errorf("%d problems seen (want 50, then stopped), %d in all (want 20000)", n, integrity.Len())
	}
}
