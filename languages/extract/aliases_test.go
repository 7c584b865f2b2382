package extract

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// billionLaughs is a HANDBACK whose output holds a YAML alias bomb: shared
// as facts, its values would expand to 9^10 nodes for the analyzers.
func billionLaughs() string {
	var b strings.Builder
	b.WriteString("task_id: a-1\nstatus: success\noutput:\n  a0: &a0 [x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "  a%d: &a%d [%s*a%d]\n", i, i, strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 8), i-1)
	}
	return b.String()
}

// TestAliasBomb: a YAML document whose aliases would expand without
// bound is a parse error at the alias, found without expanding it (in
// memory of the order of the source's size; yamlnode's TestCheckAliases
// counts the steps), and yields no facts; a document beside it in the
// stream still does. In Markdown such a block is left out like any
// block that does not parse.
func TestAliasBomb(t *testing.T) {
	src := billionLaughs() + "---\ntask_id: b-2\nstatus: FAILED\n---\ncycle: &c [*c]\n"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f, err := File("bomb.yaml", []byte(src))
	runtime.ReadMemStats(&after)
	// 43 KiB measured; expanding the aliases up to yamlnode's default
	// limit would take 29 MiB
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("%d bytes of YAML: %d KiB allocated, want at most 1 MiB", len(src), n>>10)
	}
	if err == nil || !strings.Contains(err.Error(), "alias bomb") || !strings.HasPrefix(err.Error(), "bomb.yaml:") {
		t.Errorf("err = %v, want an alias bomb in bomb.yaml", err)
	}
	for _, m := range f.Mappings {
		for _, e := range m.Entries {
			if e.Key == "task_id" && e.Value != "b-2" {
				t.Errorf("facts of the bomb kept: %v", e.Value)
			}
		}
	}
	if len(f.Mappings) != 1 {
		t.Errorf("%d mappings, want the second document's only", len(f.Mappings))
	}
	md := "# x\n\n```yaml\n" + billionLaughs() + "```\n\n```yaml\ntask_id: b-2\nstatus: FAILED\n```\n"
	f, err = File("doc.md", []byte(md))
	if err != nil || len(f.Mappings) != 1 {
		t.Errorf("markdown: %d mappings, err %v; want the second block only", len(f.Mappings), err)
	}
	_, err = File("cycle.yaml", []byte("task_id: a-1\nstatus: FAILED\noutput: &o {x: *o}\n"))
	if err == nil || !strings.Contains(err.Error(), "cycle.yaml:3:") || !strings.Contains(err.Error(), "a cycle") {
		t.Errorf("cycle: err = %v", err)
	}
}
