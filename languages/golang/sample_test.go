package golang

import (
	"os"
	"testing"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// TestAstGrepSample checks the sample the ast-grep rule
// go-status-value.yml is written against: every literal that rule matches
// is a fact here with the role saying how it is used, and the TaskID value
// that the rule must not match is a value of TaskID, not of Status.
//
// `const StatusOK = "ok"` is a member of a single-member const group with
// Name "": every RoleMember fact has a group (see the package doc).
func TestAstGrepSample(t *testing.T) {
	src, err := os.ReadFile("testdata/handback.go")
	if err != nil {
		t.Fatal(err)
	}
	ff, err := Extract("testdata/handback.go", src)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, src, ff)
	if ff.Lang != "go" || ff.Path != "testdata/handback.go" {
		t.Errorf("Lang, Path = %q, %q", ff.Lang, ff.Path)
	}
	want := []string{
		`s0 8:18 member "ok" key=StatusOK g0`,
		`s1 11:36 value "ok" key=Status scope=build m0`,
		`s2 12:17 compare "FAILED" key=Status recv=h scope=build`,
		`s3 13:14 assign "retry" key=Status recv=h scope=build`,
		`s4 15:22 key "task_id" scope=build m1`,
		`s5 15:37 key "status" scope=build m1`,
		`s6 15:47 value "complete" key=status scope=build m1`,
		`s7 18:15 compare "FAILED" key=status scope=build`,
		`s8 18:27 compare "blocked" key=status scope=build`,
		`s9 19:27 value "partial" key=Status scope=build m2`,
		`s10 22:7 case "success" key=Status recv=h scope=build g1`,
		`s11 22:18 case "failure" key=Status recv=h scope=build g1`,
		`s12 25:26 value "state" key=TaskID scope=build m3`,
		`g0 const "" 8:1 [0]`,
		`g1 cases "h.Status" scope=build 21:2 [10 11]`,
		`m0 "Handback" 11:7 {TaskID@11:16=? Status@11:28="ok"}`,
		`m1 "" name=m scope=build 15:7 {task_id@15:22=? status@15:37="complete"}`,
		`m2 "Handback" 19:10 {Status@19:19="partial"}`,
		`m3 "Handback" 25:9 {TaskID@25:18="state"}`,
	}
	if d := diffLines(want, dump(ff)); d != "" {
		t.Errorf("facts differ (-want +got):\n%s", d)
	}

	// The literals the ast-grep rule reports, by line: each is here with a
	// status key (any case) or as a status const.
	ruleLines := map[int]bool{8: true, 11: true, 12: true, 13: true, 15: true, 18: true, 19: true, 22: true}
	for _, s := range ff.Strings {
		statusy := s.Role == facts.RoleMember && s.Key == "StatusOK" ||
			s.Key == "Status" || s.Key == "status"
		if s.Role == facts.RoleKey {
			continue // keys of the literal on line 15; the rule matches its value only
		}
		if statusy != ruleLines[s.Pos.Line] {
			t.Errorf("line %d %q: status context %v, ast-grep rule %v", s.Pos.Line, s.Value, statusy, ruleLines[s.Pos.Line])
		}
	}
}
