package golang

import (
	"fmt"
	"os"
	"testing"
)

// TestDebugDump prints the facts of one file, for looking at what the
// extractor makes of real code:
//
//	DUMP=path/to/file.go go test -run TestDebugDump ./languages/golang
func TestDebugDump(t *testing.T) {
	p := os.Getenv("DUMP")
	if p == "" {
		t.Skip("set DUMP to a Go file")
	}
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	ff, err := Extract(p, src)
	if err != nil {
		fmt.Println("parse:", err)
	}
	for _, l := range dump(ff) {
		fmt.Println(l)
	}
	checkInvariants(t, src, ff)
}
