package main

import (
	"flag"
	"io"
	"strings"
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

// TestReportsFor: one writer at most bound for stdout; the default report
// gives way to another writer and goes to stderr.
func TestReportsFor(t *testing.T) {
	f := func(s string) output {
		o, err := parseOutput(s)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	jsonFlag := output{format: "json", flag: "--json"}
	for _, c := range []struct {
		outputs []output
		others  []string
		want    string // the error, or where each report goes: "stdout", "stderr", a file
	}{
		{nil, nil, "stdout"},
		{nil, []string{"--diff"}, "stderr"},
		{[]output{f("json")}, nil, "stdout"},
		{[]output{f("json"), f("sarif=out.sarif"), f("markdown=-")}, nil, "--format json and --format markdown=- both write to stdout; write one to a file (--format markdown=FILE)"},
		{[]output{f("sarif=a"), f("text")}, nil, "a stdout"},
		{[]output{f("json"), f("sarif")}, nil, "--format json and --format sarif both write to stdout; write one to a file (--format sarif=FILE)"},
		{[]output{f("text")}, []string{"--diff"}, "--diff and --format text both write to stdout; write one to a file (--format text=FILE)"},
		{[]output{f("text=r.txt")}, []string{"--diff"}, "r.txt"},
		{[]output{jsonFlag, f("json")}, nil, "--json and --format json both write to stdout; write one to a file (--format json=FILE)"},
		{nil, []string{"--diff", "--write-baseline -"}, "--diff and --write-baseline - both write to stdout; write one to a file (--write-baseline FILE)"},
	} {
		outs, err := reportsFor(c.outputs, c.others...)
		var got string
		if err != nil {
			got = err.Error()
		} else {
			var where []string
			for _, o := range outs {
				switch {
				case o.stderr:
					where = append(where, "stderr")
				case o.toStdout():
					where = append(where, "stdout")
				default:
					where = append(where, o.path)
				}
			}
			got = strings.Join(where, " ")
		}
		if got != c.want {
			t.Errorf("reportsFor(%v, %q) = %q, want %q", c.outputs, c.others, got, c.want)
		}
	}
}
