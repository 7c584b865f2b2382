package msgcheck

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
)

// JSONSchema exports one kind of the spec as a self-contained JSON Schema
// (draft-07) document, for editors (the YAML language server) and for
// other validators (ajv). The verdict it gives a message is protoscan's,
// except for what JSON Schema cannot express, which the document says in
// its $comment: existsIn lookups in the repository, the CEL rules of
// x-protoscan-validations, and the choice of spec by protocol_version.
//
// Core fields are translated keyword by keyword. Extensions are listed,
// but as anyOf [schema, true]: protoscan only warns about them, so they
// never make a message invalid. Unknown fields are allowed
// (additionalProperties true): protoscan warns about them too. minWords
// becomes a pattern; patterns are written so that Go RE2 and ECMA-262
// read them alike. The output is deterministic: keys in a fixed order,
// indented by two spaces, ending in a newline.
func (s *Spec) JSONSchema(kindName string) ([]byte, error) {
	k := s.kind(kindName)
	if k == nil {
		return nil, fmt.Errorf("unknown kind %q: spec %s %s defines %s",
			kindName, s.protocolName(), s.Version, strings.Join(s.Kinds(), ", "))
	}
	info := k.export // the kind's file's, in a spec of several files
	if info == nil {
		info = &exportInfo{}
	}
	e := &exporter{spec: s, info: info, kind: k, used: map[string]bool{}}
	var b bytes.Buffer
	writeJSON(&b, e.document(), 0)
	b.WriteByte('\n')
	return b.Bytes(), nil
}

func (s *Spec) protocolName() string {
	if s.Protocol == "" {
		return "protocol"
	}
	return s.Protocol
}

// exportInfo is what the compiler keeps for JSONSchema: the annotations
// validation ignores, the names of the definitions, and the links of the
// schema tree before collapseRefs short-cut the pure $refs.
type exportInfo struct {
	defs        []string // definition names, in spec order
	defSchema   map[string]*schema
	defName     map[*schema]string
	notes       map[*schema]*exportNotes
	links       map[*schema]exportLinks
	fieldSchema map[*field]*schema
	kindNotes   map[string]*exportNotes
}

type exportLinks struct {
	items, additional *schema
	properties        map[string]*schema
}

// exportNotes are the annotations of a schema (or of a kind).
type exportNotes struct {
	title, description, comment, format string
	def, examples                       any
	hasDefault, hasExamples             bool
	readOnly, writeOnly                 bool
}

// annotate keeps an annotation of s for JSONSchema.
func (c *compiler) annotate(s *schema, key string, v *yaml.Node) {
	switch key {
	case "title", "description", "$comment", "format", "default", "examples", "readOnly", "writeOnly":
	default:
		return
	}
	if c.notes == nil {
		c.notes = map[*schema]*exportNotes{}
	}
	n := c.notes[s]
	if n == nil {
		n = &exportNotes{}
		c.notes[s] = n
	}
	n.set(key, v)
}

func (n *exportNotes) set(key string, v *yaml.Node) {
	text := ""
	if v.Kind == yaml.ScalarNode {
		text = v.Value
	}
	switch key {
	case "title":
		n.title = text
	case "description":
		n.description = text
	case "$comment":
		n.comment = text
	case "format":
		n.format = text
	case "readOnly", "writeOnly":
		on := v.Kind == yaml.ScalarNode && yamlnode.Scalar(v) == true
		if key == "readOnly" {
			n.readOnly = on
		} else {
			n.writeOnly = on
		}
	case "default":
		n.def, n.hasDefault = plainValue(v)
	case "examples":
		if val, ok := plainValue(v); ok {
			if list, isList := val.([]any); isList {
				n.examples, n.hasExamples = list, true
			}
		}
	}
}

// plainValue turns an annotation's value into a JSON value; ok is false
// when it has none (too big, or a number JSON cannot write).
func plainValue(v *yaml.Node) (any, bool) {
	val, err := yamlnode.ToValue(v, yamlnode.Limits{MaxDepth: 64, MaxNodes: 10_000})
	if err != nil || !jsonable(val) {
		return nil, false
	}
	return val, true
}

func jsonable(v any) bool {
	switch x := v.(type) {
	case nil, bool, string, int64, int:
		return true
	case float64:
		return !math.IsInf(x, 0) && !math.IsNaN(x)
	case []any:
		for _, e := range x {
			if !jsonable(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range x {
			if !jsonable(e) {
				return false
			}
		}
		return true
	}
	return false
}

// exportSnapshot records what JSONSchema needs before collapseRefs
// rewrites the tree for validation.
func (c *compiler) exportSnapshot(s *Spec, root *yaml.Node, kindNodes [][2]*yaml.Node) {
	info := &exportInfo{
		defSchema:   map[string]*schema{},
		defName:     map[*schema]string{},
		notes:       c.notes,
		links:       map[*schema]exportLinks{},
		fieldSchema: map[*field]*schema{},
		kindNotes:   map[string]*exportNotes{},
	}
	// $defs are exported as definitions too (the export is draft-07); a
	// name both sections use gets a suffix
	for _, kv := range pairs(root) {
		section := kv[0].Value
		if section != "definitions" && section != "$defs" || kv[1].Kind != yaml.MappingNode {
			continue
		}
		for _, d := range pairs(kv[1]) {
			sc := c.compiled["#/"+section+"/"+d[0].Value]
			if sc == nil {
				continue
			}
			name := d[0].Value
			for info.defSchema[name] != nil {
				name += "_"
			}
			info.defs = append(info.defs, name)
			info.defSchema[name] = sc
			info.defName[sc] = name
		}
	}
	for _, sc := range c.all {
		if sc.items != nil || sc.additional != nil || sc.properties != nil {
			info.links[sc] = exportLinks{items: sc.items, additional: sc.additional, properties: maps.Clone(sc.properties)}
		}
	}
	for _, k := range s.kinds {
		for _, f := range k.order {
			info.fieldSchema[f] = f.schema
		}
	}
	for _, kv := range kindNodes {
		n := &exportNotes{}
		for _, p := range pairs(kv[1]) {
			if isAnnotation(p[0].Value) {
				n.set(p[0].Value, p[1])
			}
		}
		info.kindNotes[kv[0].Value] = n
	}
	for _, k := range s.kinds {
		k.export = info
	}
}

// exporter writes one kind.
type exporter struct {
	spec    *Spec
	info    *exportInfo
	kind    *kind
	used    map[string]bool // definitions referred to
	queue   []string        // definitions referred to and not yet written
	words   bool            // some minWords became a pattern
	dropped bool            // some pattern could not be written
}

const draft07 = "http://json-schema.org/draft-07/schema#"

func (e *exporter) document() *jobj {
	k := e.kind
	doc := &jobj{}
	doc.set("$schema", draft07)
	doc.set("title", fmt.Sprintf("%s %s %s", e.spec.protocolName(), e.spec.Version, k.title))
	kn := e.info.kindNotes[k.name]
	if kn == nil {
		kn = &exportNotes{}
	}
	doc.set("description", joinText(kn.description,
		"Fields not listed here are allowed: protoscan reports each as an unknown field, with a warning, never an error (forward compatibility)."))

	props := &jobj{}
	hasExt := false
	for _, f := range k.order {
		sc := e.info.fieldSchema[f]
		if sc == nil {
			sc = f.schema
		}
		node := e.slot(sc)
		if !f.core {
			hasExt = true
			node = advisory(node)
		}
		props.set(f.name, node)
	}

	defs := &jobj{}
	for len(e.queue) > 0 {
		name := e.queue[0]
		e.queue = e.queue[1:]
		defs.set(name, e.body(e.info.defSchema[name]))
	}
	sorted := &jobj{}
	for _, name := range e.info.defs {
		if v, ok := defs.get(name); ok {
			sorted.set(name, v)
		}
	}

	doc.set("$comment", joinText(joinText(kn.comment, e.rootComment(hasExt)), formerComment(k)))
	doc.set("type", "object")
	if len(k.required) > 0 {
		doc.set("required", stringList(k.required))
	}
	doc.set("properties", props)
	doc.set("additionalProperties", true)
	if len(sorted.keys) > 0 {
		doc.set("definitions", sorted)
	}
	return doc
}

// rootComment says how the document relates to protoscan's checks.
func (e *exporter) rootComment(hasExt bool) string {
	k := e.kind
	parts := []string{fmt.Sprintf("Exported by protoscan (protoscan spec --json-schema %s) from the %s spec %s. It gives a message protoscan's verdict (valid or invalid), except for what JSON Schema cannot express, listed below; protoscan's warnings have no counterpart here.",
		k.name, e.spec.protocolName(), e.spec.Version)}
	if hasExt {
		parts = append(parts, "Extensions are written as anyOf [schema, true]: protoscan reports a value that breaks an extension's schema as a warning, never an error, so the schema documents the field without rejecting the message.")
	}
	if e.words {
		parts = append(parts, "minWords N (a protoscan keyword) is written as the pattern ^S*(?:W+S+){N-1}W+, where S is the class of word separators of protoscan, every Unicode space (JavaScript's [\\s\\p{Z}], which holds U+FEFF and not U+0085), spelled out character by character, and W its complement: Go RE2's \\s is ASCII-only, so [\\s\\p{Z}] itself would count words differently in Go and in JavaScript.")
	}
	parts = append(parts, "Patterns are written so that Go RE2 and ECMA-262 (with the u flag, as ajv and editors compile them) read them alike; where the spec's own RE2 pattern is not, it is rewritten and the spec's spelling is quoted in a $comment.")
	if len(k.signature) > 0 {
		parts = append(parts, fmt.Sprintf("protoscan tells a %s from other messages by the fields %s.", k.title, strings.Join(k.signature, ", ")))
	}
	var not []string
	if e.usesExistsIn() {
		not = append(not, "existsIn lookups (the value must name a directory or <value>.md in the repository; see the $comment of the field)")
	}
	for _, r := range k.rules {
		sev := "error"
		if r.warning {
			sev = "warning"
		}
		text := fmt.Sprintf("the CEL rule %q (%s %s", r.expr, sev, r.rule)
		if r.message != "" {
			text += ": " + r.message
		}
		not = append(not, text+")")
	}
	if e.dropped {
		not = append(not, "patterns with ^ or $ of multi-line mode inside them (see the $comment where one is left out)")
	}
	not = append(not, "a message naming another protocol_version or spec_version is checked by protoscan against that version of the spec when it is loaded")
	parts = append(parts, "Not expressed here: "+strings.Join(not, "; ")+".")
	return strings.Join(parts, " ")
}

func (e *exporter) usesExistsIn() bool {
	for _, sc := range e.spec.existsSchemas() {
		if e.reaches(sc) {
			return true
		}
	}
	return false
}

// reaches reports whether target is in the kind's schema tree.
func (e *exporter) reaches(target *schema) bool {
	seen := map[*schema]bool{}
	var walk func(s *schema) bool
	walk = func(s *schema) bool {
		if s == nil || seen[s] {
			return false
		}
		seen[s] = true
		if s == target {
			return true
		}
		return slices.ContainsFunc(s.children(), walk)
	}
	for _, f := range e.kind.order {
		if walk(f.schema) {
			return true
		}
	}
	return false
}

// advisory makes an extension's schema one that documents and never
// rejects: anyOf [schema, true]. Its annotations move to the wrapper,
// where editors show them.
func advisory(node any) any {
	if node == true {
		return node
	}
	w := &jobj{}
	desc := "Extension field: a value that breaks this schema gets a protoscan warning, not an error."
	var deprecated any
	if o, ok := node.(*jobj); ok {
		if v, has := o.get("title"); has {
			w.set("title", v)
			o.del("title")
		}
		if v, has := o.get("description"); has {
			desc = joinText(v.(string), desc)
			o.del("description")
		}
		if v, has := o.get("deprecated"); has {
			deprecated = v
			o.del("deprecated")
		}
	}
	w.set("description", desc)
	if deprecated != nil {
		w.set("deprecated", deprecated)
	}
	if o, ok := node.(*jobj); ok && len(o.keys) == 0 {
		return w // only annotations: anything goes anyway
	}
	w.set("anyOf", []any{node, true})
	return w
}

// slot is what a schema becomes where it is used: a $ref when it is a
// definition of the spec, else its body.
func (e *exporter) slot(s *schema) any {
	if s == nil {
		return true
	}
	if name, ok := e.info.defName[s]; ok {
		if !e.used[name] {
			e.used[name] = true
			e.queue = append(e.queue, name)
		}
		r := &jobj{}
		r.set("$ref", "#/definitions/"+refEscape(name))
		return r
	}
	return e.body(s)
}

func (e *exporter) items(s *schema) *schema {
	if l, ok := e.info.links[s]; ok {
		return l.items
	}
	return s.items
}

func (e *exporter) additional(s *schema) *schema {
	if l, ok := e.info.links[s]; ok {
		return l.additional
	}
	return s.additional
}

func (e *exporter) property(s *schema, name string) *schema {
	if l, ok := e.info.links[s]; ok && l.properties != nil {
		return l.properties[name]
	}
	return s.properties[name]
}

// body writes a schema's own keywords.
func (e *exporter) body(s *schema) any {
	if s == nil {
		return true
	}
	if s.never {
		return false
	}
	notes := e.info.notes[s]
	if notes == nil {
		notes = &exportNotes{}
	}
	var comments []string
	var allOf []any
	kw := &jobj{} // the keywords that constrain

	if s.types != 0 {
		var names []string
		for _, t := range typeNames {
			if s.types&t.bit != 0 {
				names = append(names, t.name)
			}
		}
		if len(names) == 1 {
			kw.set("type", names[0])
		} else {
			kw.set("type", stringList(names))
		}
	}
	if s.enum != nil {
		var vals []any
		dropped := 0
		for _, v := range s.enum {
			if jsonable(v) {
				vals = append(vals, v)
			} else {
				dropped++
			}
		}
		if dropped > 0 {
			comments = append(comments, fmt.Sprintf("%d enum value(s) that JSON cannot hold (infinite or NaN) are left out.", dropped))
		}
		if len(vals) == 0 {
			allOf = append(allOf, false)
		} else {
			kw.set("enum", vals)
		}
		if len(s.aliases) > 0 {
			var al []string
			for _, from := range slices.Sorted(maps.Keys(s.aliases)) {
				al = append(al, fmt.Sprintf("%q (for %q)", from, s.aliases[from]))
			}
			comments = append(comments, "Legacy aliases, invalid here as for protoscan, which names the canonical value in its error: "+strings.Join(al, ", ")+".")
		}
	}
	if s.hasConst {
		if jsonable(s.constVal) {
			kw.set("const", s.constVal)
		} else {
			comments = append(comments, "const is a number JSON cannot hold (infinite or NaN): no JSON value equals it.")
			allOf = append(allOf, false)
		}
	}
	if s.minLength >= 0 {
		kw.set("minLength", s.minLength)
	}
	if s.maxLength >= 0 {
		kw.set("maxLength", s.maxLength)
	}
	var patterns []string
	if s.pattern != nil {
		src := s.pattern.String()
		switch p, ok := ecmaPattern(src); {
		case !ok:
			// kept, the pattern would break the whole document for a
			// JavaScript validator (new RegExp throws on (?m))
			e.dropped = true
			comments = append(comments, fmt.Sprintf("The spec's pattern %s is left out: it uses ^ or $ of multi-line mode ((?m)) inside the pattern, which Go RE2 and ECMA-262 cannot both read, so this schema accepts strings that protoscan rejects.", src))
		case p != src:
			comments = append(comments, fmt.Sprintf("pattern as the spec writes it (Go RE2): %s", src))
			patterns = append(patterns, p)
		default:
			patterns = append(patterns, p)
		}
	}
	if s.minWords > 0 {
		e.words = true
		comments = append(comments, fmt.Sprintf("minWords %d: at least %s, written as a pattern (see the $comment of the document).", s.minWords, plural(s.minWords, "word")))
		patterns = append(patterns, wordsPattern(s.minWords))
	}
	switch len(patterns) {
	case 1:
		kw.set("pattern", patterns[0])
	case 2:
		for _, p := range patterns {
			o := &jobj{}
			o.set("pattern", p)
			allOf = append(allOf, o)
		}
	}
	e.bounds(s, kw, &allOf)
	if s.minItems >= 0 {
		kw.set("minItems", s.minItems)
	}
	if s.maxItems >= 0 {
		kw.set("maxItems", s.maxItems)
	}
	if s.uniqueItems {
		kw.set("uniqueItems", true)
	}
	if it := e.items(s); it != nil {
		kw.set("items", e.slot(it))
	}
	if len(s.required) > 0 {
		kw.set("required", stringList(s.required))
	}
	if s.properties != nil {
		props := &jobj{}
		for _, name := range s.propOrder {
			props.set(name, e.slot(e.property(s, name)))
		}
		kw.set("properties", props)
	}
	if s.noAdditional {
		kw.set("additionalProperties", false)
	} else if ad := e.additional(s); ad != nil {
		kw.set("additionalProperties", e.slot(ad))
	}
	for _, sub := range s.allOf {
		allOf = append(allOf, e.slot(sub))
	}
	if s.anyOf != nil {
		kw.set("anyOf", e.list(s.anyOf))
	}
	if s.oneOf != nil {
		kw.set("oneOf", e.list(s.oneOf))
	}
	if s.not != nil {
		kw.set("not", e.slot(s.not))
	}
	if s.existsIn != nil {
		comments = append(comments, fmt.Sprintf("existsIn %s is not expressed: protoscan also requires the value to name a directory or <value>.md under %s of the repository root.",
			"["+strings.Join(s.existsIn, ", ")+"]", dirList(s.existsIn, " or ")))
	}
	if s.errorMessage != "" {
		comments = append(comments, fmt.Sprintf("protoscan's message when this schema fails: %q.", s.errorMessage))
	}
	if notes.format != "" {
		comments = append(comments, fmt.Sprintf("format %q is not checked by protoscan and is left out.", notes.format))
	}

	// a $ref beside other keywords: draft-07 ignores the siblings of
	// $ref, so the reference goes into allOf
	var ref any
	if s.ref != nil {
		ref = e.slot(s.ref)
	}

	o := &jobj{}
	if notes.title != "" {
		o.set("title", notes.title)
	}
	desc := notes.description
	if s.isDeprecated {
		hint := s.deprecated
		if hint == "" {
			hint = "no longer recommended"
		}
		desc = joinText(desc, "Deprecated: "+strings.TrimSuffix(hint, ".")+".")
	}
	if desc != "" {
		o.set("description", desc)
	}
	if c := joinText(notes.comment, strings.Join(comments, " ")); c != "" {
		o.set("$comment", c)
	}
	if s.isDeprecated {
		o.set("deprecated", true)
	}
	if notes.readOnly {
		o.set("readOnly", true)
	}
	if notes.writeOnly {
		o.set("writeOnly", true)
	}
	if notes.hasDefault {
		o.set("default", notes.def)
	}
	if notes.hasExamples {
		o.set("examples", notes.examples)
	}
	if ref != nil {
		if len(o.keys) == 0 && len(kw.keys) == 0 && len(allOf) == 0 {
			return ref
		}
		allOf = append([]any{ref}, allOf...)
	}
	for i, key := range kw.keys {
		if len(allOf) > 0 && (key == "anyOf" || key == "oneOf" || key == "not") {
			o.set("allOf", allOf)
			allOf = nil
		}
		o.set(key, kw.vals[i])
	}
	if len(allOf) > 0 {
		o.set("allOf", allOf)
	}
	if len(o.keys) == 0 {
		return true
	}
	return o
}

// bounds writes minimum, exclusiveMinimum, maximum and exclusiveMaximum.
// An infinite bound either allows every JSON number (nothing to write) or
// none of them (not: number).
func (e *exporter) bounds(s *schema, kw *jobj, allOf *[]any) {
	noNumber := false
	for _, b := range []struct {
		key   string
		b     bound
		lower bool
	}{{"minimum", s.minimum, true}, {"exclusiveMinimum", s.exMinimum, true}, {"maximum", s.maximum, false}, {"exclusiveMaximum", s.exMaximum, false}} {
		if !b.b.set {
			continue
		}
		if math.IsInf(b.b.v, 0) {
			if (b.lower && b.b.v > 0) || (!b.lower && b.b.v < 0) {
				noNumber = true
			}
			continue
		}
		kw.set(b.key, jsonNumber(b.b))
	}
	if noNumber {
		o, t := &jobj{}, &jobj{}
		t.set("type", "number")
		o.set("not", t)
		*allOf = append(*allOf, o)
	}
}

var jsonNumberRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$`)
})

// jsonNumber writes a bound as the spec spells it when that is a JSON
// number (0.0 stays 0.0), else as its value.
func jsonNumber(b bound) any {
	if jsonNumberRE().MatchString(b.text) {
		return jnum(b.text)
	}
	return b.v
}

func (e *exporter) list(ss []*schema) []any {
	out := make([]any, len(ss))
	for i, sub := range ss {
		out[i] = e.slot(sub)
	}
	return out
}

func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	a = strings.TrimSpace(a)
	if !strings.HasSuffix(a, ".") && !strings.HasSuffix(a, "!") && !strings.HasSuffix(a, "?") {
		a += "."
	}
	return a + " " + b
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func stringList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// refEscape writes a definition name as a JSON pointer token inside a URI
// fragment: ~ and / escaped as JSON Pointer wants, then every character a
// fragment cannot hold percent-encoded.
func refEscape(name string) string {
	name = strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~!$&'()*+,;=:@", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// jobj is a JSON object that keeps its keys in the order they were set.
type jobj struct {
	keys []string
	vals []any
}

func (o *jobj) set(k string, v any) {
	for i, kk := range o.keys {
		if kk == k {
			o.vals[i] = v
			return
		}
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
}

func (o *jobj) get(k string) (any, bool) {
	for i, kk := range o.keys {
		if kk == k {
			return o.vals[i], true
		}
	}
	return nil, false
}

func (o *jobj) del(k string) {
	for i, kk := range o.keys {
		if kk == k {
			o.keys = slices.Delete(o.keys, i, i+1)
			o.vals = slices.Delete(o.vals, i, i+1)
			return
		}
	}
}

// jnum is a number written as given.
type jnum string

// writeJSON writes v indented by two spaces per level, as
// json.MarshalIndent would, but with object keys in jobj order and with
// every character that is not printable escaped (so a pattern's separator
// class reads as \u00a0 rather than as a blank).
func writeJSON(b *bytes.Buffer, v any, depth int) {
	indent := func(d int) {
		b.WriteByte('\n')
		for range d {
			b.WriteString("  ")
		}
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		writeJSONString(b, x)
	case jnum:
		b.WriteString(string(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(formatJSONFloat(x))
	case map[string]any:
		o := &jobj{}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			o.set(k, x[k])
		}
		writeJSON(b, o, depth)
	case *jobj:
		if len(x.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			writeJSONString(b, k)
			b.WriteString(": ")
			writeJSON(b, x.vals[i], depth+1)
		}
		indent(depth)
		b.WriteByte('}')
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			writeJSON(b, e, depth+1)
		}
		indent(depth)
		b.WriteByte(']')
	default:
		writeJSONString(b, fmt.Sprint(x))
	}
}

func formatJSONFloat(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func writeJSONString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(`\ufffd`)
			i++
			continue
		}
		i += size
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(b, `\u%04x`, r)
		case r < utf8.RuneSelf:
			b.WriteByte(byte(r))
		case !unicode.IsPrint(r):
			if r > 0xFFFF {
				r -= 0x10000
				fmt.Fprintf(b, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
			} else {
				fmt.Fprintf(b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
