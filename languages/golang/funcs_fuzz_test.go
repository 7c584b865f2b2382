package golang

import (
	"reflect"
	"testing"
)

// FuzzFunctions: the function facts of any input hold the invariants of
// checkFunctions (spans and constant positions inside the file, Shape
// sorted and unique, known operators and measures, sorted Fields and
// Calls), and extracting twice gives the same functions. Crashers found
// are kept under testdata/fuzz/FuzzFunctions.
func FuzzFunctions(f *testing.F) {
	for _, tt := range funcTests {
		f.Add([]byte(tt.src))
	}
	for _, tt := range tokenTests {
		f.Add([]byte("package p\nimport (\"slices\"; \"strings\")\nfunc f() {\n" + tt.body + "\n}\n"))
	}
	for _, s := range []string{
		"package p; func f() { if h.Status == \"x\" { ",
		"package p; func (",
		"package p; func () f() { return m[\"\"] < -'\\xff' }",
		"package p; const ( a = iota; b ); func f() { _ = x < b || -a == y[\"k\"][a] }",
		"package p; func f() { switch { case x: fallthrough }; select { case <-c: }; goto L; L: }",
		"package p; func f() { defer func() { recover() }(); go f(); x := []T{{1}, {k: 2}}; _ = x }",
		"package p; func f() { _ = len(strings.Fields(len(x))) < 1; _ = slices.Contains(nil, 1) }",
		"package p; func (T[K, V]) f(int, ...string) (err error) { _ = r.Get(\"a\").Get(\"b\").GetC() == 1e999 }",
		"package p; type H struct { A string `json:\"a\" validate:\"required\"` }; var R = []string{\"b\"}; func ValidateH(h H, m map[string]any) error { for _, f := range R { if _, ok := m[f]; !ok { return errors.New(f) } }; if h.A == \"\" || len(h.A) == 0 { return fmt.Errorf(\"a\") }; return v.Struct(&h) }",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ff, _ := Extract("fuzz.go", src)
		if ff == nil {
			t.Fatal("nil File")
		}
		checkFunctions(t, src, ff)
		again, _ := Extract("fuzz.go", src)
		if !reflect.DeepEqual(ff.Functions, again.Functions) {
			t.Fatalf("two extractions differ:\n%+v\n%+v", ff.Functions, again.Functions)
		}
	})
}
