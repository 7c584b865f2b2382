package jsonmsg

// Compared is the number of keys UniqueKeys has compared one by one, all
// parses of t together.
func (t *Tape) Compared() int { return t.compared }

// ManyKeys is the number of members past which an object's keys are kept
// in a map.
const ManyKeys = manyKeys
