package golang

import (
	"testing"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

func TestFormats(t *testing.T) {
	src := "package p\n" + `
import (
	"errors"
	"regexp"
)

const idPattern = "^[a-z]+$"

var (
	taskIDRe = regexp.MustCompile(` + "`^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$`" + `)
	twice    = regexp.MustCompile("a")
	other    = 3
)

type Validator struct{ idRE *regexp.Regexp }

func NewValidator() *Validator { return &Validator{idRE: regexp.MustCompile(idPattern)} }

func init() { twice = regexp.MustCompile("b") }

func (v *Validator) Validate(d Delegate) error {
	if !taskIDRe.MatchString(d.TaskID) {
		return errors.New("bad task_id")
	}
	if !v.idRE.MatchString(d.ParentTaskID) {
		return errors.New("bad parent")
	}
	if ok, _ := regexp.MatchString("^x", d.TaskID); !ok {
		return errors.New("bad")
	}
	id := d.TaskID
	if regexp.MustCompile("^y$").MatchString(id) {
		return nil
	}
	if twice.MatchString(d.TaskID) || taskIDRe.MatchString(string(len(d.TaskID))) {
		return nil
	}
	return nil
}
`
	f, err := Extract("v.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []facts.Format{
		{Field: "task_id", Pattern: `^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$`, Syntax: "re2", Name: "taskIDRe", Branch: facts.BranchAccept},
		{Field: "parent_task_id", Pattern: `^[a-z]+$`, Syntax: "re2", Name: "idRE", Branch: facts.BranchAccept},
		{Field: "task_id", Pattern: `^x`, Syntax: "re2"},
		{Field: "task_id", Pattern: `^y$`, Syntax: "re2", Branch: facts.BranchAccept}, // return nil: valid
	}
	if len(f.Formats) != len(want) {
		t.Fatalf("got %d formats, want %d: %+v", len(f.Formats), len(want), f.Formats)
	}
	for i, w := range want {
		g := f.Formats[i]
		g.Pos, g.PatternPos = facts.Pos{}, facts.Pos{}
		if g != w {
			t.Errorf("format %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
	if p := f.Formats[0].PatternPos; p.Line != 11 {
		t.Errorf("the pattern of taskIDRe is placed at line %d", p.Line)
	}
	// a file that does not import regexp has none, whatever it calls
	f, _ = Extract("w.go", []byte("package p\nfunc f(d D) bool { return re.MatchString(d.TaskID) }\n"))
	if len(f.Formats) != 0 {
		t.Errorf("formats without regexp: %+v", f.Formats)
	}
}
