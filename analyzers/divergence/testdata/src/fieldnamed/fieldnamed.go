package fieldnamed // want package:"2 candidates"

// fieldnamed holds validations named for a field. A skill design's
// context is checked twice, with the field names a DELEGATE uses too, but
// with no protocol evidence inside: those copies are no DELEGATE
// validation. Two plan checks that say DELEGATE are.

// Context is a skill design's context.
type Context struct {
	Skill, Scope, Agent string
	Plan                []string
}

// ValidateContext checks a context's keys.
func ValidateContext(c Context) []string {
	var errs []string
	if c.Skill == "" {
		errs = append(errs, "no skill")
	}
	if c.Scope == "" {
		errs = append(errs, "no scope")
	}
	if c.Agent == "" || len(c.Plan) < 2 {
		errs = append(errs, "no agent or plan")
	}
	return errs
}

// validateContextAgain is a copy of it.
func validateContextAgain(c Context) []string {
	var errs []string
	if c.Skill == "" {
		errs = append(errs, "skill missing")
	}
	if c.Scope == "" {
		errs = append(errs, "scope missing")
	}
	if c.Agent == "" || len(c.Plan) < 3 {
		errs = append(errs, "agent or plan missing")
	}
	return errs
}

// Request is a message with its marker.
type Request struct {
	HandoffType, Skill, Scope, Agent string
	Plan                             []string
}

func ValidatePlan(r Request) []string { // want `DELEGATE validation implemented 2 times \(ValidatePlan and checkPlan\); .*call it instead of repeating it`
	var errs []string
	if r.HandoffType != "DELEGATE" {
		errs = append(errs, "not a DELEGATE")
	}
	if r.Skill == "" || r.Scope == "" {
		errs = append(errs, "no skill or scope")
	}
	if r.Agent == "" || len(r.Plan) < 2 {
		errs = append(errs, "no agent or plan")
	}
	return errs
}

func checkPlan(r Request) []string {
	var errs []string
	if r.HandoffType != "DELEGATE" {
		errs = append(errs, "not a DELEGATE")
	}
	if r.Skill == "" || r.Scope == "" {
		errs = append(errs, "skill or scope missing")
	}
	if r.Agent == "" || len(r.Plan) < 2 {
		errs = append(errs, "agent or plan missing")
	}
	return errs
}
