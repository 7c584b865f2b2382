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
	// Keyword is the spec's keyword ("minWords", "maximum"), File and
	// Line where the spec writes it (File as Spec.Sources names it:
	// "embedded:protocol-core-v1.0.yaml" for an embedded spec).
	Keyword string
	File    string
	Line    int
}

// limitKeywords are the keywords Limits reports, in schema.kwLine order.
var limitKeywords = [...]string{"minWords", "minLength", "maxLength", "minItems", "maxItems",
	"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"}

func limitKeyword(k string) int {
	for i, w := range limitKeywords {
		if w == k {
			return i
		}
	}
	return -1
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
	add := func(sc *schema, kw int, measure, op string, v float64) {
		out = append(out, Limit{Path: path, Measure: measure, Op: op, Value: v,
			Keyword: limitKeywords[kw], File: sc.file, Line: int(sc.kwLine[kw])})
	}
	if sc.minWords >= 0 {
		add(sc, 0, "words", ">=", float64(sc.minWords))
	}
	if sc.minLength >= 0 {
		add(sc, 1, "len", ">=", float64(sc.minLength))
	}
	if sc.maxLength >= 0 {
		add(sc, 2, "len", "<=", float64(sc.maxLength))
	}
	if sc.minItems >= 0 {
		add(sc, 3, "len", ">=", float64(sc.minItems))
	}
	if sc.maxItems >= 0 {
		add(sc, 4, "len", "<=", float64(sc.maxItems))
	}
	if sc.minimum.set {
		add(sc, 5, "", ">=", sc.minimum.v)
	}
	if sc.exMinimum.set {
		add(sc, 6, "", ">", sc.exMinimum.v)
	}
	if sc.maximum.set {
		add(sc, 7, "", "<=", sc.maximum.v)
	}
	if sc.exMaximum.set {
		add(sc, 8, "", "<", sc.exMaximum.v)
	}
	if sc.items != nil && sc.items.minWords >= 0 {
		add(sc.items, 0, "words", ">=", float64(sc.items.minWords)) // every item: the same bound per item
	}
	for _, name := range sc.propOrder {
		out = appendLimits(out, path+"."+name, sc.properties[name], depth+1)
	}
	return out
}
