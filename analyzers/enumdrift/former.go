package enumdrift

import "sync"

// This file reads a field's former names (the spec's formerly keyword:
// role for a DELEGATE's agent) as the field, in the files that handle
// the field's kind. role is everyone's word (a chat message's role is
// user, assistant or system): a file with no evidence of the kind
// (its path, a type, a variable, a receiver named for it, or a message
// of its shape, which a former name counts towards) reads role as
// nothing.

// indexFormer fills v.former from its enums' former names, and prepares
// the vocabulary that reads them as their fields.
func (v *Vocabulary) indexFormer() {
	v.former = nil
	for _, e := range v.enums {
		for _, old := range e.formerly {
			k := normKey(old)
			if v.former == nil {
				v.former = map[string][]*Enum{}
			}
			v.former[k] = append(v.former[k], e)
		}
	}
	if v.former == nil {
		v.withFormer = nil
		return
	}
	v.withFormer = sync.OnceValue(func() *Vocabulary {
		on := *v
		on.byField, on.inMessages = withNames(v.byField, v.former), withNames(v.inMessages, v.former)
		on.former, on.withFormer = nil, nil
		return &on
	})
}

// withNames is byName with the enums of more added under their names.
func withNames(byName, more map[string][]*Enum) map[string][]*Enum {
	out := make(map[string][]*Enum, len(byName)+len(more))
	for k, es := range byName {
		out[k] = es
	}
	for k, es := range more {
		out[k] = append(out[k][:len(out[k]):len(out[k])], es...)
	}
	return out
}

// formerNames makes the checker read former names as their fields when
// the file names one as a key or tests a field by it, and handles the
// kind of a field it stands for.
func (c *checker) formerNames() {
	if c.v.former == nil || !c.namesFormer() {
		return
	}
	for _, es := range c.v.former {
		for _, e := range es {
			if c.hasEvidence(e) {
				c.v = c.v.withFormer()
				c.index() // the tests of named collections tie to the fields now
				return
			}
		}
	}
}

// namesFormer tells whether the file has a key, a field compared or a
// field tested that is a former name.
func (c *checker) namesFormer() bool {
	is := func(k string) bool { return k != "" && c.v.former[normKey(k)] != nil }
	for i := range c.f.Strings {
		if is(c.f.Strings[i].Key) {
			return true
		}
	}
	for _, t := range c.f.Tests {
		if is(t.Key) {
			return true
		}
	}
	for i := range c.f.Mappings {
		for _, en := range c.f.Mappings[i].Entries {
			if is(en.Key) {
				return true
			}
		}
	}
	return false
}
