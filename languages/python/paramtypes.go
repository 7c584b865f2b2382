package python

// maxParamType bounds the annotation kept of a parameter: longer ones
// (a Callable's whole signature) say nothing more of the type's name.
const maxParamType = 80

// paramTypes returns the annotations of the parameters of the parameter
// list p, as written (hb: Handback gives "Handback"), in order; nil when
// none is annotated. The names are interned and carved from the string
// slab, as Params are.
func (x *extractor) paramTypes(p int) []string {
	if p < 0 {
		return nil
	}
	var buf [8]string
	out := buf[:0]
	end := int(x.nodes[p].End)
	for c := x.first(p); c >= 0; c = x.next(c, end) {
		if !x.named(c) {
			continue
		}
		switch x.kind(c) {
		case kTypedParam, kTypedDefaultParam:
			if t := x.text(x.child(c, fType)); len(t) > 0 && len(t) <= maxParamType {
				out = append(out, x.fs.intern(t))
			}
		}
	}
	return take(&x.fs.strSlab, out)
}
