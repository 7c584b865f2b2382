package baseline

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
)

func TestFingerprint(t *testing.T) {
	fp := Fingerprint("enumdrift/legacy-status", "a.go", []byte(`	return "failed"`))
	if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(fp) {
		t.Fatalf("fingerprint %q is not 16 hex digits", fp)
	}
	same := []string{
		`return "failed"`,
		"  return   \"failed\"  \r",
		"\treturn\t\"failed\"",
		"return \v\f \"failed\"\n",
	}
	for _, s := range same {
		if got := Fingerprint("enumdrift/legacy-status", "a.go", []byte(s)); got != fp {
			t.Errorf("Fingerprint(%q) = %s, want %s", s, got, fp)
		}
	}
	differ := []struct{ rule, path, line string }{
		{"enumdrift/legacy-status", "a.go", `return "done"`},
		{"enumdrift/legacy-status", "a.go", `return"failed"`}, // blanks are not removed, only collapsed
		{"enumdrift/noncanonical", "a.go", `return "failed"`},
		{"enumdrift/legacy-status", "b.go", `return "failed"`},
		// the fields are separated: moving text between them changes the hash
		{"enumdrift/legacy-statusa.go", "", `return "failed"`},
	}
	for _, d := range differ {
		if got := Fingerprint(d.rule, d.path, []byte(d.line)); got == fp {
			t.Errorf("Fingerprint(%q, %q, %q) = %s, same as the original", d.rule, d.path, d.line, got)
		}
	}
	// stable across releases: a baseline written today must match tomorrow
	// (printf 'r/x\0p\0a b' | sha256sum | cut -c1-16)
	if got, want := Fingerprint("r/x", "p", []byte("a  b")), "952cd5ba4dc5074c"; got != want {
		t.Errorf("Fingerprint changed: %s, was %s", got, want)
	}
}

func TestLineText(t *testing.T) {
	src := []byte("one\r\ntwo\n\nfour")
	for line, want := range map[int]string{1: "one", 2: "two", 3: "", 4: "four"} {
		if got := LineText(src, line); string(got) != want {
			t.Errorf("LineText(%d) = %q, want %q", line, got, want)
		}
	}
	for _, line := range []int{-1, 0, 5, 100} {
		if got := LineText(src, line); got != nil {
			t.Errorf("LineText(%d) = %q, want nil", line, got)
		}
	}
	if got := LineText([]byte("a\n"), 2); got == nil || len(got) != 0 {
		t.Errorf("the empty last line after a final newline: got %q", got)
	}
}

// TestLinesAgree: Lines.Text gives every line of a source as
// strings.Split over its newlines does, line endings dropped.
func TestLinesAgree(t *testing.T) {
	for _, src := range []string{"", "\n", "a", "a\n", "a\r\nb\r\n", "\n\n\nx", "one\ntwo\r\n\rthree\r"} {
		lines := NewLines([]byte(src))
		want := strings.Split(src, "\n")
		for i, w := range want {
			if got := lines.Text(i + 1); got == nil || string(got) != strings.TrimSuffix(w, "\r") {
				t.Errorf("%q line %d: %q, want %q", src, i+1, got, w)
			}
		}
		if got := lines.Text(len(want) + 1); got != nil {
			t.Errorf("%q line %d past the end: %q", src, len(want)+1, got)
		}
	}
}

// stamp is what the scan does: fingerprint each finding from its file.
func stamp(src string, fs ...finding.Finding) []finding.Finding {
	for i := range fs {
		fs[i].Fingerprint = Fingerprint(fs[i].Rule, fs[i].Path, LineText([]byte(src), fs[i].Line))
	}
	return fs
}

func f(rule, path string, line int, msg string) finding.Finding {
	return finding.Finding{Rule: rule, Severity: finding.Error, Location: finding.Location{Path: path, Line: line, Col: 5}, Message: msg}
}

func roundTrip(t *testing.T, fs []finding.Finding) *Baseline {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, fs); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "baseline.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const before = `package p

func f() string {
	return "failed"
}
`

func TestFilterSurvivesMovedCode(t *testing.T) {
	b := roundTrip(t, stamp(before, f("enumdrift/legacy-status", "p.go", 4, `legacy status "failed"`)))

	// two lines inserted above, and the line re-indented
	after := "package p\n\n// Doc.\n// More.\nfunc f() string {\n        return   \"failed\"\n}\n"
	kept, matched, stale := b.Filter(stamp(after, f("enumdrift/legacy-status", "p.go", 6, `legacy status "failed"`)))
	if len(kept) != 0 || matched != 1 || stale != 0 {
		t.Errorf("moved: kept %v, matched %d, stale %d", kept, matched, stale)
	}

	// the flagged line changed: the finding is new and the entry stale
	changed := strings.Replace(before, `return "failed"`, `return "failed" + suffix`, 1)
	kept, matched, stale = b.Filter(stamp(changed, f("enumdrift/legacy-status", "p.go", 4, `legacy status "failed"`)))
	if len(kept) != 1 || matched != 0 || stale != 1 {
		t.Errorf("changed: kept %v, matched %d, stale %d", kept, matched, stale)
	}

	// fixed: nothing found, the entry is stale
	kept, matched, stale = b.Filter(nil)
	if len(kept) != 0 || matched != 0 || stale != 1 {
		t.Errorf("fixed: kept %v, matched %d, stale %d", kept, matched, stale)
	}

	// the same line in another file, or another rule on the line, is new
	kept, _, _ = b.Filter(stamp(before,
		f("enumdrift/legacy-status", "q.go", 4, `legacy status "failed"`),
		f("enumdrift/noncanonical", "p.go", 4, `legacy status "failed"`)))
	if len(kept) != 2 {
		t.Errorf("other file or rule: kept %d, want 2", len(kept))
	}
}

func TestFilterMultiplicity(t *testing.T) {
	// two identical findings on two identical lines, one entry: one is new
	src := "  status: failed\n  status: failed\n"
	b := roundTrip(t, stamp(src, f("enumdrift/legacy-status", "s.yaml", 1, "legacy")))
	kept, matched, stale := b.Filter(stamp(src,
		f("enumdrift/legacy-status", "s.yaml", 1, "legacy"),
		f("enumdrift/legacy-status", "s.yaml", 2, "legacy")))
	if matched != 1 || stale != 0 || len(kept) != 1 || kept[0].Line != 2 {
		t.Errorf("kept %v, matched %d, stale %d", kept, matched, stale)
	}

	// two entries, three findings: one new; three entries, two findings: one stale
	two := stamp(src, f("enumdrift/legacy-status", "s.yaml", 1, "legacy"), f("enumdrift/legacy-status", "s.yaml", 2, "legacy"))
	b = roundTrip(t, two)
	if len(b.Entries) != 2 {
		t.Fatalf("entries %d, want 2 (duplicates are kept)", len(b.Entries))
	}
	three := append(two, two[0])
	if kept, matched, stale := b.Filter(three); len(kept) != 1 || matched != 2 || stale != 0 {
		t.Errorf("3 findings over 2 entries: kept %d, matched %d, stale %d", len(kept), matched, stale)
	}
	b = roundTrip(t, three)
	if kept, matched, stale := b.Filter(two); len(kept) != 0 || matched != 2 || stale != 1 {
		t.Errorf("2 findings over 3 entries: kept %d, matched %d, stale %d", len(kept), matched, stale)
	}
}

// Findings without a fingerprint are matched on their message.
func TestFilterWithoutFingerprint(t *testing.T) {
	notice := finding.Finding{Rule: "protoscan/too-large", Location: finding.Location{Path: "big.yaml"}, Message: "file is 3.0 MiB"}
	b := roundTrip(t, []finding.Finding{notice})
	if b.Entries[0].Fingerprint != "" {
		t.Fatalf("entry got a fingerprint: %+v", b.Entries[0])
	}
	if kept, matched, stale := b.Filter([]finding.Finding{notice}); len(kept) != 0 || matched != 1 || stale != 0 {
		t.Errorf("same notice: kept %d matched %d stale %d", len(kept), matched, stale)
	}
	other := notice
	other.Message = "file is 4.0 MiB"
	if kept, matched, stale := b.Filter([]finding.Finding{other}); len(kept) != 1 || matched != 0 || stale != 1 {
		t.Errorf("other message: kept %d matched %d stale %d", len(kept), matched, stale)
	}
	// with a fingerprint the message does not matter
	fp := stamp(before, f("enumdrift/legacy-status", "p.go", 4, "one wording"))
	b = roundTrip(t, fp)
	fp[0].Message = "another wording"
	if kept, _, _ := b.Filter(fp); len(kept) != 0 {
		t.Errorf("message change unmatched a fingerprinted finding")
	}
	// and a fingerprinted finding never matches an entry without one
	fp[0].Fingerprint = ""
	if kept, _, _ := b.Filter(fp); len(kept) != 1 {
		t.Errorf("finding without fingerprint matched a fingerprinted entry")
	}
}

func TestFilterNil(t *testing.T) {
	var b *Baseline
	fs := []finding.Finding{f("a/b", "x", 1, "m")}
	if kept, matched, stale := b.Filter(fs); len(kept) != 1 || matched != 0 || stale != 0 {
		t.Errorf("nil baseline: kept %d matched %d stale %d", len(kept), matched, stale)
	}
}

func TestWriteDeterministic(t *testing.T) {
	fs := stamp(before,
		f("enumdrift/legacy-status", "z.go", 4, `legacy "failed" <x> & y`),
		f("enumdrift/legacy-status", "a.go", 4, "m"),
		f("divergence/threshold", "a.go", 3, "m2"),
		f("enumdrift/legacy-status", "a.go", 4, "m"),
	)
	var first bytes.Buffer
	if err := Write(&first, fs); err != nil {
		t.Fatal(err)
	}
	// any order of the same findings gives the same bytes
	rev := []finding.Finding{fs[3], fs[2], fs[1], fs[0]}
	var second bytes.Buffer
	if err := Write(&second, rev); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Bytes(), second.Bytes()) {
		t.Errorf("Write depends on the order of findings:\n%s\n%s", first.Bytes(), second.Bytes())
	}
	fa := Fingerprint("enumdrift/legacy-status", "a.go", []byte(`	return "failed"`))
	fd := Fingerprint("divergence/threshold", "a.go", []byte(`func f() string {`))
	fz := Fingerprint("enumdrift/legacy-status", "z.go", []byte(`	return "failed"`))
	want := `{
  "version": 1,
  "entries": [
    {
      "rule": "divergence/threshold",
      "path": "a.go",
      "fingerprint": "` + fd + `",
      "message": "m2"
    },
    {
      "rule": "enumdrift/legacy-status",
      "path": "a.go",
      "fingerprint": "` + fa + `",
      "message": "m"
    },
    {
      "rule": "enumdrift/legacy-status",
      "path": "a.go",
      "fingerprint": "` + fa + `",
      "message": "m"
    },
    {
      "rule": "enumdrift/legacy-status",
      "path": "z.go",
      "fingerprint": "` + fz + `",
      "message": "legacy \"failed\" <x> & y"
    }
  ]
}
`
	if first.String() != want {
		t.Errorf("Write:\n%s\nwant\n%s", first.String(), want)
	}

	var empty bytes.Buffer
	if err := Write(&empty, nil); err != nil {
		t.Fatal(err)
	}
	if got := empty.String(); got != "{\n  \"version\": 1,\n  \"entries\": []\n}\n" {
		t.Errorf("empty baseline: %q", got)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

func TestWriteError(t *testing.T) {
	if err := Write(failWriter{}, nil); err == nil {
		t.Error("no error from a failing writer")
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ name, content, want string }{
		{"syntax.json", "{\n  \"version\": 1,\n  \"entries\": [,]\n}\n", `syntax.json:3:15: invalid character ','`},
		{"truncated.json", `{"version": 1, "entries": [`, `truncated.json:1:28: unexpected end of JSON input`},
		{"noversion.json", `{"entries": []}`, `noversion.json: not a protoscan baseline: no "version"`},
		{"newer.json", `{"version": 2, "entries": []}`, `newer.json: version 2 is newer than this protoscan reads (1)`},
		{"zero.json", `{"version": 0, "entries": []}`, `zero.json: unknown version 0`},
		{"noentries.json", `{"version": 1}`, `noentries.json: not a protoscan baseline: no "entries"`},
		{"array.json", `[1, 2]`, `array.json: not a protoscan baseline: json: cannot unmarshal array`},
		{"badentry.json", `{"version": 1, "entries": [{"rule": "a/b", "path": "x"}, {"rule": "a/b"}]}`, `badentry.json: entries[1]: rule and path are required`},
		{"badtype.json", `{"version": 1, "entries": [{"rule": 3, "path": "x"}]}`, `badtype.json: not a protoscan baseline: json: cannot unmarshal number`},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.name)
		if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := Load(path)
		if err == nil {
			t.Errorf("%s: no error, got %+v", tt.name, b)
			continue
		}
		if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %q, want it to name the file and contain %q", tt.name, err, tt.want)
		}
	}
	missing := filepath.Join(dir, "missing.json")
	_, err := Load(missing)
	if err == nil || !strings.Contains(err.Error(), missing) || !os.IsNotExist(errorsUnwrapAll(err)) {
		t.Errorf("missing file: %v", err)
	}
}

func errorsUnwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}

// Unknown fields are ignored, so that a later version 1 writer may add some.
func TestReadUnknownFields(t *testing.T) {
	b, err := Read(strings.NewReader(`{"version": 1, "tool": "x", "entries": [{"rule": "a/b", "path": "p", "line": 3, "message": ""}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Entries) != 1 || b.Entries[0] != (Entry{Rule: "a/b", Path: "p"}) {
		t.Errorf("entries %+v", b.Entries)
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"version": 1, "entries": [{"rule": "a/b", "path": "p", "fingerprint": "00", "message": "m"}]}`))
	f.Add([]byte(`{"version": 1, "entries": []}`))
	f.Add([]byte("{\n\"version\": 1,\n\"entries\": [,]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		// a baseline that reads back absorbs the findings it was written from
		var fs []finding.Finding
		for _, e := range b.Entries {
			fs = append(fs, finding.Finding{Rule: e.Rule, Location: finding.Location{Path: e.Path}, Fingerprint: e.Fingerprint, Message: e.Message})
		}
		kept, matched, stale := b.Filter(fs)
		if len(kept) != 0 || matched != len(fs) || stale != 0 {
			t.Fatalf("kept %d matched %d stale %d of %d", len(kept), matched, stale, len(fs))
		}
		var buf bytes.Buffer
		if err := Write(&buf, fs); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(&buf); err != nil {
			t.Fatalf("written baseline does not read back: %v", err)
		}
	})
}

// TestMatchLegacy: an entry an earlier protoscan wrote relative to the
// scanned PATH (hb/hb.go of a scan of go/) matches the finding of
// go/hb/hb.go through the fingerprint of that tail, which legacy gives;
// exact entries are taken first; a tail needs a directory boundary and
// the same rule; an entry matches one finding only.
func TestMatchLegacy(t *testing.T) {
	line := []byte(`StatusFailure Status = "failed"`)
	fp := func(path string) string { return Fingerprint("r/a", path, line) }
	f := func(path string) finding.Finding {
		return finding.Finding{Rule: "r/a", Location: finding.Location{Path: path, Line: 7}, Message: "m", Fingerprint: fp(path)}
	}
	findings := []finding.Finding{
		f("a/svc/x/hb/hb.go"), // 5: its tail svc/x/hb/hb.go is finding 2's exact entry, which 2 keeps
		f("go/hb/hb.go"),      // 0: the old entry hb/hb.go
		f("go/hb/hb.go"),      // 1: an identical second finding: no entry left for it
		f("svc/x/hb/hb.go"),   // 2: its own exact entry
		f("go/xhb/hb.go"),     // 3: "hb/hb.go" is no tail of it at a boundary
		{Rule: "r/b", Location: finding.Location{Path: "go/hb/hb.go", Line: 7}, Message: "m", Fingerprint: Fingerprint("r/b", "go/hb/hb.go", line)}, // 4: another rule
	}
	b := &Baseline{Version: Version, Entries: []Entry{
		{Rule: "r/a", Path: "hb/hb.go", Fingerprint: fp("hb/hb.go")},
		{Rule: "r/a", Path: "svc/x/hb/hb.go", Fingerprint: fp("svc/x/hb/hb.go")},
		{Rule: "r/a", Path: "gone.go", Fingerprint: fp("gone.go")},
	}}
	var asked []string
	legacy := func(i int, path string) string {
		asked = append(asked, fmt.Sprintf("%d:%s", i, path))
		if i == 0 && path != "svc/x/hb/hb.go" {
			return "another line" // only its svc/x tail could match
		}
		return fp(path)
	}
	in, stale := b.Match(findings, legacy)
	if want := []bool{false, true, false, true, false, false}; !slices.Equal(in, want) {
		t.Errorf("matched %v, want %v", in, want)
	}
	if len(stale) != 1 || stale[0].Path != "gone.go" {
		t.Errorf("stale %+v, want the entry of gone.go", stale)
	}
	// the exact entry of svc/x/hb/hb.go is taken before any tail is tried
	if want := []string{"0:svc/x/hb/hb.go", "0:hb/hb.go", "1:hb/hb.go", "2:hb/hb.go"}; !slices.Equal(asked, want) {
		t.Errorf("legacy asked for %v, want %v", asked, want)
	}
	// without legacy, only exact entries match
	in, stale = b.Match(findings, nil)
	if want := []bool{false, false, false, true, false, false}; !slices.Equal(in, want) || len(stale) != 2 {
		t.Errorf("without legacy: matched %v, %d stale", in, len(stale))
	}
}
