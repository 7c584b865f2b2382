package audit_test

import (
	"context"
	"os"
	"testing"

	"github.com/protoscan/protoscan/audit"
	"github.com/protoscan/protoscan/msgcheck"
)

func TestProf100k(t *testing.T) {
	if os.Getenv("PROF100K") == "" {
		t.Skip()
	}
	v, err := msgcheck.New(msgcheck.Options{Root: "/tmp/croot"}, msgcheck.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 12; i++ {
		s, err := audit.Run(context.Background(), []string{"/tmp/c100k.jsonl"}, nil, audit.Options{Validator: v, Spec: msgcheck.DefaultSpec()})
		if err != nil || s.Messages != 100000 {
			t.Fatal(err)
		}
	}
}
