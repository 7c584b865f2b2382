package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestReadmeFirstCommand runs the first command of README.md, the scan of
// an example repository, from the repository's top, and checks it gives
// the findings and the exit code its comment promises.
func TestReadmeFirstCommand(t *testing.T) {
	t.Setenv(envCacheDir, t.TempDir())
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	// the first line of the first sh block:
	// go run ./cmd/protoscan ARGS   # ...: N findings, exit code C ...
	m := regexp.MustCompile("(?m)^```sh\ngo run \\./cmd/protoscan ([^#\n]+?)\\s+#[^\n]*?(\\d+) findings, exit code (\\d)").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md does not begin with a go run ./cmd/protoscan line saying its findings and exit code")
	}
	args := strings.Fields(string(m[1]))
	findings, _ := strconv.Atoi(string(m[2]))
	code, _ := strconv.Atoi(string(m[3]))
	t.Chdir(filepath.Join("..", ".."))
	var stdout, stderr bytes.Buffer
	if got := run(args, nil, &stdout, &stderr); got != code {
		t.Errorf("protoscan %s: exit %d, README says %d; stderr:\n%s", m[1], got, code, stderr.String())
	}
	if want := strconv.Itoa(findings) + " findings ("; !strings.Contains(stdout.String(), want) {
		t.Errorf("protoscan %s: the summary does not say %q:\n%s", m[1], want, stdout.String())
	}
}
