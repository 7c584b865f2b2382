// Package witness finds a string that one of two regular languages holds
// and the other does not: the shortest printable witness that two formats
// of a field disagree (`2026-01-05-fix` matches one pattern and not the
// other).
//
// Each side is an RE2 program (regexp/syntax) matched against the whole
// string, with bounds on the string's length in runes. The search runs
// breadth first over pairs of NFA state sets (the product of the two
// automata), stepping by one representative rune per class of the
// alphabet: the alphabet is split where the two programs' rune ranges,
// the word characters and the newline start and end, runes that every
// instruction treats alike share a class, and each class is stood for by
// one printable rune, a letter, digit or '-' where it has one, so that
// witnesses read well. Runes that are not printable are never stepped
// by: a witness is something a reader can type.
//
// The search is bounded by work, never by time: Options.Budget counts
// the moves from one pair of state sets to the next (so the pairs kept
// too), each costing work in proportion to the programs; Options.MaxLen
// bounds the length of a witness (or one past the largest length bound of
// a side, if greater), and programs over MaxInsts instructions are
// refused. A search that runs out finds nothing.
package witness

import (
	"cmp"
	"encoding/binary"
	"errors"
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Defaults of Options.
const (
	DefaultBudget = 10_000
	DefaultMaxLen = 256
	// MaxInsts bounds the instructions of a program searched: each state
	// visited costs work in proportion to them.
	MaxInsts = 4096
)

// ErrTooLarge is returned by Compile for a program over MaxInsts
// instructions.
var ErrTooLarge = errors.New("pattern too large to compare")

// Side is one format: a program of Compile, which accepts the strings a
// call matches, and the bounds on the string's length in runes (Max < 0:
// none).
type Side struct {
	Prog     *syntax.Prog
	Min, Max int
}

// Compile parses an RE2 pattern with Perl flags, simplifies and compiles
// it into a program that accepts a string when a call with the given
// anchoring matches it: at both ends (start and end: Python's fullmatch),
// at the start only (Python's re.match), or anywhere (a search: Go's
// MatchString, JSON Schema's pattern). The pattern keeps its own anchors
// (^, $, \A, \z).
func Compile(pattern string, start, end bool) (*syntax.Prog, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, err
	}
	dotStar := &syntax.Regexp{Op: syntax.OpStar, Flags: syntax.Perl | syntax.DotNL, Sub: []*syntax.Regexp{{Op: syntax.OpAnyChar}}}
	parts := []*syntax.Regexp{re}
	if !start {
		parts = append([]*syntax.Regexp{dotStar}, parts...)
	}
	if !end {
		parts = append(parts, dotStar)
	}
	if len(parts) > 1 {
		re = &syntax.Regexp{Op: syntax.OpConcat, Flags: syntax.Perl, Sub: parts}
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, err
	}
	if len(prog.Inst) > MaxInsts {
		return nil, ErrTooLarge
	}
	return prog, nil
}

// Options bound a search; zero values take the defaults.
type Options struct {
	Budget int // moves searched at most (see Result.Steps)
	MaxLen int // runes of a witness at most
}

// Result is a search's outcome.
type Result struct {
	Found   bool
	Witness string
	// Accepts is the side (0 or 1) that accepts the witness; the other
	// rejects it.
	Accepts int
	// Steps is the number of moves searched: each is a pair of state sets
	// reached from another by one rune, new or seen before, and costs
	// work in proportion to the programs' sizes.
	Steps int
}

// Find returns the shortest printable string that exactly one of a and b
// accepts, within opts' bounds.
func Find(a, b Side, opts Options) Result {
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	if opts.MaxLen <= 0 {
		opts.MaxLen = DefaultMaxLen
	}
	s := &search{sides: [2]Side{a, b}}
	s.classes = alphabet(a.Prog, b.Prog)
	// lengths past every bound behave alike
	s.lenCap = 0
	for _, sd := range s.sides {
		s.lenCap = max(s.lenCap, sd.Min+1, sd.Max+1)
	}
	start := state{ctx: ctxStart}
	for i, sd := range s.sides {
		start.pcs[i] = []uint32{uint32(sd.Prog.Start)}
	}
	s.add(start, -1, 0)
	// a bound of either side is within reach, whatever MaxLen says
	maxLen := max(opts.MaxLen, s.lenCap)
	for q := 0; q < len(s.nodes); q++ {
		nd := s.nodes[q]
		acc := [2]bool{}
		for i := range s.sides {
			acc[i] = s.accepts(i, nd.st)
		}
		if acc[0] != acc[1] {
			r := Result{Found: true, Witness: s.text(q), Steps: s.steps}
			if acc[1] {
				r.Accepts = 1
			}
			return r
		}
		if nd.length >= maxLen || len(nd.st.pcs[0]) == 0 && len(nd.st.pcs[1]) == 0 {
			continue
		}
		for _, r := range s.classes {
			if s.steps >= opts.Budget {
				return Result{Steps: s.steps}
			}
			s.steps++
			next := state{ctx: ctxOf(r), length: min(nd.st.length+1, s.lenCap)}
			for i := range s.sides {
				next.pcs[i] = s.step(i, nd.st, r)
			}
			s.add(next, q, r)
		}
	}
	return Result{Steps: s.steps}
}

// context bits: what the rune before the current place was, for the
// empty-width assertions.
const (
	ctxStart uint8 = 1 << iota // no rune yet
	ctxNL                      // a newline
	ctxWord                    // an ASCII word character
)

func ctxOf(r rune) uint8 {
	switch {
	case r == '\n':
		return ctxNL
	case syntax.IsWordChar(r):
		return ctxWord
	}
	return 0
}

// state is a pair of NFA state sets (the pcs reached, before their empty
// closure), the context of the last rune and the length so far, capped.
type state struct {
	pcs    [2][]uint32
	ctx    uint8
	length int
}

func (st *state) key(buf []byte) []byte {
	buf = append(buf[:0], st.ctx)
	buf = binary.AppendUvarint(buf, uint64(st.length))
	for i := range st.pcs {
		buf = binary.AppendUvarint(buf, uint64(len(st.pcs[i])))
		for _, pc := range st.pcs[i] {
			buf = binary.AppendUvarint(buf, uint64(pc))
		}
	}
	return buf
}

type node struct {
	st     state
	parent int
	r      rune
	length int // the real length (st.length is capped)
}

type search struct {
	sides   [2]Side
	classes []rune
	lenCap  int
	nodes   []node
	seen    map[string]struct{}
	key     []byte
	steps   int
	stack   []uint32
	mark    []bool
}

func (s *search) add(st state, parent int, r rune) {
	if s.seen == nil {
		s.seen = map[string]struct{}{}
	}
	s.key = st.key(s.key)
	if _, ok := s.seen[string(s.key)]; ok {
		return
	}
	s.seen[string(s.key)] = struct{}{}
	length := 0
	if parent >= 0 {
		length = s.nodes[parent].length + 1
	}
	s.nodes = append(s.nodes, node{st: st, parent: parent, r: r, length: length})
}

func (s *search) text(q int) string {
	var rs []rune
	for ; q >= 0 && s.nodes[q].parent >= 0; q = s.nodes[q].parent {
		rs = append(rs, s.nodes[q].r)
	}
	slices.Reverse(rs)
	return string(rs)
}

// emptyOp is the empty-width assertions that hold between the rune
// before (ctx) and next (-1 at the end of the text).
func emptyOp(ctx uint8, next rune) syntax.EmptyOp {
	var op syntax.EmptyOp
	if ctx&ctxStart != 0 {
		op |= syntax.EmptyBeginText | syntax.EmptyBeginLine
	}
	if ctx&ctxNL != 0 {
		op |= syntax.EmptyBeginLine
	}
	if next < 0 {
		op |= syntax.EmptyEndText | syntax.EmptyEndLine
	} else if next == '\n' {
		op |= syntax.EmptyEndLine
	}
	if (ctx&ctxWord != 0) != (next >= 0 && syntax.IsWordChar(next)) {
		op |= syntax.EmptyWordBoundary
	} else {
		op |= syntax.EmptyNoWordBoundary
	}
	return op
}

// closure calls visit for every instruction reachable from pcs through
// empty transitions that hold under op; visit returns false to stop.
func (s *search) closure(prog *syntax.Prog, pcs []uint32, op syntax.EmptyOp, visit func(*syntax.Inst) bool) {
	if cap(s.mark) < len(prog.Inst) {
		s.mark = make([]bool, len(prog.Inst))
	}
	mark := s.mark[:len(prog.Inst)]
	clear(mark)
	stack := append(s.stack[:0], pcs...)
	defer func() { s.stack = stack[:0] }()
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if mark[pc] {
			continue
		}
		mark[pc] = true
		in := &prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, in.Arg, in.Out)
		case syntax.InstCapture, syntax.InstNop:
			stack = append(stack, in.Out)
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(in.Arg)&^op == 0 {
				stack = append(stack, in.Out)
			}
		case syntax.InstFail:
		default: // InstMatch and the rune instructions
			if !visit(in) {
				return
			}
		}
	}
}

func (s *search) accepts(i int, st state) bool {
	sd := &s.sides[i]
	if st.length < sd.Min || sd.Max >= 0 && st.length > sd.Max {
		return false
	}
	found := false
	s.closure(sd.Prog, st.pcs[i], emptyOp(st.ctx, -1), func(in *syntax.Inst) bool {
		found = in.Op == syntax.InstMatch
		return !found
	})
	return found
}

func (s *search) step(i int, st state, r rune) []uint32 {
	sd := &s.sides[i]
	if sd.Max >= 0 && st.length >= sd.Max {
		return nil // no longer string is accepted: this side is dead
	}
	var out []uint32
	s.closure(sd.Prog, st.pcs[i], emptyOp(st.ctx, r), func(in *syntax.Inst) bool {
		if in.Op != syntax.InstMatch && in.MatchRune(r) {
			out = append(out, in.Out)
		}
		return true
	})
	slices.Sort(out)
	return slices.Compact(out)
}

// alphabet splits the runes into the classes that every rune instruction
// of a and b, and the empty-width assertions, treat alike, and returns one
// printable rune per class, the most readable first.
func alphabet(a, b *syntax.Prog) []rune {
	cuts := []rune{0, '\n', '\n' + 1, '0', '9' + 1, 'A', 'Z' + 1, '_', '_' + 1, 'a', 'z' + 1, unicode.MaxRune + 1}
	var insts []*syntax.Inst
	for _, p := range []*syntax.Prog{a, b} {
		for i := range p.Inst {
			in := &p.Inst[i]
			switch in.Op {
			case syntax.InstRune, syntax.InstRune1:
				insts = append(insts, in)
				fold := syntax.Flags(in.Arg)&syntax.FoldCase != 0
				for j := 0; j+1 < len(in.Rune); j += 2 {
					cuts = append(cuts, in.Rune[j], in.Rune[j+1]+1)
				}
				if len(in.Rune) == 1 {
					r := in.Rune[0]
					cuts = append(cuts, r, r+1)
					if fold {
						for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
							cuts = append(cuts, f, f+1)
						}
					}
				}
			case syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
				insts = append(insts, in)
			}
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	type class struct {
		r    rune
		rank int
	}
	best := map[string]class{}
	sig := make([]byte, 0, len(insts)+1)
	for i := 0; i+1 < len(cuts); i++ {
		lo, hi := cuts[i], cuts[i+1]-1
		if lo > unicode.MaxRune {
			break
		}
		r, rank, ok := representative(lo, hi)
		if !ok {
			continue
		}
		sig = append(sig[:0], ctxOf(r))
		for _, in := range insts {
			if in.MatchRune(r) {
				sig = append(sig, 1)
			} else {
				sig = append(sig, 0)
			}
		}
		if c, seen := best[string(sig)]; !seen || rank < c.rank {
			best[string(sig)] = class{r, rank}
		}
	}
	out := make([]class, 0, len(best))
	for _, c := range best {
		out = append(out, c)
	}
	slices.SortFunc(out, func(x, y class) int { return cmp.Or(cmp.Compare(x.rank, y.rank), cmp.Compare(x.r, y.r)) })
	rs := make([]rune, len(out))
	for i, c := range out {
		rs[i] = c.r
	}
	return rs
}

// readable is the order witnesses prefer their runes in.
const readable = "abcdefghijklmnopqrstuvwxyz0123456789-ABCDEFGHIJKLMNOPQRSTUVWXYZ_. "

// maxProbe bounds the runes of a class looked at for a printable one.
const maxProbe = 64

// representative picks the most readable rune of lo..hi: one of readable,
// else printable ASCII, else the first printable rune among the first
// maxProbe; ok is false when none is printable.
func representative(lo, hi rune) (r rune, rank int, ok bool) {
	best := -1
	for i, c := range readable {
		if lo <= c && c <= hi {
			best = i
			break
		}
	}
	if best >= 0 {
		return rune(readable[best]), best, true
	}
	if c := max(lo, 0x21); c <= min(hi, 0x7e) {
		return c, len(readable) + int(c), true
	}
	for c, n := lo, 0; c <= hi && n < maxProbe; c, n = c+1, n+1 {
		if c >= 0x80 && unicode.IsPrint(c) && utf8.ValidRune(c) {
			return c, len(readable) + 0x80 + n, true
		}
	}
	return 0, 0, false
}
