package report

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
)

// sarifRunOut is the part of a run these tests look into.
type sarifRunOut struct {
	ColumnKind  string `json:"columnKind"`
	Invocations []struct {
		ExecutionSuccessful        *bool `json:"executionSuccessful"`
		ToolExecutionNotifications []struct {
			Level   string `json:"level"`
			Message struct {
				Text string `json:"text"`
			} `json:"message"`
		} `json:"toolExecutionNotifications"`
	} `json:"invocations"`
	Results []struct {
		RuleID    string                `json:"ruleId"`
		Message   struct{ Text string } `json:"message"`
		Locations []struct {
			PhysicalLocation struct {
				Region map[string]int `json:"region"`
			} `json:"physicalLocation"`
		} `json:"locations"`
		RelatedLocations []struct {
			PhysicalLocation struct {
				Region map[string]int `json:"region"`
			} `json:"physicalLocation"`
		} `json:"relatedLocations"`
		Fixes []struct {
			ArtifactChanges []struct {
				Replacements []struct {
					DeletedRegion map[string]int `json:"deletedRegion"`
				} `json:"replacements"`
			} `json:"artifactChanges"`
		} `json:"fixes"`
	} `json:"results"`
}

func parseRun(t *testing.T, doc []byte) sarifRunOut {
	t.Helper()
	var log struct{ Runs []sarifRunOut }
	if err := json.Unmarshal(doc, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("%v, %d runs:\n%s", err, len(log.Runs), doc)
	}
	return log.Runs[0]
}

// TestSARIFUTF16Columns: SARIF's columns and a fix's offsets count
// UTF-16 code units, converted from the findings' byte columns with the
// files' text: "é" is 2 bytes and 1 unit, "😀" 4 bytes and 2 units, an
// invalid byte 1 and 1. Text before the column counts, text after it
// does not; a file that cannot be read loses its columns and fixes, not
// its lines; every file is read once, and a file no column or fix is
// in, never.
func TestSARIFUTF16Columns(t *testing.T) {
	files := map[string]string{
		// the status "failed" is at bytes 48-53 (columns 49-55) of line 2,
		// units 45-50 (columns 46-52); the file starts with an ASCII line
		"svc/h.yaml": "# handbacks\n" + `- {task_id: task-a-001, note: "é😀", status: failed}` + "\n",
		// after the column: nothing changes; on another line: neither
		"svc/after.yaml": "status: failed # é😀\n",
		"bad.yaml":       "x: \xff\xfe failed\r\n",
		"ascii.go":       "package x // status failed\n",
	}
	reads := map[string]int{}
	source := func(p string) ([]byte, error) {
		reads[p]++
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, errors.New("no such file")
	}
	const line2 = 13 // the offset of line 2 of svc/h.yaml
	fs := []finding.Finding{
		{Rule: "enumdrift/legacy-status", Message: "m",
			Location: finding.Location{Path: "svc/h.yaml", Line: 2, Col: 49, EndLine: 2, EndCol: 55},
			Related:  []finding.Location{{Path: "svc/h.yaml", Line: 2, Col: 31, Message: "é"}, {Path: "svc/after.yaml", Line: 1, Col: 9}},
			Fix: &finding.Fix{Message: "f", Edits: []finding.Edit{{Path: "svc/h.yaml", Offset: line2 + 48, End: line2 + 54, New: "failure"},
				{Path: "svc/h.yaml", Offset: line2 + 30, End: line2 + 36, New: "e"}}}},
		{Rule: "x/after", Message: "m", Location: finding.Location{Path: "svc/after.yaml", Line: 1, Col: 9, EndCol: 15},
			Fix: &finding.Fix{Message: "f", Edits: []finding.Edit{{Path: "svc/after.yaml", Offset: 8, End: 14, New: "failure"}}}},
		{Rule: "x/invalid", Message: "m", Location: finding.Location{Path: "bad.yaml", Line: 1, Col: 6, EndCol: 12}},
		{Rule: "x/ascii", Message: "m", Location: finding.Location{Path: "ascii.go", Line: 1, Col: 20}},
		{Rule: "x/gone", Message: "m", Location: finding.Location{Path: "gone.yaml", Line: 3, Col: 7, EndCol: 9},
			Fix: &finding.Fix{Message: "f", Edits: []finding.Edit{{Path: "gone.yaml", Offset: 1, End: 2}}}},
		// past the file's end: no column, the line stays
		{Rule: "x/past", Message: "m", Location: finding.Location{Path: "svc/h.yaml", Line: 9, Col: 2}},
		// no column, no fix: the file is not read
		{Rule: "x/line", Message: "m", Location: finding.Location{Path: "unread.yaml", Line: 4}},
	}
	var b bytes.Buffer
	if err := SARIF(&b, &Report{Findings: fs, Source: source}); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, loadSARIFSchema(t), b.Bytes())
	run := parseRun(t, b.Bytes())
	if run.ColumnKind != "utf16CodeUnits" {
		t.Errorf("columnKind %q", run.ColumnKind)
	}
	region := func(i int) string {
		return fmt.Sprint(run.Results[i].Locations[0].PhysicalLocation.Region)
	}
	for i, want := range []string{
		"map[endColumn:52 endLine:2 startColumn:46 startLine:2]",
		"map[endColumn:15 startColumn:9 startLine:1]",
		"map[endColumn:12 startColumn:6 startLine:1]",
		"map[startColumn:20 startLine:1]",
		"map[startLine:3]",
		"map[startLine:9]",
		"map[startLine:4]",
	} {
		if got := region(i); got != want {
			t.Errorf("result %d (%s): region %s, want %s", i, fs[i].Rule, got, want)
		}
	}
	res := run.Results[0]
	if got := fmt.Sprint(res.RelatedLocations[0].PhysicalLocation.Region, res.RelatedLocations[1].PhysicalLocation.Region); got !=
		"map[startColumn:31 startLine:2] map[startColumn:9 startLine:1]" {
		t.Errorf("related regions %s, want columns 31 (before the é) and 9", got)
	}
	var dels []string
	for _, r := range res.Fixes[0].ArtifactChanges[0].Replacements {
		dels = append(dels, fmt.Sprint(r.DeletedRegion))
	}
	// 13 bytes (and units) of line 1, then 45 units for 48 bytes; "é😀" is
	// 6 bytes, 3 units
	if want := []string{"map[charLength:6 charOffset:58]", "map[charLength:3 charOffset:43]"}; !slices.Equal(dels, want) {
		t.Errorf("deleted regions %v, want %v", dels, want)
	}
	if got := fmt.Sprint(run.Results[1].Fixes[0].ArtifactChanges[0].Replacements[0].DeletedRegion); got != "map[charLength:6 charOffset:8]" {
		t.Errorf("a fix before the non-ASCII text: %s", got)
	}
	if len(run.Results[4].Fixes) != 0 {
		t.Errorf("a fix in a file that cannot be read: %v", run.Results[4].Fixes)
	}
	for p, n := range reads {
		if n != 1 {
			t.Errorf("%s read %d times", p, n)
		}
	}
	if reads["unread.yaml"] != 0 || len(reads) != 5 {
		t.Errorf("files read: %v, want the five with a column or a fix", reads)
	}

	// without Source the columns are the findings' own
	b.Reset()
	if err := SARIF(&b, &Report{Findings: fs[:1]}); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(parseRun(t, b.Bytes()).Results[0].Locations[0].PhysicalLocation.Region); got !=
		"map[endColumn:55 endLine:2 startColumn:49 startLine:2]" {
		t.Errorf("without Source: region %s", got)
	}
}

func TestUTF16Units(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{{"", 0}, {"abc", 3}, {"é", 1}, {"😀", 2}, {"中文", 2}, {"\xff", 1}, {"\xf0\x9f\x98", 3}, {"a😀é\xffb", 6}, {"\uFFFD", 1}} {
		if got := utf16Units([]byte(c.in)); got != c.want {
			t.Errorf("utf16Units(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

// severityFindings are findings of every severity, in report order:
// note, warning, error, warning, error, note.
func severityFindings() []finding.Finding {
	var fs []finding.Finding
	for i, sev := range []finding.Severity{finding.Note, finding.Warning, finding.Error, finding.Warning, finding.Error, finding.Note} {
		fs = append(fs, finding.Finding{Rule: "x/" + sev.String(), Severity: sev,
			Location: finding.Location{Path: fmt.Sprintf("f%d.go", i), Line: i + 1}, Message: fmt.Sprintf("finding %d", i)})
	}
	return fs
}

func resultMessages(run sarifRunOut) []string {
	var out []string
	for _, r := range run.Results {
		out = append(out, r.Message.Text)
	}
	return out
}

func notifications(run sarifRunOut) []string {
	var out []string
	for _, inv := range run.Invocations {
		if inv.ExecutionSuccessful == nil || !*inv.ExecutionSuccessful {
			out = append(out, "executionSuccessful not true")
		}
		for _, n := range inv.ToolExecutionNotifications {
			out = append(out, n.Level+": "+n.Message.Text)
		}
	}
	return out
}

// TestSARIFResultLimit: past the limit the most severe results are
// kept, the first among equals, in report order; the run and the cut
// say how many were left out.
func TestSARIFResultLimit(t *testing.T) {
	sch := loadSARIFSchema(t)
	for _, c := range []struct {
		limit int
		kept  []string
	}{
		{2, []string{"finding 2", "finding 4"}},
		{3, []string{"finding 1", "finding 2", "finding 4"}},
		{5, []string{"finding 0", "finding 1", "finding 2", "finding 3", "finding 4"}},
		{6, []string{"finding 0", "finding 1", "finding 2", "finding 3", "finding 4", "finding 5"}},
	} {
		var b bytes.Buffer
		cut, err := WriteSARIF(&b, &Report{Findings: severityFindings()}, SARIFLimits{Results: c.limit})
		if err != nil {
			t.Fatal(err)
		}
		validateSARIF(t, sch, b.Bytes())
		run := parseRun(t, b.Bytes())
		if got := resultMessages(run); !slices.Equal(got, c.kept) {
			t.Errorf("limit %d: kept %v, want %v", c.limit, got, c.kept)
		}
		left := 6 - len(c.kept)
		if cut.OverCount != left || cut.Results() != left || cut.OverSize != 0 || cut.Limits.Results != c.limit ||
			cut.Limits.Gzipped != GitHubLimits.Gzipped {
			t.Errorf("limit %d: cut %+v", c.limit, cut)
		}
		var want []string
		switch left {
		case 0:
		case 1:
			want = []string{fmt.Sprintf("warning: 1 result left out: GitHub code scanning accepts at most %d per run; the most severe are kept", c.limit)}
		default:
			want = []string{fmt.Sprintf("warning: %d results left out: GitHub code scanning accepts at most %d per run; the most severe are kept", left, c.limit)}
		}
		if got := notifications(run); !slices.Equal(got, want) {
			t.Errorf("limit %d: notifications %q, want %q", c.limit, got, want)
		}
	}
}

// TestSARIFRelatedLimit: a result keeps its first related locations up
// to the limit, and the run says how many went.
func TestSARIFRelatedLimit(t *testing.T) {
	fs := severityFindings()
	for i := range fs {
		for j := range i {
			fs[i].Related = append(fs[i].Related, finding.Location{Path: "r.go", Line: j + 1, Message: fmt.Sprint("member ", j)})
		}
	}
	var b bytes.Buffer
	cut, err := WriteSARIF(&b, &Report{Findings: fs}, SARIFLimits{Locations: 2})
	if err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, loadSARIFSchema(t), b.Bytes())
	run := parseRun(t, b.Bytes())
	for i, r := range run.Results {
		if want := min(i, 2); len(r.RelatedLocations) != want {
			t.Errorf("result %d: %d related locations, want %d", i, len(r.RelatedLocations), want)
		}
	}
	// 1 of 3, 2 of 4, 3 of 5: 6 left out
	want := []string{"warning: 6 related locations left out: GitHub code scanning accepts at most 2 locations per result; the first are kept"}
	if got := notifications(run); cut.Related != 6 || cut.Results() != 0 || !slices.Equal(got, want) {
		t.Errorf("cut %+v, notifications %q, want %q", cut, got, want)
	}
}

func gzipSize(t *testing.T, b []byte) int64 {
	t.Helper()
	var c countWriter
	zw := gzip.NewWriter(&c)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return c.n
}

// TestSARIFSizeLimit: a log over the gzipped size leaves out the least
// severe results, the last among equals, as few as it can: it fits, and
// one result more would not. A log within the limit is left whole.
func TestSARIFSizeLimit(t *testing.T) {
	sch := loadSARIFSchema(t)
	// results that do not compress away: each message is random-looking text
	fs := severityFindings()
	for i := range fs {
		var msg strings.Builder
		x := uint32(i + 1)
		for range 300 {
			x = x*1664525 + 1013904223
			fmt.Fprintf(&msg, "%08x", x)
		}
		fs[i].Message = fmt.Sprintf("finding %d %s", i, msg.String())
	}
	var full bytes.Buffer
	if _, err := WriteSARIF(&full, &Report{Findings: fs}, SARIFLimits{}); err != nil {
		t.Fatal(err)
	}
	whole := gzipSize(t, full.Bytes())
	var b bytes.Buffer
	cut, err := WriteSARIF(&b, &Report{Findings: fs}, SARIFLimits{Gzipped: whole})
	if err != nil || !bytes.Equal(b.Bytes(), full.Bytes()) || cut.Results() != 0 {
		t.Errorf("a log of exactly the limit changed: %v, cut %+v", err, cut)
	}

	// one byte less: the last note goes (each result is some 1,300
	// bytes gzipped, the log's other parts a few hundred)
	for _, c := range []struct {
		limit int64
		kept  []int
	}{
		{whole - 1, []int{0, 1, 2, 3, 4}},
		{whole - 1700, []int{1, 2, 3, 4}},
		{whole - 3000, []int{1, 2, 4}},
		{100, nil},
	} {
		b.Reset()
		cut, err := WriteSARIF(&b, &Report{Findings: fs}, SARIFLimits{Gzipped: c.limit})
		if err != nil {
			t.Fatal(err)
		}
		validateSARIF(t, sch, b.Bytes())
		run := parseRun(t, b.Bytes())
		var kept []int
		for _, m := range resultMessages(run) {
			var i int
			fmt.Sscanf(m, "finding %d", &i)
			kept = append(kept, i)
		}
		if !slices.Equal(kept, c.kept) {
			t.Errorf("limit %d of %d: kept %v, want %v", c.limit, whole, kept, c.kept)
		}
		left := 6 - len(c.kept)
		if cut.OverSize != left || cut.OverCount != 0 {
			t.Errorf("limit %d: cut %+v, want %d over the size", c.limit, cut, left)
		}
		size := gzipSize(t, b.Bytes())
		if len(c.kept) > 0 && size > c.limit {
			t.Errorf("limit %d: %d bytes gzipped", c.limit, size)
		}
		want := fmt.Sprintf("warning: %s left out: GitHub code scanning accepts at most %s of gzipped SARIF; the most severe are kept",
			countOf(left, "result"), SizeText(c.limit))
		if got := notifications(run); !slices.Equal(got, []string{want}) {
			t.Errorf("limit %d: notifications %q, want %q", c.limit, got, want)
		}
		// as few as it can: one result more would be over
		if len(c.kept) > 0 && len(c.kept) < 6 {
			var same bytes.Buffer
			if err := writeMore(&same, fs, c.limit, len(c.kept)); err != nil || !bytes.Equal(same.Bytes(), b.Bytes()) {
				t.Fatalf("writeMore does not write what WriteSARIF does: %v\n%s", err, same.Bytes())
			}
			var more bytes.Buffer
			if err := writeMore(&more, fs, c.limit, len(c.kept)+1); err != nil {
				t.Fatal(err)
			}
			if gzipSize(t, more.Bytes()) <= c.limit {
				t.Errorf("limit %d: %d results would fit, %d kept", c.limit, len(c.kept)+1, len(c.kept))
			}
		}
	}
}

// writeMore writes the log of fs with its n most severe results, as
// WriteSARIF would with that many kept for a size limit.
func writeMore(w io.Writer, fs []finding.Finding, limit int64, n int) error {
	lim := SARIFLimits{Gzipped: limit}.orGitHub()
	rank := severityRanks(fs)
	var pieces []sarifPiece
	for i, f := range fs {
		data, err := marshalSARIF(sarifResult{RuleID: f.Rule, Level: sarifLevel(f.Severity), Message: sarifText{f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifBuilder{cols: newUTF16Columns(nil)}.physical(f.Location)}}}, resultIndent)
		if err != nil {
			return err
		}
		pieces = append(pieces, sarifPiece{data: data, rank: rank[i]})
	}
	log := sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{{Tool: sarifTool{sarifDriver{Name: "protoscan", InformationURI: InformationURI}},
		ColumnKind: "utf16CodeUnits", Properties: &sarifRunProperties{}}}}
	return writeSARIFLog(w, &log, SARIFCut{Limits: lim, OverSize: len(fs) - n}, pieces, n)
}

func TestSizeText(t *testing.T) {
	for n, want := range map[int64]string{10_000_000: "10 MB", 1: "1 byte", 4096: "4096 bytes", 1_500_000: "1500000 bytes"} {
		if got := SizeText(n); got != want {
			t.Errorf("SizeText(%d) = %q, want %q", n, got, want)
		}
	}
}
