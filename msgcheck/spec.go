package msgcheck

import (
	"errors"
	"fmt"
	"math"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
)

// Spec is a compiled protocol spec. It is immutable and safe for
// concurrent use.
type Spec struct {
	Protocol string // e.g. "protocol-core"
	Version  string // e.g. "1.0"
	Source   string // file the spec came from, or "embedded:..."

	kinds    []*kind       // in spec order
	pipeline *PipelineSpec // the pipeline section, or nil (pipelinespec.go)

	// warnings are the loader's (Warnings)
	warnings []Warning
	// sources are the files the spec was compiled from (Sources)
	sources []string
}

// kind is one message kind of a spec (delegate, handback...).
type kind struct {
	name  string // "delegate", as the spec's key
	title string // "DELEGATE", used in messages
	// upper is title when it folds to name (as KindNamed folds), else ""
	upper string
	// unknownRule is the rule id of an unknown field, built once
	unknownRule string
	signature   []string
	// inferred is set when the spec gives no signature (inferSignatures)
	inferred bool
	required []string
	fields   map[string]*field
	order    []*field // core fields first, then extensions, in spec order
	// byLen lists the fields by the length of their names, for field:
	// most lengths hold one name, which a compare settles faster than
	// the map's hashing (a lookup per member of every message)
	byLen [][]*field
	rules []*celRule
	// rulesBounded says, once asked, whether the rules can run
	// untracked (see kind.untracked); nil without rules
	rulesBounded func() bool
	// declaresVersions is set when both version fields are fields of the
	// kind, so the validator can check them in its field loop
	declaresVersions bool
	// lastRequired is the index in order of the last required field (-1)
	lastRequired int
	// nested holds the path and rule ids of the schemas of nested
	// properties (metrics.quality) that occur at one path only, so their
	// findings need no string building
	nested map[*schema]*nestedInfo
	// extensions holds the kind's own x- annotations as plain values
	// (see Spec.Extension)
	extensions map[string]any
	// formerly maps each former name of a field (the spec's formerly
	// keyword) to the field; nil when the kind has none, so a message
	// pays nothing for it (see renamed.go)
	formerly map[string]*field
	// export is what JSONSchema needs beyond the validators, from the
	// kind's spec file: annotations, definition names, the schema tree
	// before collapseRefs. Validation never reads it.
	export *exportInfo
}

// field returns the field named name, or nil.
func (k *kind) field(name string) *field {
	if len(name) < len(k.byLen) {
		for _, f := range k.byLen[len(name)] {
			if f.name == name {
				return f
			}
		}
	}
	return nil
}

// nestedInfo is where a nested property's schema sits in a kind.
type nestedInfo struct {
	path    string // "metrics.quality"
	depth   int    // steps in the path
	ruleIDs map[string]string
}

// indexNested fills k.nested by walking each field's properties (not
// items: their paths carry indices). Only a schema used at one place in the
// whole spec is indexed; the others build their path as they go.
func (k *kind) indexNested(uses map[*schema]int) {
	k.nested = map[*schema]*nestedInfo{}
	ambiguous := map[*schema]bool{}
	var walk func(sc *schema, path, rulePath string, depth int)
	walk = func(sc *schema, path, rulePath string, depth int) {
		if sc == nil || depth > 8 {
			return
		}
		for _, name := range sc.propOrder {
			p := sc.properties[name]
			if p == nil {
				continue
			}
			full, rp := path+"."+name, rulePath+"-"+ruleWord(name)
			if _, seen := k.nested[p]; seen || ambiguous[p] || uses[p] != 1 {
				ambiguous[p] = true
				delete(k.nested, p)
				continue
			}
			info := &nestedInfo{path: full, depth: depth + 1, ruleIDs: map[string]string{}}
			for _, con := range constraints {
				info.ruleIDs[con] = "msgcheck/" + rp + "-" + con
			}
			k.nested[p] = info
			walk(p, full, rp, depth+1)
		}
	}
	for _, f := range k.order {
		walk(f.schema, f.name, f.ruleBase, 1)
	}
}

// field is a top-level field of a kind.
type field struct {
	name     string
	core     bool
	schema   *schema
	required bool
	ruleBase string // "delegate-task-id": the prefix of this field's rule ids
	// ruleIDs holds the full rule id per constraint, built once, so that
	// reporting on the field (or its items) does not build strings
	ruleIDs   map[string]string
	isVersion bool // protocol_version or spec_version
	pos       int  // index in kind.order
	// formerly are the names older messages give the field, in spec
	// order (the formerly keyword beside its schema)
	formerly []string
}

// constraints are the names rule ids end in (see docs/rules.md).
var constraints = []string{"required", "type", "format", "length", "words", "range", "items", "unique",
	"enum", "const", "one-of", "any-of", "not", "not-allowed", "additional", "exists", "unchecked", "deprecated", "renamed"}

// Sources returns the files the spec was compiled from: Source alone,
// or each per-kind file of a spec LoadSpecs merged, in load order.
func (s *Spec) Sources() []string { return slices.Clone(s.sources) }

// Kinds returns the names of the message kinds the spec defines, in spec
// order.
func (s *Spec) Kinds() []string {
	out := make([]string, len(s.kinds))
	for i, k := range s.kinds {
		out[i] = k.name
	}
	return out
}

func (s *Spec) kind(name string) *kind {
	for _, k := range s.kinds {
		if k.name == name {
			return k
		}
	}
	return nil
}

// KindNamed returns the kind a message's handoff_type value names, in
// any letter case and with spaces around it, or "".
func (s *Spec) KindNamed(v string) string {
	// the usual spellings, "DELEGATE" and "delegate", without folding: it
	// runs once per message of an audit
	for _, k := range s.kinds {
		if v == k.name || k.upper != "" && v == k.upper {
			return k.name
		}
	}
	v = strings.TrimSpace(v)
	for _, k := range s.kinds {
		if strings.EqualFold(v, k.name) {
			return k.name
		}
	}
	return ""
}

// namedBy reports whether v, a marker's value, names k as KindNamed
// reads it.
func (k *kind) namedBy(v string) bool {
	return v == k.name || k.upper != "" && v == k.upper || strings.EqualFold(strings.TrimSpace(v), k.name)
}

// Enum returns the allowed values and legacy aliases of a kind's string
// enum field, e.g. Enum("handback", "status"). ok is false when the field
// is not a string enum. Analyzers read the canonical spelling from here.
func (s *Spec) Enum(kindName, fieldName string) (values []string, aliases map[string]string, ok bool) {
	k := s.kind(kindName)
	if k == nil {
		return nil, nil, false
	}
	f := k.fields[fieldName]
	if f == nil {
		return nil, nil, false
	}
	sc := f.schema
	for sc.ref != nil && sc.enumStr == nil {
		sc = sc.ref
	}
	if sc.enumStr == nil {
		return nil, nil, false
	}
	for _, v := range sc.enum {
		values = append(values, v.(string))
	}
	aliases = make(map[string]string, len(sc.aliases))
	for k, v := range sc.aliases {
		aliases[k] = v
	}
	return values, aliases, true
}

// SpecError is a problem in a spec file, at a line and column.
type SpecError struct {
	File         string
	Line, Column int
	Msg          string
}

func (e *SpecError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	if e.Column == 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// maxSpecBytes bounds a spec file (docs/bad-input.md); real specs are a few
// kilobytes.
const maxSpecBytes = 4 << 20

// MaxSpecBytes is the largest spec file loaded, wherever it is read from.
const MaxSpecBytes = maxSpecBytes

// ParseSpec parses and compiles a spec. name is used in error messages.
// Every problem found is reported, joined, as *SpecError values.
func ParseSpec(name string, data []byte) (*Spec, error) {
	return parseSpec(name, data, false)
}

func parseSpec(name string, data []byte, lazyRules bool) (*Spec, error) {
	return (&compiler{file: name, lazyRules: lazyRules}).parse(data)
}

// parse parses and compiles the spec data with c, which holds its file
// name and lazyRules.
func (c *compiler) parse(data []byte) (*Spec, error) {
	name := c.file
	if len(data) > maxSpecBytes {
		return nil, &SpecError{File: name, Msg: fmt.Sprintf("larger than %d MiB", maxSpecBytes>>20)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		e := &SpecError{File: name, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
		if rest, ok := strings.CutPrefix(e.Msg, "line "); ok {
			if num, text, ok := strings.Cut(rest, ": "); ok {
				if n, err := strconv.Atoi(num); err == nil {
					e.Line, e.Msg = n, text
				}
			}
		}
		return nil, e
	}
	c.defs, c.compiled = map[string]*yaml.Node{}, map[string]*schema{}
	c.duplicateKeys(&doc, 0)
	if len(c.errs) > 0 {
		return nil, errors.Join(c.errs...)
	}
	spec := c.spec(&doc)
	if len(c.errs) > 0 {
		return nil, errors.Join(c.errs...)
	}
	return spec, nil
}

type compiler struct {
	file string
	errs []error
	// defs holds the definitions by the $ref that names them:
	// "#/definitions/x" and "#/$defs/x"
	defs     map[string]*yaml.Node
	compiled map[string]*schema
	all      []*schema // every schema compiled, for the $ref cycle check
	tooBig   bool      // maxSchemas was reached
	rules    int       // CEL rules compiled, against maxRules
	// ruleBytes is the text of those rules, against maxSpecRuleBytes
	ruleBytes int
	// lazyRules leaves CEL rules to be compiled on first use (see
	// celRule): for the embedded specs only, whose rules tests compile.
	lazyRules bool
	notes     map[*schema]*exportNotes // annotations, for JSONSchema
	warns     []Warning
	root      *yaml.Node // the document's mapping
	// fieldNode is the schema node of the message field being compiled,
	// the one place the formerly keyword belongs
	fieldNode *yaml.Node
	// visited counts the schemas checkRefCycles and checkExpansion
	// visit, a visit that finds the answer known included (tests bound
	// it)
	visited int
}

// warnf records a warning at n; past maxWarnings, one more says so.
func (c *compiler) warnf(n *yaml.Node, format string, args ...any) {
	if len(c.warns) > maxWarnings {
		return
	}
	w := Warning{File: c.file, Msg: fmt.Sprintf(format, args...)}
	if len(c.warns) == maxWarnings {
		w.Msg = "more warnings left out"
	}
	if n != nil {
		w.Line, w.Col = n.Line, n.Column
	}
	c.warns = append(c.warns, w)
}

// unenforced warns that a JSON Schema keyword is not checked.
func (c *compiler) unenforced(k *yaml.Node, where string) {
	c.warnf(k, "JSON Schema keyword %q%s is not enforced by protoscan (ignored)", k.Value, where)
}

func (c *compiler) errorf(n *yaml.Node, format string, args ...any) {
	if len(c.errs) >= 50 {
		return
	}
	e := &SpecError{File: c.file, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Column = n.Line, n.Column
	}
	c.errs = append(c.errs, e)
}

// duplicateKeys rejects a key given twice in one mapping: YAML keeps both,
// and which one wins would be an accident of the compiler.
func (c *compiler) duplicateKeys(n *yaml.Node, depth int) {
	if depth > 2*maxSchemaDepth+16 {
		c.errorf(n, "spec nested deeper than %d levels", 2*maxSchemaDepth+16)
		return
	}
	if n.Kind == yaml.MappingNode {
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; seen[k.Value] {
				c.errorf(k, "duplicate key %q", k.Value)
			} else {
				seen[k.Value] = true
			}
		}
	}
	for _, child := range n.Content {
		c.duplicateKeys(child, depth+1)
	}
}

// deref follows YAML aliases in the spec itself; a spec may use anchors.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 64; i++ {
		n = n.Alias
	}
	return n
}

func pairs(n *yaml.Node) [][2]*yaml.Node {
	out := make([][2]*yaml.Node, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, [2]*yaml.Node{n.Content[i], deref(n.Content[i+1])})
	}
	return out
}

func (c *compiler) spec(doc *yaml.Node) *Spec {
	root := doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			c.errorf(nil, "spec is empty")
			return nil
		}
		root = deref(root.Content[0])
	}
	if root.Kind != yaml.MappingNode {
		c.errorf(root, "spec must be a mapping")
		return nil
	}
	s := &Spec{Source: c.file, sources: []string{c.file}}
	c.root = root
	var kindNodes [][2]*yaml.Node
	// definitions first, so $refs from kinds resolve wherever they appear
	for _, kv := range pairs(root) {
		if section := kv[0].Value; section == "definitions" || section == "$defs" {
			if kv[1].Kind != yaml.MappingNode {
				c.errorf(kv[1], "%s must be a mapping", section)
				continue
			}
			for _, d := range pairs(kv[1]) {
				c.defs["#/"+section+"/"+d[0].Value] = d[1]
			}
		}
	}
	perKind := c.perKind(root)
	if perKind != "" {
		kindNodes = append(kindNodes, [2]*yaml.Node{{Kind: yaml.ScalarNode, Value: perKind, Line: root.Line, Column: root.Column}, root})
	}
	for _, kv := range pairs(root) {
		k, v := kv[0], kv[1]
		switch key := k.Value; {
		case key == "version":
			s.Version = v.Value
		case key == "protocol":
			s.Protocol = v.Value
		case key == "definitions", key == "$defs":
			for _, d := range pairs(v) {
				c.ref(d[0], "#/"+key+"/"+d[0].Value)
			}
		case key == "pipeline":
			defer c.pipeline(s, v) // after the kinds, which it names
		case perKind != "", isAnnotation(key):
			// a per-kind file's other keys are its kind's (c.kind)
		case key == "type":
			// the spec document is an object; saying so changes nothing
		case isJSONSchemaKeyword(key):
			c.unenforced(k, " at the top level of a spec (message kinds are top-level blocks)")
		case v.Kind == yaml.MappingNode && looksLikeKind(v):
			kindNodes = append(kindNodes, kv)
		default:
			msg := fmt.Sprintf("unknown top-level key %q", key)
			if hinted := didYouMean(msg, key, topKeys); hinted != msg {
				msg = hinted
			} else {
				msg += " (a message kind needs core_fields or properties)"
			}
			c.errorf(k, "%s", msg)
		}
	}
	if s.Version == "" {
		s.Version = versionIn(c.file, root)
	}
	if s.Version == "" && perKind == "" {
		c.errorf(root, "spec has no version")
	}
	for _, kv := range kindNodes {
		if kd := c.kind(kv[0].Value, kv[1]); kd != nil {
			s.kinds = append(s.kinds, kd)
		}
	}
	inferSignatures(s.kinds)
	if len(kindNodes) == 0 && !hasKey(root, "core_fields") && !hasKey(root, "properties") {
		c.errorf(root, "spec defines no message kind (a top-level block with core_fields or properties)")
	}
	c.checkRefCycles()
	if len(c.errs) == 0 {
		c.checkExpansion()
	}
	s.warnings = c.warns
	if len(c.errs) == 0 {
		c.exportSnapshot(s, root, kindNodes)
		c.collapseRefs(s)
		for _, sc := range c.all {
			sc.leafString = sc.onlyStr()
		}
		uses := c.uses(s)
		for _, k := range s.kinds {
			k.indexNested(uses)
		}
	}
	return s
}

// uses counts how many places refer to each schema, so that only schemas
// used once get a precomputed path.
func (c *compiler) uses(s *Spec) map[*schema]int {
	n := map[*schema]int{}
	for _, sc := range c.all {
		for _, child := range sc.children() {
			n[child]++
		}
	}
	for _, k := range s.kinds {
		for _, f := range k.order {
			n[f.schema]++
		}
	}
	return n
}

// collapseRefs points every use of a schema that only forwards to another
// ($ref and nothing else) at the target, so validation takes one step
// instead of two: a task_id field is its definition.
func (c *compiler) collapseRefs(s *Spec) {
	target := func(sc *schema) *schema {
		for sc != nil && sc.pureRef() && !sc.isDeprecated && sc.errorMessage == "" {
			sc = sc.ref
		}
		return sc
	}
	for _, sc := range c.all {
		sc.items = target(sc.items)
		sc.additional = target(sc.additional)
		for name, p := range sc.properties {
			sc.properties[name] = target(p)
		}
		for i := range sc.fields {
			sc.fields[i].schema = target(sc.fields[i].schema)
		}
	}
	for _, k := range s.kinds {
		for _, f := range k.order {
			f.schema = target(f.schema)
		}
	}
}

func hasKey(n *yaml.Node, key string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

const celKeyword = "x-protoscan-validations"

// kindKeyword names the kind of a per-kind schema file.
const kindKeyword = "x-protoscan-kind"

// topKeys are the keys of a spec's top level, for "did you mean".
var topKeys = append([]string{"version", "protocol", "definitions", "$defs", "pipeline", kindKeyword}, schemaKeys...)

// kindKeys are the keys of a message kind, for "did you mean".
var kindKeys = append([]string{"signature", "core_fields", "extensions", celKeyword}, schemaKeys...)

// looksLikeKind reports a top-level block that is a message kind: it has
// fields (core_fields, extensions or properties), or a key one typo away
// from them, which c.kind then names.
func looksLikeKind(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch key := n.Content[i].Value; key {
		case "core_fields", "extensions", "properties":
			return true
		default:
			if _, near := nearest(key, []string{"core_fields", "extensions", "properties"}); near {
				return true
			}
		}
	}
	return false
}

// perKind returns the kind a per-kind schema file defines, or "" for a
// spec of kinds. A file is one kind's schema when it says which
// (x-protoscan-kind: handback), or when its top level has the fields
// itself (core_fields or properties); its kind is then its file name's
// (handback.schema.json, handback-schema.yaml, handback.yaml).
func (c *compiler) perKind(root *yaml.Node) string {
	for _, kv := range pairs(root) {
		if kv[0].Value == kindKeyword {
			if kv[1].Kind != yaml.ScalarNode || kv[1].Value == "" {
				c.errorf(kv[1], "%s must name a message kind", kindKeyword)
				return ""
			}
			return kv[1].Value
		}
	}
	if !hasKey(root, "core_fields") && !hasKey(root, "properties") {
		return ""
	}
	name := kindOfFile(c.file)
	if name == "" {
		c.errorf(root, "cannot tell the message kind of this schema from its file name; add %s: KIND", kindKeyword)
	}
	return name
}

// kindOfFile is the kind a per-kind schema file's name gives:
// handback-schema.yaml, handback.schema.json and handback.yaml all give
// handback.
func kindOfFile(file string) string {
	base := filepath.Base(file)
	if i := strings.LastIndexByte(base, ':'); i >= 0 { // embedded:NAME
		base = base[i+1:]
	}
	for _, ext := range []string{".yaml", ".yml", ".json"} {
		if b, ok := strings.CutSuffix(strings.ToLower(base), ext); ok {
			base = b
			break
		}
	}
	for _, suffix := range []string{".schema", "-schema", "_schema"} {
		base = strings.TrimSuffix(base, suffix)
	}
	if base == "" || strings.ContainsAny(base, ". ") {
		return ""
	}
	return base
}

// versionRE finds a version in a file name or $id: protocol-core-v1.0.yaml.
var versionRE = regexp.MustCompile(`[-_/.]v(\d+(?:\.\d+)*)`)

// versionIn is the version a spec without a version key gives in its $id,
// else in its file name, or "".
func versionIn(file string, root *yaml.Node) string {
	for _, kv := range pairs(root) {
		if kv[0].Value == "$id" {
			if m := versionRE.FindStringSubmatch(kv[1].Value); m != nil {
				return m[1]
			}
		}
	}
	if m := versionRE.FindStringSubmatch(filepath.Base(file)); m != nil {
		return m[1]
	}
	return ""
}

func (c *compiler) kind(name string, n *yaml.Node) *kind {
	k := &kind{name: name, title: strings.ToUpper(name), unknownRule: "msgcheck/" + name + "-unknown-field", fields: map[string]*field{}}
	if strings.EqualFold(k.title, name) { // not so for every Unicode letter (ı)
		k.upper = k.title
	}
	var required, properties *yaml.Node
	addField := func(key *yaml.Node, v *yaml.Node, core bool) {
		if _, dup := k.fields[key.Value]; dup {
			c.errorf(key, "%s: field %q is defined twice", name, key.Value)
			return
		}
		c.fieldNode = v
		fd := &field{name: key.Value, core: core, schema: c.schema(v, 0),
			ruleBase: name + "-" + ruleWord(key.Value), ruleIDs: map[string]string{}, formerly: c.formerly(v)}
		c.fieldNode = nil
		for _, con := range constraints {
			fd.ruleIDs[con] = "msgcheck/" + fd.ruleBase + "-" + con
		}
		k.fields[fd.name] = fd
		k.order = append(k.order, fd)
	}
	for _, kv := range pairs(n) {
		key, v := kv[0].Value, kv[1]
		switch {
		case n == c.root && (key == "version" || key == "protocol" || key == "definitions" ||
			key == "$defs" || key == "pipeline" || key == kindKeyword):
			// a per-kind file's spec keys, read by c.spec
		case key == "signature":
			k.signature = c.strings(v)
		case key == "required":
			required = v
			k.required = c.strings(v)
		case key == "core_fields", key == "extensions":
			if v.Kind != yaml.MappingNode {
				c.errorf(v, "%s.%s must be a mapping of field schemas", name, key)
				continue
			}
			for _, f := range pairs(v) {
				addField(f[0], f[1], key == "core_fields")
			}
		case key == "properties":
			if v.Kind != yaml.MappingNode {
				c.errorf(v, "%s.properties must be a mapping of field schemas", name)
				continue
			}
			properties = v // after the loop: required may come later
		case key == "type":
			if ts := c.types(v); ts != 0 && ts&tObject == 0 {
				c.errorf(v, "%s: a message kind is an object (type %q)", name, v.Value)
			}
		case key == "additionalProperties":
			// false is what protoscan does with unknown fields: warn
			if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!bool" {
				c.unenforced(kv[0], fmt.Sprintf(" on message kind %q (unknown fields are warnings)", name))
			}
		case key == celKeyword:
			k.rules = c.celRules(name, v)
			k.rulesBounded = sync.OnceValue(k.bounded)
		case isAnnotation(key):
			c.extension(k, key, v)
		case isJSONSchemaKeyword(key):
			c.unenforced(kv[0], fmt.Sprintf(" on message kind %q", name))
		default:
			c.errorf(kv[0], "%s", didYouMean(fmt.Sprintf("unknown key %q in message kind %q", key, name), key, kindKeys))
		}
	}
	// properties: the required ones are core fields, the others extensions
	if properties != nil {
		for _, f := range pairs(properties) {
			addField(f[0], f[1], slices.Contains(k.required, f[0].Value))
		}
	}
	// core fields before extensions, so errors come in a stable, useful order
	slices.SortStableFunc(k.order, func(a, b *field) int {
		switch {
		case a.core == b.core:
			return 0
		case a.core:
			return -1
		}
		return 1
	})
	k.lastRequired = -1
	for i, f := range k.order {
		f.pos = i
		if slices.Contains(k.required, f.name) {
			k.lastRequired = i
		}
		for len(k.byLen) <= len(f.name) {
			k.byLen = append(k.byLen, nil)
		}
		k.byLen[len(f.name)] = append(k.byLen[len(f.name)], f)
	}
	k.declaresVersions = true
	for _, key := range versionKeys {
		if f := k.fields[key]; f != nil {
			f.isVersion = true
		} else {
			k.declaresVersions = false
		}
	}
	for _, r := range k.required {
		f := k.fields[r]
		if f == nil {
			c.errorf(required, "%s: required field %q is not defined in core_fields, extensions or properties", name, r)
			continue
		}
		f.required = true
	}
	for _, sf := range k.signature {
		if k.fields[sf] == nil {
			c.errorf(n, "%s: signature field %q is not defined", name, sf)
		}
	}
	c.indexFormerly(k, n)
	return k
}

// inferSignatures gives each kind the spec gives no signature one from
// its required fields, as a plain JSON Schema spec has none: the first
// required field, and the first one no other kind requires (a DELEGATE's
// task_id and skill, a HANDBACK's task_id and status). It runs again on
// the kinds of a merged spec, whose kinds are then told apart by more.
// One field is never enough (any record with an id would be a message):
// a kind without two such fields is only checked where it is named.
func inferSignatures(kinds []*kind) {
	requiredBy := map[string]int{}
	for _, k := range kinds {
		for _, r := range slices.Compact(slices.Sorted(slices.Values(k.required))) {
			requiredBy[r]++
		}
	}
	for _, k := range kinds {
		if len(k.signature) > 0 && !k.inferred || len(k.required) == 0 {
			continue
		}
		k.inferred = true
		k.signature = nil
		for _, r := range k.required[1:] {
			if requiredBy[r] == 1 && r != k.required[0] {
				k.signature = []string{k.required[0], r}
				break
			}
		}
	}
}

// ruleWord turns a field name into the spelling used in rule ids.
func ruleWord(s string) string {
	var b strings.Builder
	writeRuleWord(&b, s)
	return b.String()
}

func (c *compiler) strings(n *yaml.Node) []string {
	if n.Kind != yaml.SequenceNode {
		c.errorf(n, "must be a list of strings")
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for _, e := range n.Content {
		e = deref(e)
		if e.Kind != yaml.ScalarNode {
			c.errorf(e, "must be a string")
			continue
		}
		out = append(out, e.Value)
	}
	return out
}

// repoDirs reads existsIn: directories of the repository, each relative
// to its root and inside it. The check is on the text alone, before any
// file is looked at, so a spec cannot learn which directories outside the
// repository exist: every such entry is the same error.
func (c *compiler) repoDirs(n *yaml.Node) []string {
	dirs := c.strings(n)
	if n.Kind != yaml.SequenceNode {
		return dirs
	}
	out := dirs[:0]
	for _, e := range n.Content {
		if e = deref(e); e.Kind != yaml.ScalarNode {
			continue // c.strings said so
		}
		d := e.Value
		clean := path.Clean(strings.ReplaceAll(d, `\`, "/"))
		if d == "" || path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") || filepath.IsAbs(d) || filepath.VolumeName(d) != "" {
			c.errorf(e, "existsIn entries are directories of the repository, relative to its root and inside it")
			continue
		}
		out = append(out, clean)
	}
	return out
}

// ref returns the compiled schema a $ref names. A placeholder is recorded
// before compiling so recursive definitions resolve to themselves.
func (c *compiler) ref(at *yaml.Node, ref string) *schema {
	if s, ok := c.compiled[ref]; ok {
		return s
	}
	def := c.defs[ref]
	if base, frag, ok := strings.Cut(ref, "#"); def == nil && ok && base != "" && base == c.id() {
		def = c.defs["#"+frag] // the spec's own $id, spelt out
	}
	if def == nil {
		c.errorf(at, "unresolvable $ref %q (only #/definitions/NAME and #/$defs/NAME are supported)", ref)
		return nil
	}
	s := newSchema(def.Line, def.Column)
	c.compiled[ref] = s
	c.fill(s, def, 0)
	return s
}

// id is the $id of the spec's top level, or "".
func (c *compiler) id() string {
	for _, kv := range pairs(c.root) {
		if kv[0].Value == "$id" && kv[1].Kind == yaml.ScalarNode {
			return kv[1].Value
		}
	}
	return ""
}

const maxSchemaDepth = 64

func (c *compiler) schema(n *yaml.Node, depth int) *schema {
	s := newSchema(n.Line, n.Column)
	c.fill(s, n, depth)
	return s
}

// maxSchemas bounds the schemas one spec compiles to. Real specs have a
// few hundred; YAML aliases can make a small file expand exponentially
// (each alias is compiled anew), and that must fail fast, not hang.
const maxSchemas = 10_000

// fill compiles the schema node n into s.
func (c *compiler) fill(s *schema, n *yaml.Node, depth int) {
	if c.tooBig {
		return
	}
	if len(c.all) >= maxSchemas {
		c.tooBig = true
		c.errorf(n, "spec expands to more than %d schemas (YAML aliases reused too often?)", maxSchemas)
		return
	}
	c.all = append(c.all, s)
	if depth > maxSchemaDepth {
		c.errorf(n, "schema nested deeper than %d levels", maxSchemaDepth)
		return
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" {
		s.never = n.Value == "false"
		return
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return // an empty field entry: anything goes
	}
	if n.Kind != yaml.MappingNode {
		c.errorf(n, "schema must be a mapping")
		return
	}
	var aliasNode *yaml.Node
	for _, kv := range pairs(n) {
		k, v := kv[0], kv[1]
		if i := limitKeyword(k.Value); i >= 0 {
			s.file, s.kwLine[i] = c.file, int32(min(k.Line, math.MaxInt32))
		}
		switch key := k.Value; key {
		case "type":
			s.types = c.types(v)
		case "enum":
			c.enum(s, v)
		case "const":
			s.hasConst, s.constVal = true, c.scalar(v)
		case "pattern":
			p, err := compilePattern(v.Value)
			if err != nil {
				c.errorf(v, "pattern %q does not compile: %v", v.Value, err)
				continue
			}
			s.pattern = p
			s.file, s.patternLine = c.file, int32(min(k.Line, math.MaxInt32))
		case "minLength":
			s.minLength = c.count(v, key)
		case "maxLength":
			s.maxLength = c.count(v, key)
		case "minWords":
			s.minWords = c.count(v, key)
		case "minItems":
			s.minItems = c.count(v, key)
		case "maxItems":
			s.maxItems = c.count(v, key)
		case "minimum":
			s.minimum = c.bound(v, key)
		case "maximum":
			s.maximum = c.bound(v, key)
		case "exclusiveMinimum":
			s.exMinimum = c.bound(v, key)
		case "exclusiveMaximum":
			s.exMaximum = c.bound(v, key)
		case "uniqueItems":
			s.uniqueItems = v.Value == "true"
		case "items":
			if v.Kind == yaml.SequenceNode {
				c.warnf(k, "items as a list (draft-07 tuple validation) is not enforced by protoscan (ignored)")
				continue
			}
			s.items = c.schema(v, depth+1)
		case "required":
			s.required = c.strings(v)
		case "properties":
			if v.Kind != yaml.MappingNode {
				c.errorf(v, "properties must be a mapping")
				continue
			}
			s.properties = map[string]*schema{}
			for _, p := range pairs(v) {
				s.properties[p[0].Value] = c.schema(p[1], depth+1)
				s.propOrder = append(s.propOrder, p[0].Value)
			}
		case "additionalProperties":
			if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!bool" {
				s.noAdditional = v.Value == "false"
				continue
			}
			s.additional = c.schema(v, depth+1)
		case "oneOf", "anyOf", "allOf":
			if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
				c.errorf(v, "%s must be a non-empty list of schemas", key)
				continue
			}
			list := make([]*schema, 0, len(v.Content))
			for _, e := range v.Content {
				list = append(list, c.schema(deref(e), depth+1))
			}
			switch key {
			case "oneOf":
				s.oneOf = list
			case "anyOf":
				s.anyOf = list
			default:
				s.allOf = list
			}
		case "not":
			s.not = c.schema(v, depth+1)
		case "$ref":
			s.refName = v.Value
			s.ref = c.ref(v, v.Value)
		case "errorMessage":
			s.errorMessage = v.Value
		case "deprecated":
			s.isDeprecated = v.Value != "false"
			if v.ShortTag() == "!!str" {
				s.deprecated = v.Value
			}
		case "existsIn":
			s.existsIn = c.repoDirs(v)
		case "aliases":
			aliasNode = v
		case "formerly":
			if n != c.fieldNode {
				c.errorf(k, "formerly names what older messages call a message field: it belongs beside the schema of a field under core_fields, extensions or properties")
			} // else read by kind, through compiler.formerly
		default:
			switch {
			case isAnnotation(key):
				c.annotate(s, key, v)
			case isJSONSchemaKeyword(key):
				c.unenforced(k, "")
			default:
				c.errorf(k, "%s", didYouMean(fmt.Sprintf("unknown keyword %q", key), key, schemaKeys))
			}
		}
	}
	if aliasNode != nil {
		c.aliases(s, aliasNode)
	}
	s.indexFields()
	if s.minimum.set || s.maximum.set || s.exMinimum.set || s.exMaximum.set {
		s.rangeMsg = "must be " + rangeText(s)
	}
	if s.minimum.set && s.maximum.set && s.minimum.v > s.maximum.v {
		c.errorf(n, "minimum %s is greater than maximum %s", s.minimum.text, s.maximum.text)
	}
}

func (c *compiler) types(v *yaml.Node) typeMask {
	names := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		names = v.Content
	}
	var m typeMask
	for _, n := range names {
		n = deref(n)
		found := false
		for _, t := range typeNames {
			if n.Value == t.name {
				m |= t.bit
				found = true
			}
		}
		if !found {
			c.errorf(n, "unknown type %q (want string, number, integer, boolean, array, object or null)", n.Value)
		}
	}
	return m
}

func (c *compiler) scalar(v *yaml.Node) any {
	if v.Kind != yaml.ScalarNode {
		c.errorf(v, "must be a scalar value")
		return nil
	}
	return normalizeNumber(yamlnode.Scalar(v))
}

// maxEnumShown bounds the enum values an error lists: an enum of
// thousands of values, or of long ones, must not make every finding about
// it that long.
const maxEnumShown = 10

func (c *compiler) enum(s *schema, v *yaml.Node) {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		c.errorf(v, "enum must be a non-empty list")
		return
	}
	allStrings := true
	texts := make([]string, 0, min(len(v.Content), maxEnumShown+1))
	for i, e := range v.Content {
		val := c.scalar(deref(e))
		s.enum = append(s.enum, val)
		if _, ok := val.(string); !ok {
			allStrings = false
		}
		if i < maxEnumShown {
			texts = append(texts, shorten(formatPlain(val)))
		}
	}
	if more := len(v.Content) - maxEnumShown; more > 0 {
		texts = append(texts, fmt.Sprintf("and %d more", more))
	}
	s.enumText = "[" + strings.Join(texts, ", ") + "]"
	if allStrings {
		s.enumStr = make(map[string]struct{}, len(s.enum))
		for _, e := range s.enum {
			s.enumStr[e.(string)] = struct{}{}
		}
	}
}

func (c *compiler) aliases(s *schema, v *yaml.Node) {
	if s.enumStr == nil {
		c.errorf(v, "aliases needs a string enum beside it")
		return
	}
	if v.Kind != yaml.MappingNode {
		c.errorf(v, "aliases must map a legacy spelling to an enum value")
		return
	}
	s.aliases = map[string]string{}
	for _, kv := range pairs(v) {
		if _, ok := s.enumStr[kv[1].Value]; !ok {
			c.errorf(kv[1], "alias %q maps to %q, which is not in the enum", kv[0].Value, kv[1].Value)
			continue
		}
		s.aliases[kv[0].Value] = kv[1].Value
	}
}

func (c *compiler) count(v *yaml.Node, key string) int {
	n, err := strconv.Atoi(v.Value)
	if v.Kind != yaml.ScalarNode || err != nil || n < 0 {
		c.errorf(v, "%s must be a non-negative integer (got %q)", key, v.Value)
		return -1
	}
	return n
}

func (c *compiler) bound(v *yaml.Node, key string) bound {
	if v.ShortTag() == "!!bool" {
		c.errorf(v, "%s must be a number (draft-04 boolean form is not supported)", key)
		return bound{}
	}
	f, err := strconv.ParseFloat(v.Value, 64)
	if v.Kind != yaml.ScalarNode || err != nil || math.IsNaN(f) {
		c.errorf(v, "%s must be a number (got %q)", key, v.Value)
		return bound{}
	}
	return bound{set: true, v: f, text: v.Value}
}

// checkRefCycles rejects schemas that reach themselves without moving
// into a property or an item: through $ref, allOf, anyOf, oneOf or not,
// such a cycle would check the same value forever. Recursion through
// properties and items is fine: it consumes the value.
func (c *compiler) checkRefCycles() {
	const (
		unseen = iota
		active
		done
	)
	state := map[*schema]int{}
	var visit func(s *schema) bool
	visit = func(s *schema) bool {
		c.visited++
		switch state[s] {
		case active:
			return true
		case done:
			return false
		}
		state[s] = active
		next := append(append(append([]*schema{s.ref, s.not}, s.allOf...), s.anyOf...), s.oneOf...)
		for _, n := range next {
			if n != nil && visit(n) {
				return true
			}
		}
		state[s] = done
		return false
	}
	for _, s := range c.all {
		if state[s] == unseen && visit(s) {
			what := "schema"
			if s.refName != "" {
				what = fmt.Sprintf("$ref %q", s.refName)
			}
			c.errs = append(c.errs, &SpecError{File: c.file, Line: s.line, Column: s.column,
				Msg: what + " forms a cycle (through $ref, allOf, anyOf, oneOf or not) that never moves into a property or item"})
			return
		}
	}
}

// maxExpansion bounds the schemas that check one value: a schema, what
// its $ref, allOf, anyOf, oneOf and not name, what theirs name, and so
// on. Each definition is compiled once, but a definition that names the
// next one twice, and so on down, is checked 2^depth times against a
// value; real specs stay under a hundred.
const maxExpansion = 10_000

// checkExpansion rejects a schema that expands past maxExpansion (see
// there). Sizes are memoised, so the check is linear in the schemas;
// checkRefCycles has ruled out cycles.
func (c *compiler) checkExpansion() {
	size := map[*schema]int{}
	var expand func(s *schema) int
	expand = func(s *schema) int {
		if s == nil {
			return 0
		}
		c.visited++
		if n, ok := size[s]; ok {
			return n
		}
		n := 1 + expand(s.ref) + expand(s.not)
		for _, sub := range s.allOf {
			n += expand(sub)
		}
		// an alternative is checked once to probe it, and the one that
		// fits the value's type again for its findings
		for _, sub := range s.anyOf {
			n += 2 * expand(sub)
		}
		for _, sub := range s.oneOf {
			n += 2 * expand(sub)
		}
		n = min(n, maxExpansion+1) // saturated: no overflow however deep
		size[s] = n
		return n
	}
	for _, s := range c.all {
		if expand(s) > maxExpansion {
			what := "a schema"
			if s.refName != "" {
				what = fmt.Sprintf("$ref %q", s.refName)
			}
			c.errs = append(c.errs, &SpecError{File: c.file, Line: s.line, Column: s.column,
				Msg: fmt.Sprintf("%s expands to more than %d schemas checking one value (through $ref, allOf, anyOf, oneOf and not)", what, maxExpansion)})
			return
		}
	}
}

// Fields returns the names of a kind's core fields and extensions, in spec
// order, or nil for an unknown kind.
func (s *Spec) Fields(kindName string) []string {
	k := s.kind(kindName)
	if k == nil {
		return nil
	}
	out := make([]string, len(k.order))
	for i, f := range k.order {
		out[i] = f.name
	}
	return out
}

// Required returns the names of a kind's required fields.
func (s *Spec) Required(kindName string) []string {
	k := s.kind(kindName)
	if k == nil {
		return nil
	}
	return append([]string(nil), k.required...)
}
