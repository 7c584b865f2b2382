package msgcheck

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/safefile"
	"github.com/protoscan-dev/protoscan/internal/yamlnode"
)

// NodeLimits bound the conversion of a YAML or JSON node into a message
// value; a zero field takes its default (1000 levels, 1,000,000 nodes).
type NodeLimits struct {
	MaxDepth int // deepest nesting of mappings and sequences
	MaxNodes int // values produced, counting every alias expansion
}

// Options configure a Validator.
type Options struct {
	// Root is the repository the messages belong to. Fields with existsIn
	// (a DELEGATE's skill) are looked up under it; with no Root, or no such
	// directory under it, the check is skipped with a warning.
	Root string
	// Limits bound the conversion of YAML/JSON nodes in ValidateNode.
	Limits NodeLimits
	// Timing fills Result.Duration. Reading the clock twice costs about
	// 0.2 µs on a virtual machine with kvm-clock, a fifth of validating a
	// valid message, so a caller that validates in a loop and does not
	// report durations leaves it off.
	Timing bool
	// UncheckedOnce leaves out of every result the warning that a field
	// with existsIn is not checked because none of its directories exists
	// (msgcheck/<kind>-<field>-unchecked): the caller, which validates
	// many messages, says it once for all of them (Validator.Unchecked).
	UncheckedOnce bool
}

// Validator validates messages against one or more versions of a spec.
// It is immutable after New and safe for concurrent use.
type Validator struct {
	specs  []*Spec // specs[0] is the default
	root   string
	limits yamlnode.Limits
	timing bool
	// uncheckedOnce: see Options.UncheckedOnce
	uncheckedOnce bool
	// entries holds, per schema with existsIn, what the repository has.
	entries map[*schema]*entrySet
	// versions are the specs' versions, normalized once (see specFor).
	versions []string
}

// entrySet is the names found in the existing directories of one existsIn
// list: subdirectories, and NAME for each NAME.md.
type entrySet struct {
	present     []string // the directories of the list that exist
	presentText string   // "skills/ or src/skills/", for messages
	names       map[string]struct{}
}

// New returns a validator for the given specs; the first is the default,
// the others are chosen by a message's protocol_version or spec_version.
// The repository directories the specs' existsIn keywords name are read
// once, here, so validation does no I/O.
func New(opts Options, specs ...*Spec) (*Validator, error) {
	if len(specs) == 0 {
		return nil, fmt.Errorf("msgcheck: no spec given")
	}
	v := &Validator{specs: specs, root: opts.Root, limits: yamlnode.Limits{MaxDepth: opts.Limits.MaxDepth, MaxNodes: opts.Limits.MaxNodes}, timing: opts.Timing, uncheckedOnce: opts.UncheckedOnce, entries: map[*schema]*entrySet{}}
	v.limits = v.limits.OrDefault()
	for _, sp := range specs {
		v.versions = append(v.versions, normalizeVersion(sp.Version))
	}
	read := map[string]map[string]struct{}{} // directory -> names; nil when missing
	for _, sp := range specs {
		for _, sc := range sp.existsSchemas() {
			set := &entrySet{names: map[string]struct{}{}}
			for _, dir := range sc.existsIn {
				names, done := read[dir]
				if !done && v.root != "" {
					// dir is relative and inside the root (the spec
					// loader says so); a link out of it counts as absent
					if full := filepath.Join(v.root, filepath.FromSlash(dir)); safefile.Within(v.root, full) {
						names = readEntries(full)
					}
					read[dir] = names
				}
				if names == nil {
					continue
				}
				set.present = append(set.present, dir)
				for n := range names {
					set.names[n] = struct{}{}
				}
			}
			set.presentText = dirList(set.present, " or ")
			v.entries[sc] = set
		}
	}
	return v, nil
}

func readEntries(dir string) map[string]struct{} {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	set := map[string]struct{}{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			set[name] = struct{}{}
		} else if base, ok := strings.CutSuffix(name, ".md"); ok {
			set[base] = struct{}{}
		}
	}
	return set
}

// Spec returns the default spec.
func (v *Validator) Spec() *Spec { return v.specs[0] }

// Unchecked says which repository checks no message of kind can pass or
// fail, because none of the directories a field's existsIn names exists
// under the root: one sentence per list of directories, sorted, such as
// "skill: not checked: no skills/ or src/skills/ directory in the
// repository /srv/x".
func (v *Validator) Unchecked(kind string) []string {
	seen := map[string]bool{}
	var out []string
	for _, sp := range v.specs {
		k := sp.kind(kind)
		if k == nil {
			continue
		}
		for _, f := range k.order {
			for _, sc := range existsIn(f.schema) {
				if set := v.entries[sc]; set != nil && len(set.present) > 0 {
					continue
				}
				if t := f.name + ": " + uncheckedText(sc.existsIn, v.rootName()); !seen[t] {
					seen[t] = true
					out = append(out, t)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

func uncheckedText(dirs []string, root string) string {
	return "not checked: no " + dirList(dirs, " or ") + " directory in the repository " + root
}

func (v *Validator) rootName() string {
	if v.root == "" {
		return "(no repository root given)"
	}
	return v.root
}

// Finding is one error or warning about a message.
type Finding struct {
	Field   string `json:"field"`   // "plan[1]", "metrics.quality"; empty for the whole message
	Rule    string `json:"rule"`    // "msgcheck/delegate-plan-words"
	Message string `json:"message"` // "plan[1]: each step must be >=3 words (got 'Test it')"
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`

	path  []yamlnode.Step // what to point at in the source
	atKey bool            // point at the last key rather than its value
}

// RenameTo is, for a finding on a field held under its former name
// (msgcheck/<kind>-<field>-renamed, the former name alone), the name the
// key should have: renaming Field to it fixes the finding. It is "" for
// every other finding. It is read from the finding's text, so that
// findings carry nothing more for it.
func (f Finding) RenameTo() string {
	if !strings.HasSuffix(f.Rule, "-renamed") {
		return ""
	}
	to, ok := strings.CutPrefix(f.Message, f.Field+renamedText)
	if !ok || to == "" || strings.ContainsAny(to, " ,(") {
		return "" // the former name beside the field: no rename
	}
	return to
}

// Result is the outcome of validating one message. Its JSON form is the
// contract of seed 000: valid, errors, warnings, duration_ms, field_types.
type Result struct {
	Kind        string // "delegate", "handback"; empty when it could not be told
	SpecVersion string // version of the spec the message was checked against
	Valid       bool
	Errors      []Finding
	Warnings    []Finding
	Duration    time.Duration // with Options.Timing; else 0

	value map[string]any // for FieldTypes
	// text backs the findings' texts when ValidateTapeInto wrote them:
	// reused by its next call with this Result, as its lists are
	text []byte
}

// add appends f to the errors or warnings and returns its index there.
func (r *Result) add(f Finding, warning bool) int {
	list := &r.Errors
	if warning {
		list = &r.Warnings
	} else {
		r.Valid = false
	}
	if *list == nil {
		*list = make([]Finding, 0, 8) // one allocation for the usual few findings
	}
	*list = append(*list, f)
	return len(*list) - 1
}

// FieldTypes gives the JSON type of each top-level field, for debugging.
// It is computed on demand so that validation itself does not allocate.
func (r *Result) FieldTypes() map[string]string {
	out := make(map[string]string, len(r.value))
	for k, v := range r.value {
		out[k] = jsonType(v)
	}
	return out
}

// MarshalJSON writes the seed's ValidationResult shape.
func (r Result) MarshalJSON() ([]byte, error) { return json.Marshal(r.JSON()) }

// Validate checks one decoded message (map[string]any from JSON or YAML).
// kindName is "delegate", "handback"..., or "" to tell the kind from the
// message as MessageKind does: its marker, its type, the spec's
// signatures. Findings carry no line numbers; ValidateNode adds them.
func (v *Validator) Validate(kindName string, msg any) Result {
	if !v.timing {
		return v.run(kindName, msg)
	}
	start := time.Now()
	res := v.run(kindName, msg)
	res.Duration = time.Since(start)
	return res
}

// run validates with a pooled walk state and hands back the result.
func (v *Validator) run(kindName string, msg any) Result { return v.walk(kindName, msg, false) }

// runLocated also keeps each finding's path, for positions.
func (v *Validator) runLocated(kindName string, msg any) Result { return v.walk(kindName, msg, true) }

// maxPooledText is the largest text buffer a pooled walk state keeps.
const maxPooledText = 64 << 10

func (v *Validator) walk(kindName string, msg any, locate bool) Result {
	st := statePool.Get().(*state)
	res := v.walkWith(st, kindName, msg, locate)
	if cap(st.text) > maxPooledText {
		st.text, st.pending = nil, nil // a huge message must not pin its texts in the pool
	}
	statePool.Put(st)
	return res
}

// walkWith is walk on the state st, whose counters (checks, compared)
// it leaves as the walk ends.
func (v *Validator) walkWith(st *state, kindName string, msg any, locate bool) Result {
	st.v, st.res, st.path, st.locate = v, Result{Valid: true}, st.buf[:0], locate
	st.text, st.pending, st.checks, st.compared = st.text[:0], st.pending[:0], 0, 0
	v.validate(kindName, msg, st)
	st.checkBudget()
	st.finish(false)
	res := st.res
	st.v, st.kind, st.field, st.res = nil, nil, nil, Result{}
	return res
}

func (v *Validator) validate(kindName string, msg any, st *state) {
	res := &st.res
	m, isMap := msg.(map[string]any)
	if !isMap {
		res.add(Finding{Rule: "msgcheck/not-a-message", Message: fmt.Sprintf("message must be a mapping of fields (got %s)", jsonType(msg))}, false)
		return
	}
	res.value = m
	// With one spec loaded there is nothing to choose: a named version is
	// only checked, by the field loop below when the kind declares the
	// version fields, saving two lookups per message.
	spec, checkLater := v.specs[0], false
	if len(v.specs) > 1 {
		spec = v.specFor(m, res)
	} else {
		checkLater = true
	}
	res.SpecVersion = spec.Version
	var k *kind
	if kindName == "" {
		k = spec.messageKind(m)
		if k == nil {
			res.add(Finding{Rule: "msgcheck/unknown-kind", Message: "cannot tell the message kind: " + spec.signatureText()}, false)
			return
		}
	} else if k = spec.kind(kindName); k == nil {
		res.add(Finding{Rule: "msgcheck/unknown-kind", Message: fmt.Sprintf("unknown message kind %q (spec %s defines %s)", kindName, spec.Version, strings.Join(spec.Kinds(), ", "))}, false)
		return
	}
	res.Kind = k.name
	st.kind = k
	if checkLater && !k.declaresVersions {
		v.specFor(m, res)
		checkLater = false
	}
	known := 0
	for i, f := range k.order {
		if known == len(m) && i > k.lastRequired {
			break // every field of the message is seen and none is required further on
		}
		val, present := m[f.name]
		if !present {
			if f.formerly != nil {
				if old, fv, ok := formerIn(f, m); ok {
					known++
					st.renamed(f, old)
					st.validate(f.schema, fv)
					st.former = ""
					continue
				}
			}
			if f.required {
				st.addText(false, Finding{Field: f.name, Rule: f.ruleIDs["required"]}, "required field is missing")
			}
			continue
		}
		known++
		if checkLater && f.isVersion {
			// protocol_version wins over spec_version, as in specFor
			if f.name == versionKeys[0] || !hasField(m, versionKeys[0]) {
				v.checkVersion(f.name, val, res)
				checkLater = false
			}
		}
		st.field, st.warn = f, !f.core
		st.path = append(st.path[:0], yamlnode.Step{Key: f.name, Index: -1})
		st.validate(f.schema, val)
	}
	if known < len(m) {
		v.unknownFields(k, m, res)
	}
	if len(k.rules) > 0 {
		evalRules(k, m, res)
	}
}

func (v *Validator) unknownFields(k *kind, m map[string]any, res *Result) {
	var unknown []string
	for name, val := range m {
		if _, ok := k.fields[name]; !ok && !typeMarks(k, name, val) {
			unknown = append(unknown, name)
		}
	}
	slices.Sort(unknown)
	for _, name := range unknown {
		if f := k.formerly[name]; f != nil {
			if checked := checkedAs(f, func(n string) bool { _, ok := m[n]; return ok }); checked != name {
				res.add(formerFinding(k, f, name, checked), true)
			}
			continue
		}
		res.add(Finding{Field: name, Rule: k.unknownRule,
			Message: string(appendUnknownField(nil, k, name)),
			path:    []yamlnode.Step{{Key: name, Index: -1}}, atKey: true}, true)
	}
}

// typeMarks reports the TypeField of a message whose kind it names
// ("type: handback"): it is the message's marker, no unknown field.
func typeMarks(k *kind, name string, val any) bool {
	s, ok := val.(string)
	return ok && name == TypeField && k.idField() != "" && k.namedBy(s)
}

// appendUnknownField appends the message of an unknown field's warning.
func appendUnknownField(b []byte, k *kind, name string) []byte {
	b = append(b, "Unknown field '"...)
	b = append(b, name...)
	b = append(b, "' in "...)
	b = append(b, k.title...)
	return append(b, " (will be ignored)"...)
}

// specFor picks the spec version a message names, warning when that
// version is not loaded.
func (v *Validator) specFor(m map[string]any, res *Result) *Spec {
	for _, key := range versionKeys {
		if raw, ok := m[key]; ok {
			return v.checkVersion(key, raw, res)
		}
	}
	return v.specs[0]
}

// versionKeys are the fields a message names its spec version in, in
// order of precedence.
var versionKeys = [...]string{"protocol_version", "spec_version"}

// checkVersion returns the loaded spec of the version raw names, or the
// default with a warning.
func (v *Validator) checkVersion(key string, raw any, res *Result) *Spec {
	want := normalizeVersion(raw)
	for i, sp := range v.specs {
		if v.versions[i] == want {
			return sp
		}
	}
	res.add(Finding{Field: key, Rule: "msgcheck/unknown-spec-version",
		Message: fmt.Sprintf("%s: spec version '%s' is not loaded (checked against %s)", key, formatPlain(raw), v.specs[0].Version),
		path:    []yamlnode.Step{{Key: key, Index: -1}}}, true)
	return v.specs[0]
}

// normalizeVersion makes "v1.0", "1.0", 1 and 1.0 the same version.
func normalizeVersion(raw any) string {
	str, isStr := raw.(string)
	if !isStr {
		str = formatPlain(raw)
	}
	s := strings.TrimPrefix(strings.TrimSpace(strings.ToLower(str)), "v")
	for strings.HasSuffix(s, ".0") {
		s = strings.TrimSuffix(s, ".0")
	}
	return s
}

// detect tells a message's kind from the spec's signatures: every
// signature field must be present; ties go to the kind with more of its
// fields present.
func (s *Spec) detect(m map[string]any) *kind {
	var best *kind
	bestScore, tie := -1, false
	for _, k := range s.kinds {
		if len(k.signature) == 0 {
			continue
		}
		all := true
		for _, f := range k.signature {
			if _, ok := m[f]; !ok {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		score := 0
		for name := range k.fields {
			if _, ok := m[name]; ok {
				score++
			}
		}
		switch {
		case score > bestScore:
			best, bestScore, tie = k, score, false
		case score == bestScore:
			tie = true
		}
	}
	if tie {
		return nil
	}
	return best
}

// Detect returns the kind a message's fields identify, or "".
func (s *Spec) Detect(m map[string]any) string {
	if k := s.detect(m); k != nil {
		return k.name
	}
	return ""
}

func (s *Spec) signatureText() string {
	var parts []string
	for _, k := range s.kinds {
		if len(k.signature) > 0 {
			parts = append(parts, fmt.Sprintf("a %s has %s", k.title, strings.Join(k.signature, ", ")))
		}
	}
	if len(parts) == 0 {
		return "the spec gives no signatures; name the kind"
	}
	return strings.Join(parts, "; ") + "; name the kind to validate it anyway"
}

// existsSchemas lists the schemas of a spec that carry existsIn.
func (s *Spec) existsSchemas() []*schema {
	var out []*schema
	seen := map[*schema]bool{}
	for _, k := range s.kinds {
		for _, f := range k.order {
			for _, sc := range existsIn(f.schema) {
				if !seen[sc] {
					seen[sc] = true
					out = append(out, sc)
				}
			}
		}
	}
	return out
}

// existsIn lists the schemas under sc, itself included, that carry
// existsIn.
func existsIn(sc *schema) []*schema {
	var out []*schema
	seen := map[*schema]bool{}
	var walk func(sc *schema)
	walk = func(sc *schema) {
		if sc == nil || seen[sc] {
			return
		}
		seen[sc] = true
		if sc.existsIn != nil {
			out = append(out, sc)
		}
		for _, child := range sc.children() {
			walk(child)
		}
	}
	walk(sc)
	return out
}

// ValidateNode validates a message read from YAML or JSON (see
// languages/yamldoc and languages/jsondoc) and gives every finding the
// line and column of what it is about. An error means the node could not
// be turned into a message at all (an alias bomb, too deep).
func (v *Validator) ValidateNode(kindName string, n *yaml.Node) (Result, error) {
	var start time.Time
	if v.timing {
		start = time.Now()
	}
	val, err := yamlnode.ToValue(n, v.limits)
	if err != nil {
		return Result{}, err
	}
	res := v.runLocated(kindName, val)
	for _, list := range [][]Finding{res.Errors, res.Warnings} {
		for i := range list {
			list[i].Line, list[i].Column = yamlnode.Locate(n, list[i].path, list[i].atKey)
		}
		// source order reads best; the sort is stable, so findings at one
		// place keep the spec's order
		slices.SortStableFunc(list, func(a, b Finding) int {
			if a.Line != b.Line {
				return a.Line - b.Line
			}
			return a.Column - b.Column
		})
	}
	if v.timing {
		res.Duration = time.Since(start)
	}
	return res, nil
}

// String renders a finding as text: "line:col: message" when placed.
func (f Finding) String() string {
	if f.Line > 0 {
		return strconv.Itoa(f.Line) + ":" + strconv.Itoa(f.Column) + ": " + f.Message
	}
	return f.Message
}

// ResultJSON is the JSON shape of a Result, for callers that add fields of
// their own around it (the file a message came from).
type ResultJSON struct {
	Kind        string            `json:"kind"`
	SpecVersion string            `json:"spec_version,omitempty"`
	Valid       bool              `json:"valid"`
	Errors      []Finding         `json:"errors"`
	Warnings    []Finding         `json:"warnings"`
	DurationMS  float64           `json:"duration_ms"`
	FieldTypes  map[string]string `json:"field_types"`
}

// JSON returns the result in its JSON shape, with empty lists rather than
// nulls.
func (r Result) JSON() ResultJSON {
	errs, warns := r.Errors, r.Warnings
	if errs == nil {
		errs = []Finding{}
	}
	if warns == nil {
		warns = []Finding{}
	}
	return ResultJSON{r.Kind, r.SpecVersion, r.Valid, errs, warns, float64(r.Duration.Nanoseconds()) / 1e6, r.FieldTypes()}
}

func hasField(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// Path returns the steps into the message of what f is about, as
// ValidateNode and ValidateAt locate it ("plan[1]" is the key plan, then
// item 1), and whether the last step's key is meant rather than its
// value (an unknown or deprecated field). Validate keeps no paths; a
// caller with positions of its own (the scan's facts) takes them from
// ValidateAt with a nil node, so that it places findings where
// ValidateNode would.
func (f Finding) Path() (path []Step, atKey bool) {
	if f.path == nil {
		return nil, f.atKey
	}
	path = make([]Step, len(f.path))
	for i, s := range f.path {
		path[i] = Step(s)
	}
	return path, f.atKey
}

// Step is one step of a path into a message: the mapping key Key when
// Index is negative, else item Index of a list.
type Step struct {
	Key   string
	Index int
}

// IsUnknownField reports whether the finding is a field the kind does not
// define (a warning: the field is ignored).
func (f Finding) IsUnknownField() bool { return strings.HasSuffix(f.Rule, "-unknown-field") }

// IsDeprecated reports whether the finding is the use of a field the spec
// marks deprecated.
func (f Finding) IsDeprecated() bool { return strings.HasSuffix(f.Rule, "-deprecated") }
