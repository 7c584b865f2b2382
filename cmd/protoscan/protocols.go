package main

import (
	"github.com/protoscan/protoscan/handoff"
	"github.com/protoscan/protoscan/messages"
	"github.com/protoscan/protoscan/msgcheck"
	"github.com/protoscan/protoscan/phase"
)

// scanProtocols returns the protocols the scan checks beside
// protocol-core, and the spec of each (for the cache key): NEXUS handoffs
// against the repository's docs/specs/nexus-handoff-v2*.yaml under root,
// else the embedded spec, as validate --handoff without --spec does; and
// phase verdicts against the embedded verdict contract, as validate
// --verdict does (a repository cannot ship its own).
func scanProtocols(root string) ([]messages.Protocol, []*msgcheck.Spec, error) {
	hs, err := handoff.Discover(root)
	if err != nil {
		return nil, nil, err
	}
	ev, err := handoff.New(hs)
	if err != nil {
		return nil, nil, err
	}
	vv, err := phase.Validator()
	if err != nil {
		return nil, nil, err
	}
	return []messages.Protocol{messages.Handoffs(ev), messages.Verdicts(vv)}, []*msgcheck.Spec{hs, vv.Spec()}, nil
}
