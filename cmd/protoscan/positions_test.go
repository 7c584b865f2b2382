package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPositions holds the scan and validate to one place per finding in
// messages with nested paths (sequence items, nested keys, flow style,
// non-ASCII text before the flagged item, a list of messages, Markdown
// blocks): the scan's findings are compared with a golden file, the
// findings validate makes in each YAML and JSON file must be the scan's,
// and those of guide.md's blocks must be those of the files the blocks
// copy, moved down to the block.
func TestPositions(t *testing.T) {
	t.Setenv(envCacheDir, t.TempDir())
	dir := filepath.Join("testdata", "positions")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"scan", "--format", "json", dir}, nil, &stdout, &stderr); code != exitFailed {
		t.Fatalf("scan: exit %d, want %d; stderr:\n%s", code, exitFailed, stderr.String())
	}
	var rep struct {
		Findings []struct {
			Rule, File   string
			Line, Column int
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	scanned := map[string][]string{} // file name -> "line:col: rule", in report order
	var all strings.Builder
	for _, f := range rep.Findings {
		name := path.Base(f.File)
		scanned[name] = append(scanned[name], fmt.Sprintf("%d:%d: %s", f.Line, f.Column, f.Rule))
		fmt.Fprintf(&all, "%s:%d:%d: %s\n", name, f.Line, f.Column, f.Rule)
	}
	golden := filepath.Join("testdata", "positions.golden")
	if *updateGolden {
		if err := os.WriteFile(golden, []byte(all.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if all.String() != string(want) {
		t.Errorf("scan positions differ from %s (go test ./cmd/protoscan -run TestPositions -update rewrites it):\n%s", golden, all.String())
	}

	validated := func(name string, shift int) []string {
		t.Helper()
		var out, errb bytes.Buffer
		run([]string{"validate", "--json", filepath.Join(dir, name)}, nil, &out, &errb)
		if errb.Len() > 0 {
			t.Fatalf("validate %s: %s", name, errb.String())
		}
		var got []string
		sc := bufio.NewScanner(&out)
		for sc.Scan() {
			var res struct {
				Errors, Warnings []struct {
					Rule         string
					Line, Column int
				}
			}
			if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
				t.Fatal(err)
			}
			for _, f := range append(res.Errors, res.Warnings...) {
				got = append(got, fmt.Sprintf("%d:%d: %s", f.Line+shift, f.Column, f.Rule))
			}
		}
		slices.Sort(got)
		return got
	}
	sorted := func(s []string) []string {
		s = slices.Clone(s)
		slices.Sort(s)
		return s
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.*"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		name := filepath.Base(f)
		if ext := path.Ext(name); ext != ".yaml" && ext != ".json" {
			continue
		}
		checked++
		if got, want := validated(name, 0), sorted(scanned[name]); !slices.Equal(got, want) {
			t.Errorf("%s: validate places\n\t%s\nthe scan\n\t%s", name, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
		}
	}
	if checked < 6 {
		t.Fatalf("%d YAML and JSON files checked, want 6", checked)
	}

	// guide.md copies DELEGATE-block.yaml and handback-nested.json into
	// fenced blocks: its findings are theirs, on the block's lines
	guide, err := os.ReadFile(filepath.Join(dir, "guide.md"))
	if err != nil {
		t.Fatal(err)
	}
	var fromBlocks []string
	for _, copied := range []struct{ fence, name string }{{"```yaml", "DELEGATE-block.yaml"}, {"```json", "handback-nested.json"}} {
		before, _, ok := bytes.Cut(guide, []byte(copied.fence+"\n"))
		if !ok {
			t.Fatalf("guide.md has no %s block", copied.fence)
		}
		fenceLine := bytes.Count(before, []byte("\n")) + 1
		fromBlocks = append(fromBlocks, validated(copied.name, fenceLine)...)
	}
	if got, want := sorted(scanned["guide.md"]), sorted(fromBlocks); !slices.Equal(got, want) {
		t.Errorf("guide.md: the scan places\n\t%s\nthe blocks' files, validated\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}
