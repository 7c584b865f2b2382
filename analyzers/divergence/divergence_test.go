package divergence

import (
	"slices"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/shape"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

func testModel(opts Options) *Model { return NewModel(msgcheck.DefaultSpec(), opts) }

// escalation is the token sequence of an escalation decision: if
// quality < X return true; if retries >= N return true; return false.
var escalation = []shape.Token{shape.Param, shape.If, shape.Lt, shape.Name, shape.Field, shape.Field, shape.Num,
	shape.Return, shape.Bool, shape.End, shape.If, shape.Ge, shape.Name, shape.Field, shape.Num, shape.Return,
	shape.Bool, shape.End, shape.Return, shape.Bool}

func fn(name string, line int, toks []shape.Token, fields []string, consts ...facts.Const) facts.Function {
	for i := range consts {
		consts[i].Pos = facts.Pos{Line: line + 1 + i, Col: 5}
	}
	return facts.Function{Name: name, Pos: facts.Pos{Line: line, Col: 1, Offset: line * 100}, End: facts.Pos{Line: line + 9, Offset: line*100 + 99},
		Params: []string{"h"}, Shape: shape.Fingerprint(toks), Size: len(toks), Fields: fields, Consts: consts}
}

func lt(field string, v float64) facts.Const { return facts.Const{Value: v, Field: field, Op: "<"} }
func ge(field string, v float64) facts.Const { return facts.Const{Value: v, Field: field, Op: ">="} }
func words(field string, v float64) facts.Const {
	return facts.Const{Value: v, Field: field, Measure: "words", Op: "<", Branch: facts.BranchReject}
}

func file(path, lang string, fns ...facts.Function) *facts.File {
	return &facts.File{Path: path, Lang: lang, Functions: fns}
}

func run(m *Model, files ...*facts.File) []finding.Finding {
	var cands []Candidate
	for _, f := range files {
		cands = append(cands, Candidates(f, m)...)
	}
	return Cluster(cands, m)
}

func rules(fs []finding.Finding) string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule+"@"+f.Path)
	}
	return strings.Join(out, " ")
}

func TestCandidates(t *testing.T) {
	m := testModel(Options{})
	hb := []string{"metrics.quality", "retry_count"}
	for _, tc := range []struct {
		name string
		fn   facts.Function
		path string
		want Concept
	}{
		{"escalation by name", fn("should_escalate", 1, escalation, hb, lt("metrics.quality", 0.5)), "a.py", Escalation},
		{"escalation, Go names", fn("Router.ShouldEscalate", 1, escalation, []string{"metrics.quality"}), "a.go", Escalation},
		{"log level escalation", fn("escalate_level", 1, escalation, []string{"levelno", "count"}), "a.py", 0},
		{"escalation reading only a generic field", fn("escalate", 1, escalation, []string{"status"}), "a.py", 0},
		{"delegate validation", fn("validate_delegate", 1, escalation, []string{"scope", "plan"}, words("scope", 15)), "a.py", DelegateValidation},
		{"validation without a kind in the name", fn("check", 1, escalation, []string{"scope", "success_criteria"}), "a.py", DelegateValidation},
		{"handback validation", fn("Validate", 1, escalation, []string{"output", "metrics.quality"}), "a.go", HandbackValidation},
		{"validation with common-word fields only", fn("check", 1, escalation, []string{"scope", "context"}), "a.py", 0},
		{"a receiver type is not the decision", fn("Checker.collectObjects", 1, escalation, []string{"scope", "context", "plan"}), "a.go", 0},
		{"the kind named by the receiver type", fn("DelegateValidator.Validate", 1, escalation, []string{"scope"}), "a.go", DelegateValidation},
		{"URL validation", fn("validate", 1, escalation, []string{"scheme", "netloc"}), "a.py", 0},
		{"health check", fn("check_health", 1, escalation, []string{"status"}), "a.py", 0},
		{"unrelated name", fn("fresh", 1, escalation, hb), "a.py", 0},
		{"test function", fn("test_validate_delegate", 1, escalation, []string{"scope", "plan"}), "a.py", 0},
		{"test file", fn("validate_delegate", 1, escalation, []string{"scope", "plan"}), "tests/helpers.py", 0},
		{"Go test file", fn("checkDelegate", 1, escalation, []string{"scope", "plan"}), "x_test.go", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := Candidates(file(tc.path, "python", tc.fn), m)
			var got Concept
			if len(cs) == 1 {
				got = cs[0].Concept
			}
			if got != tc.want {
				t.Errorf("concept = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCluster(t *testing.T) {
	hb := []string{"metrics.quality", "retry_count"}
	orig := file("skills/protocol_validator/escalation.py", "python", fn("escalate_handback", 5, escalation, hb, lt("metrics.quality", 0.5), ge("retry_count", 3)))
	copy1 := file("legacy/helpers.py", "python", fn("should_escalate", 3, escalation, hb, lt("metrics.quality", 0.6), ge("retry_count", 3)))
	port := file("router/escalate.go", "go", fn("ShouldEscalate", 20, escalation, hb, lt("metrics.quality", 0.7), ge("retry_count", 3)))

	t.Run("three copies, canonical by module name", func(t *testing.T) {
		fs := run(testModel(Options{}), orig, copy1, port)
		if got, want := rules(fs), "divergence/duplicate-escalation@legacy/helpers.py divergence/conflicting-threshold@legacy/helpers.py"; got != want {
			t.Fatalf("findings %s, want %s", got, want)
		}
		if len(fs[0].Related) != 3 || !strings.Contains(fs[0].Message, "escalate_handback (skills/protocol_validator/escalation.py:5) is the canonical one") {
			t.Errorf("duplicate: %s %v", fs[0].Message, fs[0].Related)
		}
		c := fs[1]
		if c.Literal != "0.6" || c.Canonical != "0.5" || len(c.Related) != 3 {
			t.Errorf("conflict: literal %q canonical %q related %v", c.Literal, c.Canonical, c.Related)
		}
		for _, v := range []string{"0.5 in escalate_handback", "0.6 in should_escalate", "0.7 in ShouldEscalate"} {
			if !strings.Contains(c.Message, v) {
				t.Errorf("conflict message lacks %q: %s", v, c.Message)
			}
		}
	})
	t.Run("canonical by option", func(t *testing.T) {
		fs := run(testModel(Options{Canonical: []string{"router/*.go:ShouldEscalate"}}), orig, copy1, port)
		if len(fs) != 2 || fs[1].Canonical != "0.7" || !strings.Contains(fs[0].Message, "ShouldEscalate (router/escalate.go:20) is the canonical one") {
			t.Errorf("findings: %v", fs)
		}
	})
	t.Run("agreeing copies: a duplicate, no conflict", func(t *testing.T) {
		same := file("legacy/helpers.py", "python", fn("should_escalate", 3, escalation, hb, lt("metrics.quality", 0.5), ge("retry_count", 3)))
		fs := run(testModel(Options{}), orig, same)
		if got := rules(fs); got != "divergence/duplicate-escalation@legacy/helpers.py" {
			t.Errorf("findings %s", got)
		}
		if !strings.Contains(fs[0].Message, "should_escalate agrees with it") {
			t.Errorf("message: %s", fs[0].Message)
		}
	})
	t.Run("a lone candidate is no finding", func(t *testing.T) {
		if fs := run(testModel(Options{}), orig); len(fs) != 0 {
			t.Errorf("findings: %v", fs)
		}
	})
	t.Run("different concepts do not cluster", func(t *testing.T) {
		val := file("v.py", "python", fn("validate_delegate", 1, escalation, []string{"scope", "plan"}, words("scope", 15)))
		if fs := run(testModel(Options{}), orig, val); len(fs) != 0 {
			t.Errorf("findings: %v", fs)
		}
	})
	t.Run("validation judged by the spec", func(t *testing.T) {
		good := file("validators/delegate.py", "python", fn("validate_delegate", 8, escalation, []string{"scope", "plan"}, words("scope", 15)))
		bad := file("api/checks.py", "python", fn("check_delegate", 4, escalation, []string{"scope", "plan"}, words("scope", 10)))
		fs := run(testModel(Options{}), good, bad)
		if got := rules(fs); got != "divergence/duplicate-validation@api/checks.py divergence/conflicting-threshold@api/checks.py divergence/spec-threshold@api/checks.py" {
			t.Fatalf("findings %s", got)
		}
		if s := fs[2]; s.Literal != "10" || s.Canonical != "15" || !strings.Contains(s.Message, "minWords 15 (embedded:protocol-core-v1.0.yaml:64)") {
			t.Errorf("spec finding: %+v", s)
		}
		if !strings.Contains(fs[0].Message, "validate_delegate (validators/delegate.py:8) agrees with the spec") ||
			!strings.Contains(fs[1].Message, "the spec says the word count of scope >= 15") || fs[1].Literal != "10" || fs[1].Canonical != "15" {
			t.Errorf("messages:\n%s\n%s", fs[0].Message, fs[1].Message)
		}
	})
	t.Run("order of input does not matter", func(t *testing.T) {
		m := testModel(Options{})
		a, b := run(m, orig, copy1, port), run(m, port, copy1, orig)
		if rules(a) != rules(b) || a[0].Message != b[0].Message || a[1].Message != b[1].Message {
			t.Errorf("order changed the findings:\n%v\n%v", a, b)
		}
	})
}

func TestPrefilter(t *testing.T) {
	m := testModel(Options{})
	if m.MayHaveCandidates("tests/test_escalation.py", []byte("def should_escalate(h): return h.quality < 0.5")) {
		t.Error("test files are never candidates, so never parsed for them")
	}
	for src, want := range map[string]bool{
		"def should_escalate(h): return h['metrics']['quality'] < 0.5": true,
		"func validate(d Delegate) error { return nil }":               true,
		"def validate(url): return url.startswith('https')":            false,
		"x = h['metrics']['quality']":                                  false,
	} {
		if got := m.MayHaveCandidates("x.py", []byte(strings.ToLower(src))); got != want {
			t.Errorf("MayHaveCandidates(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestNormalization: a status normalisation is a function named so that
// maps two or more HANDBACK statuses (canonical or legacy); two of them
// cluster.
func TestNormalization(t *testing.T) {
	m := testModel(Options{})
	norm := []shape.Token{shape.Param, shape.Assign, shape.Name, shape.Map, shape.Str, shape.Str, shape.Str, shape.Str,
		shape.End, shape.Return, shape.Call, shape.Name, shape.Name, shape.Name, shape.End}
	mk := func(path, name string, values ...string) *facts.File {
		f := file(path, "python", fn(name, 1, norm, nil))
		for i, v := range values {
			f.Strings = append(f.Strings, facts.String{Value: v, Role: facts.RoleValue, Pos: facts.Pos{Line: 2, Offset: 101 + i}})
		}
		return f
	}
	a := mk("workers/status.py", "normalize_status", "done", "success", "failed", "failure")
	b := mk("api/status.py", "to_canonical_status", "complete", "success", "failed", "failure")
	if cs := Candidates(a, m); len(cs) != 1 || cs[0].Concept != StatusNormalization {
		t.Fatalf("candidates of normalize_status: %+v", cs)
	}
	if cs := Candidates(mk("x.py", "normalize_path", "a", "b"), m); len(cs) != 0 {
		t.Errorf("normalize_path without statuses is a candidate: %+v", cs)
	}
	if got := rules(run(m, a, b)); got != "divergence/duplicate-normalization@api/status.py" {
		t.Errorf("findings %s", got)
	}
	// the statuses of one function do not make its neighbour one
	two := file("workers/two.py", "python", fn("normalize_path", 1, norm, nil), fn("route", 20, norm, nil))
	for i, v := range []string{"done", "success", "failed"} {
		two.Strings = append(two.Strings, facts.String{Value: v, Role: facts.RoleValue, Pos: facts.Pos{Line: 21, Offset: 2001 + i}})
	}
	if cs := Candidates(two, m); len(cs) != 0 {
		t.Errorf("statuses of route made normalize_path a candidate: %+v", cs)
	}
	two.Functions[1].Name = "normalize_status"
	if cs := Candidates(two, m); len(cs) != 1 || cs[0].Fn.Name != "normalize_status" {
		t.Errorf("candidates %+v, want normalize_status only", cs)
	}
}

// TestJudge: a count is judged by the bound its operator and branch make,
// against the spec's bounds of the kind the concept validates; a value by
// the spec's range, comparisons by order only.
func TestJudge(t *testing.T) {
	m := testModel(Options{})
	rej, acc, unk := facts.BranchReject, facts.BranchAccept, facts.BranchUnknown
	for _, tc := range []struct {
		concept     Concept
		field, meas string
		op          string
		v           float64
		branch      facts.Branch
		want        verdict
	}{
		// scope: minWords 15, however the floor is written
		{DelegateValidation, "scope", "words", "<", 15, rej, agrees},
		{DelegateValidation, "scope", "words", "<=", 14, rej, agrees},
		{DelegateValidation, "scope", "words", ">=", 15, acc, agrees},
		{DelegateValidation, "scope", "words", ">", 14, acc, agrees},
		{DelegateValidation, "scope", "words", "<", 10, rej, contradicts},
		{DelegateValidation, "scope", "words", "<=", 15, rej, contradicts}, // at least 16
		{DelegateValidation, "scope", "words", ">=", 20, acc, contradicts},
		{DelegateValidation, "scope", "words", "<", 10, unk, unjudged},  // a branch the code does not say
		{DelegateValidation, "scope", "words", ">", 400, rej, unjudged}, // a ceiling: the spec has none
		{DelegateValidation, "scope", "words", "==", 3, rej, unjudged},  // not a bound
		{Escalation, "scope", "words", "<", 10, rej, unjudged},          // counts are judged in validations
		{HandbackValidation, "scope", "words", "<", 10, rej, unjudged},  // scope is a DELEGATE field
		// plan: minItems 2; success_criteria: minItems 1
		{DelegateValidation, "plan", "len", "<", 2, rej, agrees},
		{DelegateValidation, "plan", "len", "<=", 1, rej, agrees},
		{DelegateValidation, "plan", "len", "==", 0, rej, contradicts}, // at least 1
		{DelegateValidation, "success_criteria", "len", "==", 0, rej, agrees},
		{DelegateValidation, "success_criteria", "len", "!=", 0, acc, agrees},
		{DelegateValidation, "success_criteria", "len", "==", 0, acc, unjudged},
		// a field the spec does not bound
		{DelegateValidation, "context", "len", "<", 5, rej, unjudged},
		// metrics.quality: minimum 0, maximum 1, whatever the branch
		{Escalation, "quality", "", "<", 0.5, acc, inside},
		{Escalation, "quality", "", "<", 0, unk, agrees},
		{Escalation, "quality", "", ">", 1, rej, agrees},
		{Escalation, "quality", "", ">=", 70, unk, contradicts},
		{HandbackValidation, "quality", "", "<", -1, rej, contradicts},
		{Escalation, "quality", "", "==", 70, unk, unjudged},
		{Escalation, "retry_count", "", "==", -1, unk, unjudged},
		{Escalation, "retry_count", "", ">=", 3, unk, inside},
		{DelegateValidation, "quality", "", ">=", 70, unk, unjudged}, // not a DELEGATE field
	} {
		k := thresholdKey{tc.field, tc.meas}
		x := constAt{value: tc.v, op: tc.op, field: tc.field, branch: tc.branch}
		if got := m.judge(tc.concept, k, x).verdict; got != tc.want {
			t.Errorf("%v: %s %s %s %g (branch %d): verdict %d, want %d", tc.concept, tc.field, tc.meas, tc.op, tc.v, tc.branch, got, tc.want)
		}
	}
}

// TestResolve: refs are looked up in the module the import names
// (relative or from a directory above), or the Go package whose directory
// ends the import path; a name defined twice, a module the tree lacks and
// a fenced block of a document stay unresolved.
func TestResolve(t *testing.T) {
	tree := fakeTree{
		"config/limits.py":       {"QUALITY_FLOOR": 0.6},
		"app/config/__init__.py": {"MIN_WORDS": 15},
		"app/agents/worker.py":   nil,
		"app/agents/rules.py":    {"MAX": 3},
		"svc/limits/limits.go":   {"MinQuality": 0.7},
		"svc/check/check.go":     nil,
		"svc/check/words.go":     {"minWords": 12},
		"svc/twice/a.go":         {"X": 1},
		"svc/twice/b.go":         {"X": 2},
		"svc/twice/c.go":         nil,
	}
	for _, tc := range []struct {
		path, lang, ref string
		want            any
	}{
		{"legacy/helpers.py", "python", "config.limits:QUALITY_FLOOR", 0.6},
		{"app/agents/worker.py", "python", "..config:MIN_WORDS", 15.0},
		{"app/agents/worker.py", "python", ".rules:MAX", 3.0},
		{"app/agents/worker.py", "python", "config:MIN_WORDS", 15.0}, // from app/, a package root above
		{"app/agents/worker.py", "python", ".rules:MIN", nil},
		{"app/agents/worker.py", "python", "nowhere:MIN", nil},
		{"app/agents/worker.py", "python", "....:MIN", nil}, // above the root
		{"svc/check/check.go", "go", "example.com/x/svc/limits:MinQuality", 0.7},
		{"svc/check/check.go", "go", ":minWords", 12.0},
		{"svc/twice/c.go", "go", ":X", nil},
		{"svc/check/check.go", "go", "example.com/x/other:MinQuality", nil},
		{"docs/guide.md", "markdown", "config.limits:QUALITY_FLOOR", nil},
	} {
		shared := []facts.Const{{Field: "metrics.quality", Op: "<", Ref: tc.ref, Name: "X"}}
		cands := []Candidate{{Path: tc.path, Lang: tc.lang, Fn: facts.Function{Consts: shared}}}
		Resolve(cands, tree)
		if got := cands[0].Fn.Consts[0].Value; got != tc.want {
			t.Errorf("%s %s: value %v, want %v", tc.path, tc.ref, got, tc.want)
		}
		if shared[0].Value != nil {
			t.Errorf("%s %s: the candidate's shared Consts were written to", tc.path, tc.ref)
		}
	}
}

// fakeTree is a Tree of files and the constants they define.
type fakeTree map[string]map[string]float64

func (ft fakeTree) Files(dir string) []string {
	var out []string
	for p := range ft {
		d := ""
		if i := strings.LastIndexByte(p, '/'); i >= 0 {
			d = p[:i]
		}
		if d == dir {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

func (ft fakeTree) Consts(p string) map[string]float64 { return ft[p] }

// ModuleFiles resolves as the scan's tree does: by the language registry.
func (ft fakeTree) ModuleFiles(lang, from, module string) []string {
	if l := extract.Named(lang); l != nil && l.ModuleFiles != nil {
		return l.ModuleFiles(ft.Files, "", from, module)
	}
	return nil
}

// TestCanonicalGlobsCompiledOnce: NewModel compiles the canonical globs
// once; one over the caps of internal/glob (2^14 patterns here, which
// doublestar expanded on every match) names nothing, one just under them
// is at most glob.MaxAlternatives patterns.
func TestCanonicalGlobsCompiledOnce(t *testing.T) {
	braces := "router/" + strings.Repeat("{*,*}{*,*}", 7) + "x.go"
	edge := "router/" + strings.Repeat("{a,b}", 6) + ".go:ShouldEscalate"
	m := testModel(Options{Canonical: []string{braces, edge}})
	if len(m.canonical) != 2 || m.canonical[0].glob != nil {
		t.Fatalf("canonical %+v: the first glob is over the caps", m.canonical)
	}
	if g := m.canonical[1].glob; g == nil || g.Alternatives() != 64 || m.canonical[1].name != "ShouldEscalate" {
		t.Fatalf("canonical %+v: want 64 patterns and a name", m.canonical[1])
	}
	if m.isCanonical("router/xx.go", "ShouldEscalate") || !m.isCanonical("router/ababab.go", "ShouldEscalate") ||
		m.isCanonical("router/ababab.go", "Other") {
		t.Error("isCanonical does not follow the compiled globs")
	}
}
