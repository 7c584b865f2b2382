package python

import "github.com/protoscan-dev/protoscan/languages/facts"

// condBranch is the branch of the condition that expression i (being
// visited: x.stack holds its ancestors) is part of, read as the shape
// walk reads it for a Const: through parentheses, and, or and not (which
// flips it) up to an if or elif's condition (ifBranch), an assert's
// (accept) or a returned verdict (verdictOf the function's name).
// Anything else is BranchUnknown.
func (x *extractor) condBranch(i int) facts.Branch {
	flip := false
	for k := len(x.stack) - 1; k >= 0; k-- {
		p := int(x.stack[k])
		var b facts.Branch
		switch x.kind(p) {
		case kParen, kBoolOp:
			i = p
			continue
		case kNot:
			flip = !flip
			i = p
			continue
		case kIf:
			if x.nodes[i].Field != fCondition {
				return facts.BranchUnknown
			}
			b = x.ifBranch(x.child(p, fConsequence), x.elseOf(p))
		case kElif:
			if x.nodes[i].Field != fCondition {
				return facts.BranchUnknown
			}
			b = x.ifBranch(x.child(p, fConsequence), -1)
		case kAssert:
			if x.namedFirst(p) != i {
				return facts.BranchUnknown // the message
			}
			b = facts.BranchAccept
		case kReturn:
			s := x.scope()
			if s.kind != scopeFunc || s.node < 0 {
				return facts.BranchUnknown
			}
			b = verdictOf(x.text(x.child(int(s.node), fName)))
		default:
			return facts.BranchUnknown
		}
		if flip {
			b = b.Flip()
		}
		return b
	}
	return facts.BranchUnknown
}
