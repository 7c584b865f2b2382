package fix_test

// Tests with the analyzers' findings: outside package fix, which the
// analyzers import.

import (
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/internal/fix"
	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// TestMarkdownFixes: enumdrift's fixes of statuses in fenced YAML blocks
// inside a list item and a block quote edit exactly the literals' bytes
// of the Markdown file.
func TestMarkdownFixes(t *testing.T) {
	vocab, err := enumdrift.NewVocabulary(msgcheck.DefaultSpec(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, src, want string }{
		{"list item",
			"# Handbacks\n\n1. A failed handback:\n\n   ```yaml\n   task_id: t-1\n   status: FAILED   # as the worker sent it\n   output: {}\n   ```\n\n2. Next.\n",
			"# Handbacks\n\n1. A failed handback:\n\n   ```yaml\n   task_id: t-1\n   status: failure   # as the worker sent it\n   output: {}\n   ```\n\n2. Next.\n"},
		{"block quote",
			"Text.\n\n> Example:\n>\n> ```yaml\n> task_id: t-2\n>status: \"Success\"\n> output: {}\n> ```\n",
			"Text.\n\n> Example:\n>\n> ```yaml\n> task_id: t-2\n>status: \"success\"\n> output: {}\n> ```\n"},
		{"quote in list item, crlf",
			"- > ```yaml\r\n  > task_id: t-3\r\n  > status: 'escalated'\r\n  > output: {}\r\n  > ```\r\n",
			"- > ```yaml\r\n  > task_id: t-3\r\n  > status: 'escalate'\r\n  > output: {}\r\n  > ```\r\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, err := extract.File("docs/handbacks.md", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			fs := enumdrift.Check(f, vocab)
			if len(fs) != 1 || fs[0].Fix == nil {
				t.Fatalf("findings %+v: want one with a fix", fs)
			}
			edits := fix.Files(".", fs)["docs/handbacks.md"]
			got, err := fix.Apply([]byte(tt.src), edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("fixed:\n%q\nwant:\n%q", got, tt.want)
			}
			if line := strings.Count(tt.src[:edits[0].Offset], "\n") + 1; fs[0].Line != line {
				t.Errorf("finding at line %d, its edit at line %d", fs[0].Line, line)
			}
		})
	}
}
