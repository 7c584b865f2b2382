package msgcheck_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/protoscan/protoscan/msgcheck"
)

// layoutMessages are a valid DELEGATE and HANDBACK of the layout fixtures
// (testdata/layouts), and one broken copy of each with the error it gets.
var layoutMessages = []struct {
	name, kind, msg string
	wantErr         string // "" for a valid message
}{
	{"delegate valid", "delegate", `{"task_id": "fix-login", "handoff_type": "DELEGATE", "agent": "engineer",
		"scope": "Fix the login form so that a wrong password shows an error and never a blank page again",
		"plan": ["reproduce the blank page", "write the failing test", "fix the handler"]}`, ""},
	{"delegate short scope", "delegate", `{"task_id": "fix-login", "handoff_type": "DELEGATE", "agent": "engineer",
		"scope": "Fix the login", "plan": ["reproduce the blank page", "fix the handler"]}`, "scope: must be >=15 words"},
	{"handback valid", "handback", `{"task_id": "fix-login", "handoff_type": "HANDBACK", "status": "success",
		"usage": {"quality": 0.9, "tokens": 1200}}`, ""},
	{"handback bad status", "handback", `{"task_id": "fix-login", "handoff_type": "HANDBACK", "status": "done",
		"usage": {"quality": 0.9, "tokens": 1200}}`, "status: "},
}

// TestSpecLayouts loads a spec in each layout real repositories keep and
// checks a passing and a failing message of each kind against it.
func TestSpecLayouts(t *testing.T) {
	layouts := []struct {
		name  string
		paths []string
	}{
		{"draft-07 spec", []string{"testdata/layouts/draft07/protocol-core-v1.0.yaml"}},
	}
	for _, l := range layouts {
		t.Run(l.name, func(t *testing.T) {
			spec, err := msgcheck.LoadSpecs(l.paths...)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(spec.Kinds(), ","); got != "delegate,handback" {
				t.Errorf("kinds = %s", got)
			}
			if w := spec.Warnings(); len(w) != 0 {
				t.Errorf("warnings: %v", w)
			}
			v, err := msgcheck.New(msgcheck.Options{}, spec)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range layoutMessages {
				var msg any
				if err := json.Unmarshal([]byte(m.msg), &msg); err != nil {
					t.Fatal(err)
				}
				res := v.Validate(m.kind, msg)
				if m.wantErr == "" {
					if !res.Valid || len(res.Warnings) != 0 {
						t.Errorf("%s: %+v", m.name, res)
					}
					continue
				}
				if res.Valid || len(res.Errors) != 1 || !strings.HasPrefix(res.Errors[0].Message, m.wantErr) {
					t.Errorf("%s: want one error %q..., got %+v", m.name, m.wantErr, res.Errors)
				}
			}
		})
	}
}
