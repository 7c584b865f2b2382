package markdown

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"go.yaml.in/yaml/v3"
)

// blk is a Block in a form that compares with == and prints readably.
type blk struct {
	Lang, Info, Body string
	Line             int
	FM               bool
}

func (b blk) String() string {
	return fmt.Sprintf("{Lang:%q Info:%q Body:%q Line:%d FM:%v}", b.Lang, b.Info, b.Body, b.Line, b.FM)
}

func blks(bs []Block) []blk {
	var out []blk
	for _, b := range bs {
		out = append(out, blk{b.Lang, b.Info, string(b.Body), b.Line, b.FrontMatter})
	}
	return out
}

func code(lang, body string, line int) blk {
	return blk{Lang: lang, Info: lang, Body: body, Line: line}
}

func equal(a, b []blk) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// blockTests are Markdown documents and the blocks they hold. Names "specN"
// are the example of that number in the CommonMark 0.31.2 spec; the
// expected Body is the spec's <code> content, less the final "\n" that the
// HTML adds when the input ends without one.
var blockTests = []struct {
	name string
	in   string
	want []blk
}{
	// Plain fences.
	{"plain", "```yaml\na: 1\n```\n", []blk{code("yaml", "a: 1\n", 2)}},
	{"after text", "# Title\n\nSome text.\n\n```json\n{\"a\": 1}\n```\nmore\n", []blk{code("json", "{\"a\": 1}\n", 6)}},
	{"no info", "```\nx\n```\n", []blk{code("", "x\n", 2)}},
	{"no final newline", "```go\nx\n```", []blk{code("go", "x\n", 2)}},
	{"info words", "``` \tYAML title=\"a b\"  \nk: v\n```\n", []blk{{Lang: "yaml", Info: "YAML title=\"a b\"", Body: "k: v\n", Line: 2}}},
	{"spec119", "```\n<\n >\n```\n", []blk{code("", "<\n >\n", 2)}},
	{"spec121 two backticks", "``\nfoo\n``\n", nil},
	{"spec142", "```ruby\ndef foo(x)\n  return 3\nend\n```\n", []blk{code("ruby", "def foo(x)\n  return 3\nend\n", 2)}},
	{"spec143", "~~~~    ruby startline=3 $%@#$\ndef foo(x)\n  return 3\nend\n~~~~~~~\n",
		[]blk{{Lang: "ruby", Info: "ruby startline=3 $%@#$", Body: "def foo(x)\n  return 3\nend\n", Line: 2}}},
	{"spec144", "````;\n````\n", []blk{code(";", "", 2)}},

	// Tildes, and fences of one character not closed by the other.
	{"spec120 tildes", "~~~\n<\n >\n~~~\n", []blk{code("", "<\n >\n", 2)}},
	{"tildes python", "~~~python\nx = 1\n~~~\n", []blk{code("python", "x = 1\n", 2)}},
	{"spec122", "```\naaa\n~~~\n```\n", []blk{code("", "aaa\n~~~\n", 2)}},
	{"spec123", "~~~\naaa\n```\n~~~\n", []blk{code("", "aaa\n```\n", 2)}},

	// Closing fences: longer closes, shorter does not.
	{"longer closing", "```go\nx\n`````\ny\n", []blk{code("go", "x\n", 2)}},
	{"spec124 shorter closing", "````\naaa\n```\n``````\n", []blk{code("", "aaa\n```\n", 2)}},
	{"spec125", "~~~~\naaa\n~~~\n~~~~\n", []blk{code("", "aaa\n~~~\n", 2)}},
	{"spec139 closing with spaces inside", "~~~~~~\naaa\n~~~ ~~\n", []blk{code("", "aaa\n~~~ ~~\n", 2)}},
	{"spec147 closing with info", "```\n``` aaa\n```\n", []blk{code("", "``` aaa\n", 2)}},
	{"closing trailing blanks", "```\na\n``` \t\nb\n", []blk{code("", "a\n", 2)}},

	// Indented fences: 1 to 3 spaces, content de-indented.
	{"spec131", " ```\n aaa\naaa\n```\n", []blk{code("", "aaa\naaa\n", 2)}},
	{"spec132", "  ```\naaa\n  aaa\naaa\n  ```\n", []blk{code("", "aaa\naaa\naaa\n", 2)}},
	{"spec133", "   ```\n   aaa\n    aaa\n  aaa\n   ```\n", []blk{code("", "aaa\n aaa\naaa\n", 2)}},
	{"spec135 indented closing", "```\naaa\n  ```\n", []blk{code("", "aaa\n", 2)}},
	{"spec136", "   ```\naaa\n  ```\n", []blk{code("", "aaa\n", 2)}},
	{"spec137 closing indented 4", "```\naaa\n    ```\n", []blk{code("", "aaa\n    ```\n", 2)}},
	{"indented blank line", "  ```\n \n  x\n  ```\n", []blk{code("", "\nx\n", 2)}},

	// Four spaces make an indented code block, which holds no fences.
	{"spec134 indented code", "    ```\n    aaa\n    ```\n", nil},
	{"fence after indented code", "    code\n```\nx\n```\n", []blk{code("", "x\n", 3)}},
	{"tab is 4 columns", "\t```\n\tx\n\t```\n", nil},
	{"paragraph continuation is not code", "para\n    ```\nx\n", nil},

	// Backticks in a backtick info string: not a fence.
	{"spec145", "``` aa ```\nfoo\n", nil},
	{"spec138", "``` ```\naaa\n", nil},
	{"spec146 backticks after tildes", "~~~ aa ``` ~~~\nfoo\n~~~\n", []blk{{Lang: "aa", Info: "aa ``` ~~~", Body: "foo\n", Line: 2}}},

	// Unclosed fences run to the end of the document or container.
	{"unclosed", "```\nabc\n\ndef", []blk{code("", "abc\n\ndef", 2)}},
	{"spec127 unclosed", "`````\n\n```\naaa\n", []blk{code("", "\n```\naaa\n", 2)}},
	{"spec126 unclosed empty", "```\n", []blk{code("", "", 1)}},
	{"unclosed at end", "text\n```", []blk{code("", "", 2)}},
	{"spec128 quote ends fence", "> ```\n> aaa\n\nbbb\n", []blk{code("", "aaa\n", 2)}},

	// Empty and adjacent blocks.
	{"spec130 empty", "```\n```\n", []blk{code("", "", 2)}},
	{"spec129 blank lines", "```\n\n  \n```\n", []blk{code("", "\n  \n", 2)}},
	{"adjacent", "```a\n1\n```\n~~~b\n2\n~~~\n```c\n```\n", []blk{code("a", "1\n", 2), code("b", "2\n", 5), code("c", "", 8)}},
	{"spec140 interrupts paragraph", "foo\n```\nbar\n```\nbaz\n", []blk{code("", "bar\n", 3)}},
	{"spec141 after setext heading", "foo\n---\n~~~\nbar\n~~~\n# baz\n", []blk{code("", "bar\n", 4)}},

	// Block quotes.
	{"quote", "> ```yaml\n> a: 1\n> b: 2\n> ```\n", []blk{code("yaml", "a: 1\nb: 2\n", 2)}},
	{"quote without space", ">```\n>x\n>  y\n>```\n", []blk{code("", "x\n y\n", 2)}}, // the space after > belongs to the marker
	{"quote indented markers", "   > ```\n > a\n>b\n  > ```\n", []blk{code("", "a\nb\n", 2)}},
	{"nested quotes", "> > ```json\n> > {}\n> >\n> > ```\n", []blk{code("json", "{}\n\n", 2)}},
	{"nested quotes mixed", ">> ```\n> >x\n>>```\n", []blk{code("", "x\n", 2)}},
	{"spec237 no lazy code", "> ```\nfoo\n```\n", []blk{code("", "", 2), code("", "", 3)}},
	{"quote ends on blank", "> ```\n> a\n\n> b\n", []blk{code("", "a\n", 2)}},
	{"indented fence in quote", ">   ```\n>   a\n>    b\n>  c\n>   ```\n", []blk{code("", "a\n b\nc\n", 2)}},
	{"lazy paragraph keeps quote", "> para\nlazy\n> ```\n> x\n> ```\n", []blk{code("", "x\n", 4)}},

	// List items.
	{"bullet", "- ```yaml\n  a: 1\n  ```\n", []blk{code("yaml", "a: 1\n", 2)}},
	{"bullet star and plus", "* ```\n  a\n  ```\n+ ```\n  b\n  ```\n", []blk{code("", "a\n", 2), code("", "b\n", 5)}},
	{"ordered", "1. ```json\n   {}\n   ```\n", []blk{code("json", "{}\n", 2)}},
	{"ordered paren", "10) ```\n    x\n    ```\n", []blk{code("", "x\n", 2)}},
	{"after item paragraph", "1. Step one:\n\n   ```yaml\n   status: ok\n   ```\n2. Step two\n", []blk{code("yaml", "status: ok\n", 4)}},
	{"nested items", "- a\n  - ```py\n    x = 1\n      y\n    ```\n", []blk{code("py", "x = 1\n  y\n", 3)}},
	{"nested ordered in bullet", "- a\n  1. b\n\n     ```go\n     x\n     ```\n", []blk{code("go", "x\n", 5)}},
	{"wide padding", "-   ```\n    x\n    ```\n", []blk{code("", "x\n", 2)}},
	{"five spaces after marker", "-     ```\n      x\n", nil},
	{"less indented line ends item", "- ```\n  a\nb\n```\n", []blk{code("", "a\n", 2), code("", "", 4)}},
	{"blank lines in item fence", "- a\n- ```\n  b\n\n\n  ```\n- c\n", []blk{code("", "b\n\n\n", 3)}},          // spec318
	{"spec263", "1.  foo\n\n    ```\n    bar\n    ```\n\n    baz\n\n    > bam\n", []blk{code("", "bar\n", 4)}}, //
	{"spec278 empty first line", "-\n  foo\n-\n  ```\n  bar\n  ```\n-\n      baz\n", []blk{code("", "bar\n", 5)}},
	{"spec321 after quote in item", "- a\n  > b\n  ```\n  c\n  ```\n- d\n", []blk{code("", "c\n", 4)}},
	{"spec324", "1. ```\n   foo\n   ```\n\n   bar\n", []blk{code("", "foo\n", 2)}},
	{"indented code in item", "- a\n\n      ```\n      b\n      ```\n", nil},
	{"item starting blank ends at blank", "-\n\n  ```\n  x\n  ```\n", []blk{code("", "x\n", 4)}},
	{"list in quote", "> - ```\n>   a\n>   ```\n", []blk{code("", "a\n", 2)}},
	{"quote in list", "- > ```\n  > a\n  > ```\n", []blk{code("", "a\n", 2)}},
	{"quote in item in quote", "> 1. > ```\n>    > x\n>    > ```\n", []blk{code("", "x\n", 2)}},
	{"lazy line keeps item", "> - para\ncontinued\n>   ```yaml\n>   a: 1\n>   ```\n", []blk{code("yaml", "a: 1\n", 4)}},
	{"ordered 2 does not interrupt paragraph", "text\n2. ```\nx\n```\n", []blk{code("", "", 4)}},
	{"ordered 1 interrupts paragraph", "text\n1. ```\nx\n```\n", []blk{code("", "", 3), code("", "", 4)}},
	{"thematic break is no item", "* * *\n  ```\n  x\n  ```\n", []blk{code("", "x\n", 3)}},
	{"setext underline is no item", "Foo\n-\n  ```\n  x\n", []blk{code("", "x\n", 4)}},

	// HTML is not special-cased: a fence in a comment is found.
	{"html comment", "<!--\n```yaml\na: 1\n```\n-->\n", []blk{code("yaml", "a: 1\n", 3)}},

	// Tabs.
	{"partial tab becomes spaces", "- ```\n \tx\n  ```\n", []blk{code("", "  x\n", 2)}},
	{"tab after quote", ">\t```\n>\t\tx\n>\t```\n", []blk{code("", "\tx\n", 2)}},
	{"tab after marker", "-\t```\n\tx\n\t```\n", []blk{code("", "x\n", 2)}},
	{"tab inside content kept", "```\n\tx\ty\n```\n", []blk{code("", "\tx\ty\n", 2)}},

	// Front matter.
	{"front matter", "---\ntitle: x\ntags: [a]\n---\n# Doc\n```yaml\na: 1\n```\n",
		[]blk{{Lang: "yaml", Body: "title: x\ntags: [a]\n", Line: 2, FM: true}, code("yaml", "a: 1\n", 7)}},
	{"front matter dots", "---\na: 1\n...\ntext\n", []blk{{Lang: "yaml", Body: "a: 1\n", Line: 2, FM: true}}},
	{"front matter empty", "---\n---\n", []blk{{Lang: "yaml", Body: "", Line: 2, FM: true}}},
	{"front matter trailing blanks", "--- \na: 1\n---\t\n", []blk{{Lang: "yaml", Body: "a: 1\n", Line: 2, FM: true}}},
	{"front matter unclosed", "---\na: 1\n", nil},
	{"front matter unclosed then fence", "---\na: 1\n```\nx\n```\n", []blk{code("", "x\n", 4)}},
	{"front matter not on line 1", "\n---\na: 1\n---\n", nil},
	{"front matter four dashes", "----\na: 1\n----\n", nil},
	{"front matter is not fenced", "---\n```\n---\n```\nx\n```\n", []blk{{Lang: "yaml", Body: "```\n", Line: 2, FM: true}, code("", "x\n", 5)}},

	// Line endings, BOM, bytes.
	{"crlf", "```yaml\r\na: 1\r\nb: 2\r\n```\r\n", []blk{code("yaml", "a: 1\r\nb: 2\r\n", 2)}},
	{"cr", "```yaml\ra: 1\rb: 2\r```\r", []blk{code("yaml", "a: 1\nb: 2\n", 2)}},
	{"mixed endings", "a\r\nb\rc\n```x\ry\r\nz\n```", []blk{code("x", "y\r\nz\n", 5)}},
	{"front matter crlf", "---\r\na: 1\r\n---\r\n", []blk{{Lang: "yaml", Body: "a: 1\r\n", Line: 2, FM: true}}},
	{"bom", "\xEF\xBB\xBF```go\npackage x\n```\n", []blk{code("go", "package x\n", 2)}},
	{"bom front matter", "\xEF\xBB\xBF---\na: 1\n---\n", []blk{{Lang: "yaml", Body: "a: 1\n", Line: 2, FM: true}}},
	{"invalid utf-8", "```\xff\xfeY\n\xff\xc0\n```\n", []blk{{Lang: "\xff\xfey", Info: "\xff\xfeY", Body: "\xff\xc0\n", Line: 2}}},
	{"empty document", "", nil},
	{"bom only", "\xEF\xBB\xBF", nil},
}

func TestBlocks(t *testing.T) {
	for _, tt := range blockTests {
		t.Run(tt.name, func(t *testing.T) {
			bs := Blocks([]byte(tt.in))
			checkLines(t, []byte(tt.in), bs)
			got := blks(bs)
			if !equal(got, tt.want) {
				t.Errorf("Blocks(%q)\n got  %v\n want %v", tt.in, got, tt.want)
			}
		})
	}
}

// TestLineEndings runs every LF-only case again with CRLF and with CR line
// endings: the blocks must be the same, with CRLF kept in Body and CR made
// LF.
func TestLineEndings(t *testing.T) {
	for _, tt := range blockTests {
		if strings.Contains(tt.in, "\r") {
			continue
		}
		for _, nl := range []string{"\r\n", "\r"} {
			in := strings.ReplaceAll(tt.in, "\n", nl)
			var want []blk
			for _, b := range tt.want {
				if nl == "\r\n" {
					b.Body = strings.ReplaceAll(b.Body, "\n", "\r\n")
				}
				want = append(want, b)
			}
			bs := Blocks([]byte(in))
			checkLines(t, []byte(in), bs)
			if got := blks(bs); !equal(got, want) {
				t.Errorf("%s: Blocks(%q)\n got  %v\n want %v", tt.name, in, got, want)
			}
		}
	}
}

// TestSubSlice checks that Body shares the input's memory exactly when
// nothing had to be removed or rewritten.
func TestSubSlice(t *testing.T) {
	for _, tt := range []struct {
		in    string
		alias bool
	}{
		{"```\na\nb\n```\n", true},
		{"```\r\na\r\n```\r\n", true},
		{"---\na: 1\n---\n", true},
		{"  ```\na\nb\n```\n", true}, // nothing to de-indent
		{"  ```\n  a\n```\n", true},  // the first line may start late
		{"  ```\na\n  b\n```\n", false},
		{"> ```\n> a\n", true},
		{"> ```\n> a\n> b\n", false},
		{"```\ra\r```\r", false},
		{"- ```\n \tx\n", false},
	} {
		data := []byte(tt.in)
		bs := Blocks(data)
		if len(bs) != 1 {
			t.Fatalf("Blocks(%q): %d blocks", tt.in, len(bs))
		}
		b := bs[0].Body
		if got := aliases(data, b); got != tt.alias {
			t.Errorf("Blocks(%q): Body %q aliases the input: %v, want %v", tt.in, b, got, tt.alias)
		}
		if tt.alias && cap(b) != len(b) {
			t.Errorf("Blocks(%q): cap(Body) = %d, want %d: appending would write into the input", tt.in, cap(b), len(b))
		}
	}
}

// aliases reports whether b is a non-empty sub-slice of data.
func aliases(data, b []byte) bool {
	if len(b) == 0 || len(data) == 0 {
		return false
	}
	d0 := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	b0 := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return d0 <= b0 && b0+uintptr(len(b)) <= d0+uintptr(len(data))
}

// TestYAMLPositions parses the bodies with the YAML parser protoscan uses and
// maps its lines back to the Markdown file, for each kind of line ending.
func TestYAMLPositions(t *testing.T) {
	const doc = "---\ntitle: t\n---\n\nText.\n\n> ```yaml\n> status: ok\n> items:\n>   - a\n> ```\n"
	// The Markdown line of each scalar.
	want := map[string]int{"title": 2, "t": 2, "status": 8, "ok": 8, "items": 9, "a": 10}
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		data := []byte(strings.ReplaceAll(doc, "\n", nl))
		bs := Blocks(data)
		if len(bs) != 2 {
			t.Fatalf("%q: %d blocks, want 2", nl, len(bs))
		}
		got := map[string]int{}
		for _, b := range bs {
			var n yaml.Node
			if err := yaml.Unmarshal(b.Body, &n); err != nil {
				t.Fatalf("%q: yaml.Unmarshal(%q): %v", nl, b.Body, err)
			}
			var walk func(*yaml.Node)
			walk = func(n *yaml.Node) {
				if n.Kind == yaml.ScalarNode {
					got[n.Value] = b.Line + n.Line - 1
				}
				for _, c := range n.Content {
					walk(c)
				}
			}
			walk(&n)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q: Markdown lines %v, want %v", nl, got, want)
		}
	}
}

func TestDeepNesting(t *testing.T) {
	// Within the limit, the fence is found.
	in := strings.Repeat("> ", 40) + "```\n" + strings.Repeat("> ", 40) + "x\n"
	if got, want := blks(Blocks([]byte(in))), []blk{code("", "x\n", 2)}; !equal(got, want) {
		t.Errorf("40 quotes: got %v, want %v", got, want)
	}
	in = strings.Repeat("- ", 30) + "```\n" + strings.Repeat("  ", 30) + "x\n"
	if got, want := blks(Blocks([]byte(in))), []blk{code("", "x\n", 2)}; !equal(got, want) {
		t.Errorf("30 items: got %v, want %v", got, want)
	}
	// Beyond it, the rest of the line is text.
	in = strings.Repeat(">", 1000) + "```\nx\n"
	if got := Blocks([]byte(in)); len(got) != 0 {
		t.Errorf("1000 quotes: got %v, want none", blks(got))
	}
}

// TestLinearTime feeds inputs that make a careless scanner quadratic. It
// has no time limit of its own: a quadratic scanner takes hours on them.
func TestLinearTime(t *testing.T) {
	const n = 200_000
	for name, in := range map[string]string{
		"cr only":           strings.Repeat("```\rab\r", n),
		"lf only no cr":     strings.Repeat("a\n", n) + "\r",
		"one long line":     "```" + strings.Repeat("a", 4*n),
		"long fence":        strings.Repeat("`", 4*n) + "\n" + strings.Repeat(strings.Repeat("`", 1000)+"\n", 100),
		"deep quotes":       strings.Repeat(strings.Repeat("> ", 200)+"x\n", 2000),
		"deep items blank":  strings.Repeat("- ", 200) + "x\n" + strings.Repeat("\n", n),
		"long indentation":  strings.Repeat("- ", 50) + "```\n" + strings.Repeat(strings.Repeat(" ", 20000)+"x\n", 50),
		"unclosed front":    "---\n" + strings.Repeat("a\n", n),
		"many tiny fences":  strings.Repeat("```\n```\n", n/2),
		"many lazy lines":   "> - a\n" + strings.Repeat("b\n", n),
		"whitespace fences": strings.Repeat(" \t \t", 100_000) + "```\n",
	} {
		Blocks([]byte(in))
		_ = name
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"yaml": "yaml", "yml": "yaml", "YAML": "yaml", " Yml ": "yaml",
		"json": "json", "jsonc": "jsonc", "json5": "json5",
		"jsonl": "jsonl", "ndjson": "jsonl", "JSONLines": "jsonl",
		"python": "python", "py": "python", "python3": "python", "py3": "python", "python2": "python2",
		"go": "go", "golang": "go", "Go": "go",
		"js": "javascript", "ts": "typescript",
		"{python}": "python", "{.python}": "python", "{r,": "r", "yaml{1,3}": "yaml", "json:example": "json",
		"c++": "c++", "objective-c": "objective-c", "": "", "\xff": "",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// checkLines checks that each block's Lines map its Body back to data:
// they cover Body line by line, each line's text after its Pad is the
// input's bytes at Source, its ending has the input's length, Start is the
// start of the Markdown line, and Position and Span agree.
func checkLines(t *testing.T, data []byte, bs []Block) {
	t.Helper()
	starts := []int{0} // starts[n-1] is the start of 1-based line n
	for i := 0; i < len(data); i++ {
		if data[i] == '\n' || data[i] == '\r' && (i+1 == len(data) || data[i+1] != '\n') {
			starts = append(starts, i+1)
		}
	}
	for _, b := range bs {
		// An empty Body may still have its one line: an empty last line of
		// the input, which has no ending.
		if len(b.Body) > 0 && len(b.Lines) == 0 || len(b.Body) == 0 && (len(b.Lines) > 1 || len(b.Lines) == 1 && b.Lines[0].Len > 0) {
			t.Fatalf("Body %q has %d Lines", b.Body, len(b.Lines))
		}
		if cap(b.Lines) != len(b.Lines) {
			t.Fatalf("cap(Lines) = %d, want %d: appending would write into another block's", cap(b.Lines), len(b.Lines))
		}
		at := 0
		for i, l := range b.Lines {
			fail := func(format string, args ...any) {
				t.Helper()
				t.Fatalf("Body %q (line %d), Lines[%d] = %+v: %s", b.Body, b.Line, i, l, fmt.Sprintf(format, args...))
			}
			if l.Body != at {
				fail("starts at %d, want %d", l.Body, at)
			}
			end := len(b.Body)
			if i+1 < len(b.Lines) {
				end = b.Lines[i+1].Body
			}
			text := l.Body + l.Pad + l.Len
			if l.Pad < 0 || l.Len < 0 || text > end || l.Source < 0 || l.Source+l.Len > len(data) {
				fail("out of range")
			}
			if strings.Trim(string(b.Body[l.Body:l.Body+l.Pad]), " ") != "" || l.Pad > 0 && (l.Source == 0 || data[l.Source-1] != '\t') {
				fail("pad is not the rest of a tab")
			}
			if !bytes.Equal(b.Body[l.Body+l.Pad:text], data[l.Source:l.Source+l.Len]) {
				fail("text %q, input %q", b.Body[l.Body+l.Pad:text], data[l.Source:l.Source+l.Len])
			}
			ending := string(b.Body[text:end])
			_, next := (&parser{data: data, nextLF: -1, nextCR: -1}).lineEnd(l.Source + l.Len)
			if ending != "\n" && ending != "\r\n" && !(ending == "" && end == len(b.Body)) || next-(l.Source+l.Len) != len(ending) {
				fail("ending %q, input %q", ending, data[l.Source+l.Len:next])
			}
			if n := b.Line + i; n > len(starts) || starts[n-1] != l.Start || l.Start > l.Source-min(l.Pad, 1) {
				fail("Start is not the start of line %d", n)
			}
			for off := l.Body; off <= end; off++ {
				src, line, col, exact := b.Position(off)
				if off == end && i+1 < len(b.Lines) {
					break
				}
				wantExact := off >= l.Body+l.Pad && off <= text
				if exact != wantExact || line != b.Line+i || col != src-l.Start+1 || exact && src != l.Source+off-l.Body-l.Pad {
					fail("Position(%d) = %d, %d:%d, %v", off, src, line, col, exact)
				}
				if from, to, ok := b.Span(off, text); ok != wantExact || ok && (from != src || to != l.Source+l.Len) {
					fail("Span(%d, %d) = %d, %d, %v", off, text, from, to, ok)
				}
			}
			if _, _, ok := b.Span(l.Body+l.Pad, text+1); ok {
				fail("Span takes the line ending")
			}
			at = end
		}
	}
}

// countLines counts lines as CommonMark does: every "\n", "\r\n" or lone
// "\r" ends one, and text after the last ending is one more.
func countLines(data []byte) int {
	n := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '\n':
			n++
		case '\r':
			n++
			if i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' && data[len(data)-1] != '\r' {
		n++
	}
	return n
}

// lineStart returns the offset of the start of 1-based line n.
func lineStart(data []byte, n int) int {
	for i := 0; i < len(data) && n > 1; i++ {
		if data[i] == '\n' || data[i] == '\r' && (i+1 == len(data) || data[i+1] != '\n') {
			n--
			if n == 1 {
				return i + 1
			}
		}
	}
	return 0
}

func FuzzBlocks(f *testing.F) {
	for _, tt := range blockTests {
		f.Add([]byte(tt.in))
	}
	f.Add([]byte("1. a\n\n   - ```\n     x\n   > y\n"))
	// Unlabelled blocks of data and of other text, and MDX components.
	f.Add([]byte("```\ntask_id: t-1\nstatus: success\n```\n\n~~~\n{\"status\": \"failed\"}\n~~~\n"))
	f.Add([]byte("- x\n\n  ```\n  - status: done\n  ```\n> ~~~\n> $ make\n"))
	f.Add([]byte("```\n+---+   +---+\n| a |-->| b |\n+---+   +---+\n```\n```\n\"unterminated: x\n"))
	f.Add([]byte("import X from 'x'\n\n<Tabs>\n  <Tab>\n        ```\n        status: done\n          ```\n  </Tab>\n</Tabs>\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		bs := Blocks(data)
		checkLines(t, data, bs)
		for _, b := range bs {
			Guess(b.Body) // never panics, on any bytes
		}
		checkLines(t, data, BlocksMDX(data))
		lines := countLines(data)
		for _, b := range bs {
			if b.Line < 1 || b.Line > lines {
				t.Fatalf("Line %d outside 1..%d", b.Line, lines)
			}
			if n := bytes.Count(b.Body, []byte("\n")); b.Line+n-1 > lines {
				t.Fatalf("Body %q from line %d runs past line %d", b.Body, b.Line, lines)
			}
			if bytes.Contains(bytes.ReplaceAll(b.Body, []byte("\r\n"), nil), []byte("\r")) {
				t.Fatalf("Body %q has a lone CR", b.Body)
			}
			// A fence in the first column of a line, outside containers:
			// nothing to remove, so Body is the input's own bytes.
			if !b.FrontMatter && len(b.Body) > 0 {
				open := data[lineStart(data, b.Line-1):]
				if b.Line == 2 && bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) {
					open = open[3:]
				}
				noLoneCR := !bytes.Contains(bytes.ReplaceAll(data, []byte("\r\n"), nil), []byte("\r"))
				if noLoneCR && len(open) > 0 && (open[0] == '`' || open[0] == '~') && !aliases(data, b.Body) {
					t.Fatalf("Body %q of a top-level fence is a copy", b.Body)
				}
			}
		}
		// The same document with other line endings has the same blocks.
		if bytes.Contains(data, []byte("\r")) {
			return
		}
		for _, nl := range []string{"\r\n", "\r"} {
			other := Blocks(bytes.ReplaceAll(data, []byte("\n"), []byte(nl)))
			if len(other) != len(bs) {
				t.Fatalf("%q endings: %d blocks, want %d", nl, len(other), len(bs))
			}
			for i, b := range bs {
				o := other[i]
				body := b.Body
				if nl == "\r\n" {
					body = bytes.ReplaceAll(body, []byte("\n"), []byte("\r\n"))
				}
				if o.Lang != b.Lang || o.Info != b.Info || o.Line != b.Line || o.FrontMatter != b.FrontMatter || !bytes.Equal(o.Body, body) {
					t.Fatalf("%q endings: block %d is %v, want %v", nl, i, blks([]Block{o}), blks([]Block{b}))
				}
			}
		}
	})
}

// benchDoc is a 100,000-line document of the kind protoscan scans: prose,
// lists, quotes and code blocks in several languages.
func benchDoc() []byte {
	var b bytes.Buffer
	b.WriteString("---\ntitle: Protocol\n---\n")
	for i, lines := 0, 3; lines < 100_000; i++ {
		chunk := fmt.Sprintf("## Section %d\n\nThe agent sends a HANDBACK when the task is done.\nIt carries a status and a summary.\n\n"+
			"```yaml\ntype: HANDBACK\nstatus: success\nsummary: step %d\nfields:\n  - a\n  - b\n```\n\n"+
			"1. First step:\n\n   ```json\n   {\"type\": \"DELEGATE\", \"scope\": \"x\"}\n   ```\n2. Second step\n   - nested item\n\n"+
			"> Note:\n> ```python\n> if msg[\"status\"] == \"success\":\n>     route(msg)\n> ```\n\n"+
			"    indented code\n    ```\n\n", i, i)
		b.WriteString(chunk)
		lines += strings.Count(chunk, "\n")
	}
	return b.Bytes()
}

func BenchmarkBlocks(b *testing.B) {
	data := benchDoc()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Blocks(data)
	}
	b.ReportMetric(float64(countLines(data)), "lines")
}

// TestPosition maps offsets of Body back to the input in a block quote
// inside a list item, on a line whose tab the item's indentation partly
// consumed, and across a lone "\r" ending.
func TestPosition(t *testing.T) {
	in := "-  x\n\n   > ```json\n   > [1,\r   >\t2]\n   > ```\n"
	bs := Blocks([]byte(in))
	if len(bs) != 1 || string(bs[0].Body) != "[1,\n   2]\n" || bs[0].Line != 4 {
		t.Fatalf("blocks %v", blks(bs))
	}
	b := &bs[0]
	for _, tt := range []struct {
		off, src, line, col int
		exact               bool
	}{
		{0, strings.Index(in, "["), 4, 6, true},                // "["
		{2, strings.Index(in, ","), 4, 8, true},                // ","
		{3, strings.Index(in, "\r"), 4, 9, true},               // just past the text
		{4, strings.Index(in, "\t"), 5, 5, false},              // a space standing for the tab
		{6, strings.Index(in, "\t"), 5, 5, false},              // the last one
		{7, strings.Index(in, "2"), 5, 6, true},                // "2"
		{len(b.Body), strings.Index(in, "2") + 3, 5, 9, false}, // past the ending
		{-1, strings.Index(in, "["), 4, 6, false},              // before Body
	} {
		src, line, col, exact := b.Position(tt.off)
		if src != tt.src || line != tt.line || col != tt.col || exact != tt.exact {
			t.Errorf("Position(%d) = %d, %d:%d, %v; want %d, %d:%d, %v", tt.off, src, line, col, exact, tt.src, tt.line, tt.col, tt.exact)
		}
	}
	if from, to, ok := b.Span(7, 9); !ok || in[from:to] != "2]" {
		t.Errorf("Span(7, 9) = %d, %d, %v", from, to, ok)
	}
	for _, r := range [][2]int{{0, 5}, {2, 8}, {5, 8}, {2, 1}, {0, 4}} {
		if from, to, ok := b.Span(r[0], r[1]); ok {
			t.Errorf("Span(%d, %d) = %d, %d: want no exact span", r[0], r[1], from, to)
		}
	}
}
