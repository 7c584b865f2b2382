package pipeline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/protoscan-dev/protoscan/internal/jsonstr"
)

// EventType names an event.
type EventType uint8

// The events of a run: ValidationStarted first, then exactly one of the
// others.
const (
	ValidationStarted EventType = iota // ArtifactValidationStarted
	Validated                          // ArtifactValidated: passed every stage
	RejectedEvent                      // ArtifactRejected: a stage rejected
	ApprovalRequired                   // ApprovalRequired: waits for a person
	numEventTypes
)

var eventNames = [numEventTypes]string{"ArtifactValidationStarted", "ArtifactValidated", "ArtifactRejected", "ApprovalRequired"}

// String returns the event's name: "ArtifactValidated"...
func (t EventType) String() string {
	if t < numEventTypes {
		return eventNames[t]
	}
	return fmt.Sprintf("event(%d)", uint8(t))
}

// Event is one event of a run. The terminal events (all but
// ArtifactValidationStarted) record the decision completely, so that a log
// of them can be replayed.
type Event struct {
	Type      EventType
	Causation string // the causation id of the artifact (see Input.Causation)
	Artifact  string // the caller's name for the artifact, if any
	Kind      string // named (started) or found (terminal) kind
	From      string // the stage the artifact moves on from, if given

	// terminal events only
	Outcome Outcome
	Stage   Stage // the deciding stage
	System  bool
	Reasons []Reason
	Tier    string
	Message string
	Layers  [numStages]Layer
	NLayers int // how many of Layers ran
}

// terminalEvent is the event that records d.
func terminalEvent(d *Decision, in Input) Event {
	t := Validated
	switch d.Outcome {
	case Rejected:
		t = RejectedEvent
	case NeedsApproval:
		t = ApprovalRequired
	}
	return Event{Type: t, Causation: d.Causation, Artifact: in.Artifact, Kind: d.Kind, From: in.From,
		Outcome: d.Outcome, Stage: d.Stage, System: d.System, Reasons: d.Reasons, Tier: d.Tier, Message: d.Message,
		Layers: d.layers, NLayers: d.nLayers}
}

// decision rebuilds the decision a terminal event records.
func (e *Event) decision() Decision {
	return Decision{Outcome: e.Outcome, Stage: e.Stage, Reasons: e.Reasons, Tier: e.Tier, Message: e.Message,
		System: e.System, Kind: e.Kind, Causation: e.Causation, Replayed: true, layers: e.Layers, nLayers: e.NLayers}
}

// AppendJSON appends the event as one line of JSON (no newline), keys in
// a fixed order, empty optional keys left out. It does not use reflection.
func (e *Event) AppendJSON(b []byte) []byte {
	b = append(b, `{"event":`...)
	b = appendName(b, e.Type.String())
	b = append(b, `,"causation_id":`...)
	b = jsonstr.Append(b, e.Causation)
	b = optString(b, "artifact", e.Artifact)
	b = optString(b, "kind", e.Kind)
	b = optString(b, "from", e.From)
	if e.Type == ValidationStarted {
		return append(b, '}')
	}
	b = append(b, `,"outcome":`...)
	b = appendName(b, e.Outcome.String())
	b = append(b, `,"stage":`...)
	b = appendName(b, e.Stage.String())
	if e.System {
		b = append(b, `,"system":true`...)
	}
	b = optString(b, "tier", e.Tier)
	b = optString(b, "message", e.Message)
	if len(e.Reasons) > 0 {
		b = append(b, `,"reasons":[`...)
		for i := range e.Reasons {
			if i > 0 {
				b = append(b, ',')
			}
			r := &e.Reasons[i]
			b = append(b, `{"stage":`...)
			b = appendName(b, r.Stage.String())
			b = optString(b, "validator", r.Validator)
			b = optString(b, "field", r.Field)
			b = append(b, `,"rule":`...)
			b = jsonstr.Append(b, r.Rule)
			b = append(b, `,"message":`...)
			b = jsonstr.Append(b, r.Message)
			if r.Line > 0 {
				b = append(b, `,"line":`...)
				b = strconv.AppendInt(b, int64(r.Line), 10)
				b = append(b, `,"column":`...)
				b = strconv.AppendInt(b, int64(r.Column), 10)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"layers":[`...)
	for i := 0; i < e.NLayers && i < len(e.Layers); i++ {
		if i > 0 {
			b = append(b, ',')
		}
		l := &e.Layers[i]
		b = append(b, `{"stage":`...)
		b = appendName(b, l.Stage.String())
		b = append(b, `,"result":`...)
		b = appendName(b, l.Result.String())
		if l.Stage == Semantic {
			b = append(b, `,"validators":`...)
			b = strconv.AppendInt(b, int64(l.Validators), 10)
		}
		b = append(b, `,"duration_ms":`...)
		b = appendMillis(b, l.Duration.Nanoseconds())
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// appendName writes one of the package's own names (an event type, a
// stage, an outcome): plain ASCII words, which need no escaping.
func appendName(b []byte, s string) []byte {
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendMillis writes ns nanoseconds as milliseconds, as
// strconv.AppendFloat(float64(ns)/1e6, 'f', -1) does, without its
// shortest-digits search: below 1e15 ns the decimal has at most 15
// significant digits, which a float64 keeps exactly, so the shortest form
// is the decimal itself.
func appendMillis(b []byte, ns int64) []byte {
	if ns < 0 || ns >= 1e15 {
		return strconv.AppendFloat(b, float64(ns)/1e6, 'f', -1, 64)
	}
	b = strconv.AppendInt(b, ns/1e6, 10)
	frac := ns % 1e6
	if frac == 0 {
		return b
	}
	var digits [7]byte
	digits[0] = '.'
	for i := 6; i >= 1; i-- {
		digits[i] = byte('0' + frac%10)
		frac /= 10
	}
	n := 7
	for digits[n-1] == '0' {
		n--
	}
	return append(b, digits[:n]...)
}

// MarshalJSON writes the event as AppendJSON does.
func (e Event) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil), nil }

func optString(b []byte, key, val string) []byte {
	if val == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return jsonstr.Append(b, val)
}

// JSONL is a Sink that writes each event as a line of JSON. It is safe for
// concurrent use; the first write error stops it and is kept for Err.
type JSONL struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
	err error
}

// NewJSONL returns a sink writing to w.
func NewJSONL(w io.Writer) *JSONL { return &JSONL{w: w} }

// Emit writes one event.
func (j *JSONL) Emit(e Event) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return
	}
	j.buf = append(e.AppendJSON(j.buf[:0]), '\n')
	_, j.err = j.w.Write(j.buf)
}

// Err returns the first write error, if any.
func (j *JSONL) Err() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// Recorder is a Sink that keeps the events in memory. It is safe for
// concurrent use.
type Recorder struct {
	mu     sync.Mutex
	events []Event
}

// Emit keeps e.
func (r *Recorder) Emit(e Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

// Events returns the events kept so far, in order.
func (r *Recorder) Events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

// wireEvent is the JSON form of an Event, for reading it back.
type wireEvent struct {
	Event     string       `json:"event"`
	Causation string       `json:"causation_id"`
	Artifact  string       `json:"artifact"`
	Kind      string       `json:"kind"`
	From      string       `json:"from"`
	Outcome   string       `json:"outcome"`
	Stage     string       `json:"stage"`
	System    bool         `json:"system"`
	Tier      string       `json:"tier"`
	Message   string       `json:"message"`
	Reasons   []wireReason `json:"reasons"`
	Layers    []wireLayer  `json:"layers"`
}

type wireReason struct {
	Stage     string `json:"stage"`
	Validator string `json:"validator"`
	Field     string `json:"field"`
	Rule      string `json:"rule"`
	Message   string `json:"message"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
}

type wireLayer struct {
	Stage      string  `json:"stage"`
	Result     string  `json:"result"`
	Validators int     `json:"validators"`
	DurationMS float64 `json:"duration_ms"`
}

// UnmarshalJSON reads an event written by AppendJSON.
func (e *Event) UnmarshalJSON(data []byte) error {
	var w wireEvent
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return err
	}
	t, ok := lookup(eventNames[:], w.Event)
	if !ok {
		return fmt.Errorf("unknown event %q", w.Event)
	}
	*e = Event{Type: EventType(t), Causation: w.Causation, Artifact: w.Artifact, Kind: w.Kind, From: w.From,
		System: w.System, Tier: w.Tier, Message: w.Message}
	if e.Causation == "" {
		return fmt.Errorf("%s without causation_id", w.Event)
	}
	if e.Type == ValidationStarted {
		return nil
	}
	o, ok := lookup(outcomeNames[:], w.Outcome)
	if !ok {
		return fmt.Errorf("unknown outcome %q", w.Outcome)
	}
	e.Outcome = Outcome(o)
	if want := [...]EventType{Validated, RejectedEvent, ApprovalRequired}[o]; want != e.Type {
		return fmt.Errorf("%s with outcome %q", w.Event, w.Outcome)
	}
	s, ok := lookup(stageNames[:], w.Stage)
	if !ok {
		return fmt.Errorf("unknown stage %q", w.Stage)
	}
	e.Stage = Stage(s)
	for _, r := range w.Reasons {
		rs, ok := lookup(stageNames[:], r.Stage)
		if !ok {
			return fmt.Errorf("reason: unknown stage %q", r.Stage)
		}
		e.Reasons = append(e.Reasons, Reason{Stage: Stage(rs), Validator: r.Validator, Field: r.Field, Rule: r.Rule,
			Message: r.Message, Line: r.Line, Column: r.Column})
	}
	if len(w.Layers) > len(e.Layers) {
		return fmt.Errorf("%d layers (there are %d stages)", len(w.Layers), len(e.Layers))
	}
	for i, l := range w.Layers {
		ls, ok := lookup(stageNames[:], l.Stage)
		lo, ok2 := lookup(outcomeNames[:], l.Result)
		if !ok || !ok2 {
			return fmt.Errorf("layer %d: unknown stage %q or result %q", i, l.Stage, l.Result)
		}
		e.Layers[i] = Layer{Stage: Stage(ls), Result: Outcome(lo), Validators: l.Validators,
			Duration: time.Duration(l.DurationMS * 1e6)}
	}
	e.NLayers = len(w.Layers)
	return nil
}

func lookup(names []string, s string) (int, bool) {
	for i, n := range names {
		if n == s {
			return i, true
		}
	}
	return 0, false
}

// maxEventLine bounds one line of an event log.
const maxEventLine = 16 << 20

// ReadEvents reads an event log written by JSONL. A line that is not an
// event is an error naming its line number.
func ReadEvents(r io.Reader) ([]Event, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxEventLine)
	var out []Event
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var e Event
		if err := e.UnmarshalJSON(sc.Bytes()); err != nil {
			return nil, fmt.Errorf("event log line %d: %w", line, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("event log: %w", err)
	}
	return out, nil
}
