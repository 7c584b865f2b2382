package python

import (
	"os"
	"testing"
)

// TestDump prints the facts of the file named by $PROTOSCAN_DUMP, for a
// maintainer checking what a source yields:
//
//	PROTOSCAN_DUMP=x.py go test -run TestDump -v ./languages/python
func TestDump(t *testing.T) {
	p := os.Getenv("PROTOSCAN_DUMP")
	if p == "" {
		t.Skip("PROTOSCAN_DUMP not set")
	}
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Extract(p, src)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", render(f))
}
