package pipeline

import (
	"context"
	"errors"
	"fmt"
)

// Log is a recorded event log, indexed by causation id for replay. It is
// immutable after NewLog and safe for concurrent use.
type Log struct {
	decided map[string]Event // causation id -> its terminal event
}

// ErrNotRecorded is returned by Replay when the log has no decision for
// the artifact.
var ErrNotRecorded = errors.New("no decision recorded for the artifact")

// ErrDiverged is returned by Replay when the stages it re-runs decide
// differently from the log (the spec or the input changed).
var ErrDiverged = errors.New("replay diverges from the recorded decision")

// NewLog indexes the terminal events of a log. An artifact decided twice
// must have been decided the same way; the log is inconsistent otherwise.
func NewLog(events []Event) (*Log, error) {
	l := &Log{decided: map[string]Event{}}
	for _, e := range events {
		if e.Type == ValidationStarted {
			continue
		}
		if prev, ok := l.decided[e.Causation]; ok {
			pd, ed := prev.decision(), e.decision()
			if sameDecision(&pd, &ed) {
				continue
			}
			return nil, fmt.Errorf("event log: artifact %s is decided twice, differently (%s at %s, then %s at %s)",
				e.Causation, prev.Outcome, prev.Stage, e.Outcome, e.Stage)
		}
		l.decided[e.Causation] = e
	}
	return l, nil
}

// Decision returns the decision recorded for a causation id.
func (l *Log) Decision(causation string) (Decision, bool) {
	e, ok := l.decided[causation]
	if !ok {
		return Decision{}, false
	}
	return e.decision(), true
}

// Replay reproduces the decision on an artifact from the log: the
// deterministic stages (routing and payload) run again, and what the
// semantic and approval stages decided is read from the log, so no
// semantic validator and no approval is run again, and no event is
// emitted. The recorded decision is returned (with Payload filled), or
// ErrNotRecorded, or ErrDiverged when routing or payload now decide
// otherwise than recorded.
//
// Use Log.Decision to read a decision without running anything at all.
func (p *Pipeline) Replay(ctx context.Context, log *Log, in Input) (Decision, error) {
	var d Decision
	d.Causation = in.Causation
	msg, convErr := in.Message, error(nil)
	if msg == nil && in.Node != nil {
		msg, convErr = nodeValue(in)
	}
	if d.Causation == "" {
		d.Causation = CausationOf(in.Kind, in.From, msg)
	}
	rec, ok := log.Decision(d.Causation)
	if !ok {
		return Decision{}, fmt.Errorf("%w (causation %s)", ErrNotRecorded, d.Causation)
	}
	if rec.System {
		return rec, nil // a failure is not re-run: it is the recorded history
	}
	// the deterministic stages again, without the others
	if err := ctx.Err(); err != nil {
		return Decision{}, err
	}
	m, kind := p.route(&d, in, msg, convErr)
	if d.Outcome == Passed {
		p.payload(&d, in, kind, m)
	}
	early := d.Outcome != Passed
	recEarly := rec.Outcome == Rejected && (rec.Stage == Routing || rec.Stage == Payload)
	switch {
	case early != recEarly:
		return Decision{}, fmt.Errorf("%w: now %s at %s, recorded %s at %s", ErrDiverged, d.Outcome, d.Stage, rec.Outcome, rec.Stage)
	case early && !sameDecision(&d, &rec):
		return Decision{}, fmt.Errorf("%w: the %s stage now gives other reasons", ErrDiverged, d.Stage)
	}
	rec.Payload = d.Payload
	return rec, nil
}

// sameDecision compares what decides: outcome, stage, reasons, tier.
func sameDecision(a, b *Decision) bool {
	if a.Outcome != b.Outcome || a.Stage != b.Stage || a.Tier != b.Tier || a.Message != b.Message ||
		a.System != b.System || len(a.Reasons) != len(b.Reasons) {
		return false
	}
	for i := range a.Reasons {
		if a.Reasons[i] != b.Reasons[i] {
			return false
		}
	}
	return true
}
