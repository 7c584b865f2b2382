package audit_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoscan/protoscan/audit"
	"github.com/protoscan/protoscan/msgcheck"
)

// BenchmarkAudit audits a corpus of bench/corpus (10,000 mixed messages)
// end to end from memory: read lines, decode, validate, aggregate.
//
//	go test -run='^$' -bench=Audit -benchmem ./audit/
func BenchmarkAudit(b *testing.B) {
	root := b.TempDir()
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
	v, err := msgcheck.New(msgcheck.Options{Root: root}, msgcheck.DefaultSpec())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(out)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := audit.Run(context.Background(), []string{"-"}, bytes.NewReader(out), audit.Options{Validator: v, Spec: msgcheck.DefaultSpec()})
		if err != nil || s.Messages != 10000 {
			b.Fatal(err, s.Messages)
		}
	}
	b.ReportMetric(float64(10000*b.N)/b.Elapsed().Seconds(), "msg/s")
}
