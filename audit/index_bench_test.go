package audit

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/jsonmsg"
)

// BenchmarkIndexAdd is the collector's share of an audit: indexing the
// records of ids of 100,000 messages of bench/corpus, in input order and
// in batches as the collector takes them, into a fresh index. Its cost is mostly the task
// table's cache misses, so it is measured at the size of the issue's
// corpus, not on a table that fits in the cache.
//
//	go test -run='^$' -bench=IndexAdd ./audit/
func BenchmarkIndexAdd(b *testing.B) {
	out, err := exec.Command("go", "run", "../bench/corpus", "-n", "100000", "-seed", "1").Output()
	if err != nil {
		b.Skip("cannot generate the corpus:", err)
	}
	var (
		tape    jsonmsg.Tape
		batches []*batch
		n       int
	)
	for i, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if tape.Parse(line) != nil {
			continue
		}
		if len(batches) == 0 || len(batches[len(batches)-1].items) == batchSize {
			batches = append(batches, &batch{})
		}
		bt := batches[len(batches)-1]
		it := item{loc: Location{Path: "corpus.jsonl", Line: i + 1}, idsFrom: len(bt.ids)}
		bt.ids, _ = appendIDsTape(bt.ids, &tape)
		it.idsTo = len(bt.ids)
		if strings.Contains(line, `"DELEGATE"`) {
			it.indexKind = kindDelegate
		} else if strings.Contains(line, `"HANDBACK"`) {
			it.indexKind = kindHandback
		}
		bt.items = append(bt.items, it)
		n++
	}
	out = nil
	runtime.GC() // the setup's garbage is not collected while timing
	b.ResetTimer()
	for b.Loop() {
		a := &aggregator{index: newIndex()}
		for _, bt := range batches {
			for i := range bt.items {
				it := &bt.items[i]
				a.index.add(it.indexKind, it.loc, bt.ids[it.idsFrom:it.idsTo])
			}
		}
		if a.index.n != n {
			b.Fatal(a.index.n)
		}
		a.index.mem.Free()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/msg")
}
