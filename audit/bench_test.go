package audit

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// benchCorpus generates the bench corpus of bench/corpus (10,000 mixed
// messages as JSON Lines) and a root with the skills it names.
func benchCorpus(b *testing.B) (corpus []byte, root string) {
	root = b.TempDir()
	out, err := exec.Command("go", "run", "../bench/corpus", "-n", "10000", "-seed", "1").Output()
	if err != nil {
		b.Skip("cannot generate the corpus:", err)
	}
	skills, err := exec.Command("go", "run", "../bench/corpus", "-print-skills").Output()
	if err != nil {
		b.Skip(err)
	}
	for _, s := range strings.Fields(string(skills)) {
		if err := os.MkdirAll(filepath.Join(root, "skills", s), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	return out, root
}

// BenchmarkAudit audits a corpus of bench/corpus (10,000 mixed messages)
// end to end from memory: read lines, decode, validate, aggregate.
//
//	go test -run='^$' -bench=Audit -benchmem ./audit/
func BenchmarkAudit(b *testing.B) {
	out, root := benchCorpus(b)
	v, err := msgcheck.New(msgcheck.Options{Root: root}, msgcheck.DefaultSpec())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(out)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := Run(context.Background(), []string{"-"}, bytes.NewReader(out), Options{Validator: v, Spec: msgcheck.DefaultSpec()})
		if err != nil || s.Messages != 10000 {
			b.Fatal(err, s.Messages)
		}
	}
	b.ReportMetric(float64(10000*b.N)/b.Elapsed().Seconds(), "msg/s")
}

// BenchmarkCheck is one worker's work on one message of the same corpus,
// apart from the pipeline around it: parse it onto the tape, name its
// kind, validate it, write its record of ids and count its findings.
// ns/op is per message; a CPU profile of it shows where a message's time
// goes.
//
//	go test -run='^$' -bench=Check -cpuprofile=check.prof ./audit/
func BenchmarkCheck(b *testing.B) {
	out, root := benchCorpus(b)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	v, err := msgcheck.New(msgcheck.Options{Root: root}, msgcheck.DefaultSpec())
	if err != nil {
		b.Fatal(err)
	}
	c := newChecker(Options{Validator: v, Spec: msgcheck.DefaultSpec()})
	t := newTally()
	var ids []byte
	valid := 0
	for i := 0; b.Loop(); i++ {
		it := item{data: lines[i%len(lines)]}
		ids = ids[:0]
		c.checkAndCount(&it, &ids, t)
		if it.valid {
			valid++
		}
	}
	if valid == 0 {
		b.Fatal("no message was valid: the checker did not run as the audit runs it")
	}
}
