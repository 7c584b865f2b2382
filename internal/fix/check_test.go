package fix_test

import (
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/fix"
	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/languages/facts"
)

// swap is the edit of a fix that replaces the first occurrence of old
// (after skip bytes) in src with new, as enumdrift's fixes do.
func swap(t *testing.T, src string, skip int, old, new string) []finding.Edit {
	t.Helper()
	i := strings.Index(src[skip:], old)
	if i < 0 {
		t.Fatalf("%q not in the source after byte %d", old, skip)
	}
	return []finding.Edit{{Offset: skip + i, End: skip + i + len(old), New: new}}
}

// TestSelect: a fix is kept only when the file parses with it and no
// constant is twice where the language wants it once; the others are
// refused with a reason, and the file gets the kept ones.
func TestSelect(t *testing.T) {
	type fx struct {
		old, new string
		after    int    // bytes skipped before looking for old
		why      string // "" when the fix is kept, else a part of why
	}
	for _, tt := range []struct {
		name, file, src string
		fixes           []fx
		want            string // the file with the kept fixes
	}{
		{"go switch case", "r.go",
			"package r\n\nfunc f(s string) {\n\tswitch s {\n\tcase \"success\", \"failure\":\n\tcase \"SUCCESS\":\n\t}\n}\n",
			[]fx{{old: "SUCCESS", new: "success", why: `"success" would be a duplicate case of the switch at line 4`}},
			""},
		{"go switch, another case", "r.go",
			"package r\n\nfunc f(s string) {\n\tswitch s {\n\tcase \"success\":\n\tcase \"FAILED\":\n\t}\n}\n",
			[]fx{{old: "FAILED", new: "failure"}},
			"package r\n\nfunc f(s string) {\n\tswitch s {\n\tcase \"success\":\n\tcase \"failure\":\n\t}\n}\n"},
		{"go tagless switch is no set of constants", "r.go",
			"package r\n\nfunc f(s string) {\n\tswitch {\n\tcase s == \"success\":\n\tcase s == \"SUCCESS\":\n\t}\n}\n",
			[]fx{{old: "SUCCESS", new: "success"}},
			"package r\n\nfunc f(s string) {\n\tswitch {\n\tcase s == \"success\":\n\tcase s == \"success\":\n\t}\n}\n"},
		{"go map key", "r.go",
			"package r\n\nvar m = map[string]int{\n\t\"failure\": 1,\n\t\"failed\":  2,\n}\n",
			[]fx{{old: `"failed"`, new: `"failure"`, why: `"failure" would be a duplicate key of the map literal at line 3`}},
			""},
		{"go constants of the file in a switch", "r.go",
			"package r\n\nconst (\n\tA = \"failure\"\n\tB = \"failed\"\n)\n\nfunc f(s string) {\n\tswitch s {\n\tcase A, B:\n\t}\n}\n",
			[]fx{{old: `"failed"`, new: `"failure"`, why: `"failure" would be a duplicate case of the switch at line 9`}},
			""},
		{"go constants repeated in a block", "r.go",
			"package r\n\nconst (\n\tA, B = \"failure\", \"failed\"\n\tC, D\n)\n\nvar m = map[string]int{C: 1, D: 2}\n",
			[]fx{{old: `"failed"`, new: `"failure"`, why: `duplicate key of the map literal at line 8`}},
			""},
		{"go: the fixed file does not parse", "r.go",
			"package r\n\nvar s = \"failed\"\n",
			[]fx{{old: `failed`, new: `fail"ure`, why: "the fixed file would not parse"}},
			""},
		{"go: the file does not parse as it is", "r.go",
			"package r\n\nvar s = \"failed\"\nfunc {\n",
			[]fx{{old: `failed`, new: `failure`, why: "the file does not parse as it is"}},
			""},
		{"two fixes to one case: the first is kept", "r.go",
			"package r\n\nfunc f(s string) {\n\tswitch s {\n\tcase \"failed\":\n\tcase \"FAILURE\":\n\t}\n}\n",
			[]fx{{old: "failed", new: "failure"}, {old: "FAILURE", new: "failure", why: `"failure" would be a duplicate case of the switch at line 4`}},
			"package r\n\nfunc f(s string) {\n\tswitch s {\n\tcase \"failure\":\n\tcase \"FAILURE\":\n\t}\n}\n"},
		{"python dict key", "w.py",
			"ROUTES = {\"success\": 1, \"SUCCESS\": 2}\n",
			[]fx{{old: "SUCCESS", new: "success", why: `"success" would be a duplicate key of the dict at line 1`}},
			""},
		{"python set member", "w.py",
			"DONE = {'success', 'failure', \"Failure\"}\n",
			[]fx{{old: "Failure", new: "failure", why: `"failure" would be a duplicate member of the set at line 1`}},
			""},
		{"python: a duplicate that was there stays", "w.py",
			"d = {\"a\": 1, \"a\": 2, \"status\": \"FAILED\"}\n",
			[]fx{{old: "FAILED", new: "failure"}},
			"d = {\"a\": 1, \"a\": 2, \"status\": \"failure\"}\n"},
		{"python value, not key", "w.py",
			"d = {\"task_id\": \"t\", \"status\": \"SUCCESS\", \"note\": \"success\"}\n",
			[]fx{{old: "SUCCESS", new: "success"}},
			"d = {\"task_id\": \"t\", \"status\": \"success\", \"note\": \"success\"}\n"},
		{"python: the fixed file does not parse", "w.py",
			"s = 'failed'\n",
			[]fx{{old: "failed", new: "fail'ure", why: "the fixed file would not parse (1:"}},
			""},
		{"python: the file does not parse as it is", "w.py",
			"s = 'failed'\ndef (:\n",
			[]fx{{old: "failed", new: "failure", why: "the file does not parse as it is (2:"}},
			""},
		{"yaml mapping key", "routes.yaml",
			"routes:\n  success: a\n  SUCCESS: b\n",
			[]fx{{old: "SUCCESS", new: "success", why: `"success" would be a duplicate key of the mapping at line 2`}},
			""},
		{"yaml: an int key and a string key differ", "routes.yaml",
			"routes:\n  1: a\n  \"One\": b\n",
			[]fx{{old: "One", new: "1"}},
			"routes:\n  1: a\n  \"1\": b\n"},
		{"json key", "routes.json",
			"{\"success\": 1, \"Success\": 2}",
			[]fx{{old: "Success", new: "success", why: `duplicate key "success"`}}, // jsondoc refuses it
			""},
		{"json value", "h.json",
			"{\"task_id\": \"t\", \"status\": \"Success\"}",
			[]fx{{old: "Success", new: "success"}},
			"{\"task_id\": \"t\", \"status\": \"success\"}"},
		{"yaml: a fix beside a broken document", "q.yaml",
			"notes: [unclosed\n---\nstatus: Success\n",
			[]fx{{old: "Success", new: "success"}},
			"notes: [unclosed\n---\nstatus: success\n"},
		{"jsonl: a fix that breaks its line", "q.jsonl",
			"{\"a\": oops}\n{\"status\": \"Success\"}\n",
			[]fx{{old: "Success", new: `succ"ess`, why: "the fixed file would not parse (invalid character"}},
			""},
		{"markdown yaml block", "docs/r.md",
			"# Routes\n\n```yaml\nsuccess: a\nSUCCESS: b\n```\n",
			[]fx{{old: "SUCCESS", new: "success", why: `"success" would be a duplicate key of the mapping at line 1`}},
			""},
		{"markdown block broken by the fix", "docs/r.md",
			"```json\n{\"status\": \"Success\"}\n```\n",
			[]fx{{old: "Success", new: `succ"ess`, why: "the fixed file would not parse (invalid character"}},
			""},
		{"markdown: a broken block elsewhere does not matter", "docs/r.md",
			"```json\n{\"status\": \n```\n\n```yaml\nstatus: SUCCESS\n```\n",
			[]fx{{old: "SUCCESS", new: "success"}},
			"```json\n{\"status\": \n```\n\n```yaml\nstatus: success\n```\n"},
		{"markdown go fragment", "docs/r.md",
			"```go\nswitch s {\ncase \"success\":\ncase \"SUCCESS\":\n}\n```\n",
			[]fx{{old: "SUCCESS", new: "success", why: "duplicate case of the switch"}},
			""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var fixes [][]finding.Edit
			for _, f := range tt.fixes {
				fixes = append(fixes, swap(t, tt.src, f.after, f.old, f.new))
			}
			out, why := fix.Select([]byte(tt.src), fixes, func(b []byte) ([]facts.Container, error) {
				return extract.Containers(tt.file, b)
			})
			want := tt.want
			if want == "" {
				want = tt.src
			}
			if string(out) != want {
				t.Errorf("file:\n%q\nwant:\n%q", out, want)
			}
			for i, f := range tt.fixes {
				switch {
				case f.why == "" && why[i] != "":
					t.Errorf("fix %d refused: %s", i, why[i])
				case f.why != "" && !strings.Contains(why[i], f.why):
					t.Errorf("fix %d: why = %q, want it to hold %q", i, why[i], f.why)
				}
			}
		})
	}
}

// TestVet: a refused fix is taken from its finding, whose message says
// why; a kept one stays; a finding with no fix is left alone.
func TestVet(t *testing.T) {
	src := "package r\n\nfunc f(s string) {\n\tswitch s {\n\tcase \"success\":\n\tcase \"SUCCESS\":\n\tcase \"FAILED\":\n\t}\n}\n"
	at := func(s string) int { return strings.Index(src, s) }
	fs := []finding.Finding{
		{Message: "case drift", Fix: &finding.Fix{Edits: []finding.Edit{{Offset: at("SUCCESS"), End: at("SUCCESS") + 7, New: "success"}}}},
		{Message: "legacy", Fix: &finding.Fix{Edits: []finding.Edit{{Offset: at("FAILED"), End: at("FAILED") + 6, New: "failure"}}}},
		{Message: "unknown"},
	}
	fix.Vet([]byte(src), fs, func(b []byte) ([]facts.Container, error) { return extract.Containers("r.go", b) })
	if fs[0].Fix != nil || fs[0].Message != `case drift (no automatic fix: "success" would be a duplicate case of the switch at line 4)` {
		t.Errorf("refused fix: %+v", fs[0])
	}
	if fs[1].Fix == nil || fs[1].Message != "legacy" {
		t.Errorf("kept fix: %+v", fs[1])
	}
	if fs[2].Fix != nil || fs[2].Message != "unknown" {
		t.Errorf("no fix: %+v", fs[2])
	}
}

// TestSelectBounded: a file of many clashing fixes is tried at most a
// bounded number of times; the fixes beyond are not applied.
func TestSelectBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("package r\n\nfunc f(s string) {\n\tswitch s {\n\tcase \"success\":\n")
	for range 300 {
		b.WriteString("\tcase \"SUCCESS\":\n")
	}
	b.WriteString("\t}\n}\n")
	src := b.String()
	var fixes [][]finding.Edit
	for off := 0; ; {
		i := strings.Index(src[off:], "SUCCESS")
		if i < 0 {
			break
		}
		fixes = append(fixes, []finding.Edit{{Offset: off + i, End: off + i + 7, New: "success"}})
		off += i + 7
	}
	parses := 0
	_, why := fix.Select([]byte(src), fixes, func(b []byte) ([]facts.Container, error) {
		parses++
		return extract.Containers("r.go", b)
	})
	if parses > 258 {
		t.Errorf("%d parses of one file", parses)
	}
	for i, w := range why {
		if w == "" {
			t.Errorf("fix %d kept", i)
		}
	}
}
