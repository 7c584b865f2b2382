package phase

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the verdict.json of testdata/golden/*.txtar")

// TestGolden judges each testdata/golden/*.txtar (conditions.yaml,
// handoff.txt) and compares the verdict JSON byte for byte with its
// verdict.json; go test ./phase -update rewrites them.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			in := map[string][]byte{}
			for _, f := range ar.Files {
				in[f.Name] = f.Data
			}
			exit, err := ParseConditions("conditions.yaml", in["conditions.yaml"])
			if err != nil {
				t.Fatal(err)
			}
			h, err := ParseHandoff(in["handoff.txt"])
			if err != nil {
				t.Fatal(err)
			}
			got := Judge(exit, h, Options{}).JSON()
			if again := Judge(exit, h, Options{}).JSON(); !bytes.Equal(got, again) {
				t.Fatal("two runs gave different bytes")
			}
			if *update {
				found := false
				for i := range ar.Files {
					if ar.Files[i].Name == "verdict.json" {
						ar.Files[i].Data, found = got, true
					}
				}
				if !found {
					ar.Files = append(ar.Files, txtar.File{Name: "verdict.json", Data: got})
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !bytes.Equal(got, in["verdict.json"]) {
				t.Errorf("verdict differs from verdict.json (go test ./phase -update):\n%s", got)
			}
			if c := CheckVerdicts("verdict.json", got); len(c) != 1 || !c[0].Result.Valid {
				t.Errorf("golden verdict does not fit the contract: %+v", c)
			}
		})
	}
}
