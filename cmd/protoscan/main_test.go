package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// TestMain lets the test binary stand in for the protoscan command, so the
// scripts under testdata/script run the real CLI in a subprocess.
func TestMain(m *testing.M) {
	// A -race binary sleeps a second at exit (GORACE's atexit_sleep_ms)
	// to let other goroutines report: hundreds of protoscan runs would
	// spend minutes asleep. Reports still come, the exit code says so.
	if !strings.Contains(os.Getenv("GORACE"), "atexit_sleep_ms") {
		os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	}
	testscript.Main(m, map[string]func(){
		// the real entry point, so go vet -vettool works too
		"protoscan": func() {
			lowerSARIFLimits()
			main()
		},
	})
}

// lowerSARIFLimits is a test hook: PROTOSCAN_TEST_SARIF_LIMITS, read by
// the test binary only, lowers the limits SARIF logs keep to
// (sarifLimits) for a script, so that a few findings go past them:
// "results=N,locations=N,gzip=BYTES", each optional.
func lowerSARIFLimits() {
	v := os.Getenv("PROTOSCAN_TEST_SARIF_LIMITS")
	if v == "" {
		return
	}
	for _, kv := range strings.Split(v, ",") {
		k, n, _ := strings.Cut(kv, "=")
		i, err := strconv.ParseInt(n, 10, 64)
		if err != nil {
			panic("PROTOSCAN_TEST_SARIF_LIMITS: " + kv)
		}
		switch k {
		case "results":
			sarifLimits.Results = int(i)
		case "locations":
			sarifLimits.Locations = int(i)
		case "gzip":
			sarifLimits.Gzipped = i
		default:
			panic("PROTOSCAN_TEST_SARIF_LIMITS: " + kv)
		}
	}
}

// TestScripts runs the end-to-end scripts in testdata/script.
//
// Conventions of the scripts:
//
//   - Every script's $WORK holds a .git directory (see setup), so $WORK is the
//     repository root protoscan finds by default: skills/ and docs/specs/ are
//     looked up there unless a script passes --root.
//   - Exit codes are a contract and are checked exactly: "exec protoscan ..."
//     for exit 0, "exitcode N protoscan ..." for any other code. The scripts
//     never use "! exec protoscan", which accepts any non-zero code.
//   - duration_ms in --json output varies from run to run; "zerodurations"
//     copies stdout to a file with every duration set to 0, to cmp it with a
//     golden file.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("PROTOSCAN_UPDATE_GOLDEN") != "", // rewrite cmp goldens in place
		Setup:               setup,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":      cmdExitCode,
			"zerodurations": cmdZeroDurations,
			"sarifuris":     cmdSARIFURIs,
		},
	})
}

// setup makes $WORK a repository root, so the default root is the script's
// own directory, never whatever repository the temporary directory is in.
func setup(e *testscript.Env) error {
	// the go command (vet scripts) needs a cache and no network; reuse the
	// developer's build cache so the standard library is not rebuilt
	if out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE").Output(); err == nil {
		if v := strings.Fields(string(out)); len(v) == 2 {
			e.Setenv("GOCACHE", v[0])
			e.Setenv("GOMODCACHE", v[1])
		}
	}
	// the scan cache of a script is its own, removed with it (a script
	// may set another)
	e.Setenv(envCacheDir, filepath.Join(filepath.Dir(e.WorkDir), filepath.Base(e.WorkDir)+"-cache"))
	e.Setenv("GORACE", os.Getenv("GORACE")) // see TestMain
	e.Setenv("GOPROXY", "off")
	e.Setenv("GOFLAGS", "-mod=mod")
	return os.MkdirAll(filepath.Join(e.WorkDir, ".git"), 0o777)
}

// cmdExitCode runs a program as exec does and checks its exit code exactly:
//
//	exitcode N program [args...]
//
// Its stdout and stderr are kept for the stdout, stderr and cmp commands,
// and the input set by stdin is used up, as with exec.
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exitcode (give the exact code instead)")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil || want < 0 {
		ts.Fatalf("exitcode: bad exit code %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with code %d, want %d", args[1], got, want)
	}
}

var durationRE = regexp.MustCompile(`"duration_ms":[-+0-9.eE]+`)

// cmdZeroDurations writes a file, or the stdout or stderr of the last
// command, to another file with every "duration_ms" value set to 0:
//
//	zerodurations stdout got.jsonl
func cmdZeroDurations(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! zerodurations")
	}
	if len(args) != 2 {
		ts.Fatalf("usage: zerodurations from to")
	}
	data := []byte(ts.ReadFile(args[0]))
	if !durationRE.Match(data) {
		ts.Fatalf("zerodurations: no \"duration_ms\" in %s", args[0])
	}
	data = durationRE.ReplaceAll(data, []byte(`"duration_ms":0`))
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), data, 0o666))
}

// cmdSARIFURIs checks the places of a SARIF log against the files:
//
//	sarifuris FILE
//
// run.originalUriBaseIds must declare %SRCROOT% as the file URI of a
// directory, and every artifactLocation of the results (locations,
// related locations, fixes) must be relative to it and name a file that
// exists there. It prints each result as "uri:line fingerprint", for
// cmp.
func cmdSARIFURIs(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sarifuris FILE")
	}
	type artifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId"`
	}
	type location struct {
		PhysicalLocation struct {
			ArtifactLocation artifact `json:"artifactLocation"`
			Region           struct {
				StartLine int `json:"startLine"`
			} `json:"region"`
		} `json:"physicalLocation"`
	}
	var log struct {
		Runs []struct {
			OriginalURIBaseIDs map[string]artifact `json:"originalUriBaseIds"`
			Results            []struct {
				Locations           []location        `json:"locations"`
				RelatedLocations    []location        `json:"relatedLocations"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				Fixes               []struct {
					ArtifactChanges []struct {
						ArtifactLocation artifact `json:"artifactLocation"`
					} `json:"artifactChanges"`
				} `json:"fixes"`
			} `json:"results"`
		} `json:"runs"`
	}
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &log))
	if len(log.Runs) != 1 {
		ts.Fatalf("%d runs, want 1", len(log.Runs))
	}
	run := log.Runs[0]
	base, err := url.Parse(run.OriginalURIBaseIDs["%SRCROOT%"].URI)
	if err != nil || base.Scheme != "file" || !strings.HasSuffix(base.Path, "/") {
		ts.Fatalf("%%SRCROOT%% is %q, want the file URI of a directory", run.OriginalURIBaseIDs["%SRCROOT%"].URI)
	}
	if fi, err := os.Stat(filepath.FromSlash(base.Path)); err != nil || !fi.IsDir() {
		ts.Fatalf("%%SRCROOT%% %s is no directory", base)
	}
	exists := func(a artifact) {
		if a.URIBaseID != "%SRCROOT%" {
			ts.Fatalf("%s: uriBaseId %q, want %%SRCROOT%%", a.URI, a.URIBaseID)
		}
		u, err := url.Parse(a.URI)
		if err != nil || u.IsAbs() {
			ts.Fatalf("%s: not a relative URI", a.URI)
		}
		p := base.ResolveReference(u).Path
		if fi, err := os.Stat(filepath.FromSlash(p)); err != nil || !fi.Mode().IsRegular() {
			ts.Fatalf("%s: no file %s under %%SRCROOT%%", a.URI, p)
		}
	}
	var out strings.Builder
	for _, r := range run.Results {
		for _, l := range append(r.Locations, r.RelatedLocations...) {
			exists(l.PhysicalLocation.ArtifactLocation)
		}
		for _, fx := range r.Fixes {
			for _, c := range fx.ArtifactChanges {
				exists(c.ArtifactLocation)
			}
		}
		l := r.Locations[0].PhysicalLocation
		fmt.Fprintf(&out, "%s:%d %s\n", l.ArtifactLocation.URI, l.Region.StartLine, r.PartialFingerprints["protoscan/v1"])
	}
	ts.Stdout().Write([]byte(out.String()))
}

// TestSpecPrintsEmbeddedSpec checks byte for byte what the scripts can only
// sample: with no repository spec, "protoscan spec" prints a header comment
// and then the embedded spec exactly as it is written.
func TestSpecPrintsEmbeddedSpec(t *testing.T) {
	want, err := msgcheck.EmbeddedSpecSource(msgcheck.DefaultSpecName)
	if err != nil {
		t.Fatal(err)
	}
	want = append([]byte("# protocol-core 1.0, from embedded:"+msgcheck.DefaultSpecName+"\n"), want...)
	var stdout, stderr bytes.Buffer
	code := run([]string{"spec", "--root", t.TempDir()}, nil, &stdout, &stderr)
	if code != exitOK || stderr.Len() > 0 {
		t.Fatalf("protoscan spec: exit %d, stderr %q", code, stderr.String())
	}
	if !bytes.Equal(stdout.Bytes(), want) {
		t.Errorf("protoscan spec printed\n%s\nwant\n%s", stdout.Bytes(), want)
	}
}

// TestVersionOf: the version line names the module version, else devel,
// and the VCS revision with its modified mark when the build has them.
func TestVersionOf(t *testing.T) {
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"}
	for _, tt := range []struct {
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"v1.2.0", nil, "v1.2.0"},
		{"(devel)", nil, "devel"},
		{"", nil, "devel"},
		{"(devel)", []debug.BuildSetting{rev}, "devel (revision 0123456789abcdef0123456789abcdef01234567)"},
		{"v1.2.0", []debug.BuildSetting{rev, {Key: "vcs.modified", Value: "false"}}, "v1.2.0 (revision 0123456789abcdef0123456789abcdef01234567)"},
		{"(devel)", []debug.BuildSetting{{Key: "vcs.modified", Value: "true"}, rev}, "devel (revision 0123456789abcdef0123456789abcdef01234567, modified)"},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Version: tt.version}, Settings: tt.settings}
		if got := versionOf(bi); got != tt.want {
			t.Errorf("versionOf(%q, %v) = %q, want %q", tt.version, tt.settings, got, tt.want)
		}
	}
}
