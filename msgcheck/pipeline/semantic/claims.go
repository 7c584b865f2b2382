package semantic

import (
	"context"
	"strconv"
	"strings"
	"sync"

	"github.com/protoscan-dev/protoscan/msgcheck"
	"github.com/protoscan-dev/protoscan/msgcheck/pipeline"
)

// RuleContradictoryClaim is the rule id of the claims validator.
const RuleContradictoryClaim = "msgcheck/semantic-contradictory-claim"

// Claims reports a message whose status claims success while the message
// itself reports failing criteria. Success is the status enum's success
// value in any letter case, or one of its aliases (from the spec: success,
// SUCCESS, complete...). Failing criteria are, under a key that speaks of
// criteria, checks, conditions, tests, verification or assertions: an
// entry whose passed/met/ok/satisfied/success is false or whose
// status/result/outcome/verdict is fail, failed, failure, error, not_met or
// unmet; a name mapped to false or to such a word; and anywhere, a counter
// of failures (failed, failures, tests_failed...) above 0 or a flag like
// criteria_met: false.
type Claims struct {
	success sync.Map // *msgcheck.Spec + kind -> map[string]bool, lower-case
}

// NewClaims returns the validator.
func NewClaims() *Claims { return &Claims{} }

// Name is "claims".
func (*Claims) Name() string { return "claims" }

type specKind struct {
	spec *msgcheck.Spec
	kind string
}

// successWords are the spellings of success in a kind's status enum.
func (c *Claims) successWords(sp *msgcheck.Spec, kind string) map[string]bool {
	key := specKind{sp, kind}
	if w, ok := c.success.Load(key); ok {
		return w.(map[string]bool)
	}
	words := map[string]bool{"success": true}
	if sp != nil {
		if values, aliases, ok := sp.Enum(kind, "status"); ok {
			for _, v := range values {
				if strings.EqualFold(v, "success") {
					words[strings.ToLower(v)] = true
				}
			}
			for alias, v := range aliases {
				if strings.EqualFold(v, "success") {
					words[strings.ToLower(alias)] = true
				}
			}
		}
	}
	c.success.Store(key, words)
	return words
}

// claimsSuccess reports whether status is a spelling of success in the
// artifact's spec: only then are its criteria checked.
func (c *Claims) claimsSuccess(a *pipeline.Artifact, status string) bool {
	return isWord(c.successWords(a.Spec, a.Kind), status)
}

// Validate compares the status with the criteria the message reports.
func (c *Claims) Validate(_ context.Context, a *pipeline.Artifact) ([]pipeline.Reason, error) {
	status, ok := a.Message["status"].(string)
	if !ok || !c.claimsSuccess(a, status) {
		return nil, nil
	}
	cc := claimPool.Get().(*claimCheck)
	cc.status, cc.reasons = status, nil
	cc.t = &cc.own
	cc.t.reset()
	cc.walk(a.Message, false)
	reasons := cc.reasons
	cc.reasons = nil
	claimPool.Put(cc)
	if len(reasons) == 0 {
		return nil, nil
	}
	return sortReasons(reasons), nil
}

// claimPool recycles the walks: a clean message costs no allocation.
var claimPool = sync.Pool{New: func() any { return new(claimCheck) }}

// isWord looks s up in words, lower-case, without allocating for a short
// s ("SUCCESS").
func isWord(words map[string]bool, s string) bool {
	var buf [32]byte
	if len(s) > len(buf) {
		return words[strings.ToLower(s)]
	}
	b := buf[:len(s)]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return words[string(b)]
}

// lower lower-cases an ASCII status without allocating when it already is.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

type claimCheck struct {
	status  string
	t       *trail // own, or the trail of a walk shared with other checks
	own     trail
	reasons []pipeline.Reason
}

func (c *claimCheck) fail(what string) {
	c.reasons = append(c.reasons, c.t.reason(RuleContradictoryClaim, what+", yet status is "+quote(c.status)))
}

// criteriaKey reports a key that speaks of criteria: it contains
// criteri, check, condition, test, verification or assertion in any
// letter case. One pass over the key: every key of a message comes here.
func criteriaKey(k string) bool {
	for i := 0; i < len(k); i++ {
		var words []string
		switch k[i] | 0x20 {
		case 'c':
			words = []string{"criteri", "check", "condition"}
		case 't':
			words = []string{"test"}
		case 'v':
			words = []string{"verification"}
		case 'a':
			words = []string{"assertion"}
		default:
			continue
		}
		for _, w := range words {
			if len(k)-i >= len(w) && strings.EqualFold(k[i:i+len(w)], w) {
				return true
			}
		}
	}
	return false
}

var passKeys = [...]string{"passed", "pass", "met", "ok", "satisfied", "success", "succeeded"}
var verdictKeys = [...]string{"status", "result", "outcome", "verdict", "state"}
var nameKeys = [...]string{"name", "criterion", "id", "title", "check", "test", "description"}

func failWord(s string) bool {
	switch lower(s) {
	case "fail", "failed", "failure", "failing", "error", "errored", "not_met", "unmet", "not met":
		return true
	}
	return false
}

func counterKey(k string) bool {
	switch lower(k) {
	case "failed", "failures", "failing", "tests_failed", "failed_tests", "criteria_failed", "failed_criteria",
		"checks_failed", "failed_checks", "num_failed", "failed_count":
		return true
	}
	return false
}

// walk looks for failures; inCriteria is set under a criteria key.
func (c *claimCheck) walk(v any, inCriteria bool) {
	if c.t.depth() > maxDepth {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if inCriteria && c.entry(x) {
			return
		}
		for k, e := range x {
			c.t.push(k)
			if deeper, criteria := c.visit(k, e, inCriteria); deeper {
				c.walk(e, criteria)
			}
			c.t.pop()
		}
	case []any:
		for i, e := range x {
			c.t.pushIndex(i)
			c.walk(e, inCriteria)
			c.t.pop()
		}
	}
}

// visit judges the entry k: e of a mapping, the trail at k. It says
// whether the check goes on into e (a mapping or a list), and whether e
// is then under a criteria key.
func (c *claimCheck) visit(k string, e any, inCriteria bool) (deeper, criteria bool) {
	switch val := e.(type) {
	case bool:
		if !val && (criteriaKey(k) || (inCriteria && !isPassKey(k))) {
			c.fail("criterion " + quote(k) + " is false")
		}
	case string:
		if inCriteria && failWord(val) && !isVerdictKey(k) {
			c.fail("criterion " + quote(k) + " is " + quote(val))
		}
	case map[string]any, []any:
		return true, inCriteria || criteriaKey(k)
	default:
		if f, ok := msgcheck.Number(e); ok && f > 0 && counterKey(k) {
			c.fail(k + " is " + formatCount(f))
		}
	}
	return false, false
}

// entry judges a mapping that is one criterion: it reports and returns
// true when the criterion failed.
func (c *claimCheck) entry(m map[string]any) bool {
	failed := false
	for _, k := range passKeys {
		if b, ok := m[k].(bool); ok && !b {
			failed = true
		}
	}
	for _, k := range verdictKeys {
		if s, ok := m[k].(string); ok && failWord(s) {
			failed = true
		}
	}
	if !failed {
		return false
	}
	name := ""
	for _, k := range nameKeys {
		if s, ok := m[k].(string); ok && s != "" {
			name = " " + quote(s)
			break
		}
	}
	c.fail("criterion" + name + " failed")
	return true
}

func isPassKey(k string) bool {
	for _, p := range passKeys {
		if k == p {
			return true
		}
	}
	return false
}

func isVerdictKey(k string) bool {
	for _, p := range verdictKeys {
		if k == p {
			return true
		}
	}
	return false
}

func formatCount(f float64) string {
	if f == float64(int64(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	return "more than 0"
}
