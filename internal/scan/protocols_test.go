package scan_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/handoff"
	"github.com/protoscan-dev/protoscan/internal/messages"
	"github.com/protoscan-dev/protoscan/internal/scan"
	"github.com/protoscan-dev/protoscan/msgcheck"
	"github.com/protoscan-dev/protoscan/phase"
)

// protocolsChecker checks protocol-core with the embedded spec, NEXUS
// handoffs with the embedded handoff spec and phase verdicts with the
// embedded contract, as the CLI does for a repository without specs.
func protocolsChecker(t *testing.T) *messages.Checker {
	t.Helper()
	sp := msgcheck.DefaultSpec()
	v, err := msgcheck.New(msgcheck.Options{}, sp)
	if err != nil {
		t.Fatal(err)
	}
	hs, err := handoff.DefaultSpec()
	if err != nil {
		t.Fatal(err)
	}
	ev, err := handoff.New(hs)
	if err != nil {
		t.Fatal(err)
	}
	vv, err := phase.Validator()
	if err != nil {
		t.Fatal(err)
	}
	return messages.New(v, sp, messages.Handoffs(ev), messages.Verdicts(vv))
}

// TestProtocols scans the planted repository of NEXUS handoffs and phase
// verdicts: each planted problem is found at its field, nothing else is
// (the CI steps numbered 1/2 and the API response with a verdict key stay
// silent), and every handoff and verdict is counted.
func TestProtocols(t *testing.T) {
	res, err := scan.Run(context.Background(), filepath.Join("..", "..", "testdata", "protocols"),
		scan.Options{Vocabulary: vocabulary(t), Messages: protocolsChecker(t)})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("..", "..", "testdata", "protocols.golden"), res.Findings)
	var got []string
	for _, o := range res.Messages {
		got = append(got, fmt.Sprintf("%s:%d:%d %s valid=%v warned=%v", o.Path, o.Line, o.Col, o.Kind, o.Valid, o.Warned))
	}
	want := []string{
		"docs/chain.md:7:1 nexus_handoff_v2 valid=true warned=true",
		"docs/chain.md:23:3 nexus_handoff_v2 valid=true warned=false",
		"handoffs/builder.yaml:3:3 nexus_handoff_v2 valid=true warned=false",
		"handoffs/radar.json:2:23 nexus_handoff_v2 valid=false warned=false",
		"handoffs/scout-v1.yaml:2:3 nexus_handoff_v2 valid=true warned=true",
		"verdicts/phase-3.json:1:1 phase_verdict valid=true warned=false",
		"verdicts/phase-4.json:1:1 phase_verdict valid=false warned=false",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
