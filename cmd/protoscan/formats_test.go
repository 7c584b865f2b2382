package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden reports in testdata/reports")

// TestFormats scans the example repository (testdata/example, a message
// queue with planted errors and drift) in every format, each compared
// with its golden file, and requires the SARIF to satisfy the official
// SARIF 2.1.0 schema. The scan runs in testdata/example with git's
// search for a repository stopped there, so that it is the SARIF root,
// in a checkout as in a copy without .git.
func TestFormats(t *testing.T) {
	t.Setenv(envCacheDir, t.TempDir()) // never the developer's cache
	root, err := filepath.Abs(filepath.Join("..", "..", "testdata", "example"))
	if err != nil {
		t.Fatal(err)
	}
	goldens, err := filepath.Abs(filepath.Join("testdata", "reports"))
	if err != nil {
		t.Fatal(err)
	}
	schemaFile, err := filepath.Abs(filepath.Join("..", "..", "internal", "report", "testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(root))
	t.Chdir(root)
	dir := t.TempDir()
	var args []string
	formats := []string{"text", "json", "sarif", "markdown"}
	for _, f := range formats {
		args = append(args, "--format", f+"="+filepath.Join(dir, "report."+f))
	}
	var stdout, stderr bytes.Buffer
	if code := run(append(args, "."), nil, &stdout, &stderr); code != exitFailed {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitFailed, stderr.String())
	}
	for _, f := range formats {
		got, err := os.ReadFile(filepath.Join(dir, "report."+f))
		if err != nil {
			t.Fatal(err)
		}
		// the version is the build's; the goldens hold a placeholder
		got = bytes.ReplaceAll(got, []byte(version()), []byte("VERSION"))
		// and the SARIF root the machine's
		got = bytes.ReplaceAll(got, []byte(`"file://`+filepath.ToSlash(realPath(root))+`/"`), []byte(`"file:///ROOT/"`))
		golden := filepath.Join(goldens, "example."+f)
		if *updateGolden {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s report differs from %s (go test ./cmd/protoscan -run TestFormats -update rewrites it):\n%s", f, golden, got)
		}
	}

	c := jsonschema.NewCompiler()
	sch, err := c.Compile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "report.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Errorf("the SARIF of a real scan breaks the SARIF 2.1.0 schema: %v", err)
	}
	var sarif struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex *int   `json:"ruleIndex"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &sarif); err != nil {
		t.Fatal(err)
	}
	for _, r := range sarif.Runs[0].Results {
		// every result's rule, generated msgcheck ids included, is
		// documented in tool.driver.rules
		if r.RuleIndex == nil {
			t.Errorf("result of %s has no ruleIndex", r.RuleID)
		}
	}
}

// realPath is p made absolute, with its symbolic links resolved, as the
// repository root of a SARIF log is.
func realPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}
