package handoff

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead feeds arbitrary bytes, under each format's name, to Read and
// evaluates whatever handoffs it finds: neither may panic, and every event
// is complete.
func FuzzRead(f *testing.F) {
	inputs, _ := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	for _, in := range inputs {
		if data, err := os.ReadFile(in); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("NEXUS_HANDOFF:\n  step: &a [*a]\n"))
	f.Add([]byte("```nexus_handoff\n{\"step\": 1}\n```\n"))
	e := evaluator(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"h.yaml", "h.json", "h.md", "h"} {
			hs, err := Read(name, data)
			if err != nil {
				continue
			}
			if len(hs) == 0 {
				t.Fatalf("%s: no handoff and no error", name)
			}
			for _, h := range hs {
				ev, err := e.Evaluate(h)
				if err != nil {
					continue
				}
				if ev.ValidationResult == "" || ev.ActionTaken == "" || ev.Routing == "" || ev.Notes == nil || ev.Findings == nil {
					t.Fatalf("%s: incomplete event %+v", name, ev)
				}
			}
		}
	})
}
