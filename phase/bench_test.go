package phase

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

// BenchmarkJudge judges the passing golden HANDOFF: parse both inputs,
// judge, write the JSON.
func BenchmarkJudge(b *testing.B) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "golden", "pass.txtar"))
	if err != nil {
		b.Fatal(err)
	}
	in := map[string][]byte{}
	for _, f := range ar.Files {
		in[f.Name] = f.Data
	}
	b.ReportAllocs()
	for b.Loop() {
		exit, err := ParseConditions("conditions.yaml", in["conditions.yaml"])
		if err != nil {
			b.Fatal(err)
		}
		h, _ := ParseHandoff(in["handoff.txt"])
		_ = Judge(exit, h, Options{}).JSON()
	}
}

// BenchmarkCheckVerdict checks one verdict against the contract.
func BenchmarkCheckVerdict(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "verdict-pass.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if c := CheckVerdicts("v.json", data); !c[0].Result.Valid {
			b.Fatal("invalid")
		}
	}
}
