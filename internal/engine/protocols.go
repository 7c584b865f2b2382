package engine

import (
	"errors"
	"strings"

	"github.com/protoscan-dev/protoscan/handoff"
	"github.com/protoscan-dev/protoscan/internal/messages"
	"github.com/protoscan-dev/protoscan/msgcheck"
	"github.com/protoscan-dev/protoscan/phase"
)

// scanProtocols returns the protocols the scan checks beside
// protocol-core, and the spec of each (for the cache key): NEXUS handoffs
// against the repository's docs/specs/nexus-handoff-v2*.yaml under root,
// else the embedded spec, as validate --handoff without --spec does; and
// phase verdicts against the embedded verdict contract, as validate
// --verdict does (a repository cannot ship its own). A handoff spec of
// the repository that cannot be loaded, or is no handoff spec, goes to
// fallback and the embedded spec stands in for it. discover finds the
// handoff spec: handoff.Discover, or that of --config-from-rev's commit.
func scanProtocols(root string, fallback *specFallback, discover func(root string) (*msgcheck.Spec, error)) ([]messages.Protocol, []*msgcheck.Spec, error) {
	embeddedHandoff, err := handoff.DefaultSpec()
	if err != nil {
		return nil, nil, err
	}
	hs, err := discover(root)
	if err != nil {
		fallback.add(err, embeddedHandoff, false)
		hs = embeddedHandoff
	}
	ev, err := handoff.New(hs)
	if err != nil && hs != embeddedHandoff {
		// it loads, but lacks what the evaluator needs (its kind, thresholds)
		var errs []error // handoff's errors are "SOURCE: message", joined
		for _, e := range leafErrors(err) {
			errs = append(errs, &msgcheck.SpecError{File: hs.Source, Msg: strings.TrimPrefix(e.Error(), hs.Source+": ")})
		}
		fallback.add(errors.Join(errs...), embeddedHandoff, false)
		hs = embeddedHandoff
		ev, err = handoff.New(hs)
	}
	if err != nil {
		return nil, nil, err
	}
	vv, err := phase.Validator()
	if err != nil {
		return nil, nil, err
	}
	return []messages.Protocol{messages.Handoffs(ev), messages.Verdicts(vv)}, []*msgcheck.Spec{hs, vv.Spec()}, nil
}
