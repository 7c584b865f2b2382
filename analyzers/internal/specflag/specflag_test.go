package specflag_test

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/protoscan-dev/protoscan/analyzers/internal/specflag"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

func TestDefault(t *testing.T) {
	f := specflag.Register(flag.NewFlagSet("x", flag.ContinueOnError))
	sp, err := f.Spec()
	if err != nil || sp != msgcheck.DefaultSpec() {
		t.Fatalf("Spec() = %v, %v; want the embedded spec", sp, err)
	}
}

func TestMissingFile(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	f := specflag.Register(fs)
	missing := filepath.Join(t.TempDir(), "nope.yaml")
	if err := fs.Parse([]string{"-spec", missing}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Spec(); err == nil {
		t.Fatal("a missing spec file must be an error")
	}
}
