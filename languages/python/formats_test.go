package python

import (
	"testing"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

func TestFormats(t *testing.T) {
	src := `import re

TASK_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$", re.I | re.ASCII)
PAT = "^T-\\d+$"
TWICE = re.compile("a")
TWICE = re.compile("b")

class V:
    ID = re.compile(r"^\d{4}-\d{2}-\d{2}-[a-z-]+$")

    def check(self, msg):
        if not self.ID.fullmatch(msg["task_id"]):
            raise ValueError("bad id")

def validate_delegate(d, pattern):
    tid = d.get("task_id")
    if not TASK_ID_RE.match(tid):
        raise ValueError("bad task_id")
    assert re.search(PAT, d["parent_task_id"])
    if re.fullmatch(r"[a-z]+", d.task_id, flags=re.M | mode):
        return d
    if TWICE.match(d["task_id"]) or re.match(pattern, d["task_id"]):
        return d
    if re.compile("^x$").fullmatch(len(d["task_id"])):
        return d
    if re.compile("^x$").fullmatch(task_id):
        return d
    if (TASK_ID_RE.fullmatch(d.task_id)) is None:
        raise ValueError(d)
`
	f, err := Extract("v.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []facts.Format{
		{Field: "task_id", Pattern: `^\d{4}-\d{2}-\d{2}-[a-z-]+$`, Syntax: "python", Start: true, End: true, Name: "ID", Branch: facts.BranchAccept},
		{Field: "task_id", Pattern: `^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$`, Syntax: "python", Flags: "ia", Start: true, Name: "TASK_ID_RE", Branch: facts.BranchAccept},
		{Field: "parent_task_id", Pattern: `^T-\d+$`, Syntax: "python", Name: "PAT", Branch: facts.BranchAccept},
		{Field: "task_id", Pattern: `[a-z]+`, Syntax: "python", Flags: "?", Start: true, End: true, Branch: facts.BranchUnknown},
		{Field: "task_id", Pattern: `^x$`, Syntax: "python", Start: true, End: true},
		{Field: "task_id", Pattern: `^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$`, Syntax: "python", Flags: "ia", Start: true, End: true, Name: "TASK_ID_RE", Branch: facts.BranchAccept},
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
	if p := f.Formats[0].PatternPos; p.Line != 9 {
		t.Errorf("the pattern of ID is placed at line %d", p.Line)
	}
	if p := f.Formats[0].Pos; p.Line != 12 {
		t.Errorf("the match of ID is placed at line %d", p.Line)
	}
}
