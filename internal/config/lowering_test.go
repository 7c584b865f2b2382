package config

import (
	"fmt"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
)

// standard is a small catalogue: two enumdrift errors, a msgcheck
// warning and note, a protoscan warning; the default gate.
func standard() Standard {
	return Standard{FailOn: "error", MaxFileSize: 2 << 20, Rules: map[string]finding.Severity{
		"enumdrift/legacy-status":        finding.Error,
		"enumdrift/unknown-status":       finding.Error,
		"msgcheck/*-words":               finding.Error,
		"msgcheck/*-unknown-field":       finding.Warning,
		"msgcheck/semantic-unsafe-check": finding.Note,
		"protoscan/too-large":            finding.Warning,
	}}
}

// TestLowerings: each setting the issue names, in a form that lowers the
// gate (each line of the want is "LINE:COL: TEXT") and a form that does
// not (want empty).
func TestLowerings(t *testing.T) {
	for _, c := range []struct {
		name, src string
		fixed     []string
		want      []string
	}{
		{"all rules off", `rules: {"*/*": off}`, nil,
			[]string{`1:9: rules "*/*": off turns off 6 rules`}},
		{"rules off by enabled false", "rules:\n  enumdrift/*: {enabled: false}\n", nil,
			[]string{`2:3: rules "enumdrift/*": off turns off 2 rules`}},
		{"rules off, then on again", "rules:\n  \"*/*\": off\n  \"[a-z]*/*\": on\n", nil, nil},
		{"an exact id named off", "rules:\n  msgcheck/delegate-scope-words: off\n", nil,
			[]string{`2:3: rules "msgcheck/delegate-scope-words": off turns off 1 rule`}},
		{"off overridden by a more specific on", "rules:\n  enumdrift/*: off\n  enumdrift/legacy-status: on\n  enumdrift/unknown-status: on\n", nil, nil},
		{"severity lowered", "rules:\n  msgcheck/*: note\n", nil,
			[]string{`2:3: rules "msgcheck/*": note lowers the severity of 2 rules to note`}},
		{"severity lowered to warning", "rules:\n  enumdrift/legacy-status: {severity: warning}\n", nil,
			[]string{`2:3: rules "enumdrift/legacy-status": warning lowers the severity of 1 rule to warning`}},
		{"severity raised", "rules:\n  msgcheck/*: error\n  protoscan/*: error\n", nil, nil},
		{"severity kept", "rules: {msgcheck/*-unknown-field: warning}", nil, nil},
		{"a raise over a lower", "rules:\n  \"*/*\": note\n  enumdrift/*: error\n", nil,
			[]string{`2:3: rules "*/*": note lowers the severity of 3 rules to note`}},
		{"fail-on never", "fail-on: never\n", nil, []string{`1:10: fail-on: never lets every finding pass`}},
		{"fail-on none", "\nfail-on: none\n", nil, []string{`2:10: fail-on: none lets every finding pass`}},
		{"fail-on note is stricter", "fail-on: note\n", nil, nil},
		{"fail-on error is the default", "fail-on: error\n", nil, nil},
		{"fail-on set on the command line", "fail-on: never\n", []string{"fail-on"}, nil},
		{"synonyms", "synonyms:\n  done: success\n  finished: success\n", nil, []string{
			`2:3: synonyms "done" -> "success" makes "done" a legacy spelling of "success"`,
			`3:3: synonyms "finished" -> "success" makes "finished" a legacy spelling of "success"`}},
		{"no synonyms", "synonyms: {}\n", nil, nil},
		{"exclude everything", `exclude: ["**"]`, nil, []string{`1:11: exclude "**" skips the files it matches`}},
		{"exclude two", "exclude:\n  - testdata/**\n  - \"*.md\"\n", nil, []string{
			`2:5: exclude "testdata/**" skips the files it matches`, `3:5: exclude "*.md" skips the files it matches`}},
		{"no exclude", "exclude: []\n", nil, nil},
		{"narrow include", "include: [docs/**, README.md]\n", nil,
			[]string{`1:10: include "docs/**", "README.md" scans only the files it matches`}},
		{"include everything", "include: [docs/**, \"**\"]\n", nil, nil},
		{"max-file-size 1", "max-file-size: 1\n", nil,
			[]string{"1:16: max-file-size: 1 skips larger files (the limit is otherwise 2097152 bytes)"}},
		{"max-file-size raised", "max-file-size: 10000000\n", nil, nil},
		{"max-file-size unlimited", "max-file-size: -1\n", nil, nil},
		{"max-file-size at the limit", "max-file-size: 2097152\n", nil, nil},
		{"max-file-size set on the command line", "max-file-size: 1\n", []string{"max-file-size"}, nil},
		{"the settings that lower nothing", "spec: docs/specs/mine.yaml\ncanonical: [core/**]\n", nil, nil},
		{"in file order", "max-file-size: 10\nrules: {\"*/*\": off}\nfail-on: never\n", nil, []string{
			"1:16: max-file-size: 10 skips larger files (the limit is otherwise 2097152 bytes)",
			`2:9: rules "*/*": off turns off 6 rules`,
			"3:10: fail-on: never lets every finding pass"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Parse(".protoscan.yaml", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			s := standard()
			s.Fixed = c.fixed
			var got []string
			for _, l := range cfg.Lowerings(s) {
				got = append(got, fmt.Sprintf("%d:%d: %s", l.Pos.Line, l.Pos.Column, l.Text))
				if l.Key == "" || !strings.HasPrefix(l.Text, l.Key) {
					t.Errorf("%+v: the text does not begin with its key", l)
				}
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("Lowerings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestLoweringsUnlimited: with no size limit in the standard, any limit
// of the file lowers it; a nil config lowers nothing.
func TestLoweringsUnlimited(t *testing.T) {
	cfg, err := Parse("c.yaml", []byte("max-file-size: 3000000000\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Lowerings(Standard{FailOn: "error", MaxFileSize: -1}); len(got) != 1 || got[0].Key != "max-file-size" {
		t.Errorf("Lowerings = %+v", got)
	}
	if got := (*Config)(nil).Lowerings(standard()); got != nil {
		t.Errorf("nil config: %+v", got)
	}
}
