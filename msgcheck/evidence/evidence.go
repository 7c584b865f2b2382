// Package evidence is protoscan's one predicate of protocol evidence: does
// a file, or a function of it, handle messages of a spec's kinds? The
// drift analyzer asks it before it takes everyone's words (success,
// partial, blocked; high, low) for a kind's vocabulary, the scan before
// it reports such words in a tree at all, and divergence before it takes
// a function named for a field (validate_context) for a validation of a
// message.
//
// A file (or what lies inside a function) shows evidence of a kind when
// it holds
//
//   - a spec document of the kind's protocol: a mapping of a data document
//     with a string protocol naming it, a version and a kind (a mapping
//     with core_fields), as SpecDocument tells;
//   - a message of the kind by msgcheck's shape predicate (Spec.ShapeOf):
//     its marker (handoff_type: HANDBACK, type: handback beside task_id), a
//     type or builder named for the kind, or its id field and two core
//     fields; for a function, the fields it reads and its parameters
//     taken as one record count too;
//   - the kind's word: its name in capitals as a word (HANDBACK,
//     DELEGATE, NEXUS_HANDOFF_V2) in a string, a name or the path; or, for
//     a kind whose name is no everyday word of code, its name in any case
//     and spelling (handback, Handback, nexus-handoff; see KindWords) in
//     the path, a type (a parameter's too), a variable or group name, a
//     receiver, a function or parameter name, or as a word of a string. "delegate" is an
//     everyday word (the delegation pattern, C#'s keyword, Cocoa's
//     delegates): only DELEGATE in capitals, a DELEGATE message or a
//     spec says a file handles DELEGATEs. A kind's name in capitals
//     counts in a file's prose and comments too (InText).
//
// A file that holds a spec document is read for that spec alone: the
// spec's field tables (core_fields: {task_id, status, output}) are no
// messages, and a spec of another protocol is no evidence for this one.
package evidence

import (
	"bytes"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// everyday are kind names that are everyday words of code: in lower or
// title case they say nothing of the protocol.
var everyday = map[string]bool{"delegate": true}

// KindWords are the spellings that name a kind in any case, in paths and
// names (KindNames), but an everyday name (delegate) has none: alone, it
// is no evidence.
func KindWords(kind string) []string {
	if everyday[strings.ToLower(kind)] {
		return nil
	}
	return KindNames(kind)
}

// KindNames are the spellings of a kind's name in identifiers and paths:
// the kind's whole name without its version, with or without separators
// (handback; nexus_handoff, nexushandoff, nexus-handoff for
// nexus_handoff_v2). Its parts alone (phase, handoff) are everyone's
// words. A receiver or type so named (delegate["agent"]) still names the
// kind beside the kind's field, everyday word or not.
func KindNames(kind string) []string {
	parts := strings.FieldsFunc(strings.ToLower(kind), func(r rune) bool { return r == '_' || r == '-' })
	if n := len(parts); n > 1 && len(parts[n-1]) >= 2 && parts[n-1][0] == 'v' && strings.Trim(parts[n-1][1:], "0123456789") == "" {
		parts = parts[:n-1]
	}
	var out []string
	for _, sep := range []string{"_", "", "-"} {
		w := strings.Join(parts, sep)
		if len(w) >= 5 && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// SpecDocument tells whether m has the shape of a protoscan spec, and the
// protocol it names: a mapping of a data document (YAML, JSON, a Markdown
// block; not code) with a string protocol, a version, and at least one
// message kind (a mapping holding core_fields).
func SpecDocument(m *facts.Mapping) (protocol string, ok bool) {
	if m.InCode {
		return "", false
	}
	hasVersion, hasKind := false, false
	for _, e := range m.Entries {
		switch e.Key {
		case "protocol":
			protocol, ok = e.Value.(string)
		case "version":
			switch x := e.Value.(type) {
			case string:
				hasVersion = x != ""
			case int64, float64:
				hasVersion = true
			}
		default:
			if kind, isMap := e.Value.(map[string]any); isMap {
				_, core := kind["core_fields"]
				hasKind = hasKind || core
			}
		}
	}
	return protocol, ok && protocol != "" && hasVersion && hasKind
}

// Kinds are the kinds of one spec that something shows evidence of.
type Kinds []string

// Has tells whether k holds kind.
func (k Kinds) Has(kind string) bool { return slices.Contains(k, kind) }

// defaultProtocol is the protocol of a spec that names none.
const defaultProtocol = "protocol-core"

// Of returns the kinds of spec the file shows evidence of, in spec order.
func Of(f *facts.File, spec *msgcheck.Spec) Kinds {
	return find(f, spec, nil)
}

// In returns the kinds of spec the function fn of f shows evidence of:
// the same predicate over what lies inside it (its name, parameters, their
// declared types and fields, and the literals and names of its body), the
// fields it reads and its parameters taken as one record.
func In(f *facts.File, spec *msgcheck.Spec, fn *facts.Function) Kinds {
	return find(f, spec, fn)
}

// InText tells whether a file's text names a kind of spec in capitals as
// a word (HANDBACK, DELEGATE, NEXUS_HANDOFF_V2), wherever it stands:
// prose, a comment, a string. The facts of a file do not hold its prose
// and comments; this is the predicate's clause for them.
func InText(src []byte, spec *msgcheck.Spec) bool {
	if spec == nil {
		return false
	}
	for _, k := range spec.Kinds() {
		if hasWordBytes(src, []byte(strings.ToUpper(k))) {
			return true
		}
	}
	return false
}

func hasWordBytes(s, w []byte) bool { return wordIn(s, w, bytes.Index) }

// Shows tells whether the file shows evidence of one kind of spec.
func Shows(f *facts.File, spec *msgcheck.Spec, kind string) bool {
	return f != nil && spec != nil && shows(f, spec, kind, nil)
}

func find(f *facts.File, spec *msgcheck.Spec, fn *facts.Function) Kinds {
	if f == nil || spec == nil {
		return nil
	}
	var out Kinds
	for _, kind := range spec.Kinds() {
		if shows(f, spec, kind, fn) {
			out = append(out, kind)
		}
	}
	return out
}

// inside tells whether p lies in fn's body; every place does when fn is nil.
func inside(fn *facts.Function, p facts.Pos) bool {
	return fn == nil || (p.Offset >= fn.Pos.Offset && p.Offset < fn.End.Offset)
}

func shows(f *facts.File, spec *msgcheck.Spec, kind string, fn *facts.Function) bool {
	words := KindWords(kind)
	caps := strings.ToUpper(kind)
	names := func(s string) bool { return namesKind(s, words, caps) }
	// a spec document: the file is read for it alone
	protocol := strings.TrimSpace(spec.Protocol)
	if protocol == "" {
		protocol = defaultProtocol
	}
	specFile := false
	for i := range f.Mappings {
		if p, ok := SpecDocument(&f.Mappings[i]); ok {
			specFile = true
			if strings.EqualFold(strings.TrimSpace(p), protocol) && inside(fn, f.Mappings[i].Pos) {
				return true
			}
		}
	}
	if fn == nil && names(f.Path) {
		return true
	}
	if fn != nil {
		if names(fn.Name) || slices.ContainsFunc(fn.Params, names) || slices.ContainsFunc(fn.Fields, names) ||
			slices.ContainsFunc(fn.ParamTypes, names) {
			return true
		}
		keys := make([]string, 0, len(fn.Fields)+len(fn.Params))
		for _, p := range fn.Fields {
			keys = append(keys, p[strings.LastIndexByte(p, '.')+1:])
		}
		keys = append(keys, fn.Params...)
		if spec.HasShape(kind, msgcheck.Record{Keys: keys, Fold: true}) {
			return true
		}
	}
	for i := range f.Mappings {
		m := &f.Mappings[i]
		if !inside(fn, m.Pos) || (specFile && !m.InCode) {
			continue
		}
		if names(m.TypeName) || names(m.Name) {
			return true
		}
		// a data document's keys as written, as msgcheck reads a message
		if spec.HasShape(kind, msgcheck.Record{Keys: m.Keys(), Values: m.Values(), Name: m.TypeName, Call: m.Call, Fold: m.InCode && !m.AsWritten}) {
			return true
		}
	}
	if !specFile {
		for _, g := range f.Groups {
			if inside(fn, g.Pos) && names(g.Name) {
				return true
			}
		}
	}
	for i := range f.Strings {
		s := &f.Strings[i]
		if !inside(fn, s.Pos) || (specFile && s.Mapping >= 0 && !f.Mappings[s.Mapping].InCode) {
			continue
		}
		if names(s.Receiver) || saysKind(s.Value, words, caps) {
			return true
		}
	}
	if fn == nil {
		for _, g := range f.Functions {
			if names(g.Name) || slices.ContainsFunc(g.Params, names) {
				return true
			}
		}
	}
	for _, t := range f.Tests {
		if inside(fn, t.Pos) && names(t.Receiver) {
			return true
		}
	}
	return false
}

// namesKind tells whether a name (a path, an identifier) names the kind:
// it holds the kind's name in capitals as a word, or one of its words in
// any case.
func namesKind(s string, words []string, caps string) bool {
	if s == "" {
		return false
	}
	if hasWord(s, caps) {
		return true
	}
	low := strings.ToLower(s)
	for _, w := range words {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// saysKind tells whether a string's text names the kind: its name in
// capitals, or one of its words in any case, as a word of the text.
func saysKind(s string, words []string, caps string) bool {
	if len(s) < 5 {
		return false
	}
	if hasWord(s, caps) {
		return true
	}
	low := strings.ToLower(s)
	for _, w := range words {
		if hasWord(low, w) {
			return true
		}
	}
	return false
}

// hasWord tells whether w occurs in s bounded by no letter or digit on
// either side (HANDBACK in "HANDBACK-001.yaml" and "send a HANDBACK"; not
// in "HANDBACKS" or "xDELEGATE").
func hasWord(s, w string) bool { return w != "" && wordIn(s, w, strings.Index) }

// wordIn is hasWord for a string or bytes, with its Index.
func wordIn[T string | []byte](s, w T, index func(T, T) int) bool {
	for i := 0; len(w) > 0; {
		j := index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !alnum(s[j-1])) && (end == len(s) || !alnum(s[end])) {
			return true
		}
		i = j + 1
	}
	return false
}

func alnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
