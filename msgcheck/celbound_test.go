package msgcheck

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// boundRules are rules of every shape costBound meets: bounded ones run
// untracked on a message that fits costHint, the others always tracked.
var boundRules = []struct {
	rule    string
	bounded bool
}{
	{"self.v != 'SUCCESS' || double(self.n) >= 0.70", true},
	{"cel.bind(xy, self.v.split('/'), int(xy[0]) <= int(xy[1]))", true},
	{"self.v in ['a', 'b'] && has(self.n)", true},
	{"self.v.matches('^[a-z]+/[0-9]+$')", true},
	{"self.v.size() < 3 || self.v.substring(1, 3) != 'zz'", true},
	{"math.abs(double(self.n) - 0.5) <= 0.5", true},
	// a replacement can grow the message's string a thousandfold
	{"self.v.replace('a', self.v) != ''", false},
	// loops over the message's lists keep the memory limit, so tracking
	{"self.l.all(x, x != 'a')", false},
	{"[1, 2].map(a, self.v + self.v).size() > 0", false},
	// nested binds: no estimate at all (see costBound)
	{"cel.bind(a, self.v, cel.bind(b, a + a, cel.bind(c, b + b, size(c) > 0)))", false},
	{nestedBinds(40), false},
}

// nestedBinds nests n cel.binds, each doubling the one before.
func nestedBinds(n int) string {
	var b strings.Builder
	b.WriteString("cel.bind(v0, self.v, ")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "cel.bind(v%d, v%d + v%d, ", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "size(v%d) > 0", n-1)
	b.WriteString(strings.Repeat(")", n))
	return b.String()
}

// boundMessages are the messages the rules run on: each fits costHint.
var boundMessages = []map[string]any{
	{"v": "2/5", "n": 0.9, "l": []any{"a", "b"}},
	{"v": "a", "n": int64(1), "l": []any{}},
	{"v": "zzzz", "n": 0.1},
	{"v": strings.Repeat("a/", costHint/2), "n": 0.5, "l": []any{strings.Repeat("x", costHint)}},
	{"v": "7/x", "n": "not a number"},
	{"n": 0.2},
}

// TestCostBound: which rules get an untracked program, and on every
// message that fits the hint, the untracked program says what the
// tracked one says, and the tracker counts no more than the bound.
func TestCostBound(t *testing.T) {
	for _, tc := range boundRules {
		t.Run(tc.rule, func(t *testing.T) {
			c, err := compileRule(tc.rule)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.untracked != nil; got != tc.bounded {
				t.Fatalf("untracked program: %v (bound %d), want %v", got, c.bound, tc.bounded)
			}
			if c.untracked == nil {
				return
			}
			for _, m := range boundMessages {
				if !fitsCostHint(m, 0) {
					t.Fatalf("%.80v does not fit the hint: checkBound would skip it", m)
				}
				checkBound(t, c, m)
			}
		})
	}
}

// checkBound evaluates c on m both ways: the same value or error, and
// the tracked cost within the bound.
func checkBound(t *testing.T, c compiled, m map[string]any) {
	t.Helper()
	if !fitsCostHint(m, 0) {
		return
	}
	act := selfActivation{m}
	out, details, err := c.prg.Eval(act)
	fast, _, fastErr := c.untracked.Eval(act)
	if fmt.Sprint(out, err) != fmt.Sprint(fast, fastErr) {
		t.Errorf("on %.80v: tracked gives %v, %v; untracked %v, %v", m, out, err, fast, fastErr)
	}
	if details != nil && details.ActualCost() != nil && *details.ActualCost() > c.bound {
		t.Errorf("on %.80v: cost %d over the bound %d", m, *details.ActualCost(), c.bound)
	}
}

// TestFitsCostHint: strings, lists and maps up to costHint fit, one
// more does not, nor a value nested deeper than maxHintDepth or of a type
// the decoders do not make.
func TestFitsCostHint(t *testing.T) {
	deep := any("x")
	for range maxHintDepth + 1 {
		deep = []any{deep}
	}
	long := strings.Repeat("x", costHint)
	for _, tc := range []struct {
		name string
		v    any
		want bool
	}{
		{"scalars", map[string]any{"a": nil, "b": true, "c": int64(1), "d": 1.5, "e": 3, "f": uint64(2)}, true},
		{"string at the hint", map[string]any{"s": long}, true},
		{"string over the hint", map[string]any{"s": long + "x"}, false},
		{"key over the hint", map[string]any{long + "x": 1}, false},
		{"list at the hint", map[string]any{"l": make([]any, costHint)}, true},
		{"list over the hint", map[string]any{"l": make([]any, costHint+1)}, false},
		{"string over the hint in a list", map[string]any{"l": []any{"a", long + "x"}}, false},
		{"map over the hint", bigMap(costHint + 1), false},
		{"too deep", map[string]any{"d": deep}, false},
		{"other type", map[string]any{"t": time.Time{}}, false},
		{"bytes", map[string]any{"b": []byte("x")}, false},
	} {
		if got := fitsCostHint(tc.v, 0); got != tc.want {
			t.Errorf("%s: fits = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func bigMap(n int) map[string]any {
	m := make(map[string]any, n)
	for i := range n {
		m[fmt.Sprint(i)] = i
	}
	return m
}

// TestUntrackedKinds: a kind runs untracked only when every rule is
// bounded and the bounds add up to no more than the message budget; a
// kind over it is tracked and reports the same findings.
func TestUntrackedKinds(t *testing.T) {
	kindOf := func(t *testing.T, rules ...string) *kind {
		var b strings.Builder
		for _, r := range rules {
			fmt.Fprintf(&b, "    - rule: %q\n", r)
		}
		s, err := ParseSpec("k.yaml", []byte("version: \"1\"\nmsg:\n  signature: [v]\n  core_fields:\n    v: {}\n  x-protoscan-validations:\n"+b.String()))
		if err != nil {
			t.Fatal(err)
		}
		return s.kind("msg")
	}
	if k := kindOf(t, "self.v != 'x'", "self.v.size() < 10"); !k.untracked() {
		t.Error("two bounded rules: tracked")
	}
	if k := kindOf(t, "self.v != 'x'", "self.v.replace('a', self.v) != ''"); k.untracked() {
		t.Error("a rule without a bound: untracked")
	}
	split := "self.v.split(',').size() < 100"
	c, err := compileRule(split)
	if err != nil || c.untracked == nil {
		t.Fatalf("%s: no bound (%v)", split, err)
	}
	n := int(celMessageBudget/c.bound) + 1
	rules := make([]string, n)
	for i := range rules {
		rules[i] = split
	}
	k := kindOf(t, rules...)
	if k.untracked() {
		t.Errorf("%d rules of bound %d, over the budget %d: untracked", n, c.bound, celMessageBudget)
	}
	var res Result
	evalRules(k, map[string]any{"v": "a,b"}, &res)
	if len(res.Errors)+len(res.Warnings) != 0 {
		t.Errorf("%d cheap rules, tracked: %v %v", n, res.Errors, res.Warnings)
	}
	var fast Result
	evalRules(kindOf(t, split, "self.v.size() > 5"), map[string]any{"v": "a,b"}, &fast)
	if len(fast.Errors) != 1 || fast.Errors[0].Rule != "msgcheck/msg-rule-2" {
		t.Errorf("untracked: errors %v, want msgcheck/msg-rule-2's", fast.Errors)
	}
}

// FuzzCELBound: for any rule and value, a rule with an untracked program
// says what the tracked program says, the tracker never counts more than
// the bound, and compiling (with the estimate) stays quick.
func FuzzCELBound(f *testing.F) {
	for _, tc := range boundRules {
		f.Add(tc.rule, "2/5")
	}
	f.Fuzz(func(t *testing.T, rule, value string) {
		if len(rule) > maxRuleBytes {
			return
		}
		defer fuzzBoundWatchdog(rule)()
		c, err := compileRule(rule)
		if err != nil || c.untracked == nil {
			return
		}
		checkBound(t, c, map[string]any{"v": value, "n": 0.5, "l": []any{value, "a"}})
	})
}

// fuzzBoundWatchdog fails a fuzz input whose rule takes over 10 s to
// compile and evaluate: a watchdog for a hang, far above FuzzCELBound's
// slowest seed under -race (20 ms); checkBound bounds the work.
func fuzzBoundWatchdog(rule string) (stop func()) {
	timer := time.AfterFunc(10*time.Second, func() {
		panic(fmt.Sprintf("rule %.200q did not compile and run in 10 s", rule))
	})
	return func() { timer.Stop() }
}
