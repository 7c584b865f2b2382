package msgcheck

import (
	"regexp"
	"regexp/syntax"
)

// pattern is a compiled `pattern` keyword. Most protocol patterns are an
// anchored run of ASCII character classes with counts, such as a task
// id's ^[a-z0-9][a-z0-9\-]{1,48}[a-z0-9]$; those are matched by a small
// position-set automaton about five times faster than regexp, which stays
// the matcher for everything else (and for inputs over 127 bytes).
type pattern struct {
	re    *regexp.Regexp
	steps []classStep // nil when the fast path does not apply
	// oneRun is set when at most one step has a range of counts (a task
	// id's pattern): the steps around it then cover fixed stretches at
	// both ends, and the string is matched in one pass without the
	// automaton. runStep is that step's index (-1 when every count is
	// fixed), head and tail the lengths of the fixed stretches.
	oneRun     bool
	runStep    int
	head, tail int
}

// classStep is one class repeated min..max times (max < 0: unbounded).
type classStep struct {
	set      [2]uint64 // ASCII membership
	min, max int
}

func compilePattern(src string) (*pattern, error) {
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, err
	}
	p := &pattern{re: re}
	if tree, err := syntax.Parse(src, syntax.Perl); err == nil {
		p.steps = classSteps(tree)
	}
	p.runStep = -1
	p.oneRun = p.steps != nil
	for i, st := range p.steps {
		switch {
		case st.min != st.max && p.runStep >= 0:
			p.oneRun = false
		case st.min != st.max:
			p.runStep = i
		case p.runStep >= 0:
			p.tail += st.min
		default:
			p.head += st.min
		}
	}
	return p, nil
}

func (p *pattern) String() string { return p.re.String() }

// classSteps returns the steps of ^(class{m,n})*$, or nil.
func classSteps(re *syntax.Regexp) []classStep {
	if re.Op != syntax.OpConcat || len(re.Sub) < 3 ||
		re.Sub[0].Op != syntax.OpBeginText || re.Sub[len(re.Sub)-1].Op != syntax.OpEndText {
		return nil
	}
	var steps []classStep
	for _, sub := range re.Sub[1 : len(re.Sub)-1] {
		min, max := 1, 1
		switch sub.Op {
		case syntax.OpRepeat:
			min, max = sub.Min, sub.Max
			sub = sub.Sub[0]
		case syntax.OpStar:
			min, max = 0, -1
			sub = sub.Sub[0]
		case syntax.OpPlus:
			min, max = 1, -1
			sub = sub.Sub[0]
		case syntax.OpQuest:
			min, max = 0, 1
			sub = sub.Sub[0]
		}
		set, ok := asciiSet(sub)
		if !ok {
			return nil
		}
		steps = append(steps, classStep{set: set, min: min, max: max})
	}
	return steps
}

// asciiSet turns a one-character regexp into an ASCII membership set;
// ok is false when it is not one or reaches past ASCII.
func asciiSet(re *syntax.Regexp) (set [2]uint64, ok bool) {
	var runes []rune
	switch {
	case re.Op == syntax.OpCharClass:
		runes = re.Rune
	case re.Op == syntax.OpLiteral && len(re.Rune) == 1 && re.Flags&syntax.FoldCase == 0:
		runes = []rune{re.Rune[0], re.Rune[0]}
	default:
		return set, false
	}
	for i := 0; i+1 < len(runes); i += 2 {
		lo, hi := runes[i], runes[i+1]
		if hi >= 0x80 {
			return set, false
		}
		for r := lo; r <= hi; r++ {
			set[r>>6] |= 1 << (r & 63)
		}
	}
	return set, true
}

// MatchString reports whether s matches the pattern.
func (p *pattern) MatchString(s string) bool {
	if p.steps == nil || len(s) > 127 {
		return p.re.MatchString(s)
	}
	if p.oneRun {
		return p.matchOneRun(s)
	}
	// reach holds the positions of s the steps so far can end at. Each
	// step takes time linear in s: the run of class members from every
	// position is measured once, from the end, and a reachable position
	// adds its whole range of end positions in one mask.
	var reach [2]uint64
	reach[0] = 1
	var runs [128]uint8 // runs[pos]: members of the step's class from pos on
	for _, st := range p.steps {
		runs[len(s)] = 0
		for pos := len(s) - 1; pos >= 0; pos-- {
			runs[pos] = 0
			if b := s[pos]; b < 0x80 && st.set[b>>6]&(1<<(b&63)) != 0 {
				runs[pos] = runs[pos+1] + 1
			}
		}
		var next [2]uint64
		for pos := 0; pos <= len(s); pos++ {
			if reach[pos>>6]&(1<<(pos&63)) == 0 {
				continue
			}
			// positions pos+min .. pos+run (capped by max) are reachable
			run := int(runs[pos])
			if st.max >= 0 {
				run = min(run, st.max)
			}
			if st.min <= run {
				setRange(&next, pos+st.min, pos+run)
			}
		}
		reach = next
		if reach == [2]uint64{} {
			return false
		}
	}
	return reach[len(s)>>6]&(1<<(len(s)&63)) != 0
}

// setRange sets bits lo..hi (both at most 127) of a 128-bit set.
func setRange(set *[2]uint64, lo, hi int) {
	for w := lo >> 6; w <= hi>>6; w++ {
		from, to := max(lo, w<<6)-w<<6, min(hi, w<<6+63)-w<<6
		set[w] |= (^uint64(0) >> (63 - to)) &^ (1<<from - 1)
	}
}

// matchOneRun is MatchString for a pattern of fixed steps around at most
// one step with a range of counts.
func (p *pattern) matchOneRun(s string) bool {
	mid := len(s) - p.head - p.tail // the run step's share
	if p.runStep < 0 {
		if mid != 0 {
			return false
		}
	} else if run := p.steps[p.runStep]; mid < run.min || run.max >= 0 && mid > run.max {
		return false
	}
	i := 0
	for _, st := range p.steps {
		n := st.min
		if st.min != st.max {
			n = mid
		}
		for end := i + n; i < end; i++ {
			if b := s[i]; b >= 0x80 || st.set[b>>6]&(1<<(b&63)) == 0 {
				return false
			}
		}
	}
	return true
}
