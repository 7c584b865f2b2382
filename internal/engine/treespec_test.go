package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// TestSpecFallbackPlaces checks where each kind of spec problem is
// reported: msgcheck's joined SpecErrors each at its own line, a read
// error at its file, a problem outside the tree at the config's spec key,
// and the scan root's prefix before every path.
func TestSpecFallbackPlaces(t *testing.T) {
	root := t.TempDir()
	specDir := filepath.Join(root, "docs", "specs")
	if err := os.MkdirAll(specDir, 0o755); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(specDir, "protocol-core-v1.1.yaml")
	if err := os.WriteFile(spec, []byte("protocol: protocol-core\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfgFile := filepath.Join(root, ".protoscan.yaml")
	cfg, err := config.Parse(cfgFile, []byte("fail-on: error\nspec: ../outside.yaml\n"))
	if err != nil {
		t.Fatal(err)
	}
	embedded := msgcheck.DefaultSpec()

	type want struct {
		loc finding.Location
		msg string
	}
	for _, tc := range []struct {
		name       string
		prefix     string
		err        error
		fromConfig bool
		want       []want
	}{{
		name: "joined spec errors",
		err: errors.Join(
			&msgcheck.SpecError{File: spec, Line: 4, Column: 1, Msg: `unknown top-level key "handbak"`},
			&msgcheck.SpecError{File: spec, Line: 11, Column: 7, Msg: `unknown keyword "minWrods"`},
		),
		want: []want{
			{finding.Location{Path: "docs/specs/protocol-core-v1.1.yaml", Line: 4, Col: 1}, `cannot load the spec: unknown top-level key "handbak"`},
			{finding.Location{Path: "docs/specs/protocol-core-v1.1.yaml", Line: 11, Col: 7}, `cannot load the spec: unknown keyword "minWrods"`},
		},
	}, {
		name:   "prefix of several roots",
		prefix: "repo",
		err:    &msgcheck.SpecError{File: spec, Line: 5, Msg: "found character that cannot start any token"},
		want: []want{
			{finding.Location{Path: "repo/docs/specs/protocol-core-v1.1.yaml", Line: 5}, "cannot load the spec: found character that cannot start any token"},
		},
	}, {
		name: "read error wrapped",
		err:  fmt.Errorf("spec: %w", &fs.PathError{Op: "open", Path: spec, Err: fs.ErrPermission}),
		want: []want{
			{finding.Location{Path: "docs/specs/protocol-core-v1.1.yaml"}, "cannot load the spec: permission denied"},
		},
	}, {
		name:       "named by the config, out of the tree",
		err:        &msgcheck.SpecError{File: filepath.Join(root, "..", "outside.yaml"), Msg: "leads out of the tree"},
		fromConfig: true,
		want: []want{
			{finding.Location{Path: ".protoscan.yaml", Line: 2, Col: 7}, `cannot load the spec: spec "../outside.yaml": leads out of the tree`},
		},
	}, {
		name:       "named by the config, missing",
		err:        fmt.Errorf("spec: %w", &fs.PathError{Op: "open", Path: filepath.Join(root, "nope.yaml"), Err: fs.ErrNotExist}),
		fromConfig: true,
		want: []want{
			{finding.Location{Path: ".protoscan.yaml", Line: 2, Col: 7}, `cannot load the spec: spec "../outside.yaml": file does not exist`},
		},
	}, {
		name: "no place at all",
		err:  errors.New("something odd"),
		want: []want{
			{finding.Location{Path: "docs/specs"}, "cannot load the spec: something odd"},
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			fb := &specFallback{root: root, prefix: tc.prefix, cfg: cfg}
			fb.add(tc.err, embedded, tc.fromConfig)
			if len(fb.findings) != len(tc.want) {
				t.Fatalf("%d findings, want %d: %+v", len(fb.findings), len(tc.want), fb.findings)
			}
			for i, f := range fb.findings {
				w := tc.want[i]
				if f.Rule != ruleSpecError || f.Severity != finding.Error {
					t.Errorf("finding %d: %s %v, want %s error", i, f.Rule, f.Severity, ruleSpecError)
				}
				if f.Location != w.loc || f.Message != w.msg {
					t.Errorf("finding %d at %+v: %q\nwant at %+v: %q", i, f.Location, f.Message, w.loc, w.msg)
				}
				if f.Fingerprint == "" {
					t.Errorf("finding %d has no fingerprint (baselines match on it)", i)
				}
			}
			if len(fb.notes) != 1 {
				t.Fatalf("notes %q, want one", fb.notes)
			}
			if n := fb.notes[0]; !strings.Contains(n, "spec not loaded") || !strings.HasSuffix(n, "the scan uses the embedded protocol-core v1.0 spec instead") {
				t.Errorf("note %q does not say the embedded spec stands in", n)
			}
		})
	}
}

// TestSpecFallbackFingerprint: the fingerprint follows the problem, not
// its line, so a baseline keeps matching when lines above it move.
func TestSpecFallbackFingerprint(t *testing.T) {
	root := t.TempDir()
	spec := filepath.Join(root, "spec.yaml")
	if err := os.WriteFile(spec, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fp := func(line int, msg string) string {
		fb := &specFallback{root: root}
		fb.add(&msgcheck.SpecError{File: spec, Line: line, Msg: msg}, msgcheck.DefaultSpec(), false)
		return fb.findings[0].Fingerprint
	}
	if fp(3, "a") != fp(9, "a") {
		t.Error("the fingerprint changes with the line")
	}
	if fp(3, "a") == fp(3, "b") {
		t.Error("two problems share a fingerprint")
	}
}

func TestRelIn(t *testing.T) {
	for _, tc := range []struct {
		root, file, want string
		ok               bool
	}{
		{"repo", "repo/docs/specs/x.yaml", "docs/specs/x.yaml", true},
		{".", "docs/x.yaml", "docs/x.yaml", true},
		{"repo", "secret.yaml", "", false},
		{"repo", "repo/../secret.yaml", "", false},
		{"repo", "repo2/x.yaml", "", false},
		{"repo", "", "", false},
	} {
		got, ok := relIn(tc.root, tc.file)
		if got != tc.want || ok != tc.ok {
			t.Errorf("relIn(%q, %q) = %q, %v; want %q, %v", tc.root, tc.file, got, ok, tc.want, tc.ok)
		}
	}
}

// TestVocabularySpec: a spec of the tree without HANDBACK statuses is
// reported and enumdrift gets the embedded one; the user's spec, or one
// with statuses, is kept as it is.
func TestVocabularySpec(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "docs", "specs", "protocol-core-v1.1.yaml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "protocol: protocol-core\nversion: \"1.1\"\ndelegate:\n  core_fields:\n    task_id: {type: string}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	delegateOnly, err := msgcheck.LoadSpecIn(root, file)
	if err != nil {
		t.Fatal(err)
	}
	fb := &specFallback{root: root}
	if got := fb.vocabularySpec(delegateOnly, false, false); got != delegateOnly || len(fb.findings) != 0 {
		t.Errorf("the user's spec: got %s and %d findings, want it kept and none", got.Source, len(fb.findings))
	}
	if got := fb.vocabularySpec(msgcheck.DefaultSpec(), true, false); got != msgcheck.DefaultSpec() || len(fb.findings) != 0 {
		t.Errorf("the embedded spec: got %s and %d findings, want it kept and none", got.Source, len(fb.findings))
	}
	got := fb.vocabularySpec(delegateOnly, true, false)
	if got != msgcheck.DefaultSpec() {
		t.Errorf("a discovered spec without statuses: enumdrift gets %s, want the embedded spec", got.Source)
	}
	if len(fb.findings) != 1 || fb.findings[0].Path != "docs/specs/protocol-core-v1.1.yaml" || fb.findings[0].Rule != ruleSpecError {
		t.Errorf("findings %+v, want one %s at the spec", fb.findings, ruleSpecError)
	}
}
