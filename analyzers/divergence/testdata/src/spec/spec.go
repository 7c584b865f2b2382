package spec // want package:"2 candidates"

// spec holds a DELEGATE and a HANDBACK validation whose bounds the
// spec contradicts: a named constant below minWords, a plan checked for
// one step where minItems is 2, a quality compared on a 0-100 scale.

import (
	"errors"
	"strings"
)

// minScopeWords is below the spec's minWords 15.
const minScopeWords = 10

type Delegate struct {
	Scope           string
	Plan            []string
	SuccessCriteria []string
}

type Metrics struct{ Quality float64 }

type Handback struct {
	Output     string
	RetryCount int
	Metrics    Metrics
}

func ValidateDelegate(d Delegate) error {
	if len(strings.Fields(d.Scope)) < minScopeWords { // want `ValidateDelegate holds the word count of scope to at least 10 \(< minScopeWords = 10\); the spec says minWords 15 \(embedded:protocol-core-v1.0.yaml:64\) \(divergence/spec-threshold\)`
		return errors.New("scope: too short")
	}
	if len(d.Plan) == 0 { // want `ValidateDelegate holds the length of plan to at least 1 \(== 0\); the spec says minItems 2 \(embedded:protocol-core-v1.0.yaml:76\)`
		return errors.New("plan: empty")
	}
	if len(d.SuccessCriteria) < 1 { // minItems 1: the spec's bound
		return errors.New("success_criteria: empty")
	}
	return nil
}

func CheckHandback(h Handback) error {
	if h.Metrics.Quality < 70 { // want `CheckHandback compares metrics.quality with 70 \(< 70\), outside the spec's range: minimum 0 \(embedded:protocol-core-v1.0.yaml:132\), maximum 1 \(embedded:protocol-core-v1.0.yaml:133\)`
		return errors.New("quality: too low")
	}
	if h.RetryCount > 3 { // within minimum 0: the code's own policy
		return errors.New("retry_count: too many")
	}
	return nil
}
