package yamlnode_test

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
)

func parse(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	return &n
}

func toValue(t *testing.T, src string) any {
	t.Helper()
	v, err := yamlnode.ToValue(parse(t, src), yamlnode.DefaultLimits())
	if err != nil {
		t.Fatalf("ToValue(%q): %v", src, err)
	}
	return v
}

func TestToValueScalars(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want any
	}{
		{"1", int64(1)},
		{"-2", int64(-2)},
		{"0", int64(0)},
		{"0x1F", int64(31)},
		{"0o17", int64(15)},
		{"9223372036854775807", int64(math.MaxInt64)},
		{"99999999999999999999", 1e20},
		{"1.5", 1.5},
		{"3.0", 3.0},
		{"-0.1", -0.1},
		{"1e3", 1000.0},
		{".inf", math.Inf(1)},
		{"-.inf", math.Inf(-1)},
		{"true", true},
		{"false", false},
		{"True", true},
		{"null", nil},
		{"~", nil},
		{"text", "text"},
		{"'1'", "1"},
		{`"true"`, "true"},
		{"!!str 123", "123"},
		{"yes", "yes"}, // YAML 1.2: a string
		{"2024-01-02", "2024-01-02"},
		{"\"\"", ""},
	} {
		got := toValue(t, "v: "+tc.src+"\n").(map[string]any)["v"]
		if !reflect.DeepEqual(got, tc.want) || reflect.TypeOf(got) != reflect.TypeOf(tc.want) {
			t.Errorf("%s: got %#v (%T), want %#v (%T)", tc.src, got, got, tc.want, tc.want)
		}
	}
	if f, ok := toValue(t, "v: .nan\n").(map[string]any)["v"].(float64); !ok || !math.IsNaN(f) {
		t.Errorf(".nan: got %#v", f)
	}
	// Scalar on its own
	if got := yamlnode.Scalar(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "42"}); got != int64(42) {
		t.Errorf("Scalar = %#v", got)
	}
}

func TestToValueCollections(t *testing.T) {
	src := `
a: 1
list: [1, two, 3.5, null, [x]]
map: {k: v, n: {deep: true}}
empty_list: []
empty_map: {}
nothing:
"1": numeric key
`
	want := map[string]any{
		"a":          int64(1),
		"list":       []any{int64(1), "two", 3.5, nil, []any{"x"}},
		"map":        map[string]any{"k": "v", "n": map[string]any{"deep": true}},
		"empty_list": []any{},
		"empty_map":  map[string]any{},
		"nothing":    nil,
		"1":          "numeric key",
	}
	if got := toValue(t, src); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
	// integer keys become strings
	if got := toValue(t, "1: a\ntrue: b\n"); !reflect.DeepEqual(got, map[string]any{"1": "a", "true": "b"}) {
		t.Errorf("got %#v", got)
	}
	// a top-level sequence, an empty document
	if got := toValue(t, "- 1\n- b\n"); !reflect.DeepEqual(got, []any{int64(1), "b"}) {
		t.Errorf("got %#v", got)
	}
	if got := toValue(t, "---\n"); got != nil {
		t.Errorf("empty document: %#v", got)
	}
	if got, err := yamlnode.ToValue(&yaml.Node{Kind: yaml.DocumentNode}, yamlnode.DefaultLimits()); got != nil || err != nil {
		t.Errorf("document without content: %#v, %v", got, err)
	}
	// JSON is YAML
	if got := toValue(t, `{"n": 2, "f": 2.5, "s": "x", "b": false, "z": null, "l": [1]}`); !reflect.DeepEqual(got,
		map[string]any{"n": int64(2), "f": 2.5, "s": "x", "b": false, "z": nil, "l": []any{int64(1)}}) {
		t.Errorf("JSON: got %#v", got)
	}
}

func TestToValueAliasesAndMerges(t *testing.T) {
	src := `
base: &base {a: 1, b: 2}
other: &other {b: 20, c: 30}
single:
  <<: *base
  b: 3
multi:
  <<: [*base, *other]
  a: 10
copy: *base
inline:
  <<: {x: 1}
  y: 2
`
	got := toValue(t, src).(map[string]any)
	for key, want := range map[string]any{
		"single": map[string]any{"a": int64(1), "b": int64(3)},
		"multi":  map[string]any{"a": int64(10), "b": int64(2), "c": int64(30)}, // earlier merges win
		"copy":   map[string]any{"a": int64(1), "b": int64(2)},
		"inline": map[string]any{"x": int64(1), "y": int64(2)},
	} {
		if !reflect.DeepEqual(got[key], want) {
			t.Errorf("%s = %#v, want %#v", key, got[key], want)
		}
	}
	if _, ok := got["<<"]; ok {
		t.Error("a merge key is kept as a key")
	}
	// an explicit key set after the merge still wins
	got = toValue(t, "b: &b {k: 1}\nm:\n  k: 2\n  <<: *b\n").(map[string]any)
	if !reflect.DeepEqual(got["m"], map[string]any{"k": int64(2)}) {
		t.Errorf("m = %#v", got["m"])
	}
	// the converted values do not share maps: changing one copy leaves the other
	got = toValue(t, "a: &a {k: 1}\nb: *a\n").(map[string]any)
	got["a"].(map[string]any)["k"] = "changed"
	if got["b"].(map[string]any)["k"] != int64(1) {
		t.Error("alias expansions share one map")
	}
	// merging a scalar is an error
	_, err := yamlnode.ToValue(parse(t, "s: &s 5\nm:\n  <<: *s\n"), yamlnode.DefaultLimits())
	if err == nil || !strings.Contains(err.Error(), "merge key must name a mapping") {
		t.Errorf("merge of a scalar: %v", err)
	}
}

func TestToValueDuplicateKeys(t *testing.T) {
	for _, tc := range []struct {
		src       string
		line, col int
		key       string
	}{
		{"a: 1\nb: 2\na: 3\n", 3, 1, "a"},
		{"outer:\n  x: 1\n  x: 2\n", 3, 3, "x"},
		{"{k: 1, k: 2}", 1, 8, "k"},
		{"- {a: 1}\n- b: 1\n  b: 2\n", 3, 3, "b"},
	} {
		_, err := yamlnode.ToValue(parse(t, tc.src), yamlnode.DefaultLimits())
		var e *yamlnode.Error
		if !errors.As(err, &e) {
			t.Errorf("%q: err = %v, want a *yamlnode.Error", tc.src, err)
			continue
		}
		if e.Line != tc.line || e.Column != tc.col || e.Msg != `duplicate key "`+tc.key+`"` {
			t.Errorf("%q: %+v", tc.src, e)
		}
		if want := "line " + itoa(tc.line) + `: duplicate key "` + tc.key + `"`; err.Error() != want {
			t.Errorf("%q: Error() = %q, want %q", tc.src, err.Error(), want)
		}
	}
	// a key repeated through a merge is not a duplicate
	if _, err := yamlnode.ToValue(parse(t, "b: &b {k: 1}\nm:\n  <<: *b\n  k: 2\n"), yamlnode.DefaultLimits()); err != nil {
		t.Errorf("merge override: %v", err)
	}
	// a non-scalar key
	_, err := yamlnode.ToValue(parse(t, "? [a]\n: 1\n"), yamlnode.DefaultLimits())
	if err == nil || !strings.Contains(err.Error(), "mapping key is not a scalar") {
		t.Errorf("sequence key: %v", err)
	}
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

const billionLaughs = `
a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]
`

// TestToValueAliasBomb: ToValue gives up on a billion laughs once it has
// produced MaxNodes nodes.
func TestToValueAliasBomb(t *testing.T) {
	_, nodes, err := yamlnode.ToValueNodes(parse(t, billionLaughs), yamlnode.DefaultLimits())
	var e *yamlnode.Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "more than 1000000 nodes") || !strings.Contains(e.Msg, "alias bomb") {
		t.Errorf("err = %v", err)
	}
	if nodes > 1_000_001 {
		t.Errorf("gave up after %d nodes, want at most the limit and the one over it", nodes)
	}

	// a small limit: the source has few nodes, the expansion many
	lim := yamlnode.Limits{MaxDepth: 100, MaxNodes: 100}
	small := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: [*a, *a]\n"
	if _, err := yamlnode.ToValue(parse(t, small), lim); err != nil {
		t.Errorf("small document: %v", err)
	}
	big := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
	if _, err := yamlnode.ToValue(parse(t, big), lim); err == nil || !strings.Contains(err.Error(), "more than 100 nodes") {
		t.Errorf("expanded document: %v", err)
	}
	// merge keys expand too
	merges := "a: &a {k0: 0, k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6, k7: 7, k8: 8, k9: 9}\n"
	for i := range 12 {
		merges += "m" + itoa(i) + ": {<<: *a}\n"
	}
	if _, err := yamlnode.ToValue(parse(t, merges), lim); err == nil || !strings.Contains(err.Error(), "more than 100 nodes") {
		t.Errorf("merged document: %v", err)
	}
}

func TestToValueDepth(t *testing.T) {
	lim := yamlnode.Limits{MaxDepth: 5, MaxNodes: 1000}
	nest := func(n int) string { return strings.Repeat("[", n) + "1" + strings.Repeat("]", n) }
	if _, err := yamlnode.ToValue(parse(t, nest(5)), lim); err != nil {
		t.Errorf("5 levels: %v", err)
	}
	_, err := yamlnode.ToValue(parse(t, nest(7)), lim)
	var e *yamlnode.Error
	if !errors.As(err, &e) || e.Msg != "nesting deeper than 5 levels" || e.Line != 1 {
		t.Errorf("7 levels: %v", err)
	}
	// mappings count as well
	if _, err := yamlnode.ToValue(parse(t, "a: {b: {c: {d: {e: {f: {g: 1}}}}}}"), lim); err == nil || !strings.Contains(err.Error(), "nesting deeper than 5 levels") {
		t.Errorf("nested mappings: %v", err)
	}
	// and depth reached through an alias counts where it is used
	src := "a: &a [[[1]]]\nb: [[[*a]]]\n"
	if _, err := yamlnode.ToValue(parse(t, src), lim); err == nil {
		t.Error("depth through an alias is not counted")
	}
	if _, err := yamlnode.ToValue(parse(t, src), yamlnode.Limits{MaxDepth: 20, MaxNodes: 1000}); err != nil {
		t.Errorf("within limits: %v", err)
	}
	// the default limits accept real messages
	if d := yamlnode.DefaultLimits(); d.MaxDepth <= 0 || d.MaxNodes <= 0 {
		t.Errorf("DefaultLimits = %+v", d)
	}
}

const locateSrc = `name: x
metrics:
  quality: 1.5
plan:
  - one
  - two
base: &b
  q: 1
use: *b
`

func TestLocate(t *testing.T) {
	n := parse(t, locateSrc)
	k := func(s string) yamlnode.Step { return yamlnode.Step{Key: s, Index: -1} }
	i := func(x int) yamlnode.Step { return yamlnode.Step{Index: x} }
	for _, tc := range []struct {
		name      string
		path      []yamlnode.Step
		key       bool
		line, col int
	}{
		{"root", nil, false, 1, 1},
		{"top-level value", []yamlnode.Step{k("name")}, false, 1, 7},
		{"top-level key", []yamlnode.Step{k("name")}, true, 1, 1},
		{"nested value", []yamlnode.Step{k("metrics"), k("quality")}, false, 3, 12},
		{"nested key", []yamlnode.Step{k("metrics"), k("quality")}, true, 3, 3},
		{"mapping value", []yamlnode.Step{k("metrics")}, false, 3, 3},
		{"sequence", []yamlnode.Step{k("plan")}, false, 5, 3},
		{"sequence index", []yamlnode.Step{k("plan"), i(1)}, false, 6, 5},
		{"sequence index with key set", []yamlnode.Step{k("plan"), i(0)}, true, 5, 5},
		{"missing key", []yamlnode.Step{k("metrics"), k("tokens")}, false, 3, 3},
		{"missing key with key set", []yamlnode.Step{k("metrics"), k("tokens")}, true, 3, 3},
		{"missing top-level key", []yamlnode.Step{k("nope")}, true, 1, 1},
		{"index out of range", []yamlnode.Step{k("plan"), i(9)}, false, 5, 3},
		{"key into a sequence", []yamlnode.Step{k("plan"), k("x")}, false, 5, 3},
		{"index into a mapping", []yamlnode.Step{k("metrics"), i(0)}, false, 3, 3},
		{"below a scalar", []yamlnode.Step{k("name"), k("x"), k("y")}, false, 1, 7},
		{"through an alias", []yamlnode.Step{k("use"), k("q")}, false, 8, 6},
	} {
		line, col := yamlnode.Locate(n, tc.path, tc.key)
		if line != tc.line || col != tc.col {
			t.Errorf("%s: %d:%d, want %d:%d", tc.name, line, col, tc.line, tc.col)
		}
	}
	if line, col := yamlnode.Locate(nil, nil, false); line != 0 || col != 0 {
		t.Errorf("nil node: %d:%d", line, col)
	}
	// the document node and its root mapping give the same answers
	if line, col := yamlnode.Locate(n.Content[0], []yamlnode.Step{k("metrics"), k("quality")}, false); line != 3 || col != 12 {
		t.Errorf("from the mapping: %d:%d", line, col)
	}
	// JSON, flow style
	j := parse(t, "{\n  \"a\": {\"b\": [10, 20]}\n}")
	if line, col := yamlnode.Locate(j, []yamlnode.Step{k("a"), k("b"), i(1)}, false); line != 2 || col != 19 {
		t.Errorf("JSON: %d:%d", line, col)
	}
	if line, col := yamlnode.Locate(j, []yamlnode.Step{k("a"), k("b")}, true); line != 2 || col != 9 {
		t.Errorf("JSON key: %d:%d", line, col)
	}
}

func TestColumnsByte(t *testing.T) {
	src := []byte("\xef\xbb\xbfa: é\nplan: [Überprüfe, Tést it]\nx: 1\n")
	c := yamlnode.NewColumns(src)
	for _, tc := range []struct{ line, col, want int }{
		{1, 1, 4}, // after the byte order mark
		{1, 4, 7},
		{2, 7, 7},
		{2, 19, 21}, // "Tést it": Ü and ü are two bytes each
		{2, 1, 1},   // backwards on the line: counted afresh
		{2, 19, 21}, // and forwards again
		{2, 99, 30}, // past the line's end: its end
		{3, 4, 4},
		{4, 1, 1}, // the empty last line
		{0, 5, 5}, // no line: as it is
		{9, 3, 3},
	} {
		if got := c.Byte(tc.line, tc.col); got != tc.want {
			t.Errorf("Byte(%d, %d) = %d, want %d", tc.line, tc.col, got, tc.want)
		}
	}
	if got := (*yamlnode.Columns)(nil).Byte(2, 5); got != 5 {
		t.Errorf("nil Columns: Byte = %d, want 5", got)
	}
}

// On one long line (minified JSON), places asked for in source order are
// found in one walk of the line, not one walk from its start per place.
func TestColumnsByteLinear(t *testing.T) {
	const n = 20_000
	unit := `{"status": "é"}, `
	src := []byte("[" + strings.Repeat(unit, n) + "]\n")
	c := yamlnode.NewColumns(src)
	runes := utf8.RuneCount(src)
	step := utf8.RuneCountInString(unit)
	for i := range n {
		col := 2 + i*step + 11 // the value's opening quote
		if got, want := c.Byte(1, col), 2+i*len(unit)+11; got != want {
			t.Fatalf("value %d: Byte(1, %d) = %d, want %d", i, col, got, want)
		}
	}
	if c.Stepped() > runes {
		t.Errorf("%d places on a line of %d runes walked %d runes, want at most %d", n, runes, c.Stepped(), runes)
	}
}

func TestParsePath(t *testing.T) {
	k := func(s string) yamlnode.Step { return yamlnode.Step{Key: s, Index: -1} }
	i := func(n int) yamlnode.Step { return yamlnode.Step{Index: n} }
	for field, want := range map[string][]yamlnode.Step{
		"":                nil,
		"status":          {k("status")},
		"metrics.quality": {k("metrics"), k("quality")},
		"output.files[0]": {k("output"), k("files"), i(0)},
		"plan[1][2].x":    {k("plan"), i(1), i(2), k("x")},
		"plan[x].y":       {k("plan"), k("y")},
		"plan[-1]":        {k("plan")},
		"plan[3":          {k("plan")},
	} {
		if got := yamlnode.ParsePath(field); !reflect.DeepEqual(got, want) {
			t.Errorf("ParsePath(%q) = %v, want %v", field, got, want)
		}
	}
}
