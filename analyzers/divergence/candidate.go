package divergence

import (
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/shape"
	protocol "github.com/protoscan-dev/protoscan/msgcheck/evidence"
)

// Concept is the protocol decision a function implements.
type Concept uint8

const (
	Escalation Concept = iota + 1
	DelegateValidation
	HandbackValidation
	StatusNormalization
)

var conceptNames = [...]string{"", "escalation decision", "DELEGATE validation", "HANDBACK validation", "status normalisation"}

func (c Concept) String() string {
	if int(c) < len(conceptNames) && c > 0 {
		return conceptNames[c]
	}
	return "concept?"
}

// Candidate is a function that implements a protocol decision. Its fields
// are exported so that the go vet Analyzer can pass candidates between
// packages as facts.
type Candidate struct {
	Concept Concept
	Path    string // as the file's facts name it
	Lang    string
	Fn      facts.Function
	// Canonical is set when Options.Canonical or the default rule names
	// this function the canonical implementation.
	Canonical bool
	// Doc is set for the bands of a document (Bands): Fn holds their
	// thresholds only; and by the scan for a function of a document's
	// code block (extract.Lang.Prose). A document joins the copies of its
	// decision to be compared with them; it is no copy itself.
	Doc bool
	// Formats are the formats a validation lets a field through by, for
	// the fields the spec gives no pattern: the canonical validation's
	// are the reference (see canonicalFormats).
	Formats []facts.Format
}

// Candidates returns the functions of f that implement a protocol
// decision, in source order.
func Candidates(f *facts.File, m *Model) []Candidate { return CandidatesIn(f, nil, m) }

// CandidatesIn is Candidates for a file whose source is src: a kind's
// word in its prose and comments (msgcheck/evidence.InText) is protocol
// evidence too. src may be nil.
func CandidatesIn(f *facts.File, src []byte, m *Model) []Candidate {
	if len(f.Functions) == 0 || extract.IsTestPath(f.Path) || vendored(f.Path) {
		return nil
	}
	var out []Candidate
	shown := src != nil && protocol.InText(src, m.spec)
	strs := bodies{f.Strings, slices.IsSortedFunc(f.Strings, func(a, b facts.String) int { return a.Pos.Offset - b.Pos.Offset })}
	for i := range f.Functions {
		fn := &f.Functions[i]
		if c, req := m.requiredConcept(f, fn, m.concept(f, strs, fn, shown)); c != 0 {
			cd := Candidate{Concept: c, Path: f.Path, Lang: f.Lang, Fn: *fn, Canonical: m.isCanonical(f.Path, fn.Name)}
			cd.Fn.Required = req // kept only with protocol evidence of the kind
			if c == DelegateValidation || c == HandbackValidation {
				cd.Formats = candidateFormats(f, fn, m)
			}
			out = append(out, cd)
		}
	}
	return out
}

// nameWords splits a function name into lower-case words:
// "Validator.ValidateDelegate" gives validator, validate, delegate.
func nameWords(name string) []string {
	return strings.FieldsFunc(shape.FieldName(name), func(r rune) bool { return r == '_' || r == '.' })
}

// concept decides what protocol decision fn implements, or 0. The name (or
// for escalation, the body) says which decision; the fields it reads must
// say that it is the protocol's.
func (m *Model) concept(f *facts.File, strs bodies, fn *facts.Function, shown bool) Concept {
	// the decision is named by the function or method name itself (not
	// by a receiver type such as Checker); the kind may be named by either
	// (DelegateValidator.Validate)
	words := nameWords(fn.Name[strings.LastIndexByte(fn.Name, '.')+1:])
	if len(words) > 0 && words[0] == "test" {
		return 0
	}
	var escalates, validates, normalizes, saysDelegate, saysHandback bool
	for _, w := range nameWords(fn.Name) {
		switch {
		case strings.HasPrefix(w, "delegat"):
			saysDelegate = true
		case w == "handback":
			saysHandback = true
		}
	}
	for _, w := range words {
		switch {
		case strings.HasPrefix(w, "escalat"):
			escalates = true
		case strings.HasPrefix(w, "validat"), strings.HasPrefix(w, "verif"), strings.HasPrefix(w, "check"),
			w == "valid", w == "invalid":
			validates = true
		case strings.HasPrefix(w, "normali"), strings.HasPrefix(w, "canonical"):
			normalizes = true
		}
	}
	ev := m.evidence(fn)
	if normalizes || (slices.Contains(words, "status") && hasAny(words, "map", "parse", "coerce", "convert", "to", "from")) {
		if m.statusValues(strs.of(fn), fn) >= 2 {
			return StatusNormalization
		}
	}
	named := escalates
	if !escalates && !validates {
		escalates = bodyEscalates(strs.of(fn), fn)
	}
	switch {
	case escalates:
		if m.scoreEscalation(f, strs.of(fn), fn, named, shown) {
			return Escalation
		}
		// without a score, fields named as the protocol's are not enough
		// (an error handler's error and context, a helper that escalates
		// and logs the task_id, a field of both kinds): a function named
		// for escalation must compare one or read a field of one kind
		// only, one its body ties to it must be in a file that shows the
		// protocol
		kindField := ev.delegateOnly+ev.handbackOnly >= 1
		if (ev.strong >= 1 || ev.delegate+ev.handback >= 2) && (named && (kindField || len(m.thresholds(fn)) > 0) || m.shows(f, fn, shown)) {
			return Escalation
		}
	case validates:
		if !saysDelegate && !saysHandback && m.namedForField(words) {
			// validate_context is about the field: a validation of a
			// message only with protocol evidence inside it
			in := protocol.In(f, m.spec, fn)
			saysDelegate, saysHandback = in.Has("delegate"), in.Has("handback")
			if !saysDelegate && !saysHandback {
				return 0
			}
		}
		switch {
		case saysDelegate && ev.delegate >= 1 && ev.delegateOnly >= 1:
			return DelegateValidation
		case saysHandback && ev.handback >= 1 && ev.handbackOnly >= 1:
			return HandbackValidation
		// without the kind in the name, two fields of one kind only, and
		// not only fields whose names are common words (scope, context)
		case ev.delegateOnly >= 2 && ev.delegateOnly > ev.handbackOnly && (ev.strong >= 1 || ev.delegateOnly >= 3):
			return DelegateValidation
		case ev.handbackOnly >= 2 && ev.handbackOnly > ev.delegateOnly && (ev.strong >= 1 || ev.handbackOnly >= 3):
			return HandbackValidation
		}
	}
	if !escalates && m.scoreEscalation(f, strs.of(fn), fn, false, shown) {
		// named for no decision, or a validation that is none of the
		// protocol's, that decides to escalate on a score
		return Escalation
	}
	return 0
}

// namedForField tells whether a function's own name names a field of the
// protocol beside its verbs: validate_context, check_scope, ValidatePlan.
func (m *Model) namedForField(words []string) bool {
	for _, w := range words {
		switch {
		case strings.HasPrefix(w, "validat"), strings.HasPrefix(w, "verif"), strings.HasPrefix(w, "check"),
			w == "valid", w == "invalid", w == "is", w == "has", w == "ensure", w == "assert":
			continue
		}
		if m.kinds(w) != 0 {
			return true
		}
	}
	return false
}

func hasAny(words []string, of ...string) bool {
	for _, w := range of {
		if slices.Contains(words, w) {
			return true
		}
	}
	return false
}

// evidence counts the distinct protocol fields a function reads, compares
// or takes as parameters.
type evidence struct {
	delegate, handback         int // fields of each kind
	delegateOnly, handbackOnly int // fields of one kind only
	strong                     int // fields whose names are not common words
}

func (m *Model) evidence(fn *facts.Function) evidence {
	seen := make(map[string]bool, len(fn.Fields)+len(fn.Consts)+len(fn.Params))
	var ev evidence
	add := func(p string) {
		if p == "" {
			return
		}
		k := m.kinds(p)
		if k == 0 {
			return
		}
		key := last(p)
		if seen[key] {
			return
		}
		seen[key] = true
		if k&kindDelegate != 0 {
			ev.delegate++
		}
		if k&kindHandback != 0 {
			ev.handback++
		}
		switch k {
		case kindDelegate:
			ev.delegateOnly++
		case kindHandback:
			ev.handbackOnly++
		}
		if !genericFields[key] {
			ev.strong++
		}
	}
	for _, p := range fn.Fields {
		add(p)
	}
	for _, c := range fn.Consts {
		add(c.Field)
	}
	for _, p := range fn.Params {
		add(shape.FieldName(p))
	}
	return ev
}

// bodyEscalates reports whether the body ties the function to escalation
// without its name saying so: it calls an escalate* function or uses an
// "escalate"-like string.
func bodyEscalates(strs []facts.String, fn *facts.Function) bool {
	for _, c := range fn.Calls {
		if strings.Contains(strings.ToLower(c), "escalat") {
			return true
		}
	}
	for i := range strs {
		s := &strs[i]
		if s.Pos.Offset >= fn.Pos.Offset && s.Pos.Offset < fn.End.Offset && len(s.Value) >= 7 && strings.EqualFold(s.Value[:7], "escalat") &&
			(s.Role == facts.RoleReturn || s.Role == facts.RoleAssign || s.Role == facts.RoleValue) {
			return true
		}
	}
	return false
}

// bodies finds the string literals inside a function: by binary search
// when the file lists them in source order (the extractors do), which
// keeps a file of many functions linear, else by a scan of them all.
type bodies struct {
	all    []facts.String
	sorted bool
}

// of returns the literals that may lie in fn's body (callers still check
// the offsets: an unsorted list is returned whole).
func (b bodies) of(fn *facts.Function) []facts.String {
	if !b.sorted {
		return b.all
	}
	lo, _ := slices.BinarySearchFunc(b.all, fn.Pos.Offset, func(s facts.String, off int) int { return s.Pos.Offset - off })
	hi, _ := slices.BinarySearchFunc(b.all, fn.End.Offset, func(s facts.String, off int) int { return s.Pos.Offset - off })
	return b.all[lo:hi]
}

// statusValues counts the distinct HANDBACK statuses (canonical or
// aliases) that the body compares with, returns or maps.
func (m *Model) statusValues(strs []facts.String, fn *facts.Function) int {
	seen := map[string]bool{}
	for i := range strs {
		s := &strs[i]
		if s.Pos.Offset < fn.Pos.Offset || s.Pos.Offset >= fn.End.Offset || s.Role == facts.RoleOther {
			continue
		}
		if v := strings.ToLower(s.Value); m.statuses[v] {
			seen[v] = true
		}
	}
	return len(seen)
}
