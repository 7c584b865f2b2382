package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeterminismGOROOT scans the Go standard library three times without
// the cache and three times with it (cold, then warm twice), through the
// command line, and requires byte-identical JSON and SARIF reports from
// all six (the determinism contract of DESIGN.md, and the cache's promise
// to change nothing but the time). bench/determinism.sh does the same
// with the built binary. It takes ten seconds or so; -short skips it, and
// so does the race detector (minutes) unless PROTOSCAN_DETERMINISM=1.
func TestDeterminismGOROOT(t *testing.T) {
	if testing.Short() {
		t.Skip("scans the Go standard library six times")
	}
	if raceEnabled && os.Getenv("PROTOSCAN_DETERMINISM") != "1" {
		t.Skip("too slow under the race detector; PROTOSCAN_DETERMINISM=1 runs it")
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("no go command:", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(src); err != nil {
		t.Skip("no GOROOT/src:", err)
	}
	dir := t.TempDir()
	t.Setenv(envCacheDir, filepath.Join(dir, "cache"))
	t.Setenv(envCacheVerify, "")
	var first map[string][]byte
	for i, args := range [][]string{{"--no-cache"}, {"--no-cache"}, {"--no-cache"}, nil, nil, nil} {
		what := "without the cache"
		if args == nil {
			what = "with the cache"
		}
		reports := map[string][]byte{}
		for _, f := range []string{"json", "sarif"} {
			reports[f] = nil
			args = append(args, "--format", f+"="+filepath.Join(dir, "report."+f))
		}
		var stdout, stderr bytes.Buffer
		if code := run(append(args, "--fail-on", "none", src), nil, &stdout, &stderr); code != exitOK {
			t.Fatalf("run %d: exit %d; stderr:\n%s", i+1, code, stderr.String())
		}
		for f := range reports {
			if reports[f], err = os.ReadFile(filepath.Join(dir, "report."+f)); err != nil {
				t.Fatal(err)
			}
		}
		if first == nil {
			first = reports
			if !bytes.Contains(reports["json"], []byte(`"findings"`)) {
				t.Fatalf("not a report:\n%.500s", reports["json"])
			}
			continue
		}
		for f, data := range reports {
			if !bytes.Equal(data, first[f]) {
				t.Errorf("run %d (%s): the %s report differs from the first run's", i+1, what, f)
			}
		}
	}
	if ents, err := os.ReadDir(filepath.Join(dir, "cache")); err != nil || len(ents) != 1 {
		t.Errorf("cache directory after the runs: %v, %v", ents, err)
	}
}

// TestCacheReports: on the planted repositories (drift, divergence
// clusters, which are computed across files, messages), the reports of a
// cold scan that fills the cache and of a warm one are byte for byte those
// of a scan without the cache.
func TestCacheReports(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(envCacheDir, filepath.Join(dir, "cache"))
	t.Setenv(envCacheVerify, "")
	scan := func(root string, args ...string) map[string][]byte {
		t.Helper()
		reports := map[string][]byte{}
		for _, f := range []string{"json", "sarif", "text"} {
			args = append(args, "--format", f+"="+filepath.Join(dir, "report."+f))
		}
		var stdout, stderr bytes.Buffer
		if code := run(append(args, root), nil, &stdout, &stderr); code != exitFailed {
			t.Fatalf("%s: exit %d; stderr:\n%s", root, code, stderr.String())
		}
		for _, f := range []string{"json", "sarif", "text"} {
			data, err := os.ReadFile(filepath.Join(dir, "report."+f))
			if err != nil {
				t.Fatal(err)
			}
			reports[f] = data
		}
		return reports
	}
	for _, name := range []string{"divergence", "example", "polyglot"} {
		root := filepath.Join("..", "..", "testdata", name)
		want := scan(root, "--no-cache")
		if name == "divergence" && !bytes.Contains(want["sarif"], []byte(`"relatedLocations"`)) {
			t.Fatal("no divergence cluster in the report")
		}
		for _, what := range []string{"cold", "warm"} {
			got := scan(root)
			for f := range want {
				if !bytes.Equal(got[f], want[f]) {
					t.Errorf("%s, %s scan: the %s report differs from the one without the cache", name, what, f)
				}
			}
		}
	}
}
