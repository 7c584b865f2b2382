package msgcheck_test

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// concCase is one validation: a decoded message or a YAML node.
type concCase struct {
	kind string
	msg  any
	node *yaml.Node
}

func (c concCase) run(v *msgcheck.Validator) (msgcheck.Result, error) {
	if c.node != nil {
		return v.ValidateNode(c.kind, c.node)
	}
	return v.Validate(c.kind, c.msg), nil
}

// sameResult compares everything but the duration.
func sameResult(a, b msgcheck.Result) bool {
	return a.Kind == b.Kind && a.SpecVersion == b.SpecVersion && a.Valid == b.Valid &&
		reflect.DeepEqual(a.Errors, b.Errors) && reflect.DeepEqual(a.Warnings, b.Warnings) &&
		reflect.DeepEqual(a.FieldTypes(), b.FieldTypes())
}

func concurrencyCases(t *testing.T) []concCase {
	d := func(f func(m map[string]any)) map[string]any { m := validDelegate(); f(m); return m }
	h := func(f func(m map[string]any)) map[string]any { m := validHandback(); f(m); return m }
	cases := []concCase{
		{"delegate", validDelegate(), nil},
		{"", validDelegate(), nil},
		{"delegate", d(func(m map[string]any) { m["task_id"] = "TaskID001"; m["foo_bar"] = 1 }), nil},
		{"delegate", d(func(m map[string]any) { m["plan"] = []any{"Test it", "Do a b", int64(3)} }), nil},
		{"delegate", d(func(m map[string]any) { m["scope"] = words(13); m["context"] = []any{} }), nil},
		{"delegate", d(func(m map[string]any) {
			delete(m, "agent")
			m["skill"] = "foo-bar"
			m["dependencies"] = []any{"Bad_ID"}
		}), nil},
		{"delegate", d(func(m map[string]any) { m["protocol_version"] = "9.9"; m["zeta"] = 1; m["alpha"] = 2 }), nil},
		{"handback", validHandback(), nil},
		{"", validHandback(), nil},
		{"handback", h(func(m map[string]any) { m["status"] = "complete"; metrics(m)["quality"] = 1.5 }), nil},
		{"handback", h(func(m map[string]any) {
			metrics(m)["tokens"] = 1.5
			delete(metrics(m), "cost")
			m["retry_count"] = int64(-1)
		}), nil},
		{"handback", h(func(m map[string]any) { m["metrics"] = "fast"; m["output"] = nil }), nil},
		{"", map[string]any{"task_id": "x-1", "scope": "s", "status": "success"}, nil},
		{"", []any{1, 2}, nil},
		{"review", validDelegate(), nil},
		{"delegate", nil, parseYAML(t, delegateYAML)},
		{"handback", nil, parseYAML(t, "task_id: feature-x-001\nstatus: failed\noutput: ~\nmetrics:\n  quality: -1\n  tokens: 2\nextra: 1\n")},
	}
	return cases
}

func hammer(t *testing.T, v *msgcheck.Validator, cases []concCase) {
	t.Helper()
	want := make([]msgcheck.Result, len(cases))
	for i, c := range cases {
		res, err := c.run(v)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		want[i] = res
	}
	const goroutines, iterations = 8, 1000
	kept := make([][]msgcheck.Result, goroutines)
	var wg sync.WaitGroup
	errs := make(chan string, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			kept[g] = make([]msgcheck.Result, iterations)
			for i := range iterations {
				k := (g*7 + i) % len(cases)
				res, err := cases[k].run(v)
				if err != nil || !sameResult(res, want[k]) {
					errs <- fmt.Sprintf("goroutine %d, iteration %d, case %d: got %q / %q, want %q / %q (err %v)",
						g, i, k, describe(res.Errors), describe(res.Warnings), describe(want[k].Errors), describe(want[k].Warnings), err)
					return
				}
				kept[g][i] = res
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if t.Failed() {
		return
	}
	// results handed out earlier must not have been touched by later walks
	for g := range goroutines {
		for i, res := range kept[g] {
			if k := (g*7 + i) % len(cases); !sameResult(res, want[k]) {
				t.Fatalf("goroutine %d, iteration %d: a kept result changed afterwards: %q", g, i, describe(res.Errors))
			}
		}
	}
	// the sequential results must be the interesting ones
	valid := 0
	for _, r := range want {
		if r.Valid {
			valid++
		}
	}
	if valid == 0 || valid == len(want) {
		t.Fatalf("%d of %d cases valid: the mix is not a mix", valid, len(want))
	}
}

func TestConcurrentValidation(t *testing.T) {
	hammer(t, newValidator(t, repoRoot(t)), concurrencyCases(t))
}

func TestConcurrentValidationWithCEL(t *testing.T) {
	sp, err := msgcheck.LoadSpec("testdata/specs/cel-rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// the CEL spec is the default; the embedded spec is picked by version
	v := newValidator(t, repoRoot(t), sp, msgcheck.DefaultSpec())
	if v.Spec() != sp {
		t.Fatal("Spec() is not the first spec")
	}
	q := func(status string, quality any, extra ...any) map[string]any {
		m := map[string]any{"task_id": "t", "status": status, "metrics": map[string]any{"quality": quality}}
		for i := 0; i+1 < len(extra); i += 2 {
			m[extra[i].(string)] = extra[i+1]
		}
		return m
	}
	cases := []concCase{
		{"handback", q("success", 0.9), nil},
		{"handback", q("success", 0.1), nil},
		{"handback", q("success", int64(0)), nil},
		{"handback", q("failure", 0.1, "notes", "n"), nil},
		{"handback", q("failure", 0.1), nil},
		{"handback", q("success", 0.9, "notes", "a very long note indeed"), nil},
		{"handback", q("success", 0.2, "notes", int64(5)), nil},
		{"", map[string]any{"task_id": "t", "status": "success"}, nil},
		{"handback", nil, parseYAML(t, "task_id: t\nstatus: success\nmetrics: {quality: 0.25}\n")},
		{"handback", func() map[string]any { m := validHandback(); m["protocol_version"] = "1.0"; return m }(), nil},
		{"handback", func() map[string]any {
			m := validHandback()
			m["protocol_version"] = "1.0"
			m["status"] = "done"
			return m
		}(), nil},
		{"delegate", func() map[string]any { m := validDelegate(); m["protocol_version"] = "v1"; return m }(), nil},
	}
	hammer(t, v, cases)
}
