package enumdrift_test

import (
	"testing"

	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/languages/extract"
)

// FuzzAnalyze runs the extractor of each language and Analyze over
// arbitrary bytes: no panic, every finding inside the file, and every fix
// replaces exactly the literal it names.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{
		"TERMINAL = {\"success\", \"Failure\"}\ndef f(h):\n    return h[\"status\"] in TERMINAL\n",
		"ALIASES = {\"finished\": \"success\", \"errored\": \"failure\"}\nif h.status == \"finished\": pass\n",
		"package p\nvar t = []string{\"success\", \"Failure\"}\nfunc f(h H) bool { return slices.Contains(t, h.Status) || m[h.Status] }\n",
		"routes:\n  - status: success\n    action: a\n  - status: failure\n    action: b\n  - status: Blocked\n    action: c\n",
		"{\"properties\": {\"status\": {\"enum\": [\"success\", \"failed\"]}}}",
		"```python\nif handoff[\"next_action\"] == \"Continue\": pass\n```\n",
	} {
		f.Add(s, uint8(0))
	}
	v := shapesVocabulary(f)
	names := []string{"f.py", "f.go", "f.yaml", "f.json", "f.md"}
	f.Fuzz(func(t *testing.T, src string, lang uint8) {
		name := names[int(lang)%len(names)]
		fs, _ := extract.File(name, []byte(src))
		r := enumdrift.Analyze(fs, v)
		v2 := v.WithAliases(r.Tables)
		_ = v2.Explains(r.Unknown)
		for _, fd := range enumdrift.Analyze(fs, v2).Findings {
			if fd.Line < 1 || fd.Path != name {
				t.Fatalf("finding outside the file: %+v", fd)
			}
			if fd.Fix == nil {
				continue
			}
			for _, e := range fd.Fix.Edits {
				if e.Offset < 0 || e.End > len(src) || e.Offset > e.End {
					t.Fatalf("edit out of bounds: %+v (len %d)", e, len(src))
				}
				if got := src[e.Offset:e.End]; got != fd.Literal {
					t.Fatalf("fix replaces %q, the finding is about %q", got, fd.Literal)
				}
			}
		}
	})
}
