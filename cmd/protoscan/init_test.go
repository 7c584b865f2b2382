package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/internal/engine"
)

// TestStarterExamples: every example the starter .protoscan.yaml shows,
// put in place of its key's setting or uncommented, passes what config
// check checks (rule ids of the catalogue, statuses of the spec): a new
// user who takes one gets no error.
func TestStarterExamples(t *testing.T) {
	src := string(config.Starter())
	example := regexp.MustCompile(`(?m)^#\s+e\.g\. (([a-z-]+): .*)$`)
	rule := regexp.MustCompile(`(?m)^  # ([a-z*-]+/[a-z*-]+: .*)$`)
	examples := example.FindAllStringSubmatch(src, -1)
	rules := rule.FindAllStringSubmatch(src, -1)
	if len(examples) < 5 || len(rules) < 2 {
		t.Fatalf("%d examples and %d rule examples found in the starter", len(examples), len(rules))
	}
	out := rule.ReplaceAllString(src, "  $1")
	for _, m := range examples {
		line, key := m[1], m[2]
		setting := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(key) + `: .*$`)
		if setting.MatchString(out) {
			out = setting.ReplaceAllLiteralString(out, line)
		} else {
			out += line + "\n"
		}
	}
	if !strings.Contains(out, "\n#   e.g.") {
		t.Fatal("the examples' comments are gone")
	}
	c, err := config.Parse(".protoscan.yaml", []byte(out), engine.CheckConfig(t.TempDir(), nil, true))
	if err != nil {
		t.Fatalf("the starter with its examples:\n%s\n%v", out, err)
	}
	if len(c.Include) == 0 || len(c.Synonyms) == 0 || len(c.Canonical) == 0 || c.Spec == "" || len(c.Rules) < 3 {
		t.Errorf("not every example was put in place:\n%s", out)
	}
}
