package divergence

import (
	"fmt"
	"strings"

	"github.com/protoscan-dev/protoscan/analyzers/divergence/witness"
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/facts"
)

// Where the spec gives a field no pattern, the canonical implementation's
// format is the reference (Options.Canonical, or the default rule): a
// validation of the same kind that matches the field with another format
// is RuleFormat, with a value one accepts and the other rejects.

// candidateFormats are the formats a validation candidate lets its field
// through by (facts.Format with BranchAccept inside its body), for the
// fields the spec gives no pattern; at most maxFormatChecks.
func candidateFormats(f *facts.File, fn *facts.Function, m *Model) []facts.Format {
	if len(f.Formats) == 0 {
		return nil
	}
	specs := m.specFormats()
	var out []facts.Format
	for _, fm := range f.Formats {
		if fm.Branch != facts.BranchAccept || fm.Pos.Offset < fn.Pos.Offset || fm.Pos.Offset >= fn.End.Offset ||
			len(specs[last(fm.Field)]) > 0 || m.kinds(fm.Field) == 0 {
			continue
		}
		if len(out) == maxFormatChecks {
			break
		}
		out = append(out, fm)
	}
	return out
}

// canonicalFormats compares the formats of the validations with those of
// the canonical validation of the same kind, field by field.
func canonicalFormats(cands []Candidate) []finding.Finding {
	type ref struct {
		cd *Candidate
		fm *facts.Format
	}
	refs := map[string]ref{} // concept and field
	key := func(c Concept, field string) string { return fmt.Sprint(c) + "\x00" + last(field) }
	for i := range cands {
		cd := &cands[i]
		if !cd.Canonical {
			continue
		}
		for j := range cd.Formats {
			if k := key(cd.Concept, cd.Formats[j].Field); refs[k].cd == nil {
				refs[k] = ref{cd, &cd.Formats[j]}
			}
		}
	}
	if len(refs) == 0 {
		return nil
	}
	var out []finding.Finding
	for i := range cands {
		cd := &cands[i]
		if cd.Canonical {
			continue
		}
		seen := map[string]bool{}
		for j := range cd.Formats {
			fm := &cd.Formats[j]
			r, ok := refs[key(cd.Concept, fm.Field)]
			if !ok || seen[fm.Field+"\x00"+fm.Pattern] {
				continue
			}
			seen[fm.Field+"\x00"+fm.Pattern] = true
			prog, err := codeProgram(fm)
			if err != nil {
				continue // the spec-less note would say nothing the reader can act on
			}
			refProg, err := codeProgram(r.fm)
			if err != nil {
				continue
			}
			min, max := codeLengths(&cd.Fn, fm.Field)
			rmin, rmax := codeLengths(&r.cd.Fn, r.fm.Field)
			w := witness.Find(witness.Side{Prog: prog, Min: min, Max: max}, witness.Side{Prog: refProg, Min: rmin, Max: rmax}, witness.Options{})
			if !w.Found {
				continue
			}
			out = append(out, canonicalFormatFinding(cd, fm, min, max, r.cd, r.fm, rmin, rmax, w))
		}
	}
	return out
}

func canonicalFormatFinding(cd *Candidate, fm *facts.Format, min, max int, rc *Candidate, rfm *facts.Format, rmin, rmax int, w witness.Result) finding.Finding {
	field := fm.Field[strings.LastIndexByte(fm.Field, '.')+1:]
	ref := fmt.Sprintf("%s:%d: %s", rc.Path, rfm.Pos.Line, describeCheck(rfm, rmin, rmax))
	fd := finding.Finding{Rule: RuleFormat, Severity: finding.Error, Location: finding.Location{Path: cd.Path, Line: fm.Pos.Line, Col: fm.Pos.Col},
		Literal: fm.Pattern, Canonical: rfm.Pattern,
		Related: []finding.Location{{Path: rc.Path, Line: rfm.Pos.Line, Col: rfm.Pos.Col, Message: "the canonical check of " + field}}}
	// the witness is accepted by the second side (the canonical check)
	// when Accepts is 1, as Formats reads it with the spec second
	verb, other := "accepts", "rejects"
	if w.Accepts == 1 {
		verb, other = "rejects", "accepts"
	}
	fd.Message = fmt.Sprintf("%s %s the %s %s, which the canonical %s %s (%s); %s matches %s with %s",
		cd.Fn.Name, verb, field, quoteWitness(w.Witness), rc.Fn.Name, other, ref, cd.Fn.Name, fm.Field, describeCheck(fm, min, max))
	return fd
}
