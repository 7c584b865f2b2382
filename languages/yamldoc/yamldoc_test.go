package yamldoc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// flatten lists the nodes under n in document order as
// "line:col tag value", indented by depth. It does not follow aliases.
func flatten(n *yaml.Node) []string {
	var out []string
	var walk func(n *yaml.Node, indent string)
	walk = func(n *yaml.Node, indent string) {
		s := fmt.Sprintf("%s%d:%d %s", indent, n.Line, n.Column, n.Tag)
		switch n.Kind {
		case yaml.ScalarNode:
			s += " " + n.Value
		case yaml.AliasNode:
			s += "*" + n.Value
		}
		out = append(out, s)
		for _, c := range n.Content {
			walk(c, indent+"  ")
		}
	}
	walk(n, "")
	return out
}

func TestParsePositions(t *testing.T) {
	const src = "# delegation\n" +
		"agent: planner\n" +
		"étapes:\n" +
		"  - id: 1\n" +
		"    to: [wörker, \"critic\"]\n" +
		"  - {id: 2.5, ok: true, x: null}\n"
	nodes, err := Parse("delegate.yaml", []byte(src), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 1 {
		t.Fatalf("got %d documents, want 1", len(nodes))
	}
	want := []string{
		"2:1 !!map",
		"  2:1 !!str agent",
		"  2:8 !!str planner",
		"  3:1 !!str étapes",
		"  4:3 !!seq",
		"    4:5 !!map",
		"      4:5 !!str id",
		"      4:9 !!int 1",
		"      5:5 !!str to",
		"      5:9 !!seq",
		"        5:10 !!str wörker",
		"        5:18 !!str critic",
		"    6:5 !!map",
		"      6:6 !!str id",
		"      6:10 !!float 2.5",
		"      6:15 !!str ok",
		"      6:19 !!bool true",
		"      6:25 !!str x",
		"      6:28 !!null null",
	}
	got := flatten(nodes[0])
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestParseDocuments(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // position, tag and value of each document's root
	}{
		{"empty", "", nil},
		{"comment only", "# nothing\n", nil},
		{"bare separator", "---\n", nil},
		{"one", "a: 1\n", []string{"1:1 !!map"}},
		{"trailing separator", "a: 1\n---\n", []string{"1:1 !!map"}},
		{"several", "a: 1\n---\n- b\n--- c\n...\n---\n# empty\n---\nd: 4\n", []string{"1:1 !!map", "3:1 !!seq", "4:5 !!str c", "9:1 !!map"}},
		{"explicit nulls", "--- ~\n--- null\n--- !!null\n", []string{"1:5 !!null ~", "2:5 !!null null", "3:5 !!null "}},
		{"bom", "\xef\xbb\xbfa: 1\n", []string{"1:1 !!map"}},
		{"json with spaces", "{\"a\": [1, 2]}", []string{"1:1 !!map"}},
		{"crlf", "a: 1\r\n---\r\nb: 2\r\n", []string{"1:1 !!map", "3:1 !!map"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes, err := Parse("x.yaml", []byte(tt.src), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, n := range nodes {
				s := fmt.Sprintf("%d:%d %s", n.Line, n.Column, n.Tag)
				if n.Kind == yaml.ScalarNode {
					s += " " + n.Value
				}
				got = append(got, s)
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		src  string
		lim  Limits
		want string
	}{
		{"a: 1\nb: 2\nc: d: e\n", Limits{}, "delegate.yaml:3: mapping values are not allowed in this context"},
		// yaml.v3 gives no line for problems on the first line.
		{"a: b: c\n", Limits{}, "delegate.yaml: mapping values are not allowed in this context"},
		{"a:\n\t- b\n", Limits{}, "delegate.yaml:2: found character that cannot start any token"},
		{"a: 1\n---\nb: 2\nc: [\n", Limits{}, "delegate.yaml:4: did not find expected node content"},
		{"a: \"x\\q\"\n", Limits{}, "delegate.yaml: found unknown escape character"},
		{"a: 1\nb: *nope\n", Limits{}, "delegate.yaml: unknown anchor 'nope' referenced"},
		{"a: 1\nb: é\xff\n", Limits{}, "delegate.yaml:2:5: invalid UTF-8"},
		{"\xff\xfea\x00:\x00", Limits{}, "delegate.yaml:1:1: invalid UTF-8"}, // UTF-16
		{"a: 1\nb: \"\x01\"\n", Limits{}, "delegate.yaml:2:5: character U+0001 is not allowed in YAML"},
		{"a: 1\rb: \x7f\n", Limits{}, "delegate.yaml:2:4: character U+007F is not allowed in YAML"},
		{"# \u2028\u0085x: \ufffe", Limits{}, "delegate.yaml:3:4: character U+FFFE is not allowed in YAML"},
		{"a: [[1]]\n", Limits{MaxDepth: 2}, "delegate.yaml:1:5: nesting deeper than 2"},
		{"a:\n  b:\n    c: 1\n", Limits{MaxDepth: 2}, "delegate.yaml:3:5: nesting deeper than 2"},
		{"- 1\n---\n- [x]\n", Limits{MaxDepth: 1}, "delegate.yaml:3:3: nesting deeper than 1"},
		{"a: 12\n", Limits{MaxBytes: 5}, "delegate.yaml: input is 6 bytes, more than the limit of 5"},
	}
	for _, tt := range tests {
		nodes, err := Parse("delegate.yaml", []byte(tt.src), tt.lim)
		if err == nil {
			t.Errorf("Parse(%q) = %d documents, want error %q", tt.src, len(nodes), tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("Parse(%q) error:\n got %s\nwant %s", tt.src, err, tt.want)
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q): error is %T, not *Error", tt.src, err)
		}
		// the documents before the error come with it: those that start
		// before a "---" line ahead of the error's line
		if want := strings.Count(tt.src, "---\n"); len(nodes) != want {
			t.Errorf("Parse(%q): %d documents with the error, want the %d before it", tt.src, len(nodes), want)
		}
	}
}

// TestCheckCharsAgreesWithYAML checks that the lines and columns checkChars
// counts are the ones yaml.v3 gives nodes.
func TestCheckCharsAgreesWithYAML(t *testing.T) {
	for _, prefix := range []string{"", "# a\n", "# a\r\n", "# a\r", "# a\u0085", "# a\u2028", "# a\u2029", "# é\n\n", "\xef\xbb\xbf"} {
		src := prefix + "k: x\x01"
		_, err := Parse("x.yaml", []byte(src), Limits{})
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%q: got %v", src, err)
		}
		nodes, yerr := Parse("x.yaml", []byte(prefix+"k: x"), Limits{})
		if yerr != nil {
			t.Fatalf("%q: %v", prefix, yerr)
		}
		v := nodes[0].Content[1]
		if e.Line != v.Line || e.Column != v.Column+1 {
			t.Errorf("%q: error at %d:%d, but yaml puts the x before it at %d:%d", src, e.Line, e.Column, v.Line, v.Column)
		}
	}
}

// TestDeepNesting: nesting past the limit is an error, at the level that
// passes it or (past 10,000 levels) as yaml.v3 reports it, and nesting
// within it parses; either way in memory linear in what is read: a few
// KiB per level yaml.v3 opens (its nodes and events; 1.9 KiB measured for
// block sequences) and a few bytes per byte of input.
func TestDeepNesting(t *testing.T) {
	for _, tt := range []struct {
		name   string
		src    string
		want   string
		levels int // opened before the parse ends
	}{
		{"flow sequences", strings.Repeat("[", 10000) + strings.Repeat("]", 10000), "deep.yaml:1:1001: nesting deeper than 1000", 10000},
		{"flow sequences past yaml's limit", strings.Repeat("[", 10001) + strings.Repeat("]", 10001), "deep.yaml: exceeded max depth of 10000", 10001},
		{"unclosed flow sequences", strings.Repeat("[", 1<<20), "deep.yaml: exceeded max depth of 10000", 10001},
		{"flow mappings", "x: " + strings.Repeat("{a: ", 10000) + strings.Repeat("}", 10000), "deep.yaml:1:4000: nesting deeper than 1000", 10001},
		{"block sequences", strings.Repeat("- ", 10000) + "x\n", "deep.yaml:1:2001: nesting deeper than 1000", 10000},
		{"block sequences past yaml's limit", strings.Repeat("- ", 1<<20), "deep.yaml: exceeded max depth of 10000", 10001},
		{"block mappings", blockMappings(1200), "deep.yaml:1001:1001: nesting deeper than 1000", 1200},
		{"at the limit", strings.Repeat("[", 1000) + strings.Repeat("]", 1000), "", 1000},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Parse("deep.yaml", []byte(tt.src), Limits{})
			runtime.ReadMemStats(&after)
			if tt.want == "" && err != nil {
				t.Errorf("unexpected error: %v", err)
			}
			if tt.want != "" && (err == nil || err.Error() != tt.want) {
				t.Errorf("got error %v, want %s", err, tt.want)
			}
			if n, most := after.TotalAlloc-before.TotalAlloc, uint64(4096*tt.levels+4*len(tt.src)); n > most {
				t.Errorf("%d bytes allocated, want at most %d", n, most)
			}
		})
	}
}

// blockMappings returns depth block mappings, each nested in the one before
// with one more space of indentation.
func blockMappings(depth int) string {
	var b strings.Builder
	spaces := strings.Repeat(" ", depth)
	for i := range depth {
		b.WriteString(spaces[:i])
		b.WriteString("a:\n")
	}
	return b.String()
}

func TestDeepBlockMappings(t *testing.T) {
	if raceEnabled {
		t.Skip("too slow under the race detector")
	}
	// 10,000 levels of block mappings need 50 MB of indentation.
	src := []byte(blockMappings(10000))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Parse("deep.yaml", src, Limits{MaxBytes: 64 << 20})
	runtime.ReadMemStats(&after)
	if want := "deep.yaml:1001:1001: nesting deeper than 1000"; err == nil || err.Error() != want {
		t.Errorf("got error %v, want %s", err, want)
	}
	if n, most := after.TotalAlloc-before.TotalAlloc, uint64(4096*10000+4*len(src)); n > most {
		t.Errorf("%d bytes allocated, want at most %d", n, most)
	}
	_, err = Parse("deep.yaml", src, Limits{})
	if want := "deep.yaml: input is 50025000 bytes, more than the limit of 16777216"; err == nil || err.Error() != want {
		t.Errorf("got error %v, want %s", err, want)
	}
}

func TestAliases(t *testing.T) {
	// A billion laughs: expanded, the last key would hold 9^9 strings.
	var b strings.Builder
	b.WriteString("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for c := 'b'; c <= 'i'; c++ {
		ref := "*" + string(c-1)
		fmt.Fprintf(&b, "%c: &%c [%s]\n", c, c, strings.Repeat(ref+", ", 8)+ref)
	}
	nodes, err := Parse("bomb.yaml", []byte(b.String()), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// the depth check visits each node of the tree once: 9 keys, each
	// with a sequence of 9, and the mapping
	if visited, _ := walk("bomb.yaml", nodes[0], 1000, 0); visited != 1+9*(2+9) {
		t.Errorf("the depth check visited %d nodes, want the tree's %d", visited, 1+9*(2+9))
	}
	last := nodes[0].Content[17]
	if n := last.Content[0]; n.Kind != yaml.AliasNode || n.Value != "h" || n.Alias == nil || n.Alias.Anchor != "h" || n.Line != 9 || n.Column != 8 {
		t.Errorf("got %+v, want an unexpanded alias of h at 9:8", *n)
	}

	// An alias inside its own anchor makes a cycle; the depth check must
	// not follow it.
	nodes, err = Parse("cycle.yaml", []byte("a: &a [x, *a]\n"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	seq := nodes[0].Content[1]
	if alias := seq.Content[1]; alias.Kind != yaml.AliasNode || alias.Alias != seq {
		t.Errorf("got %+v, want an alias of the sequence holding it", *alias)
	}
}

func TestZeroLimitsMeanDefaults(t *testing.T) {
	src := []byte(strings.Repeat("[", 1001) + strings.Repeat("]", 1001))
	_, err1 := Parse("x.yaml", src, Limits{})
	_, err2 := Parse("x.yaml", src, DefaultLimits())
	_, err3 := Parse("x.yaml", src, Limits{MaxBytes: -1, MaxDepth: -1})
	if err1 == nil || err2 == nil || err3 == nil || err1.Error() != err2.Error() || err1.Error() != err3.Error() {
		t.Errorf("errors differ: %v, %v, %v", err1, err2, err3)
	}
	if d := DefaultLimits(); d.MaxBytes != 16<<20 || d.MaxDepth != 1000 {
		t.Errorf("DefaultLimits() = %+v", d)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"agent: planner\nsteps:\n  - id: 1\n    to: [worker, \"critic\"]\n",
		"a: 1\n---\n- b\n--- c\n...\n---\n",
		"a: &a [x, y]\nb: *a\nc: &c [*c]\n<<: *a\n",
		"{\"json\": [1, 2.5, true, null]}",
		"key: |\n  block\n  text\nother: >-\n  folded\n",
		"? complex\n: key\n!!set {a, b}\n",
		"\xef\xbb\xbfbom: yes\n",
		"a: b: c\n", "[[[[", "- - - x", "a:\n\t- b\n", "x: \xff",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		nodes, err := Parse("fuzz.yaml", data, Limits{MaxDepth: 50})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Fatalf("error %q does not name the file", err)
			}
			// the documents before the malformed one, and nothing of it
			docs, _ := ParseDocs("fuzz.yaml", data, Limits{MaxDepth: 50})
			var before []*yaml.Node
			for _, d := range docs {
				if d.Err != nil {
					break
				}
				before = append(before, d.Node)
			}
			if len(nodes) != len(before) {
				t.Fatalf("%d nodes with the error, want the %d documents before it", len(nodes), len(before))
			}
		}
		var walk func(n *yaml.Node, depth int)
		walk = func(n *yaml.Node, depth int) {
			if n.Line < 1 || n.Column < 1 {
				t.Fatalf("node %v %q at %d:%d", n.Kind, n.Value, n.Line, n.Column)
			}
			if depth > 50 {
				t.Fatalf("nesting deeper than the limit")
			}
			for _, c := range n.Content {
				walk(c, depth+1)
			}
		}
		for _, n := range nodes {
			walk(n, 0)
		}
	})
}

// wholeStream is how Parse read a stream before it cut it into documents:
// one yaml.v3 decoder over all of it, stopping at the first error.
func wholeStream(data []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err == io.EOF {
			return docs, nil
		} else if err != nil {
			return docs, err
		}
		if len(doc.Content) > 0 && !isEmpty(doc.Content[0]) {
			docs = append(docs, doc.Content[0])
		}
	}
}

func TestParseDocsGoesOnAfterAMalformedDocument(t *testing.T) {
	const src = "task_id: [\n" + // 1: malformed: the flow sequence never ends
		"---\n" + // 2
		"task_id: a\n" + // 3
		"--- \"x\"y\n" + // 4: a scalar, then garbage
		"---\n" + // 5
		"b: \xff\n" + // 6: invalid UTF-8
		"---\n" + // 7
		"c: [[1]]\n" + // 8: too deep for MaxDepth 1
		"...\n" + // 9
		"%YAML 1.1\n" + // 10
		"---\n" + // 11
		"- d\n" + // 12
		"---\n" + // 13
		"e: *nope\n" + // 14: an unknown alias, which yaml.v3 gives no line
		"---\n" + // 15
		"f: 1\n" + // 16
		"g: h: i\n" // 17
	docs, err := ParseDocs("q.yaml", []byte(src), Limits{MaxDepth: 1})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		if d.Err != nil {
			got = append(got, fmt.Sprintf("doc %d: %v", d.Line, d.Err))
			continue
		}
		got = append(got, fmt.Sprintf("doc %d: %d:%d %s", d.Line, d.Node.Line, d.Node.Column, d.Node.Tag))
	}
	want := []string{
		// yaml.v3's lines, which name the line before some errors
		"doc 1: q.yaml:1: did not find expected node content",
		"doc 3: 3:1 !!map",
		"doc 4: q.yaml:3: did not find expected <document start>",
		"doc 5: q.yaml:6:4: invalid UTF-8",
		"doc 7: q.yaml:8:4: nesting deeper than 1",
		"doc 12: 12:1 !!seq",
		"doc 13: q.yaml: unknown anchor 'nope' referenced",
		"doc 15: q.yaml:17: mapping values are not allowed in this context",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Parse stops at the first, with nothing of it
	nodes, err := Parse("q.yaml", []byte(src), Limits{MaxDepth: 1})
	if len(nodes) != 0 || err == nil || err.Error() != want[0][len("doc 1: "):] {
		t.Errorf("Parse = %d nodes, %v; want none and the first document's error", len(nodes), err)
	}
}

// TestParseDocsLines checks that the documents after the first keep the
// lines and columns of the stream, and their errors the lines yaml.v3
// gives when it reads the stream whole.
func TestParseDocsLines(t *testing.T) {
	for _, src := range []string{
		"a: 1\n---\nb:\n  - c\n  - {d: e}\n--- |\n  text\n...\n# c\n---\nf: 'g'\n",
		"a: 1\r\n---\r\nb: 2\r\n",
		"a: 1\r---\rb: 2\r",
		"a: 1\u2028---\u2028b: 2\u0085---\u0085c: 3",
		"\xef\xbb\xbf%YAML 1.1\n---\na: 1\n---\nb: 2\n",
		"a: 1\n...\n...\n# c\n...\n---\nb: 2\n",
		"a: 1\n--- \nb: 2\n---\tc\n---\n",
		"- &x a\n---\n- &x b\n- *x\n",
		"a: 1\n---\nb: [1,\n  2]\n---\nc: d: e\n",
		"a: 1\n---\n--- b\n",
		"a: 1\n---\n\n\n  x: [\n",
		"a: 1\n---\nb: \"x\n---\ny\"\n",
	} {
		want, wantErr := wholeStream([]byte(src))
		nodes, err := Parse("x.yaml", []byte(src), Limits{})
		if (err != nil) != (wantErr != nil) {
			t.Errorf("%q: error %v, want %v", src, err, wantErr)
			continue
		}
		if err != nil {
			continue // the error's wording may differ: yaml.v3 sees less
		}
		if g, w := flattenAll(nodes), flattenAll(want); g != w {
			t.Errorf("%q:\ngot:\n%s\nwant:\n%s", src, g, w)
		}
	}
}

func flattenAll(nodes []*yaml.Node) string {
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString(strings.Join(flatten(n), "\n"))
		b.WriteString("\n--\n")
	}
	return b.String()
}

// FuzzParseDocs holds ParseDocs to yaml.v3: a stream yaml.v3 reads whole
// without an error is read document by document into the same trees, at
// the same lines; and every document of any stream is a node or an error,
// in order.
func FuzzParseDocs(f *testing.F) {
	for _, s := range []string{
		"a: 1\n---\nb: [1, 2]\n...\n%YAML 1.1\n---\n- c\n",
		"a: 1\r\n---\r\nb: 2\r---\u2028c: 3\u0085--- d\n",
		"--- |\n  x\n---\n\"y\n  z\"\n--- >\n a\n...\n... \n",
		"a: [\n---\nb: 1\n",
		"\"0000000\"000000000",
		"\xef\xbb\xbf---\na: &x 1\nb: *x\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// each document on its own, as ParseDocs reads a stream with an
		// error, without its shortcut for a stream that parses whole
		var docs []Doc
		eachSpan("fuzz.yaml", data, DefaultLimits().MaxDepth, func(d Doc) bool {
			docs = append(docs, d)
			return true
		})
		line, to := 0, 0
		for _, d := range docs {
			if (d.Node == nil) == (d.Err == nil) {
				t.Fatalf("document at line %d: node %v, error %v", d.Line, d.Node, d.Err)
			}
			// a malformed document's text is its own: the spans are in
			// order and do not overlap, so judging each is linear
			if d.Err != nil && (d.From < to || d.To < d.From || d.To > len(data)) {
				t.Fatalf("document at line %d: text [%d:%d] after one ending at %d, of %d bytes", d.Line, d.From, d.To, to, len(data))
			}
			if d.Err != nil {
				to = d.To
			} else if d.From != 0 || d.To != 0 {
				t.Fatalf("document at line %d parsed, with a text [%d:%d]", d.Line, d.From, d.To)
			}
			if d.Line < line || d.Line < 1 || d.Node != nil && d.Line != d.Node.Line {
				t.Fatalf("document at line %d after one at %d", d.Line, line)
			}
			line = d.Line
			if d.Err != nil && !strings.HasPrefix(d.Err.Error(), "fuzz.yaml") {
				t.Fatalf("error %q does not name the file", d.Err)
			}
		}
		if checkChars("fuzz.yaml", data, 1) != nil {
			return
		}
		want, werr := wholeStream(data)
		if werr != nil || checkDepthAll(want) {
			return
		}
		var nodes []*yaml.Node
		for _, d := range docs {
			if d.Err != nil {
				t.Fatalf("document at line %d: %v; yaml.v3 reads the stream whole", d.Line, d.Err)
			}
			nodes = append(nodes, d.Node)
		}
		if g, w := flattenAll(nodes), flattenAll(want); g != w {
			t.Fatalf("got:\n%s\nwant:\n%s", g, w)
		}
	})
}

// checkDepthAll says whether a tree is nested deeper than the default
// limit (which would make it malformed for ParseDocs alone).
func checkDepthAll(nodes []*yaml.Node) bool {
	for _, n := range nodes {
		if _, err := walk("", n, DefaultLimits().MaxDepth, 0); err != nil {
			return true
		}
	}
	return false
}
