package msgcheck

// Limit is a numeric bound the spec puts on a field of a kind: on its value
// (Measure ""), its length or number of items ("len"), or its number of
// words ("words"). Analyzers that judge thresholds in code compare with
// these: a `len(scope.split()) < 10` check disagrees with minWords 15.
type Limit struct {
	Path    string  // "scope", "metrics.quality"
	Measure string  // "", "len" or "words"
	Op      string  // ">=", ">", "<=" or "<": what a valid value satisfies
	Value   float64 // the bound
}

// Limits returns the numeric bounds of a kind's fields and of their nested
// properties, in spec order (a field's own bounds before its properties'),
// or nil for an unknown kind.
func (s *Spec) Limits(kindName string) []Limit {
	k := s.kind(kindName)
	if k == nil {
		return nil
	}
	var out []Limit
	for _, f := range k.order {
		out = appendLimits(out, f.name, f.schema, 0)
	}
	return out
}

// maxLimitDepth bounds how deep Limits follows nested properties.
const maxLimitDepth = 4

func appendLimits(out []Limit, path string, sc *schema, depth int) []Limit {
	for sc != nil && sc.pureRef() {
		sc = sc.ref
	}
	if sc == nil || depth > maxLimitDepth {
		return out
	}
	add := func(measure, op string, v float64) { out = append(out, Limit{path, measure, op, v}) }
	if sc.minWords >= 0 {
		add("words", ">=", float64(sc.minWords))
	}
	if sc.minLength >= 0 {
		add("len", ">=", float64(sc.minLength))
	}
	if sc.maxLength >= 0 {
		add("len", "<=", float64(sc.maxLength))
	}
	if sc.minItems >= 0 {
		add("len", ">=", float64(sc.minItems))
	}
	if sc.maxItems >= 0 {
		add("len", "<=", float64(sc.maxItems))
	}
	if sc.minimum.set {
		add("", ">=", sc.minimum.v)
	}
	if sc.exMinimum.set {
		add("", ">", sc.exMinimum.v)
	}
	if sc.maximum.set {
		add("", "<=", sc.maximum.v)
	}
	if sc.exMaximum.set {
		add("", "<", sc.exMaximum.v)
	}
	if sc.items != nil && sc.items.minWords >= 0 {
		add("words", ">=", float64(sc.items.minWords)) // every item: the same bound per item
	}
	for _, name := range sc.propOrder {
		out = appendLimits(out, path+"."+name, sc.properties[name], depth+1)
	}
	return out
}
