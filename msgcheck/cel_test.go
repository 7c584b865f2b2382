package msgcheck_test

import (
	"strings"
	"testing"
	"time"
)

// A rule that loops over the message (here cubically over a 400-item
// list: 64 million steps) is stopped by the cost limit and reported as a
// warning, promptly; a rule without a loop runs without the limit, and
// gives the same verdicts.
func TestCELCostLimit(t *testing.T) {
	v := newValidator(t, "", celSpec(t, `- rule: "self.v.all(a, self.v.all(b, self.v.all(c, a + b + c >= 0)))"`))
	list := make([]any, 400)
	for i := range list {
		list[i] = int64(i)
	}
	start := time.Now()
	res := v.Validate("msg", map[string]any{"v": list})
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the looping rule ran for %v", took)
	}
	if !res.Valid || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "cost limit") {
		t.Errorf("valid=%v errors=%q warnings=%q", res.Valid, describe(res.Errors), describe(res.Warnings))
	}
	// a small list is within the limit: the rule is evaluated
	if res := v.Validate("msg", map[string]any{"v": []any{int64(1), int64(-5)}}); res.Valid {
		t.Errorf("a failing loop passes: %q", describe(res.Warnings))
	}

	plain := newValidator(t, "", celSpec(t, `- rule: "self.v.size() < 3 && self.v.startsWith('a')"`))
	for text, valid := range map[string]bool{"ab": true, "abc": false, "ba": false} {
		if res := plain.Validate("msg", map[string]any{"v": text}); res.Valid != valid || len(res.Warnings) != 0 {
			t.Errorf("%q: valid=%v warnings=%q, want valid=%v", text, res.Valid, describe(res.Warnings), valid)
		}
	}
}

// Rules may use cel-go's math extension: a tolerance is one math.abs.
func TestCELMath(t *testing.T) {
	v := newValidator(t, "", celSpec(t, `- rule: "math.abs(double(self.v) - 0.5) <= 0.25"`))
	for n, valid := range map[float64]bool{0.5: true, 0.75: true, 0.3: true, 0.8: false, 0.2: false} {
		if res := v.Validate("msg", map[string]any{"v": n}); res.Valid != valid || len(res.Warnings) != 0 {
			t.Errorf("v=%v: valid=%v warnings=%q, want valid=%v", n, res.Valid, describe(res.Warnings), valid)
		}
	}
}

// cel.bind names a value once per rule; it is not a loop, so the rule runs
// without cost tracking, and gives the same verdicts.
func TestCELBind(t *testing.T) {
	v := newValidator(t, "", celSpec(t, `- rule: "cel.bind(d, self.v * 2 - 7, d <= 1 && -d <= 1)"`))
	for n, valid := range map[int64]bool{3: true, 4: true, 5: false, 2: false} {
		if res := v.Validate("msg", map[string]any{"v": n}); res.Valid != valid || len(res.Warnings) != 0 {
			t.Errorf("v=%d: valid=%v warnings=%q, want valid=%v", n, res.Valid, describe(res.Warnings), valid)
		}
	}
}
