package markdown

import (
	"bytes"
	"testing"
)

// TestGuess: the first line of content of an unlabelled block decides
// which parser to try; prose, shell, code and diagrams get none.
func TestGuess(t *testing.T) {
	for _, tt := range []struct{ name, body, want string }{
		{"yaml mapping", "task_id: t-1\nstatus: success\n", "yaml"},
		{"yaml key alone", "output:\n  summary: ok\n", "yaml"},
		{"yaml list of mappings", "- task_id: t-1\n  status: success\n", "yaml"},
		{"yaml after comments", "# a HANDBACK\n\n---\ntask_id: t-1\n", "yaml"},
		{"yaml directive", "%YAML 1.2\n---\nstatus: partial\n", "yaml"},
		{"quoted key", "\"task_id\": t-1\n", "yaml"},
		{"indented", "    handoff_type: DELEGATE\n", "yaml"},
		{"json object", "{\n  \"task_id\": \"t-1\"\n}\n", "json"},
		{"json list", "  [{\"status\": \"success\"}]\n", "json"},
		{"crlf", "\r\ntask_id: t-1\r\n", "yaml"},
		{"prose", "The agent sends a HANDBACK when it is done.\n", ""},
		{"sentence with a colon", "Step 1: install it\nstatus: done\n", ""},
		{"shell", "$ pip install protoscan\n$ protoscan .\n", ""},
		{"shell with a comment", "# install\ncurl -sSf https://example.com/install.sh | sh\n", ""},
		{"url", "https://example.com/task_id:1\n", ""},
		{"python", "def handback(task_id):\n    return {\"status\": \"success\"}\n", ""},
		{"go", "package main\n\nfunc main() {}\n", ""},
		{"ascii art", "+--------+     +--------+\n| Agent  | --> | Worker |\n+--------+     +--------+\n", ""},
		{"box drawing", "┌───────┐\n│ agent │\n└───────┘\n", ""},
		{"markdown list", "- first step\n- second step\n", ""},
		{"unterminated quote", "\"task_id: t-1\n", ""},
		{"empty", "", ""},
		{"blank", "\n  \n\t\n", ""},
		{"only comments", "# nothing\n", ""},
	} {
		if got := Guess([]byte(tt.body)); got != tt.want {
			t.Errorf("%s: Guess(%q) = %q, want %q", tt.name, tt.body, got, tt.want)
		}
	}
}

// TestUnlabelledBlocks: fences without an info string, ``` or ~~~, at the
// top level, in list items and unterminated, are blocks with Lang "" and
// the text that Guess then reads.
func TestUnlabelledBlocks(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     []blk
		guess    []string
	}{
		{"backticks yaml", "Text.\n\n```\ntask_id: t-1\n```\n", []blk{code("", "task_id: t-1\n", 4)}, []string{"yaml"}},
		{"tildes json", "~~~\n{\"status\": \"success\"}\n~~~\n", []blk{code("", "{\"status\": \"success\"}\n", 2)}, []string{"json"}},
		{"longer fence", "````\n```\nstatus: x\n````\n", []blk{code("", "```\nstatus: x\n", 2)}, []string{""}},
		{"prose and shell", "```\nRun this first.\n```\n\n```\n$ make\n```\n", []blk{code("", "Run this first.\n", 2), code("", "$ make\n", 6)}, []string{"", ""}},
		{"unterminated", "# Doc\n\n```\nstatus: success\n\nmore text\n", []blk{code("", "status: success\n\nmore text\n", 4)}, []string{"yaml"}},
		{"in a list item", "1. Send it:\n\n   ```\n   task_id: t-1\n   status: success\n   ```\n", []blk{code("", "task_id: t-1\nstatus: success\n", 4)}, []string{"yaml"}},
		{"in a nested list", "- a\n  - b\n\n    ~~~\n    - status: success\n    ~~~\n", []blk{code("", "- status: success\n", 5)}, []string{"yaml"}},
		{"in a quote", "> ```\n> {\"a\": 1}\n> ```\n", []blk{code("", "{\"a\": 1}\n", 2)}, []string{"json"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bs := Blocks([]byte(tt.in))
			checkLines(t, []byte(tt.in), bs)
			if got := blks(bs); !equal(got, tt.want) {
				t.Fatalf("Blocks(%q)\n got  %v\n want %v", tt.in, got, tt.want)
			}
			for i, b := range bs {
				if g := Guess(b.Body); g != tt.guess[i] {
					t.Errorf("block %d: Guess = %q, want %q", i, g, tt.guess[i])
				}
			}
		})
	}
}

// TestBlocksMDX: in MDX, fences nested in JSX components are found however
// deep they are indented (there is no indented code), with their
// indentation removed and lines mapped back; in Markdown the same text is
// an indented code block or paragraph text.
func TestBlocksMDX(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     []blk
	}{
		{"jsx and imports", "import Tabs from '@theme/Tabs'\n\n<Tabs>\n<Tab>\n```\nstatus: success\n```\n</Tab>\n</Tabs>\n", []blk{code("", "status: success\n", 6)}},
		{"indented in a component", "<Steps>\n  <Step title=\"Send\">\n    ```yaml\n    task_id: t-1\n      nested: 1\n    ```\n  </Step>\n</Steps>\n", []blk{code("yaml", "task_id: t-1\n  nested: 1\n", 4)}},
		{"deeply indented after a blank", "<Tabs>\n\n        ~~~\n        {\"a\": 1}\n        ~~~\n", []blk{code("", "{\"a\": 1}\n", 4)}},
		{"closing fence indented deeper", "```\nx\n          ```\ny\n", []blk{code("", "x\n", 2)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bs := BlocksMDX([]byte(tt.in))
			checkLines(t, []byte(tt.in), bs)
			if got := blks(bs); !equal(got, tt.want) {
				t.Errorf("BlocksMDX(%q)\n got  %v\n want %v", tt.in, got, tt.want)
			}
			if got := blks(BlocksOf("docs/page.MDX", []byte(tt.in))); !equal(got, tt.want) {
				t.Errorf("BlocksOf(.MDX) differs from BlocksMDX: %v", got)
			}
		})
	}
	// The same indented fence is not one in Markdown.
	in := []byte("<Tabs>\n\n        ~~~\n        {\"a\": 1}\n        ~~~\n")
	if bs := BlocksOf("page.md", in); len(bs) != 0 {
		t.Errorf("Markdown: %v, want no block", blks(bs))
	}
	// Every Markdown test case without indented code reads the same in MDX.
	for _, tt := range blockTests {
		if bytes.Contains([]byte(tt.in), []byte("    ")) || bytes.Contains([]byte(tt.in), []byte("\t")) {
			continue
		}
		if got := blks(BlocksMDX([]byte(tt.in))); !equal(got, tt.want) {
			t.Errorf("%s: BlocksMDX(%q)\n got  %v\n want %v", tt.name, tt.in, got, tt.want)
		}
	}
}
