package python

import "github.com/protoscan-dev/protoscan/languages/facts"

// condBranch is the branch of the condition that expression i (being
// visited: x.stack holds its ancestors) is part of, read as the shape
// walk reads it for a Const: through parentheses, and, or and not (which
// flips it) up to an if or elif's condition (ifBranch), an assert's
// (accept) or a returned verdict (verdictOf the function's name).
// Anything else is BranchUnknown, and so is an if whose body answers with
// return True or False outside a function named for validity: is_done's
// `if status in TERMINAL: return True` is a predicate, not a validation.
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
		case kIf, kElif:
			if x.nodes[i].Field != fCondition {
				return facts.BranchUnknown
			}
			x.fs.boolOutcome = false
			if x.kind(p) == kIf {
				b = x.ifBranch(x.child(p, fConsequence), x.elseOf(p))
			} else {
				b = x.ifBranch(x.child(p, fConsequence), -1)
			}
			if x.fs.boolOutcome && x.verdictHere() != facts.BranchAccept {
				return facts.BranchUnknown // is_terminal's return True
			}
		case kAssert:
			if x.namedFirst(p) != i {
				return facts.BranchUnknown // the message
			}
			b = facts.BranchAccept
		case kReturn:
			b = x.verdictHere()
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

// verdictHere is verdictOf the function being visited, unknown outside
// one.
func (x *extractor) verdictHere() facts.Branch {
	s := x.scope()
	if s.kind != scopeFunc || s.node < 0 {
		return facts.BranchUnknown
	}
	return verdictOf(x.text(x.child(int(s.node), fName)))
}
