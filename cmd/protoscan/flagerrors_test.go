package main

import (
	"flag"
	"io"
	"testing"
)

// TestFlagError: the errors of flag.Parse, reworded with the double-dash
// spelling and the flag or value nearest to the one typed.
func TestFlagError(t *testing.T) {
	newFlags := func() *flag.FlagSet {
		fs := flag.NewFlagSet("scan", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var outputs []output
		formatFlag(fs, &outputs)
		fs.String("fail-on", "error", "")
		fs.String("new-from-rev", "", "")
		fs.Bool("no-cache", false, "")
		fs.Bool("fix", false, "")
		fs.Int("j", 0, "")
		return fs
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--fial-on", "error"}, "unknown flag --fial-on (did you mean --fail-on?)"},
		{[]string{"-fial-on=error"}, "unknown flag --fial-on (did you mean --fail-on?)"},
		{[]string{"--new-from", "main"}, "unknown flag --new-from (did you mean --new-from-rev?)"},
		{[]string{"--no_cache"}, "unknown flag --no_cache (did you mean --no-cache?)"},
		{[]string{"--hlep"}, "unknown flag --hlep (did you mean --help?)"},
		{[]string{"--json"}, "unknown flag --json (did you mean --format json?)"},
		{[]string{"--SARIF"}, "unknown flag --SARIF (did you mean --format sarif?)"},
		{[]string{"-jj"}, "unknown flag --jj (did you mean -j?)"},
		{[]string{"-x"}, "unknown flag -x"}, // one letter: too near everything to guess
		{[]string{"--frobnicate"}, "unknown flag --frobnicate"},
		{[]string{"--\x1b[2J"}, `unknown flag "--\x1b[2J"`},
		{[]string{"--fail-on"}, "flag --fail-on needs a value"},
		{[]string{"--format", "jsno"}, `invalid value "jsno" for --format: unknown format "jsno" (want text, json, sarif or markdown, optionally =FILE; did you mean "json"?)`},
		{[]string{"--format", "xml=out.xml"}, `invalid value "xml=out.xml" for --format: unknown format "xml" (want text, json, sarif or markdown, optionally =FILE)`},
		{[]string{"-j", "many"}, `invalid value "many" for -j: parse error`},
		{[]string{"--fix=maybe"}, `invalid value "maybe" for --fix: want true or false`},
		{[]string{"---x"}, "bad flag syntax: ---x"},
	} {
		err := newFlags().Parse(c.args)
		if err == nil {
			t.Errorf("%q: no error", c.args)
			continue
		}
		if got := flagError(newFlags(), err); got != c.want {
			t.Errorf("%q: %q\nwant %q", c.args, got, c.want)
		}
	}
}

// TestNearValue: the value hint of --fail-on, --format and --analyzers.
func TestNearValue(t *testing.T) {
	for _, c := range []struct {
		s     string
		words []string
		sep   string
		want  string
	}{
		{"warn", failOnWords, " (", ` (did you mean "warning"?)`},
		{"nevr", failOnWords, " (", ` (did you mean "never"?)`},
		{"loud", failOnWords, " (", ""},
		{"jsno", formatNames, "; ", `; did you mean "json"?`},
		{"divergnce", analyzerNames, "; ", `; did you mean "divergence"?`},
		{"xml", formatNames, "; ", ""},
	} {
		if got := nearValue(c.s, c.words, c.sep); got != c.want {
			t.Errorf("nearValue(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}
