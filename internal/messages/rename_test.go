package messages

import (
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
)

// TestKeyFixes: a key rename is fitted to the key as the file writes it,
// bare or between quotes, and dropped where the file writes something
// else there (a Go struct field's name, whose JSON tag the facts read).
func TestKeyFixes(t *testing.T) {
	rename := func(off int) finding.Finding {
		fd := finding.Finding{Location: finding.Location{Path: "f"}}
		renameFixAt(&fd, off, "role", "agent")
		return fd
	}
	for _, c := range []struct {
		name, src string
		off       int
		want      string // the file with the fix applied; "" for no fix
	}{
		{"yaml bare key", "task_id: t\nrole: engineer\n", 11, "task_id: t\nagent: engineer\n"},
		{"json quoted key", `{"task_id": "t", "role": "engineer"}`, 17, `{"task_id": "t", "agent": "engineer"}`},
		{"python single quotes", `{'role': 'engineer'}`, 1, `{'agent': 'engineer'}`},
		{"go struct field", `Delegate{Role: "engineer"}`, 9, ""},
		{"a longer key", "roles: x\n", 0, ""},
		{"mismatched quotes", `{"role': 1}`, 1, ""},
		{"offset out of the file", "role", 10, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := []finding.Finding{rename(c.off)}
			KeyFixes([]byte(c.src), fs)
			if c.want == "" {
				if fs[0].Fix != nil {
					t.Errorf("fix offered: %+v", fs[0].Fix)
				}
				return
			}
			if fs[0].Fix == nil {
				t.Fatal("no fix")
			}
			ed := fs[0].Fix.Edits[0]
			if got := c.src[:ed.Offset] + ed.New + c.src[ed.End:]; got != c.want {
				t.Errorf("fixed:\n got  %s\n want %s", got, c.want)
			}
		})
	}
}
