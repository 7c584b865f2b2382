package msgcheck_test

import (
	"testing"

	"github.com/protoscan/protoscan/msgcheck"
)

func TestLimits(t *testing.T) {
	spec := msgcheck.DefaultSpec()
	got := map[msgcheck.Limit]bool{}
	for _, l := range spec.Limits("delegate") {
		got[l] = true
	}
	for _, l := range spec.Limits("handback") {
		got[l] = true
	}
	for _, want := range []msgcheck.Limit{
		{Path: "scope", Measure: "words", Op: ">=", Value: 15},
		{Path: "metrics.quality", Op: ">=", Value: 0},
		{Path: "metrics.quality", Op: "<=", Value: 1},
		{Path: "retry_count", Op: ">=", Value: 0},
	} {
		if !got[want] {
			t.Errorf("Limits lack %+v; have %v", want, got)
		}
	}
	if spec.Limits("no-such-kind") != nil {
		t.Error("an unknown kind has no limits")
	}
}
