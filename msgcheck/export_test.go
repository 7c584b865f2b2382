package msgcheck

// SpecWork is ParseSpec that also returns the work compiling took: the
// schemas compiled (against maxSchemas), and the schemas the $ref cycle
// and expansion checks visited.
func SpecWork(name string, data []byte) (spec *Spec, compiled, visited int, err error) {
	c := &compiler{file: name}
	spec, err = c.parse(data)
	return spec, len(c.all), c.visited, err
}

// ValidateWork is Validate that also returns the work the walk took:
// the schemas it checked (against maxChecks) and the items uniqueItems
// compared.
func (v *Validator) ValidateWork(kindName string, msg any) (res Result, checks, compared int) {
	var st state
	res = v.walkWith(&st, kindName, msg, false)
	return res, st.checks, st.compared
}

// MaxSchemas and MaxChecks are the bounds the counters above are held to.
const (
	MaxSchemas = maxSchemas
	MaxChecks  = maxChecks
)
