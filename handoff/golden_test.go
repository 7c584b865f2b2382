package handoff

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden event files in testdata/golden")

// TestGolden evaluates every input under testdata/golden and compares the
// events, as JSON, with its .golden.json file: the JSON shape of the
// event is a contract.
func TestGolden(t *testing.T) {
	e := evaluator(t)
	inputs, _ := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	n := 0
	for _, in := range inputs {
		if strings.HasSuffix(in, ".golden.json") {
			continue
		}
		n++
		t.Run(filepath.Base(in), func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			hs, err := Read(filepath.Base(in), data)
			if err != nil {
				t.Fatal(err)
			}
			var events []Event
			for _, h := range hs {
				ev, err := e.Evaluate(h)
				if err != nil {
					t.Fatal(err)
				}
				events = append(events, ev)
			}
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(events); err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(in, filepath.Ext(in)) + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./handoff -run TestGolden -update)", err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Errorf("%s differs from the events (go test ./handoff -run TestGolden -update, then review the diff):\n%s", golden, b.String())
			}
		})
	}
	if n < 4 {
		t.Fatalf("found %d golden inputs", n)
	}
}
