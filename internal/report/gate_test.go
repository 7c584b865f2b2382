package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
)

// ordinaryGate is the gate of an ordinary scan: the embedded specs, no
// config.
func ordinaryGate() *Gate {
	return &Gate{Specs: []GateSpec{
		{Protocol: "protocol-core", Version: "1.0", Files: []string{"embedded:protocol-core-v1.0.yaml"}, Why: SpecDefault},
		{Protocol: "nexus-handoff", Version: "2.0", Files: []string{"embedded:nexus-handoff-v2.yaml"}, Why: SpecDefault},
	}}
}

// TestGateOrdinary: the ordinary gate shows in no text or Markdown
// report and prints nothing on stderr, but JSON and SARIF always name
// the specs in effect and why.
func TestGateOrdinary(t *testing.T) {
	r := &Report{Tool: "protoscan", Files: 2, Gate: ordinaryGate()}
	if got, want := string(render(t, "text", r)), "0 findings (0 errors, 0 warnings, 0 notes) in 2 files scanned\n"; got != want {
		t.Errorf("text:\n%s", got)
	}
	if md := render(t, "markdown", r); bytes.Contains(md, []byte("Gate")) {
		t.Errorf("markdown:\n%s", md)
	}
	if n := GateNotices(r.Gate); n != nil {
		t.Errorf("stderr: %q", n)
	}
	// a config that lowers nothing is not notable either
	r.Gate.Config, r.Gate.ConfigFound = ".protoscan.yaml", true
	if r.Gate.Notable() {
		t.Error("a config that lowers nothing is notable")
	}
	var out struct {
		Gate struct {
			Specs []struct {
				Protocol, Version, Why string
				Files                  []string
			}
			Config  *struct{ File string }
			Lowered []any
		}
	}
	if err := json.Unmarshal(render(t, "json", r), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Gate.Specs) != 2 || out.Gate.Specs[0].Why != "default" || out.Gate.Specs[0].Version != "1.0" ||
		out.Gate.Config == nil || out.Gate.Lowered == nil {
		t.Errorf("JSON gate: %+v", out.Gate)
	}
	sarif := render(t, "sarif", r)
	validateSARIF(t, loadSARIFSchema(t), sarif)
	if !bytes.Contains(sarif, []byte(`"why": "default"`)) {
		t.Errorf("SARIF run.properties lack the gate:\n%s", sarif)
	}
	// without a gate (audit, validate), none of it
	for f := range renderers {
		if b := render(t, f, &Report{Tool: "protoscan"}); bytes.Contains(bytes.ToLower(b), []byte("gate")) {
			t.Errorf("%s without a gate:\n%s", f, b)
		}
	}
}

// TestGateNotices: one stderr line per spec that is not embedded and per
// lowering setting, the tree's strings escaped.
func TestGateNotices(t *testing.T) {
	g := ordinaryGate()
	g.Specs[0] = GateSpec{Protocol: "protocol-core", Version: "1.0", Files: []string{"docs/specs/protocol-core-v99.yaml"}, Why: SpecDiscovered}
	g.Specs[1].Why = SpecFallback
	g.Config, g.ConfigFound = "repo/.protoscan.yaml", true
	g.Lowered = []Lowered{
		{Location: finding.Location{Path: "repo/.protoscan.yaml", Line: 1, Col: 9}, Setting: "rules", Message: `rules "*/*": off turns off 40 rules`},
		{Location: finding.Location{Path: "repo/.protoscan.yaml", Line: 2, Col: 3}, Setting: "exclude", Message: "exclude \"a\n::error::b\x1b[31m\" skips the files it matches"},
	}
	want := []string{
		"spec in effect: protocol-core v1.0 from docs/specs/protocol-core-v99.yaml (discovered in the tree)",
		`notice: the tree's config lowers the gate: repo/.protoscan.yaml:1:9: rules "*/*": off turns off 40 rules`,
		`notice: the tree's config lowers the gate: repo/.protoscan.yaml:2:3: exclude "a\n::error::b\x1b[31m" skips the files it matches`,
	}
	if got := GateNotices(g); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("GateNotices:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// a spec of a path that would begin a line with "::" never does
	g = &Gate{Specs: []GateSpec{{Protocol: "p", Version: "1", Files: []string{"::x.yaml"}, Why: SpecDiscovered}}}
	if got := GateNotices(g); len(got) != 1 || got[0] != "spec in effect: p v1 from ./::x.yaml (discovered in the tree)" {
		t.Errorf("GateNotices: %q", got)
	}
	// what the command line chose is the CI owner's: no notice; the
	// spec of the tree's config is the tree's
	for _, c := range []struct {
		why   SpecWhy
		found bool
		n     int
	}{{SpecFlag, false, 0}, {SpecConfig, false, 0}, {SpecConfig, true, 1}} {
		h := &Gate{Specs: []GateSpec{{Protocol: "p", Version: "1", Files: []string{"s.yaml"}, Why: c.why}}, Config: "c.yaml", ConfigFound: c.found}
		if got := GateNotices(h); len(got) != c.n {
			t.Errorf("%s, config found %v: %q", c.why, c.found, got)
		}
	}
	text := render(t, "text", &Report{Gate: g})
	for _, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			t.Errorf("a line begins with \"::\": %q", line)
		}
	}
}
