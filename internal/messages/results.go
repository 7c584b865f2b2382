package messages

import (
	"cmp"
	"slices"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// Validated is a protocol-core message of a file and msgcheck's result on
// it, for `protoscan validate` on a Markdown or code file.
type Validated struct {
	// Location is where the message starts.
	Location finding.Location
	// Value is the message as the source writes it (a value the code
	// computes is a facts.Unknown).
	Value map[string]any
	// Result is msgcheck's result, as Check reports it: each error and
	// warning at its line and column in the file, sorted, those the
	// source does not say (on computed values; in code, missing fields)
	// left out, and Valid when no error is left.
	Result msgcheck.Result
}

// Results finds the protocol-core messages (DELEGATE, HANDBACK) of f as
// Check finds them and returns each with its result, in source order.
// The messages of the further protocols are not among them.
func (c *Checker) Results(f *facts.File) []Validated {
	core := c.protocols[0].(*core)
	nested := nestedMappings(f)
	byPos := make(map[facts.Pos]int, len(f.Mappings))
	for i := range f.Mappings {
		byPos[f.Mappings[i].Pos] = i
	}
	places := &index{f: f, byPos: byPos}
	var out []Validated
	for i := range f.Mappings {
		m := &f.Mappings[i]
		if nested[i] {
			continue
		}
		for _, msg := range core.find(f, m, nil, byPos) {
			value, unknown := toMap(m)
			res := core.v.ValidateAt(msg.kind, value, nil)
			loc := locator{index: places, root: m}
			place := func(list []msgcheck.Finding, warning bool) []msgcheck.Finding {
				var kept []msgcheck.Finding
				for _, e := range list {
					if skip(e, m, value, unknown) {
						continue
					}
					j := placed(e, warning)
					e.Line, e.Column = loc.find(j.at, j.atKey)
					kept = append(kept, e)
				}
				slices.SortStableFunc(kept, func(a, b msgcheck.Finding) int {
					return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
				})
				return kept
			}
			res.Errors, res.Warnings = place(res.Errors, false), place(res.Warnings, true)
			res.Valid = len(res.Errors) == 0
			out = append(out, Validated{
				Location: finding.Location{Path: f.Path, Line: m.Pos.Line, Col: m.Pos.Col},
				Value:    value,
				Result:   res,
			})
		}
	}
	return out
}
