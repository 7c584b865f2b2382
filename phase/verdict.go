package phase

import (
	"bytes"
	"errors"
	"sync"

	"github.com/protoscan-dev/protoscan/languages/jsondoc"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// The verdict contract as an embedded msgcheck spec.
const (
	SpecName = "phase-verdict-v1.yaml"
	KindName = "phase_verdict"
	// RuleUnparsable is the finding of verdict text that is not JSON
	// values and nothing else.
	RuleUnparsable = "msgcheck/phase_verdict-unparsable"
	// MaxVerdictBytes bounds a verdict file; real verdicts are a few
	// kilobytes.
	MaxVerdictBytes = 1 << 20
)

// Checked is one verdict checked against the contract.
type Checked struct {
	Line   int // where the verdict starts; where parsing failed for an unparsable one
	Result msgcheck.Result
	said   string // the verdict field, when it is a string
}

// Effective is what the verdict means to its reader, fail-closed: Pass
// only for a verdict that fits the contract and says pass.
func (c Checked) Effective() string {
	if c.Result.Valid && c.said == Pass {
		return Pass
	}
	return Fail
}

var (
	validatorOnce sync.Once
	validator     *msgcheck.Validator
	validatorErr  error
)

// Validator returns the validator of the embedded verdict spec.
func Validator() (*msgcheck.Validator, error) {
	validatorOnce.Do(func() {
		var sp *msgcheck.Spec
		if sp, validatorErr = msgcheck.EmbeddedSpec(SpecName); validatorErr == nil {
			validator, validatorErr = msgcheck.New(msgcheck.Options{Timing: true}, sp)
		}
	})
	return validator, validatorErr
}

// CheckVerdicts checks verdict JSON, named name, against the contract.
// Every JSON value in data is a verdict (a file may hold JSON Lines).
// Anything that does not parse, or does not fit, is a Checked whose
// result is invalid: there is no error return, only fail-closed results.
func CheckVerdicts(name string, data []byte) []Checked {
	v, err := Validator()
	if err != nil {
		panic("phase: embedded verdict spec is broken: " + err.Error()) // a build defect, caught by tests
	}
	if len(data) > MaxVerdictBytes {
		return []Checked{unparsable(1, 0, "is larger than 1 MiB")}
	}
	docs, err := jsondoc.Parse(name, data, jsondoc.Limits{MaxBytes: MaxVerdictBytes, MaxDepth: 64})
	if err != nil {
		var je *jsondoc.Error
		line, col, msg := 0, 0, err.Error()
		if errors.As(err, &je) {
			line, col, msg = je.Line, je.Column, je.Msg
		}
		msg = "does not parse as JSON (" + msg + ")"
		if t := bytes.TrimSpace(data); bytes.HasPrefix(t, []byte("```")) {
			msg = "is wrapped in a ``` fence"
			line, col = 1, 1
		}
		return []Checked{unparsable(line, col, msg)}
	}
	if len(docs) == 0 {
		return []Checked{unparsable(0, 0, "is empty")}
	}
	out := make([]Checked, 0, len(docs))
	for _, d := range docs {
		res, err := v.ValidateNode(KindName, d)
		if err != nil {
			out = append(out, unparsable(d.Line, d.Column, "does not parse ("+err.Error()+")"))
			continue
		}
		c := Checked{Line: d.Line, Result: res}
		for i := 0; i+1 < len(d.Content); i += 2 {
			if d.Content[i].Value == "verdict" && d.Content[i+1].ShortTag() == "!!str" {
				c.said = d.Content[i+1].Value
			}
		}
		out = append(out, c)
	}
	return out
}

func unparsable(line, col int, what string) Checked {
	return Checked{Line: max(line, 1), Result: msgcheck.Result{Kind: KindName, Errors: []msgcheck.Finding{{
		Rule:    RuleUnparsable,
		Message: "verdict " + what + ": a verdict is one JSON object and nothing else (no prose, no ``` fence); treated as fail",
		Line:    line, Column: col,
	}}}}
}
