package jsondoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// flatten lists the nodes under n in document order as
// "line:col tag value", indented by depth.
func flatten(n *yaml.Node) []string {
	var out []string
	var walk func(n *yaml.Node, indent string)
	walk = func(n *yaml.Node, indent string) {
		s := fmt.Sprintf("%s%d:%d %s", indent, n.Line, n.Column, n.Tag)
		if n.Kind == yaml.ScalarNode {
			s += " " + n.Value
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
	// Tabs for indentation, and multi-byte characters before some nodes to
	// show that columns count runes.
	const src = "{\n" +
		"\t\"agent\": \"planner\",\n" +
		"\t\"étapes\": [\n" +
		"\t\t{\"id\": 1, \"to\": [\"wörker\", \"critic\"]},\n" +
		"\t\t{\"id\": -2.5e3, \"ok\": true, \"x\": null, \"y\": false}\n" +
		"\t]\n" +
		"}\n"
	nodes, err := Parse("delegate.json", []byte(src), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 1 {
		t.Fatalf("got %d nodes, want 1", len(nodes))
	}
	want := []string{
		"1:1 !!map",
		"  2:2 !!str agent",
		"  2:11 !!str planner",
		"  3:2 !!str étapes",
		"  3:12 !!seq",
		"    4:3 !!map",
		"      4:4 !!str id",
		"      4:10 !!int 1",
		"      4:13 !!str to",
		"      4:19 !!seq",
		"        4:20 !!str wörker",
		"        4:30 !!str critic",
		"    5:3 !!map",
		"      5:4 !!str id",
		"      5:10 !!float -2.5e3",
		"      5:18 !!str ok",
		"      5:24 !!bool true",
		"      5:30 !!str x",
		"      5:35 !!null null",
		"      5:41 !!str y",
		"      5:46 !!bool false",
	}
	got := flatten(nodes[0])
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := nodes[0]; n.Kind != yaml.MappingNode || n.Style != yaml.FlowStyle {
		t.Errorf("root: kind %v style %v, want mapping in flow style", n.Kind, n.Style)
	}
	if k := nodes[0].Content[0]; k.Kind != yaml.ScalarNode || k.Style != yaml.DoubleQuotedStyle {
		t.Errorf("key: kind %v style %v, want double-quoted scalar", k.Kind, k.Style)
	}
}

// TestSameAsYAML checks that, for JSON that yaml.v3 can read, Parse builds
// the same nodes it does.
func TestSameAsYAML(t *testing.T) {
	docs := []string{
		`{"a": [1, -0, 2.5, 1e5, 1E+2, -3e-2, true, false, null, "x\u00e9\t\"\\", {}, []],
 "é": "ü", "b": {"c": {"d": [[], [{}]]}}, "": ""}`,
		"[\n  1,\n  \"two\",\n  {\"three\": 3}\n]",
		`"just a string"`,
		`12`,
		`null`,
		"  {  \"k\"  :  \"v\"  }  ",
	}
	for _, doc := range docs {
		var want yaml.Node
		if err := yaml.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatalf("yaml.Unmarshal(%q): %v", doc, err)
		}
		got, err := Parse("x.json", []byte(doc), Limits{})
		if err != nil {
			t.Fatalf("Parse(%q): %v", doc, err)
		}
		if len(got) != 1 {
			t.Fatalf("Parse(%q): got %d nodes, want 1", doc, len(got))
		}
		if diff := compare(got[0], want.Content[0]); diff != "" {
			t.Errorf("Parse(%q): %s", doc, diff)
		}
	}
}

func compare(got, want *yaml.Node) string {
	if got.Kind != want.Kind || got.Style != want.Style || got.Tag != want.Tag || got.Value != want.Value ||
		got.Line != want.Line || got.Column != want.Column || len(got.Content) != len(want.Content) {
		return fmt.Sprintf("got node %+v, want %+v", *got, *want)
	}
	for i := range got.Content {
		if d := compare(got.Content[i], want.Content[i]); d != "" {
			return d
		}
	}
	return ""
}

func TestParseScalars(t *testing.T) {
	tests := []struct {
		src, tag, value string
	}{
		{`0`, "!!int", "0"},
		{`-0`, "!!int", "-0"},
		{`123456789012345678901234567890`, "!!int", "123456789012345678901234567890"},
		{`0.5`, "!!float", "0.5"},
		{`1e400`, "!!float", "1e400"},
		{`-1E-7`, "!!float", "-1E-7"},
		{`true`, "!!bool", "true"},
		{`false`, "!!bool", "false"},
		{`null`, "!!null", "null"},
		{`""`, "!!str", ""},
		{`"a\"b\\c\/d\b\f\n\r\t"`, "!!str", "a\"b\\c/d\b\f\n\r\t"},
		{`"\u00e9\u20AC"`, "!!str", "é€"},
		{`"\ud83d\ude00"`, "!!str", "😀"},
		{`"\ud800"`, "!!str", "\uFFFD"},
		{`"\ude00\ud83d"`, "!!str", "\uFFFD\uFFFD"},
		{`"\ud800\u0041"`, "!!str", "\uFFFDA"},
		{`"\u0000"`, "!!str", "\x00"},
		{`"1"`, "!!str", "1"},
		{"\"tab\tinside\"", "", ""}, // control characters must be escaped
	}
	for _, tt := range tests {
		nodes, err := Parse("x.json", []byte(tt.src), Limits{})
		if tt.tag == "" {
			if err == nil {
				t.Errorf("Parse(%q): no error", tt.src)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		n := nodes[0]
		if n.Kind != yaml.ScalarNode || n.Tag != tt.tag || n.Value != tt.value {
			t.Errorf("Parse(%q) = %v %s %q, want scalar %s %q", tt.src, n.Kind, n.Tag, n.Value, tt.tag, tt.value)
		}
		wantStyle := yaml.Style(0)
		if tt.tag == "!!str" {
			wantStyle = yaml.DoubleQuotedStyle
		}
		if n.Style != wantStyle {
			t.Errorf("Parse(%q): style %v, want %v", tt.src, n.Style, wantStyle)
		}
	}
}

func TestParseMultiple(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // position and tag of each root
	}{
		{"empty", "", nil},
		{"blank", " \n\t\r\n", nil},
		{"one", `{"a":1}`, []string{"1:1 !!map"}},
		{"concatenated", `{"a":1}{"b":2}[3]"s"4 5`, []string{"1:1 !!map", "1:8 !!map", "1:15 !!seq", "1:18 !!str", "1:21 !!int", "1:23 !!int"}},
		{"json lines", "{\"a\":1}\n\n[2]\r\n\t3\n", []string{"1:1 !!map", "3:1 !!seq", "4:2 !!int"}},
		{"bom", "\xef\xbb\xbf[1]", []string{"1:1 !!seq"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes, err := Parse("x.json", []byte(tt.src), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, n := range nodes {
				got = append(got, fmt.Sprintf("%d:%d %s", n.Line, n.Column, n.Tag))
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
		{`{"a": 1, "b": 2, "a": 3}`, Limits{}, `msg.json:1:18: duplicate key "a"`},
		{"{\n  \"x\": {\"k\": 1},\n  \"x\": 2\n}", Limits{}, `msg.json:3:3: duplicate key "x"`},
		{`{"\u0061": 1, "a": 2}`, Limits{}, `msg.json:1:15: duplicate key "a"`},
		{`{"a": 1,}`, Limits{}, `msg.json:1:9: invalid character '}' looking for beginning of object key string`},
		{`[1, 2,]`, Limits{}, `msg.json:1:7: invalid character ']' looking for beginning of value`},
		{`{"a" 1}`, Limits{}, `msg.json:1:6: invalid character '1' after object key`},
		{`{"a": 1 "b": 2}`, Limits{}, `msg.json:1:9: invalid character '"' after object key:value pair`},
		{`[1 2]`, Limits{}, `msg.json:1:4: invalid character '2' after array element`},
		{`{a: 1}`, Limits{}, `msg.json:1:2: invalid character 'a' looking for beginning of object key string`},
		{"[\n\t1,\n\t@]", Limits{}, `msg.json:3:2: invalid character '@' looking for beginning of value`},
		{`[tru]`, Limits{}, `msg.json:1:5: invalid character ']' in literal true`},
		{`nul`, Limits{}, `msg.json:1:4: unexpected end of input`},
		{`[1x]`, Limits{}, `msg.json:1:3: invalid character 'x' after array element`},
		{`1x`, Limits{}, `msg.json:1:2: invalid character 'x' after top-level value`},
		{`truefalse`, Limits{}, `msg.json:1:5: invalid character 'f' after top-level value`},
		{`01`, Limits{}, `msg.json:1:2: invalid character '1' after top-level value`},
		{`-`, Limits{}, `msg.json:1:2: unexpected end of input`},
		{`-a`, Limits{}, `msg.json:1:2: invalid character 'a' in numeric literal`},
		{`1.`, Limits{}, `msg.json:1:3: unexpected end of input`},
		{`[1.e5]`, Limits{}, `msg.json:1:4: invalid character 'e' in numeric literal`},
		{`[1e+]`, Limits{}, `msg.json:1:5: invalid character ']' in numeric literal`},
		{`+1`, Limits{}, `msg.json:1:1: invalid character '+' looking for beginning of value`},
		{`"abc`, Limits{}, `msg.json:1:5: unexpected end of input`},
		{"\"a\nb\"", Limits{}, `msg.json:1:3: invalid character '\n' in string literal`},
		{`"\x"`, Limits{}, `msg.json:1:3: invalid character 'x' in string escape code`},
		{`"\u12G4"`, Limits{}, `msg.json:1:6: invalid character 'G' in \u hexadecimal character escape`},
		{`"é\ud83d\uZZZZ"`, Limits{}, `msg.json:1:11: invalid character 'Z' in \u hexadecimal character escape`},
		{"{\"a\":\n", Limits{}, `msg.json:2:1: unexpected end of input`},
		{"[\"ok\", \"\xff\"]", Limits{}, `msg.json:1:9: invalid UTF-8`},
		{"\n\n  \"\xc3\"", Limits{}, `msg.json:3:4: invalid UTF-8`},
		{"\xff\xfe[\x001\x00]\x00", Limits{}, `msg.json:1:1: invalid UTF-8`}, // UTF-16
		{`[[1]]`, Limits{MaxDepth: 1}, `msg.json:1:2: nesting deeper than 1`},
		{`[{"a": {}}]`, Limits{MaxDepth: 2}, `msg.json:1:8: nesting deeper than 2`},
		{`[1, 2]`, Limits{MaxBytes: 5}, `msg.json: input is 6 bytes, more than the limit of 5`},
	}
	for _, tt := range tests {
		nodes, err := Parse("msg.json", []byte(tt.src), tt.lim)
		if err == nil {
			t.Errorf("Parse(%q) = %d nodes, want error %q", tt.src, len(nodes), tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("Parse(%q) error:\n got %s\nwant %s", tt.src, err, tt.want)
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q): error is %T, not *Error", tt.src, err)
		}
		if nodes != nil {
			t.Errorf("Parse(%q): got nodes with the error", tt.src)
		}
	}
}

func TestDuplicateKeyInLargeObject(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 100 {
		fmt.Fprintf(&b, "%q: %d, ", fmt.Sprint("k", i), i)
	}
	b.WriteString(`"k42": 0}`)
	_, err := Parse("big.json", []byte(b.String()), Limits{})
	if want := fmt.Sprintf(`big.json:1:%d: duplicate key "k42"`, b.Len()-8); err == nil || err.Error() != want {
		t.Errorf("got error %v, want %s", err, want)
	}

	// The same object without the duplicate is fine.
	src := strings.TrimSuffix(b.String(), `, "k42": 0}`) + "}"
	nodes, err := Parse("big.json", []byte(src), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(nodes[0].Content); got != 200 {
		t.Errorf("got %d key and value nodes, want 200", got)
	}
}

// TestDeepNesting: nesting past the limit is an error at the level that
// passes it, and nesting within it parses; either way in work linear in
// what is read: the position cursor walks each byte at most once, and
// memory is a few hundred bytes per level opened (a node, a stack frame;
// 260 measured) and a byte or two per byte of input.
func TestDeepNesting(t *testing.T) {
	for _, tt := range []struct {
		name   string
		src    string
		lim    Limits
		want   string
		levels int // opened before the parse ends
	}{
		{"arrays", strings.Repeat("[", 10000) + strings.Repeat("]", 10000), Limits{}, "deep.json:1:1001: nesting deeper than 1000", 1000},
		{"unclosed arrays", strings.Repeat("[", 1<<20), Limits{}, "deep.json:1:1001: nesting deeper than 1000", 1000},
		{"objects", strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000), Limits{}, "deep.json:1:5001: nesting deeper than 1000", 1000},
		{"at the limit", strings.Repeat("[", 1000) + strings.Repeat("]", 1000), Limits{}, "", 1000},
		{"high limit", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), Limits{MaxDepth: 100000}, "", 100000},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, walked, err := parse("deep.json", []byte(tt.src), tt.lim)
			runtime.ReadMemStats(&after)
			if tt.want == "" && err != nil {
				t.Errorf("unexpected error: %v", err)
			}
			if tt.want != "" && (err == nil || err.Error() != tt.want) {
				t.Errorf("got error %v, want %s", err, tt.want)
			}
			if walked > len(tt.src) {
				t.Errorf("the position cursor walked %d bytes of %d", walked, len(tt.src))
			}
			if n, most := after.TotalAlloc-before.TotalAlloc, uint64(1024*tt.levels+2*len(tt.src)); n > most {
				t.Errorf("%d bytes allocated, want at most %d", n, most)
			}
		})
	}
}

// TestLargeSingleLine: on one long line, every node's column is right,
// and the position cursor walks the line once, not once per node.
func TestLargeSingleLine(t *testing.T) {
	// About 256 KiB (7,000 elements) on one line, with a multi-byte
	// character in every element so that columns and byte offsets differ.
	var b bytes.Buffer
	b.WriteString("[")
	for i := 0; b.Len() < 256<<10; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"nœud %d","ok":true}`, i, i)
	}
	b.WriteString("]")
	data := b.Bytes()
	nodes, walked, err := parse("big.json", data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if walked > len(data) {
		t.Errorf("the position cursor walked %d bytes of %d", walked, len(data))
	}
	elems := nodes[0].Content
	last := elems[len(elems)-1]
	lastOff := bytes.LastIndexByte(data, '{')
	if want := utf8.RuneCount(data[:lastOff]) + 1; last.Line != 1 || last.Column != want {
		t.Errorf("last element at %d:%d, want 1:%d", last.Line, last.Column, want)
	}
	if v := last.Content[3].Value; v != fmt.Sprintf("nœud %d", len(elems)-1) {
		t.Errorf("last name = %q", v)
	}
}

func TestZeroLimitsMeanDefaults(t *testing.T) {
	src := []byte(strings.Repeat("[", 1001) + strings.Repeat("]", 1001))
	_, err1 := Parse("x.json", src, Limits{})
	_, err2 := Parse("x.json", src, DefaultLimits())
	_, err3 := Parse("x.json", src, Limits{MaxBytes: -1, MaxDepth: -1})
	if err1 == nil || err2 == nil || err3 == nil || err1.Error() != err2.Error() || err1.Error() != err3.Error() {
		t.Errorf("errors differ: %v, %v, %v", err1, err2, err3)
	}
	if d := DefaultLimits(); d.MaxBytes != 16<<20 || d.MaxDepth != 1000 {
		t.Errorf("DefaultLimits() = %+v", d)
	}
}

type lineResult struct {
	line int
	desc string // "L:C tag" of the node, or the error text
}

func collectLines(data string, lim Limits, stopAfter int) []lineResult {
	var got []lineResult
	ParseLines("log.jsonl", []byte(data), lim, func(line int, n *yaml.Node, err error) bool {
		if err != nil {
			got = append(got, lineResult{line, err.Error()})
		} else {
			got = append(got, lineResult{line, fmt.Sprintf("%d:%d %s", n.Line, n.Column, n.Tag)})
		}
		return len(got) != stopAfter
	})
	return got
}

func TestParseLines(t *testing.T) {
	const src = "{\"a\": 1}\n" +
		"\n" +
		"{\"a\": 2, \"a\": 3}\r\n" +
		"  [1, 2]  \r\n" +
		"{\"unterminated\": \n" +
		"\"\xff\"\n" +
		"1 2\n" +
		" \t \n" +
		"\xef\xbb\xbf{}\n" +
		"\t\"last\"" // no final newline
	want := []lineResult{
		{1, "1:1 !!map"},
		{3, `log.jsonl:3:10: duplicate key "a"`},
		{4, "4:3 !!seq"},
		{5, "log.jsonl:5:18: unexpected end of input"},
		{6, "log.jsonl:6:2: invalid UTF-8"},
		{7, "log.jsonl:7:3: invalid character '2' after top-level value"},
		{9, "log.jsonl:9:1: invalid character '\\ufeff' looking for beginning of value"},
		{10, "10:2 !!str"},
	}
	got := collectLines(src, Limits{}, -1)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got:\n%v\nwant:\n%v", got, want)
	}

	if got := collectLines(src, Limits{}, 2); fmt.Sprint(got) != fmt.Sprint(want[:2]) {
		t.Errorf("stopping after 2: got %v", got)
	}

	// A byte order mark is allowed at the start of the input.
	if got := collectLines("\xef\xbb\xbf[1]\n", Limits{}, -1); fmt.Sprint(got) != "[{1 1:1 !!seq}]" {
		t.Errorf("with BOM: got %v", got)
	}

	// Limits apply: depth to each line, size to the whole input.
	if got := collectLines("[[1]]\n[2]\n", Limits{MaxDepth: 1}, -1); fmt.Sprint(got) != "[{1 log.jsonl:1:2: nesting deeper than 1} {2 2:1 !!seq}]" {
		t.Errorf("depth: got %v", got)
	}
	if got := collectLines("[1]\n[2]\n", Limits{MaxBytes: 4}, -1); fmt.Sprint(got) != "[{0 log.jsonl: input is 8 bytes, more than the limit of 4}]" {
		t.Errorf("size: got %v", got)
	}
	if got := collectLines("", Limits{}, -1); got != nil {
		t.Errorf("empty: got %v", got)
	}
}

// checkNode checks that every node under n has a position, and that the
// position holds the character that starts a node of its kind.
func checkNode(t *testing.T, data []byte, n *yaml.Node) {
	t.Helper()
	var lines [][]rune
	for _, l := range bytes.Split(bytes.TrimPrefix(data, bom), []byte("\n")) {
		lines = append(lines, []rune(string(l)))
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Line < 1 || n.Column < 1 || n.Line > len(lines) {
			t.Fatalf("node %q at %d:%d", n.Value, n.Line, n.Column)
		}
		line := lines[n.Line-1]
		if n.Column > len(line) {
			t.Fatalf("node %q at %d:%d is past the end of the line", n.Value, n.Line, n.Column)
		}
		c := line[n.Column-1]
		var ok bool
		switch n.Tag {
		case "!!map":
			ok = c == '{'
		case "!!seq":
			ok = c == '['
		case "!!str":
			ok = c == '"'
		case "!!int", "!!float":
			ok = c == '-' || c >= '0' && c <= '9'
		default:
			ok = c == rune(n.Value[0])
		}
		if !ok {
			t.Fatalf("node %s %q at %d:%d starts with %q", n.Tag, n.Value, n.Line, n.Column, c)
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"a": [1, 2.5, -3e4, true, false, null, "x\u00e9\ud83d\ude00"]}`,
		"{\n\t\"k\": {\"n\": [[], {}]}\n}\n[1]\n\"s\"",
		"{\"a\":1}\n\n{\"b\":2}\r\n",
		`{"a":1,"a":2}`,
		"\xef\xbb\xbf[\"bom\"]",
		`[1,]`, `"\ud800\u0041"`, `01`, `1e`, "[\"\xff\"]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := Limits{MaxDepth: 50}
		nodes, err := Parse("fuzz.json", data, lim)
		if err != nil && nodes != nil {
			t.Fatal("nodes with an error")
		}
		for _, n := range nodes {
			checkNode(t, data, n)
		}
		// Anything Parse accepts as a single value is valid JSON, and valid
		// JSON is rejected only for reasons encoding/json does not check
		// (it accepts invalid UTF-8 in strings).
		trimmed := bytes.TrimPrefix(data, bom)
		if err == nil && len(nodes) == 1 && !json.Valid(trimmed) {
			t.Fatalf("Parse accepted invalid JSON %q", data)
		}
		if err != nil && json.Valid(trimmed) {
			if msg := err.Error(); !strings.Contains(msg, "duplicate key") && !strings.Contains(msg, "nesting deeper") && !strings.Contains(msg, "invalid UTF-8") {
				t.Fatalf("Parse rejected valid JSON %q: %v", data, err)
			}
		}

		prev := 0
		ParseLines("fuzz.jsonl", data, lim, func(line int, n *yaml.Node, err error) bool {
			if line <= prev {
				t.Fatalf("line %d after line %d", line, prev)
			}
			prev = line
			if (n == nil) == (err == nil) {
				t.Fatalf("line %d: node %v and error %v", line, n, err)
			}
			if n != nil {
				if n.Line != line {
					t.Fatalf("node of line %d is at line %d", line, n.Line)
				}
				checkNode(t, data, n)
			}
			return true
		})
	})
}

func collectParts(data string, lim Limits) []string {
	var got []string
	ParseParts("v.json", []byte(data), lim, func(p Part) bool {
		text := data[p.From:p.To]
		if p.Err != nil {
			got = append(got, fmt.Sprintf("%v | %q", p.Err, text))
		} else {
			got = append(got, fmt.Sprintf("%d:%d %s | %q", p.Node.Line, p.Node.Column, p.Node.Tag, text))
		}
		return true
	})
	return got
}

// TestParseParts: a value nested too deep costs only itself; a syntax
// error ends the input, with the values before it kept.
func TestParseParts(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"all good", "{\"a\": 1}\n[2] \"s\"", []string{
			`1:1 !!map | "{\"a\": 1}"`, `2:1 !!seq | "[2]"`, `2:5 !!str | "\"s\""`}},
		{"deep, then a message", "[[\"]\", \"\\\"[\"]]\n{\"a\": 1}\n", []string{
			`v.json:1:2: nesting deeper than 1 | "[[\"]\", \"\\\"[\"]]"`, `2:1 !!map | "{\"a\": 1}"`}},
		{"a message, then deep", "{\"a\": 1}\n{\"b\": {\"c\": 1}}\n[3]", []string{
			`1:1 !!map | "{\"a\": 1}"`, `v.json:2:7: nesting deeper than 1 | "{\"b\": {\"c\": 1}}"`, `3:1 !!seq | "[3]"`}},
		{"deep, never closed", "[1]\n[[[[", []string{
			`1:1 !!seq | "[1]"`, `v.json:2:2: nesting deeper than 1 | "[[[["`}},
		{"syntax error ends it", "[1]\n{\"a\": oops}\n[2]\n", []string{
			`1:1 !!seq | "[1]"`, "v.json:2:7: invalid character 'o' looking for beginning of value | \"{\\\"a\\\": oops}\\n[2]\\n\""}},
		{"garbage after a value", "1x", []string{
			`1:1 !!int | "1"`, `v.json:1:2: invalid character 'x' after top-level value | "x"`}},
		{"BOM", "\xef\xbb\xbf[1]", []string{`1:1 !!seq | "[1]"`}},
		{"invalid UTF-8", "[1]\n[\"\xff\"]", []string{`v.json:2:3: invalid UTF-8 | "[1]\n[\"\xff\"]"`}},
		{"blank", " \n\t", nil},
	} {
		got := collectParts(tc.src, Limits{MaxDepth: 1})
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s: got:\n%s\nwant:\n%s", tc.name, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
	if got := collectParts("[1]", Limits{MaxBytes: 2}); len(got) != 1 || !strings.Contains(got[0], "more than the limit of 2") {
		t.Errorf("size: got %v", got)
	}
	n := 0
	ParseParts("v.json", []byte("[1] [2] [3]"), Limits{}, func(Part) bool { n++; return n < 2 })
	if n != 2 {
		t.Errorf("fn returning false: %d calls, want 2", n)
	}
}

// TestParsePartsLinear: values nested too deep, one after another, cost
// each its own bytes a bounded number of times: twice as many cost twice
// as much, not four times (a skip that rescanned from the start, or a
// parser restarted on the whole rest, would).
func TestParsePartsLinear(t *testing.T) {
	cost := func(n int) uint64 {
		unit := strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + "\n{\"a\": 1}\n"
		data := []byte(strings.Repeat(unit, n))
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		bad, good := 0, 0
		ParseParts("v.json", data, Limits{}, func(p Part) bool {
			if p.Err != nil {
				bad++
			} else {
				good++
			}
			return true
		})
		runtime.ReadMemStats(&after)
		if bad != n || good != n {
			t.Fatalf("%d values: %d broken and %d good, want %d of each", 2*n, bad, good, n)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := cost(20), cost(40)
	if large > small*5/2 {
		t.Errorf("40 deep values allocated %d bytes, 20 allocated %d: more than linear", large, small)
	}
}

// FuzzParseParts holds ParseParts to Parse: where Parse reads the input,
// the parts are its values; else the parts are in order, cover no byte
// twice, and the last one or a too-deep one is the error.
func FuzzParseParts(f *testing.F) {
	for _, s := range []string{
		"[1] {\"a\": [[2]]} \"x\"", "[[[[\"]\"]]]] [1]", "{\"a\": 1}\n{", "\xef\xbb\xbf[1]x", "[\"\\\"[\"]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := Limits{MaxDepth: 3}
		nodes, err := Parse("fuzz.json", data, lim)
		var parts []Part
		ParseParts("fuzz.json", data, lim, func(p Part) bool {
			parts = append(parts, p)
			return true
		})
		end := 0
		for i, p := range parts {
			if (p.Node == nil) == (p.Err == nil) || p.From < end || p.To < p.From || p.To > len(data) {
				t.Fatalf("part %d of %d: %+v after %d", i, len(parts), p, end)
			}
			end = p.To
			if p.Node != nil {
				checkNode(t, data, p.Node)
			}
		}
		if err == nil {
			if len(parts) != len(nodes) {
				t.Fatalf("Parse: %d values, ParseParts: %d parts", len(nodes), len(parts))
			}
			for i, p := range parts {
				if p.Err != nil || fmt.Sprint(flatten(p.Node)) != fmt.Sprint(flatten(nodes[i])) {
					t.Fatalf("part %d: %+v, Parse: %v", i, p, flatten(nodes[i]))
				}
			}
			return
		}
		for i, p := range parts {
			if p.Err != nil && i < len(parts)-1 && !strings.Contains(p.Err.Error(), "nesting deeper") {
				t.Fatalf("part %d of %d is an error that does not end the input: %v", i, len(parts), p.Err)
			}
		}
	})
}
