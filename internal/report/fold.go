package report

import (
	"fmt"

	"github.com/protoscan-dev/protoscan/finding"
)

// maxSameLiteral is how many findings of one rule about one literal a
// file shows in the text and Markdown reports before the rest are
// folded into one line, as golangci-lint's max-same-issues does: the
// twentieth "done" of a file tells nothing the third did not. JSON and
// SARIF keep every finding (baselines and suppressions work per place).
const maxSameLiteral = 3

// shown is a line of the text or Markdown findings: a finding, or, with
// more > 0, the fold of more findings like it, placed at the first.
type shown struct {
	f    finding.Finding
	more int
}

// fold folds, per file, the findings of one rule about one literal past
// the first maxSameLiteral into one line, where the first folded one
// was; findings without a literal are never folded, and neither is a
// single finding past the limit (its line says more than a count).
func fold(fs []finding.Finding) []shown {
	type key struct{ path, rule, literal string }
	total := map[key]int{}
	for _, f := range fs {
		if f.Literal != "" {
			total[key{f.Path, f.Rule, f.Literal}]++
		}
	}
	seen := map[key]int{}
	at := map[key]int{} // the fold line's index in out
	out := make([]shown, 0, len(fs))
	for _, f := range fs {
		if f.Literal == "" {
			out = append(out, shown{f: f})
			continue
		}
		k := key{f.Path, f.Rule, f.Literal}
		seen[k]++
		switch n := seen[k]; {
		case n <= maxSameLiteral || total[k] == maxSameLiteral+1:
			out = append(out, shown{f: f})
		case n == maxSameLiteral+1:
			at[k] = len(out)
			out = append(out, shown{f: f, more: 1})
		default:
			out[at[k]].more++
		}
	}
	return out
}

// foldMessage is the message of a fold line.
func foldMessage(s shown) string {
	return fmt.Sprintf("%q here and at %s of this file, as above (the JSON and SARIF reports list each)", s.f.Literal, plural(s.more-1, "more place"))
}
