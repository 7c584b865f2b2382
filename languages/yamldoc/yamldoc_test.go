package yamldoc

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

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

func TestDeepNesting(t *testing.T) {
	for _, tt := range []struct {
		name string
		src  string
		lim  Limits
		want string
	}{
		{"flow sequences", strings.Repeat("[", 10000) + strings.Repeat("]", 10000), Limits{}, "deep.yaml:1:1001: nesting deeper than 1000"},
		{"flow sequences past yaml's limit", strings.Repeat("[", 10001) + strings.Repeat("]", 10001), Limits{}, "deep.yaml: exceeded max depth of 10000"},
		{"unclosed flow sequences", strings.Repeat("[", 1<<20), Limits{}, "deep.yaml: exceeded max depth of 10000"},
		{"flow mappings", "x: " + strings.Repeat("{a: ", 10000) + strings.Repeat("}", 10000), Limits{}, "deep.yaml:1:4000: nesting deeper than 1000"},
		{"block sequences", strings.Repeat("- ", 10000) + "x\n", Limits{}, "deep.yaml:1:2001: nesting deeper than 1000"},
		{"block sequences past yaml's limit", strings.Repeat("- ", 1<<20), Limits{}, "deep.yaml: exceeded max depth of 10000"},
		{"block mappings", blockMappings(1200), Limits{}, "deep.yaml:1001:1001: nesting deeper than 1000"},
		{"at the limit", strings.Repeat("[", 1000) + strings.Repeat("]", 1000), Limits{}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := Parse("deep.yaml", []byte(tt.src), tt.lim)
			if tt.want == "" && err != nil {
				t.Errorf("unexpected error: %v", err)
			}
			if tt.want != "" && (err == nil || err.Error() != tt.want) {
				t.Errorf("got error %v, want %s", err, tt.want)
			}
			// Generous, as the race detector slows parsing down twentyfold:
			// this is to catch hangs and quadratic behaviour.
			if d := time.Since(start); d > time.Minute {
				t.Errorf("took %v", d)
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
	start := time.Now()
	_, err := Parse("deep.yaml", src, Limits{MaxBytes: 64 << 20})
	if want := "deep.yaml:1001:1001: nesting deeper than 1000"; err == nil || err.Error() != want {
		t.Errorf("got error %v, want %s", err, want)
	}
	if d := time.Since(start); d > time.Minute {
		t.Errorf("took %v", d)
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
	start := time.Now()
	nodes, err := Parse("bomb.yaml", []byte(b.String()), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
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
			if nodes != nil {
				t.Fatal("nodes with an error")
			}
			if !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
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
