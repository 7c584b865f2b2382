package divergence

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"

	"github.com/protoscan-dev/protoscan/analyzers/divergence/witness"
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/shape"
	"github.com/protoscan-dev/protoscan/msgcheck"
	protocol "github.com/protoscan-dev/protoscan/msgcheck/evidence"
)

// RuleFormat is reported where code checks the text of a protocol field
// (a task_id) against a format that disagrees with the spec's, with a
// value one accepts and the other rejects; RuleFormatUnchecked where such
// a check's pattern cannot be compared.
const (
	RuleFormat          = "divergence/format"
	RuleFormatUnchecked = "divergence/format-unchecked"
)

// specFormat is the spec's format of a field, compiled for the witness
// search.
type specFormat struct {
	kinds kindSet
	msgcheck.Format
	prog *syntax.Prog // nil: the spec's pattern cannot be compared
}

// formatModel holds the spec's formats by field name (the last segment of
// the path, normalized), built on first use.
type formatModel struct {
	once    sync.Once
	byField map[string][]specFormat
	needles []formatNeedle // the prefilter's, one per field, in name order
}

// formatNeedle is a field with a format as the prefilter looks for it:
// its longest word, its name and its name without underscores.
type formatNeedle struct{ word, name, joined []byte }

func (m *Model) specFormats() map[string][]specFormat {
	m.fmts.once.Do(func() {
		m.fmts.byField = map[string][]specFormat{}
		for _, k := range []struct {
			name string
			set  kindSet
		}{{"delegate", kindDelegate}, {"handback", kindHandback}} {
		next:
			for _, fm := range m.spec.Formats(k.name) {
				if fm.Pattern == "" {
					// no format but lengths: a pattern of code is its
					// own policy, and a length is spec-threshold's
					continue
				}
				key := shape.FieldName(last(fm.Path))
				list := m.fmts.byField[key]
				for i := range list {
					if sf := &list[i]; sf.Pattern == fm.Pattern && sf.MinLength == fm.MinLength && sf.MaxLength == fm.MaxLength {
						sf.kinds |= k.set
						continue next
					}
				}
				if m.opts.SpecName != nil {
					fm.File = m.opts.SpecName(fm.File)
				}
				sf := specFormat{kinds: k.set, Format: fm}
				// JSON Schema's pattern is a search, as ECMA's test()
				sf.prog, _ = witness.Compile(fm.Pattern, false, false)
				m.fmts.byField[key] = append(list, sf)
			}
		}
		for _, name := range slices.Sorted(maps.Keys(m.fmts.byField)) {
			n := formatNeedle{name: []byte(name)}
			for w := range strings.SplitSeq(name, "_") {
				if len(w) > len(n.word) {
					n.word = []byte(w)
				}
			}
			if strings.Contains(name, "_") {
				n.joined = []byte(strings.ReplaceAll(name, "_", ""))
			}
			m.fmts.needles = append(m.fmts.needles, n)
		}
	})
	return m.fmts.byField
}

// formatCallNeedles are the words of a file that may match a field with
// a pattern (the prefilter's).
var formatCallNeedles = [][]byte{[]byte("re.compile"), []byte("re.match"), []byte("re.fullmatch"), []byte("re.search"), []byte("regexp."),
	[]byte(`"pattern"`), []byte(`'pattern'`)}

// mayHaveFormats tells whether a file's lower-cased bytes may hold a
// check of a field's format: a field the spec gives a pattern (rare: it
// is looked for first) and a pattern call or a schema's pattern.
func (m *Model) mayHaveFormats(lower []byte) bool {
	m.specFormats()
	for _, n := range m.fmts.needles {
		// its longest word, a plain substring search, rules most files out
		if !bytes.Contains(lower, n.word) {
			continue
		}
		if containsWord(lower, n.name, false) || n.joined != nil && containsWord(lower, n.joined, false) {
			return containsAny(lower, formatCallNeedles)
		}
	}
	return false
}

// Formats reports the checks of file f whose format of a protocol field
// disagrees with the spec's: a match of the field with a pattern that lets
// only matching values through (facts.Format with BranchAccept), with the
// length bounds the same function holds the field to, or the pattern and
// length bounds of the field's property in a JSON schema written in code,
// compared with the spec's pattern and length bounds by a witness, a value
// one accepts and the other rejects. Only fields of a kind the function or
// the file shows evidence of count. A pattern that cannot be compared (RE2
// has no lookaround or backreferences) is a note of RuleFormatUnchecked.
func Formats(f *facts.File, m *Model) []finding.Finding {
	if f == nil || m == nil || extract.IsTestPath(f.Path) {
		return nil
	}
	specs := m.specFormats()
	checks := schemaChecks(f, specs)
	if len(f.Formats) == 0 && len(checks) == 0 {
		return nil
	}
	for i := range f.Formats {
		fm := &f.Formats[i]
		if fm.Branch == facts.BranchAccept && len(specs[last(fm.Field)]) > 0 {
			min, max := codeLengths(enclosing(f, fm.Pos), fm.Field)
			checks = append(checks, check{Format: *fm, min: min, max: max})
		}
	}
	var out []finding.Finding
	seen := map[string]bool{}
	var fileKinds protocol.Kinds
	fileAsked := false
	for i := range checks {
		c := &checks[i]
		fm := &c.Format
		sfs := specs[last(fm.Field)]
		if m.kinds(fm.Field) == 0 {
			continue
		}
		fn := enclosing(f, fm.Pos)
		kinds := protocol.In(f, m.spec, fn)
		if !m.evidenced(kinds, sfs) {
			if !fileAsked {
				fileKinds, fileAsked = protocol.Of(f, m.spec), true
			}
			kinds = fileKinds
		}
		sf := m.evidencedFormat(kinds, sfs)
		if sf == nil || sf.prog == nil {
			continue
		}
		if len(seen) >= maxFormatChecks {
			break
		}
		key := fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%s\x00%v%v\x00%d\x00%d", fnName(fn), fm.Field, fm.Syntax, fm.Pattern, fm.Flags, fm.Start, fm.End, c.min, c.max)
		if seen[key] {
			continue
		}
		seen[key] = true
		prog, err := codeProgram(fm)
		if err != nil {
			out = append(out, finding.Finding{Rule: RuleFormatUnchecked, Severity: finding.Note,
				Location: finding.Location{Path: f.Path, Line: fm.PatternPos.Line, Col: fm.PatternPos.Col},
				Message:  fmt.Sprintf("%s's pattern for %s is not compared with the spec's: %v", who(fn, fm), fm.Field, err),
				Literal:  fm.Pattern})
			continue
		}
		r := witness.Find(witness.Side{Prog: prog, Min: c.min, Max: c.max}, witness.Side{Prog: sf.prog, Min: sf.MinLength, Max: sf.MaxLength}, witness.Options{})
		if !r.Found {
			continue
		}
		out = append(out, formatFinding(f, fn, fm, sf, c.min, c.max, r))
	}
	return out
}

// maxFormatChecks bounds the formats of one file compared with the
// spec's: each comparison is a witness search of bounded work.
const maxFormatChecks = 64

// check is a format of code: a match of a field, or a property of a JSON
// schema in code, with its length bounds (max -1: none).
type check struct {
	facts.Format
	min, max int
}

// schemaChecks are the formats of the JSON schemas written in f's code: a
// property of a field the spec gives a pattern, under "properties", with
// a "pattern" of its own ({"properties": {"task_id": {"type": "string",
// "pattern": "^...$", "maxLength": 64}}}). JSON Schema's pattern matches
// anywhere, as ECMA's test(): read as RE2, as msgcheck reads the spec's.
func schemaChecks(f *facts.File, specs map[string][]specFormat) []check {
	var props map[int]bool // offsets of the mappings that are "properties"
	var out []check
	for i := range f.Mappings {
		mp := &f.Mappings[i]
		if !mp.InCode {
			continue
		}
		for _, e := range mp.Entries {
			if _, ok := e.Value.(map[string]any); ok && e.Key == "properties" {
				if props == nil {
					props = map[int]bool{}
				}
				props[e.ValPos.Offset] = true
			}
		}
	}
	if props == nil {
		return nil
	}
	byPos := make(map[int]*facts.Mapping, len(props))
	for i := range f.Mappings {
		byPos[f.Mappings[i].Pos.Offset] = &f.Mappings[i]
	}
	for off := range props {
		mp := byPos[off]
		if mp == nil {
			continue
		}
		for _, e := range mp.Entries {
			field := shape.FieldName(e.Key)
			prop, ok := e.Value.(map[string]any)
			if !ok || len(specs[field]) == 0 {
				continue
			}
			pattern, ok := prop["pattern"].(string)
			if !ok {
				continue
			}
			c := check{Format: facts.Format{Field: field, Pattern: pattern, Syntax: "schema", Pos: e.ValPos, PatternPos: e.ValPos, Branch: facts.BranchAccept},
				min: 0, max: -1}
			if pm := byPos[e.ValPos.Offset]; pm != nil {
				for _, pe := range pm.Entries {
					if pe.Key == "pattern" {
						c.Pos, c.PatternPos = pe.ValPos, pe.ValPos
					}
				}
			}
			if n, ok := count(prop["minLength"]); ok {
				c.min = n
			}
			if n, ok := count(prop["maxLength"]); ok {
				c.max = n
			}
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b check) int { return a.Pos.Offset - b.Pos.Offset })
	return out
}

// count is a schema's count keyword's value: a whole number, not negative.
func count(v any) (int, bool) {
	switch n := v.(type) {
	case int64:
		if n >= 0 && n <= 1<<20 {
			return int(n), true
		}
	case float64:
		if n >= 0 && n <= 1<<20 && n == float64(int(n)) {
			return int(n), true
		}
	}
	return 0, false
}

// evidenced tells whether kinds holds a kind one of sfs is a format of.
func (m *Model) evidenced(kinds protocol.Kinds, sfs []specFormat) bool {
	return m.evidencedFormat(kinds, sfs) != nil
}

func (m *Model) evidencedFormat(kinds protocol.Kinds, sfs []specFormat) *specFormat {
	var set kindSet
	if kinds.Has("delegate") {
		set |= kindDelegate
	}
	if kinds.Has("handback") {
		set |= kindHandback
	}
	for i := range sfs {
		if sfs[i].kinds&set != 0 {
			return &sfs[i]
		}
	}
	return nil
}

// enclosing is the function whose body holds p, or nil.
func enclosing(f *facts.File, p facts.Pos) *facts.Function {
	for i := range f.Functions {
		if fn := &f.Functions[i]; fn.Pos.Offset <= p.Offset && p.Offset < fn.End.Offset {
			return fn
		}
	}
	return nil
}

func fnName(fn *facts.Function) string {
	if fn == nil {
		return "the check"
	}
	return fn.Name
}

// who names the check: its function, or a schema (in its function).
func who(fn *facts.Function, fm *facts.Format) string {
	if fm.Syntax != "schema" {
		return fnName(fn)
	}
	if fn == nil {
		return "the JSON schema"
	}
	return "the JSON schema in " + fn.Name
}

// codeLengths are the length bounds fn holds field to, in validations
// whose branch is known (len(x) > 64 then reject is at most 64); -1 for
// none.
func codeLengths(fn *facts.Function, field string) (min, max int) {
	min, max = 0, -1
	if fn == nil {
		return min, max
	}
	for _, c := range fn.Consts {
		v, ok := c.Value.(float64)
		if !ok || c.Measure != "len" || c.Field != field || v < 0 || v > 1<<20 {
			continue
		}
		floor, b, ok := countBound(constAt{value: v, op: c.Op, branch: c.Branch})
		if !ok {
			continue
		}
		switch {
		case floor && int(b) > min:
			min = int(b)
		case !floor && (max < 0 || int(b) < max):
			max = int(b)
		}
	}
	return min, max
}

// codeProgram compiles a check's pattern as its call matches it.
func codeProgram(fm *facts.Format) (*syntax.Prog, error) {
	pattern := fm.Pattern
	switch fm.Syntax {
	case "python":
		var err error
		if pattern, err = witness.FromPython(fm.Pattern, fm.Flags); err != nil {
			return nil, err
		}
	case "re2", "schema":
		if fm.Flags != "" {
			return nil, fmt.Errorf("flags computed at run time")
		}
	default:
		return nil, fmt.Errorf("a pattern of %s", fm.Syntax)
	}
	prog, err := witness.Compile(pattern, fm.Start, fm.End)
	var se *syntax.Error
	if errors.As(err, &se) {
		return nil, fmt.Errorf("RE2 has no %s: `%s`", strings.TrimPrefix(se.Code.String(), "invalid or unsupported "), se.Expr)
	}
	if err != nil {
		return nil, err
	}
	return prog, nil
}

func formatFinding(f *facts.File, fn *facts.Function, fm *facts.Format, sf *specFormat, min, max int, r witness.Result) finding.Finding {
	field := fm.Field[strings.LastIndexByte(fm.Field, '.')+1:]
	code := describeCheck(fm, min, max)
	spec := describeSpec(sf)
	fd := finding.Finding{Rule: RuleFormat, Severity: finding.Error, Location: finding.Location{Path: f.Path, Line: fm.Pos.Line, Col: fm.Pos.Col},
		Literal: fm.Pattern, Canonical: sf.Pattern}
	if r.Accepts == 1 {
		fd.Message = fmt.Sprintf("%s is a valid %s that %s rejects: it matches %s with %s; the spec's format is %s",
			quoteWitness(r.Witness), field, who(fn, fm), fm.Field, code, spec)
	} else {
		fd.Message = fmt.Sprintf("%s accepts the %s %s, which the spec rejects: it matches %s with %s; the spec's format is %s",
			who(fn, fm), field, quoteWitness(r.Witness), fm.Field, code, spec)
	}
	if fm.PatternPos.Line != 0 && fm.PatternPos.Line != fm.Pos.Line {
		fd.Related = []finding.Location{{Path: f.Path, Line: fm.PatternPos.Line, Col: fm.PatternPos.Col, Message: "the pattern"}}
	}
	return fd
}

// describeCheck names a check's pattern, its call's anchoring and its
// length bounds: "TASK_ID_RE `^[a-z]+$` (re.match: anchored at the start
// only) and at most 64 characters".
func describeCheck(fm *facts.Format, min, max int) string {
	var b strings.Builder
	if fm.Name != "" {
		b.WriteString(fm.Name + " ")
	}
	fmt.Fprintf(&b, "`%s`", fm.Pattern)
	if fm.Flags != "" {
		fmt.Fprintf(&b, " (flags %s)", fm.Flags)
	}
	switch {
	case fm.Syntax == "python" && fm.Start && fm.End:
		b.WriteString(" (fullmatch)")
	case fm.Syntax == "python" && fm.Start:
		b.WriteString(" (re.match: anchored at the start only)")
	case fm.Syntax == "python":
		b.WriteString(" (re.search: anywhere in the value)")
	case fm.Syntax == "schema":
		b.WriteString(" (a JSON schema's pattern: anywhere in the value)")
	default:
		b.WriteString(" (MatchString: anywhere in the value)")
	}
	b.WriteString(lengths(min, max))
	return b.String()
}

func describeSpec(sf *specFormat) string {
	return fmt.Sprintf("`%s`%s (%s:%d)", sf.Pattern, lengths(max(sf.MinLength, 0), sf.MaxLength), sf.File, sf.Line)
}

func lengths(min, max int) string {
	switch {
	case min > 0 && max >= 0:
		return fmt.Sprintf(" and %d-%d characters", min, max)
	case min > 0:
		return fmt.Sprintf(" and at least %d characters", min)
	case max >= 0:
		return fmt.Sprintf(" and at most %d characters", max)
	}
	return ""
}

// quoteWitness writes a witness between backticks, or Go-quoted when
// backticks cannot hold it (empty, a backtick, spaces at its ends).
func quoteWitness(w string) string {
	if w == "" || strings.ContainsRune(w, '`') || strings.TrimSpace(w) != w {
		return fmt.Sprintf("%q", w)
	}
	return "`" + w + "`"
}
