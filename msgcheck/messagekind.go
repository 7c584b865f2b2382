package msgcheck

import (
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"github.com/protoscan-dev/protoscan/jsonmsg"
)

// The kind of a message read as a message (a queue's file, a line of a
// log, an input of validate) is told one way everywhere: its marker
// (MarkerField) names it, else its TypeField names it beside the kind's id
// field, else the spec's signatures fit it, else the name of its file
// does (KindOfName). A JSON Schema document is none (IsSchemaDocument).

// MessageKind returns the kind of a decoded message, or hint (the kind
// its file is named for, or "") when the message itself names none;
// named says the message named it.
func (s *Spec) MessageKind(m map[string]any, hint string) (kind string, named bool) {
	if k := s.messageKind(m); k != nil {
		return k.name, true
	}
	return hint, false
}

// MessageKindTape is MessageKind for a message on a tape.
func (s *Spec) MessageKindTape(t *jsonmsg.Tape, hint string) (kind string, named bool) {
	if len(t.Toks) > 0 && t.Toks[0].Kind == jsonmsg.Object {
		if k := s.messageKindTape(t); k != nil {
			return k.name, true
		}
	}
	return hint, false
}

// messageKind is the kind m names by its marker, its type or its
// signature, or nil.
func (s *Spec) messageKind(m map[string]any) *kind {
	if v, ok := m[MarkerField].(string); ok {
		if k := s.kind(s.KindNamed(v)); k != nil {
			return k
		}
	}
	if v, ok := m[TypeField].(string); ok {
		if k := s.kind(s.KindNamed(v)); k != nil && k.idField() != "" {
			if _, has := m[k.idField()]; has {
				return k
			}
		}
	}
	return s.detect(m)
}

// messageKindTape is messageKind on a tape whose top level is an object.
func (s *Spec) messageKindTape(t *jsonmsg.Tape) *kind {
	if i := t.Member(0, MarkerField); i >= 0 && t.Toks[i].Kind == jsonmsg.String {
		if k := s.kind(s.KindNamed(t.Toks[i].Str)); k != nil {
			return k
		}
	}
	if i := t.Member(0, TypeField); i >= 0 && t.Toks[i].Kind == jsonmsg.String {
		if k := s.kind(s.KindNamed(t.Toks[i].Str)); k != nil && k.idField() != "" && t.Member(0, k.idField()) >= 0 {
			return k
		}
	}
	return s.detectTape(t)
}

// KindOfName returns the kind a file's name is named for, in any case:
// DELEGATE-001.yaml, tasks-handback.json, queue/done/7-HANDBACK.yml; the
// longest kind name the base name holds, or "" when it holds none.
func (s *Spec) KindOfName(p string) string {
	base := strings.ToLower(path.Base(strings.ReplaceAll(p, "\\", "/")))
	best := ""
	for _, k := range s.kinds {
		if len(k.name) > len(best) && strings.Contains(base, k.name) {
			best = k.name
		}
	}
	return best
}

// DocumentKind is MessageKind for a YAML or JSON document of a file
// given as messages (validate's inputs; "-" for stdin): in a file named
// for a kind, the kind the document names, else the file's; else "", for
// the validator to tell as MessageKind does. schema reports a JSON Schema
// document, which is no message.
func (s *Spec) DocumentKind(doc *yaml.Node, file string) (kind string, schema bool) {
	v, err := yamlnode.ToValue(doc, yamlnode.DefaultLimits())
	if err != nil {
		return "", false // the validator reports it
	}
	m, _ := v.(map[string]any)
	if m == nil {
		return "", false
	}
	if IsSchemaMap(m) {
		return "", true
	}
	if file == "-" {
		return "", false
	}
	if hint := s.KindOfName(file); hint != "" {
		kind, _ = s.MessageKind(m, hint)
	}
	return kind, false
}
