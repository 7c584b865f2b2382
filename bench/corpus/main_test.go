package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

func generate(t *testing.T, o Options) ([]byte, []Label) {
	t.Helper()
	var buf bytes.Buffer
	var labels []Label
	if err := Generate(&buf, o, func(l Label) { labels = append(labels, l) }); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), labels
}

func TestDeterministic(t *testing.T) {
	o := Options{N: 3000, Seed: 1, InvalidRate: 0.3}
	a, _ := generate(t, o)
	b, _ := generate(t, o)
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with one seed differ")
	}
	o.Seed = 2
	if c, _ := generate(t, o); bytes.Equal(a, c) {
		t.Fatal("seeds 1 and 2 give the same corpus")
	}
}

// skillsRoot is a repository holding skills/NAME for every skill in Skills.
func skillsRoot(t *testing.T) string {
	root := t.TempDir()
	for _, s := range Skills {
		if err := os.MkdirAll(filepath.Join(root, "skills", s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestShare: msgcheck finds 65-75% of the messages valid, agrees with the
// verdict the generator meant on every message, and every rule is hit.
func TestShare(t *testing.T) {
	o := Options{N: 20000, Seed: 1, InvalidRate: 0.3}
	data, labels := generate(t, o)
	v, err := msgcheck.New(msgcheck.Options{Root: skillsRoot(t)}, msgcheck.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	valid, n, wrong := 0, 0, 0
	kinds := map[string]int{}
	graph := map[string]int{}
	hit := map[string]bool{}
	warned := 0
	for sc.Scan() {
		var msg any
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		ht, _ := msg.(map[string]any)["handoff_type"].(string)
		kinds[ht]++
		res := v.Validate(strings.ToLower(ht), msg)
		l := labels[n]
		n++
		graph[l.Graph]++
		hit[ht+" "+l.Mutation] = true
		if res.Valid {
			valid++
			if len(res.Warnings) > 0 {
				warned++
			}
		}
		if res.Valid != l.Valid {
			wrong++
			if wrong <= 10 {
				t.Errorf("line %d (%s): msgcheck valid=%v, the generator meant %v\n%s", n, l.Mutation, res.Valid, l.Valid, sc.Bytes())
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != o.N || len(labels) != o.N {
		t.Fatalf("%d lines, %d labels, want %d", n, len(labels), o.N)
	}
	if kinds["DELEGATE"]+kinds["HANDBACK"] != n || kinds["DELEGATE"] < n/3 || kinds["HANDBACK"] < n/3 {
		t.Errorf("kinds: %v", kinds)
	}
	share := float64(valid) / float64(n)
	if share < 0.65 || share > 0.75 {
		t.Errorf("msgcheck finds %.1f%% of the messages valid, want 65-75%%", 100*share)
	}
	for _, g := range []string{"new", "answer", "orphan", "duplicate-handback", "duplicate-delegate"} {
		if graph[g] == 0 {
			t.Errorf("no %s message in the task graph: %v", g, graph)
		}
	}
	for kind, ms := range map[string][]mutation{"DELEGATE": delegateBreakers, "HANDBACK": handbackBreakers} {
		for _, m := range ms {
			if !hit[kind+" "+m.name] {
				t.Errorf("%s: no message breaks %q", kind, m.name)
			}
		}
	}
	if warned == 0 {
		t.Error("no valid message has a warning")
	}
	t.Logf("%d messages: %.1f%% valid (%d with warnings), kinds %v, graph %v", n, 100*share, warned, kinds, graph)
}

func BenchmarkGenerate(b *testing.B) {
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := Generate(&buf, Options{N: 100000, Seed: 1, InvalidRate: 0.3}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
