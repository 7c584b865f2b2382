package msgcheck

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
)

// This file is the formerly keyword: the names older messages give a
// field (role for a DELEGATE's agent). A message that holds a former name
// and not the field is checked as if the value were under the field's
// name, with one finding at the old key that names the new one; both at
// once is a warning at the old key. Kinds without former names pay one
// nil check per field a message lacks.

// formerly reads the formerly keyword of a field's schema node v: a
// list of names, or one name.
func (c *compiler) formerly(v *yaml.Node) []string {
	for _, kv := range pairs(v) {
		if kv[0].Value != "formerly" {
			continue
		}
		n := deref(kv[1])
		if n.Kind == yaml.ScalarNode {
			if n.Value == "" {
				c.errorf(n, "formerly must name the field's former names")
				return nil
			}
			return []string{n.Value}
		}
		names := c.strings(n)
		if len(names) == 0 && n.Kind == yaml.SequenceNode {
			c.errorf(n, "formerly must name the field's former names")
		}
		return names
	}
	return nil
}

// indexFormerly builds k.formerly from its fields' former names: a former
// name must not be a field of the kind itself, nor a former name of two
// fields.
func (c *compiler) indexFormerly(k *kind, n *yaml.Node) {
	for _, f := range k.order {
		for _, old := range f.formerly {
			switch other := k.formerly[old]; {
			case k.fields[old] != nil:
				c.errorf(n, "%s: %q is a field of the kind, so it cannot be the former name of %q", k.name, old, f.name)
			case other != nil && other != f:
				c.errorf(n, "%s: %q is the former name of both %q and %q", k.name, old, other.name, f.name)
			default:
				if k.formerly == nil {
					k.formerly = map[string]*field{}
				}
				k.formerly[old] = f
			}
		}
	}
}

// FormerNames returns what older messages call a kind's fields: each
// former name (the spec's formerly keyword) and the field it stands
// for, e.g. {"role": "agent"}; nil when the kind has none.
func (s *Spec) FormerNames(kindName string) map[string]string {
	k := s.kind(kindName)
	if k == nil || len(k.formerly) == 0 {
		return nil
	}
	out := make(map[string]string, len(k.formerly))
	for old, f := range k.formerly {
		out[old] = f.name
	}
	return out
}

// Rename is a former name of a field that a spec does not list, for
// WithFormerNames: Kind's field Field was once called Former.
type Rename struct {
	Kind, Field, Former string
}

// WithFormerNames returns s with more former names (a repository's
// config adds those of its own agents), or s itself for none. It is an
// error to name a kind or field s does not define, or a former name
// that is a field of the kind or the former name of another field.
func (s *Spec) WithFormerNames(renames []Rename) (*Spec, error) {
	if len(renames) == 0 {
		return s, nil
	}
	out := *s
	out.kinds = make([]*kind, len(s.kinds))
	copy(out.kinds, s.kinds)
	for _, r := range renames {
		i := -1
		for j, k := range out.kinds {
			if k.name == r.Kind {
				i = j
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("no message kind %q in spec %s", r.Kind, s.Source)
		}
		k := out.kinds[i]
		f := k.fields[r.Field]
		switch {
		case f == nil:
			return nil, fmt.Errorf("%s has no field %q", k.title, r.Field)
		case k.fields[r.Former] != nil:
			return nil, fmt.Errorf("%q is a field of %s, so it cannot be the former name of %q", r.Former, k.title, r.Field)
		case k.formerly[r.Former] == f:
			continue // the spec says so already
		case k.formerly[r.Former] != nil:
			return nil, fmt.Errorf("%q is the former name of %s's field %q already", r.Former, k.title, k.formerly[r.Former].name)
		}
		if k == s.kinds[i] {
			k = k.withOwnFields()
			out.kinds[i] = k
		}
		f = k.fields[r.Field]
		f.formerly = append(f.formerly[:len(f.formerly):len(f.formerly)], r.Former)
		k.formerly[r.Former] = f
	}
	return &out, nil
}

// withOwnFields copies k and its fields, so that their former names can
// change while k, shared by a compiled spec, stays as it is.
func (k *kind) withOwnFields() *kind {
	nk := *k
	nk.fields = make(map[string]*field, len(k.fields))
	nk.order = make([]*field, len(k.order))
	nk.byLen = make([][]*field, len(k.byLen))
	nk.formerly = make(map[string]*field, len(k.formerly)+1)
	for i, f := range k.order {
		nf := *f
		nk.order[i] = &nf
		nk.fields[nf.name] = &nf
		nk.byLen[len(nf.name)] = append(nk.byLen[len(nf.name)], &nf)
	}
	for old, f := range k.formerly {
		nk.formerly[old] = nk.fields[f.name]
	}
	return &nk
}

// formerOf returns the field key is a former name of (in any spelling
// when fold), or nil.
func (k *kind) formerOf(key string, fold bool) *field {
	if k.formerly == nil {
		return nil
	}
	if f := k.formerly[key]; f != nil || !fold {
		return f
	}
	for old, f := range k.formerly {
		if foldEqual(key, old) {
			return f
		}
	}
	return nil
}

// formerIn returns the first of f's former names that m holds, and its
// value.
func formerIn(f *field, m map[string]any) (string, any, bool) {
	for _, old := range f.formerly {
		if v, ok := m[old]; ok {
			return old, v, true
		}
	}
	return "", nil, false
}

// renamed reports the field f held under its former name old: an error
// when the field is required (a validator of today rejects the message),
// else a warning. The path is set to old, where the value is then
// checked as f's.
func (st *state) renamed(f *field, old string) {
	st.field, st.warn = f, !f.core
	st.path = append(st.path[:0], yamlnode.Step{Key: old, Index: -1})
	st.addText(!f.required, Finding{Field: old, Rule: f.ruleIDs["renamed"], path: st.keptPath(st.path), atKey: true},
		renamedText[2:], f.name)
	st.former = old
}

// renamedText follows the former name in the finding's text (see
// Finding.RenameTo).
const renamedText = ": the protocol calls this field "

// formerFinding is the warning on a former name old of the field f
// that the message holds beside checked, the field's own name or the
// former name its value is checked under.
func formerFinding(k *kind, f *field, old, checked string) Finding {
	return Finding{Field: old, Rule: f.ruleIDs["renamed"],
		Message: old + ": the protocol calls this field " + f.name + ", and " + checked + " holds it already in this " + k.title + " (" + old + " is ignored)",
		path:    []yamlnode.Step{{Key: old, Index: -1}}, atKey: true}
}

// checkedAs is the name f's value is checked under in a message that
// has (has reports a name present): its own, else its first former name
// present.
func checkedAs(f *field, has func(string) bool) string {
	if has(f.name) {
		return f.name
	}
	for _, old := range f.formerly {
		if has(old) {
			return old
		}
	}
	return ""
}

// formerComment says, for the exported JSON Schema of k, which former
// names protoscan reads as k's fields and the schema does not; "" for
// none.
func formerComment(k *kind) string {
	var parts []string
	for _, f := range k.order {
		for _, old := range f.formerly {
			parts = append(parts, old+" (for "+f.name+")")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Older messages use former names, which protoscan checks as the field with the error or warning msgcheck/" + k.name + "-FIELD-renamed and this schema does not accept: " + strings.Join(parts, ", ") + "."
}
