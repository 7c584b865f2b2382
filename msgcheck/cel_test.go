package msgcheck_test

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// A rule that loops over the message (here cubically over a 400-item
// list: 64 million steps) is stopped by the cost limit and reported as a
// warning naming the rule, promptly; a rule without a loop runs under the
// same limit, and gives the same verdicts.
func TestCELCostLimit(t *testing.T) {
	v := newValidator(t, "", celSpec(t, `- rule: "self.v.all(a, self.v.all(b, self.v.all(c, a + b + c >= 0)))"`))
	list := make([]any, 400)
	for i := range list {
		list[i] = int64(i)
	}
	res := v.Validate("msg", map[string]any{"v": list})
	if !res.Valid || len(res.Warnings) != 1 || res.Warnings[0].Message != `rule msgcheck/msg-rule-1 ("self.v.all(a, self.v.all(b, self.v.all(c, a + b + c >= 0)))") exceeded its cost budget` {
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

// cel.bind names a value once per rule.
func TestCELBind(t *testing.T) {
	v := newValidator(t, "", celSpec(t, `- rule: "cel.bind(d, self.v * 2 - 7, d <= 1 && -d <= 1)"`))
	for n, valid := range map[int64]bool{3: true, 4: true, 5: false, 2: false} {
		if res := v.Validate("msg", map[string]any{"v": n}); res.Valid != valid || len(res.Warnings) != 0 {
			t.Errorf("v=%d: valid=%v warnings=%q, want valid=%v", n, res.Valid, describe(res.Warnings), valid)
		}
	}
}

// doublingRule nests cel.bind n deep, each level doubling the string
// before: 2^n copies of seed at the end, from a rule of a few hundred
// bytes.
func doublingRule(seed string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "cel.bind(v0, %s, ", seed)
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "cel.bind(v%d, v%d + v%d, ", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "size(v%d) > 0", n-1)
	b.WriteString(strings.Repeat(")", n))
	return b.String()
}

// sharedListRule nests cel.bind n deep, each level a list holding the
// level before twice: small in memory, 2^n items to walk, then applies
// use to the last level, z.
func sharedListRule(n int, use string) string {
	var b strings.Builder
	b.WriteString("cel.bind(l0, ['x', 'y'], ")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "cel.bind(l%d, [l%d, l%d], ", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "cel.bind(z, l%d, %s)", n-1, use)
	b.WriteString(strings.Repeat(")", n))
	return b.String()
}

// Every rule, with a loop or without, runs under a budget: a rule that
// builds a value far larger than itself or the message (a string doubled
// at every level of nested cel.bind, a long replacement, one string
// joined many times over, a list holding the same list twice at every
// level compared or printed, a backslash quoted over and over, loops in
// loops building lists) is stopped with a finding that names it, quickly
// and in little memory; so is constant folding, at spec load, of a rule
// whose constant part is expensive.
func TestCELRuleBudget(t *testing.T) {
	ten := func(x string) string { return strings.TrimSuffix(strings.Repeat(x+", ", 10), ", ") }
	digits := "[" + ten("1") + "]"
	for name, rule := range map[string]string{
		"bind doubling a constant":    doublingRule(`"xx" + "xx"`, 40),
		"bind doubling the message":   doublingRule("self.v", 40),
		"replace growing a constant":  "'a'" + strings.Repeat(".replace('a', 'aaaaaaaaaa')", 12) + ".size() > 0",
		"replace growing the message": "self.v" + strings.Repeat(".replace('a', 'aaaaaaaaaa')", 12) + ".size() > 0",
		"join of one long string": strings.Replace(doublingRule(`"xx" + "xx"`, 18), "size(v17) > 0",
			"["+ten(ten("v17"))+"].join().size() > 0", 1),
		"split into single characters": strings.Replace(doublingRule("self.v", 20), "size(v19) > 0", "v19.split('').size() > 0", 1),
		"format of a shared list":      sharedListRule(30, "'%s'.format([z]).size() > 0"),
		"equality of a shared list":    sharedListRule(30, "z == [z[0], z[1]]"),
		"quote of quotes":              strings.Repeat("strings.quote(", 40) + "self.v + '\\\\'" + strings.Repeat(")", 40) + ".size() > 0",
		"loops building lists":         digits + strings.Repeat(".map(a, "+digits, 5) + ".map(f, 'aaaaaaaaaaaaaaaaaaaa')" + strings.Repeat(")", 5) + ".size() > 0",
	} {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			v := newValidator(t, "", celSpec(t, "- rule: |-\n    "+rule))
			res := v.Validate("msg", map[string]any{"v": "ab"})
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			allocated := after.TotalAlloc - before.TotalAlloc
			t.Logf("%v, %d MB allocated", took, allocated>>20)
			want := fmt.Sprintf("msgcheck/msg-rule-1 | rule msgcheck/msg-rule-1 (%q) exceeded its cost budget", shortText(rule))
			if !res.Valid || len(res.Warnings) != 1 || describe(res.Warnings)[0] != want {
				t.Errorf("valid=%v errors=%q warnings=%q, want the warning %q", res.Valid, describe(res.Errors), describe(res.Warnings), want)
			}
			// the budget is 1 s and 200 MB: the memory is checked here,
			// the time is the cost limit's (a wall-clock bound would
			// flake on a busy machine under -race; BenchmarkCELBudget
			// measures it)
			if allocated > 200<<20 {
				t.Errorf("loading the spec and validating allocated %d MB", allocated>>20)
			}
		})
	}
}

// shortText is the first 57 characters of a long text and "...", as
// findings quote one.
func shortText(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}

// A rule is at most 4 KiB: compiling costs time in proportion to the text.
func TestCELRuleLength(t *testing.T) {
	rule := "self.v != ''" + strings.Repeat(" && self.v != 'x'", 300)
	_, err := msgcheck.ParseSpec("long.yaml", []byte("version: \"1\"\nmsg:\n  signature: [v]\n  core_fields:\n    v: {}\n  x-protoscan-validations:\n    - rule: \""+rule+"\"\n"))
	if err == nil || !strings.Contains(err.Error(), "is longer than 4096 bytes") {
		t.Errorf("err = %v", err)
	}
}

// The string functions checked before they run (replace, join, split,
// format, strings.quote) give their usual results within the budget, and
// refuse a call over it.
func TestCELGuardedFunctions(t *testing.T) {
	v := newValidator(t, "", celSpec(t, `- rule: |-
    self.v.replace('a', 'b') == 'bb' && self.v.replace('a', 'xy', 1) == 'xya' &&
    ['x', self.v].join('-') == 'x-aa' && [self.v].join() == 'aa' &&
    self.v.split('').size() == 2 && 'a,b,c'.split(',', 2) == ['a', 'b,c'] &&
    '%s!'.format([self.v]) == 'aa!' && strings.quote(self.v) == '"aa"'`))
	if res := v.Validate("msg", map[string]any{"v": "aa"}); !res.Valid || len(res.Warnings) > 0 {
		t.Errorf("valid=%v errors=%q warnings=%q", res.Valid, describe(res.Errors), describe(res.Warnings))
	}
	if res := v.Validate("msg", map[string]any{"v": "ab"}); res.Valid || len(res.Warnings) > 0 {
		t.Errorf("valid=%v errors=%q warnings=%q", res.Valid, describe(res.Errors), describe(res.Warnings))
	}
	// a pattern from the message of a sane length is matched
	pv := newValidator(t, "", celSpec(t, "- rule: self.v.matches(self.p)"))
	// (p is no field of the spec: one unknown-field warning)
	if res := pv.Validate("msg", map[string]any{"v": "aa", "p": "^a+$"}); !res.Valid || len(res.Warnings) != 1 {
		t.Errorf("valid=%v errors=%q warnings=%q", res.Valid, describe(res.Errors), describe(res.Warnings))
	}
	if res := pv.Validate("msg", map[string]any{"v": "ab", "p": "^a+$"}); res.Valid || len(res.Warnings) != 1 {
		t.Errorf("valid=%v errors=%q warnings=%q", res.Valid, describe(res.Errors), describe(res.Warnings))
	}
	// on a 1 MiB field, each call below would build more than the
	// 4 MiB (split: 262,144 parts) a call may: refused before it runs
	for _, rule := range []string{
		"self.v.replace('a', '" + strings.Repeat("b", 1000) + "').size() > 0",
		"[self.v, self.v, self.v, self.v, self.v].join().size() > 0",
		"strings.quote(self.v + self.v + self.v).size() > 0",
		"self.v.split('').size() > 0",
		"'%s %s %s %s %s'.format([self.v, self.v, self.v, self.v, self.v]).size() > 0",
		// a pattern from the message is compiled only up to 4 KiB
		"self.v.matches(self.v)",
		"matches(self.v, self.v)",
	} {
		v := newValidator(t, "", celSpec(t, "- rule: |-\n    "+rule))
		res := v.Validate("msg", map[string]any{"v": strings.Repeat("a", 1<<20)})
		want := fmt.Sprintf("msgcheck/msg-rule-1 | rule msgcheck/msg-rule-1 (%q) exceeded its cost budget", shortText(rule))
		if !res.Valid || len(res.Warnings) != 1 || describe(res.Warnings)[0] != want {
			t.Errorf("valid=%v errors=%q warnings=%q, want the warning %q", res.Valid, describe(res.Errors), describe(res.Warnings), want)
		}
	}
}

// The CEL rules of one spec are at most 1000, and 32 KiB in all: a spec
// that has as many as it may loads and validates (how long loading took
// is logged; BenchmarkCELBudget measures the time a rule's budget
// leaves).
func TestCELSpecRuleBudget(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "- rule: \"self.v != 'x%d' || 1e-9 > 1.0\"\n", i)
	}
	start := time.Now()
	spec := celSpec(t, b.String())
	took := time.Since(start)
	t.Logf("1000 rules load in %v", took)
	if res := newValidator(t, "", spec).Validate("msg", map[string]any{"v": "x7"}); res.Valid || len(res.Errors) != 1 {
		t.Errorf("valid=%v errors=%q warnings=%q", res.Valid, describe(res.Errors), describe(res.Warnings))
	}
	long := strings.Repeat("- rule: \"self.v != '"+strings.Repeat("y", 4000)+"'\"\n", 9)
	_, err := msgcheck.ParseSpec("long.yaml", []byte("version: \"1\"\nmsg:\n  signature: [v]\n  core_fields:\n    v: {}\n  x-protoscan-validations:\n"+indent(long, "    ")+"\n"))
	if err == nil || !strings.Contains(err.Error(), "rules are longer than 32768 bytes in all") {
		t.Errorf("err = %v", err)
	}
}

// All the rules of a kind share one budget on a message: a spec of many
// rules each stopped at its own limit would otherwise cost a message
// minutes. Past the budget, the rules left are one warning.
func TestCELMessageBudget(t *testing.T) {
	var b strings.Builder
	for range 20 {
		fmt.Fprintf(&b, "- rule: |-\n    %s\n", doublingRule("self.v", 40))
	}
	b.WriteString("- rule: \"self.v == 'ab'\"\n")
	v := newValidator(t, "", celSpec(t, b.String()))
	start := time.Now()
	res := v.Validate("msg", map[string]any{"v": "ab"})
	t.Logf("%v", time.Since(start))
	want := []string{
		fmt.Sprintf("msgcheck/msg-rule-1 | rule msgcheck/msg-rule-1 (%q) exceeded its cost budget", shortText(doublingRule("self.v", 40))),
		"msgcheck/msg-rule-2 | rule msgcheck/msg-rule-2 and the 19 after it not evaluated: the spec's rules exceeded their cost budget on this message",
	}
	if !res.Valid || !slices.Equal(describe(res.Warnings), want) {
		t.Errorf("valid=%v errors=%q warnings=%q", res.Valid, describe(res.Errors), describe(res.Warnings))
	}
	// cheap rules never come near it
	cheap := newValidator(t, "", celSpec(t, strings.Repeat("- rule: \"self.v.startsWith('a')\"\n", 1000)))
	if res := cheap.Validate("msg", map[string]any{"v": "ab"}); !res.Valid || len(res.Warnings) > 0 {
		t.Errorf("valid=%v errors=%q warnings=%q", res.Valid, describe(res.Errors), describe(res.Warnings))
	}
}

// The worst a spec and a message can do together, each budget reached at
// once: schemas that double at every level of a nested message, a long
// list under uniqueItems, and rules that each double a string until the
// kind's shared budget is spent. Loading and validating stay under the
// 200 MB budget, and within the schema checks' budget and one comparison
// per item of the list; the time is logged.
func TestWorstCaseSpecAndMessage(t *testing.T) {
	var b strings.Builder
	b.WriteString(`version: "1"
definitions:
  node:
    allOf:
      - {properties: {p: {$ref: '#/definitions/node'}}}
      - {properties: {p: {$ref: '#/definitions/node'}}}
msg:
  signature: [f]
  core_fields:
    f: {$ref: '#/definitions/node'}
    list: {type: array, uniqueItems: true, items: {type: string, pattern: '(a+)+$'}}
  x-protoscan-validations:
`)
	for range 25 {
		fmt.Fprintf(&b, "    - rule: |-\n        %s\n", doublingRule("self.list[0]", 40))
	}
	nested := map[string]any{}
	for range 40 {
		nested = map[string]any{"p": nested}
	}
	list := make([]any, 100_000)
	for i := range list {
		list[i] = fmt.Sprint(strings.Repeat("a", 20), i, "!")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	v := newValidator(t, "", mustParse(t, "worst.yaml", b.String()))
	res, checks, compared := v.ValidateWork("msg", map[string]any{"f": nested, "list": list})
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("%v, %d MB allocated; %d errors, %d warnings", took, allocated>>20, len(res.Errors), len(res.Warnings))
	if allocated > 200<<20 {
		t.Errorf("%d MB allocated", allocated>>20)
	}
	if checks > msgcheck.MaxChecks+100 || compared > len(list) {
		t.Errorf("%d schema checks (budget %d), %d comparisons for %d items", checks, msgcheck.MaxChecks, compared, len(list))
	}
	var rules []string
	for _, w := range res.Warnings {
		rules = append(rules, w.Rule)
	}
	if want := []string{"msgcheck/msg-rule-1", "msgcheck/msg-rule-2", "msgcheck/schema-budget"}; !slices.Equal(rules, want) {
		t.Errorf("warnings %q, want the rules %q", describe(res.Warnings), want)
	}
}

// BenchmarkCELBudget is the time TestCELRuleBudget leaves to the cost
// limit: loading a spec whose rule doubles a string at each of 40 nested
// cel.bind levels, and validating one message until the rule is stopped.
func BenchmarkCELBudget(b *testing.B) {
	spec := "- rule: |-\n    " + doublingRule("self.v", 40)
	for b.Loop() {
		v := newValidator(b, "", celSpec(b, spec))
		if res := v.Validate("msg", map[string]any{"v": "ab"}); len(res.Warnings) != 1 {
			b.Fatalf("warnings=%q", describe(res.Warnings))
		}
	}
}
