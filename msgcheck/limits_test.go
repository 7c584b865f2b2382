package msgcheck_test

import (
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/msgcheck"
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
	// File and Line are where the spec writes the keyword: the user
	// opens the spec there (`protoscan spec` prints the embedded one)
	const src = "embedded:protocol-core-v1.0.yaml"
	text, err := msgcheck.EmbeddedSpecSource("protocol-core-v1.0.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	for _, want := range []msgcheck.Limit{
		{Path: "scope", Measure: "words", Op: ">=", Value: 15, Keyword: "minWords", File: src, Line: 64},
		{Path: "plan", Measure: "len", Op: ">=", Value: 2, Keyword: "minItems", File: src, Line: 76},
		{Path: "metrics.quality", Op: ">=", Value: 0, Keyword: "minimum", File: src, Line: 132},
		{Path: "metrics.quality", Op: "<=", Value: 1, Keyword: "maximum", File: src, Line: 133},
		{Path: "retry_count", Op: ">=", Value: 0, Keyword: "minimum", File: src, Line: 150},
	} {
		if want.Line > len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[want.Line-1]), want.Keyword+":") {
			t.Errorf("the test's line %d of the spec does not hold %s", want.Line, want.Keyword)
		}
		if !got[want] {
			t.Errorf("Limits lack %+v; have %v", want, got)
		}
	}
	if spec.Limits("no-such-kind") != nil {
		t.Error("an unknown kind has no limits")
	}
}
