package engine

import (
	"context"
	"slices"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/scan/walk"
)

// TestStepOrder: the post-processing steps run in the order the gate's
// reports depend on (steps.go says why each comes where it does).
func TestStepOrder(t *testing.T) {
	var got []string
	for _, st := range steps {
		got = append(got, st.name())
	}
	want := []string{"spec findings", "rule settings", "suppressions", "rule settings", "sort",
		"live problems", "baseline", "new from rev", "fixes", "summaries", "path keys"}
	if !slices.Equal(got, want) {
		t.Errorf("steps %q, want %q", got, want)
	}
}

// options are the scan's defaults, as the command's flags give them.
func options(paths ...string) Options {
	return Options{
		Paths: paths, Set: map[string]bool{}, FailOn: "error", NoCache: true,
		Analyzers: "enumdrift,divergence,msgcheck", Version: "test",
		Walk: walk.Options{MaxFileSize: walk.DefaultMaxFileSize},
	}
}

// TestRunWithoutArgv: a scan runs from Options alone, and its report has
// what the command renders and the exit code needs.
func TestRunWithoutArgv(t *testing.T) {
	o := options("../../testdata/example")
	var notes []string
	o.Notify = func(msg string) { notes = append(notes, msg) }
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report
	if rep.Files == 0 || len(rep.Findings) == 0 || len(rep.Rules) == 0 || rep.Gate == nil {
		t.Errorf("report of %d files, %d findings, %d rules, gate %v: want a full report", rep.Files, len(rep.Findings), len(rep.Rules), rep.Gate)
	}
	if rep.SrcRoot == "" || res.Names == nil {
		t.Errorf("no repository root for SARIF")
	}
	if res.Threshold != finding.Error || res.Never || res.Trouble || res.Interrupted {
		t.Errorf("result %+v: want --fail-on error, no trouble", res)
	}
	sorted := slices.Clone(rep.Findings)
	finding.Sort(sorted)
	if !slices.EqualFunc(sorted, rep.Findings, func(a, b finding.Finding) bool { return a.Location == b.Location && a.Rule == b.Rule }) {
		t.Errorf("findings not sorted")
	}
	t.Logf("notices: %q", notes)
}

// TestRunErrors: what ends a scan before its report is an error, in the
// words the command prints.
func TestRunErrors(t *testing.T) {
	for _, c := range []struct {
		edit func(*Options)
		want string
	}{
		{func(o *Options) { o.Analyzers = "enumdrift,divergnce" }, `unknown analyzer "divergnce" in --analyzers (want enumdrift, divergence, msgcheck; did you mean "divergence"?)`},
		{func(o *Options) { o.FailOn = "warn" }, `--fail-on "warn": want error, warning, note or never (did you mean "warning"?)`},
		{func(o *Options) { o.Config, o.ConfigFromRev = "x.yaml", "HEAD" }, "--config and --config-from-rev both give the config: use one"},
	} {
		o := options("../../testdata/example")
		c.edit(&o)
		_, err := Run(context.Background(), o)
		if err == nil || err.Error() != c.want {
			t.Errorf("error %v, want %s", err, c.want)
		}
	}
}
