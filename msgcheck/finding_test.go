package msgcheck_test

import (
	"testing"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// TestFindingKinds: the warnings analyses count by kind (unknown fields,
// deprecated fields) are told apart by the finding, not by its caller.
func TestFindingKinds(t *testing.T) {
	spec, err := msgcheck.ParseSpec("kinds.yaml", []byte(`version: "1.0"
protocol: p
k:
  signature: [a]
  core_fields:
    a: {type: integer}
    old: {type: integer, deprecated: "use a"}
`))
	if err != nil {
		t.Fatal(err)
	}
	v, err := msgcheck.New(msgcheck.Options{}, spec)
	if err != nil {
		t.Fatal(err)
	}
	res := v.Validate("k", map[string]any{"a": "x", "old": 1.0, "extra": true})
	got := map[string]string{}
	for _, f := range append(res.Errors, res.Warnings...) {
		switch {
		case f.IsUnknownField() && f.IsDeprecated():
			t.Errorf("%s is both", f.Rule)
		case f.IsUnknownField():
			got[f.Field] = "unknown"
		case f.IsDeprecated():
			got[f.Field] = "deprecated"
		default:
			got[f.Field] = "other"
		}
	}
	want := map[string]string{"a": "other", "old": "deprecated", "extra": "unknown"}
	for field, kind := range want {
		if got[field] != kind {
			t.Errorf("%s: %q, want %q (all: %v)", field, got[field], kind, got)
		}
	}
}
