package engine

import (
	"fmt"
	"testing"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// TestKnownFormerNames: a repository's own spec of protocol-core that
// lists no former names still reads a DELEGATE's role as agent, as the
// embedded spec does; a spec of another protocol, a spec that makes role
// a field, or one that gives role to another field keeps its own.
func TestKnownFormerNames(t *testing.T) {
	const core = `protocol: %s
version: "1.0"
delegate:
  signature: [task_id, scope]
  core_fields:
    task_id: {type: string}
    scope: {type: string}
    agent: {type: string, enum: [engineer, orchestrator]}
%s`
	for _, c := range []struct {
		name, protocol, extra string
		want                  string
	}{
		{"own spec of protocol-core", "protocol-core", "", "agent"},
		{"another protocol", "crew-protocol", "", ""},
		{"role is a field of its own", "protocol-core", "    role: {type: string}\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			sp, err := msgcheck.ParseSpec("spec.yaml", []byte(fmt.Sprintf(core, c.protocol, c.extra)))
			if err != nil {
				t.Fatal(err)
			}
			got := withKnownFormer(sp).FormerNames("delegate")["role"]
			if got != c.want {
				t.Errorf("role is the former name of %q, want %q", got, c.want)
			}
			v, err := msgcheck.New(msgcheck.Options{}, withKnownFormer(sp))
			if err != nil {
				t.Fatal(err)
			}
			res := v.Validate("delegate", map[string]any{"task_id": "t-1", "scope": "x", "role": "engineer"})
			renamed := false
			for _, f := range append(res.Errors, res.Warnings...) {
				renamed = renamed || f.Rule == "msgcheck/delegate-agent-renamed"
			}
			if renamed != (c.want != "") {
				t.Errorf("renamed finding %v, want %v: %+v", renamed, c.want != "", res)
			}
		})
	}
}
