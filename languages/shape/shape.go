// Package shape turns a function body into a language-neutral structural
// fingerprint: extractors write the body as a sequence of Tokens (kinds of
// syntax with every identifier name and literal value erased), and
// Fingerprint hashes its k-grams and keeps a winnowed subset (Schleimer,
// Wilkerson and Aiken, "Winnowing", SIGMOD 2003). Two bodies that differ only
// in names and values, in Python or in Go, give the same fingerprint; bodies
// that share long runs of structure share hashes, and Similarity measures
// how many.
//
// The token vocabulary is the contract between languages: the Go and the
// Python extractor must write the same tokens for the same logic.
//
//   - Statements in source order; a block's statements are followed by End.
//     if c {A} else {B}: If <c> <A> End Else <B> End ("elif" and "else if"
//     are Else If ...). for/while: Loop <header> <body> End. switch/match:
//     Switch <subject> then Case <values> <body> End per case, then End.
//     return x: Return <x>. raise/panic(x): Raise <x>. try/defer-recover: Try.
//     x = y, x := y, x += y: Assign <x> <y>.
//   - Expressions in prefix order: a comparison is its operator token, then
//     the left operand, then the right (Lt a b); and/or/not likewise.
//     Arithmetic (+ - * / %) is Arith a b.
//   - A name (variable, parameter, constant) is Name. A field read is the
//     receiver's tokens then Field: h.metrics.quality, h["metrics"]["quality"]
//     and h.get("metrics", {}).get("quality") are all Name Field Field (the
//     default of get is dropped). Other subscripts are Index <x> <i>.
//   - Literals: Num, Str, Bool, Nil; a list/tuple/set/slice literal is List
//     <elems> End, a dict/map/struct literal Map <keys and values> End.
//   - Calls: len(x) is Len <x>; x.split(), strings.Fields(x) are Words <x>;
//     other calls are Call <callee> <args> End, where the callee of a method
//     call is its receiver's tokens (the method name is erased like any name).
//   - Parameters: one Param per parameter, before the body.
//   - A nested function or lambda is Func <params> <body> End.
package shape

import (
	"slices"
)

// Token is a kind of syntax, the same in every language.
type Token uint8

// The token vocabulary; see the package comment for how code maps to it.
const (
	_ Token = iota
	Func
	Param
	If
	Else
	Loop
	Switch
	Case
	Return
	Raise
	Try
	Assign
	Call
	Field
	Index
	Name
	Num
	Str
	Bool
	Nil
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
	In
	NotIn
	And
	Or
	Not
	Arith
	Len
	Words
	List
	Map
	End
	Break     // break, continue, pass
	numTokens // keep last
)

// K is the k-gram length and W the winnowing window: a shared run of
// K+W-1 tokens is always detected, runs shorter than K never are.
const (
	K = 5
	W = 4
)

// Fingerprint returns the winnowed K-gram hashes of toks, sorted and
// unique. A sequence shorter than K is hashed whole, so small bodies still
// compare equal to their twins.
func Fingerprint(toks []Token) []uint32 {
	if len(toks) == 0 {
		return nil
	}
	if len(toks) < K {
		return []uint32{hash(toks)}
	}
	n := len(toks) - K + 1
	// rolling over a small ring avoids a slice of every k-gram hash
	var ring [W]uint32
	// winnowing keeps about 2/(W+1) of the k-grams
	out := make([]uint32, 0, 2*n/(W+1)+2)
	last := -1
	for i := 0; i < n; i++ {
		ring[i%W] = hash(toks[i : i+K])
		if i < W-1 && i != n-1 {
			continue
		}
		// the rightmost minimum of the window ending at i
		lo := max(0, i-W+1)
		best := i
		for j := i; j >= lo; j-- {
			if ring[j%W] < ring[best%W] {
				best = j
			}
		}
		if best != last {
			out = append(out, ring[best%W])
			last = best
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// hash is 32-bit FNV-1a over the tokens.
func hash(toks []Token) uint32 {
	h := uint32(2166136261)
	for _, t := range toks {
		h ^= uint32(t)
		h *= 16777619
	}
	return h
}

// Similarity is the Jaccard index of two fingerprints: shared hashes over
// all distinct hashes, 0 when either is empty.
func Similarity(a, b []uint32) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	shared := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			shared++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return float64(shared) / float64(len(a)+len(b)-shared)
}

// String names a token, for tests and debugging.
func (t Token) String() string {
	if int(t) < len(tokenNames) && tokenNames[t] != "" {
		return tokenNames[t]
	}
	return "Token?"
}

var tokenNames = [numTokens]string{
	Func: "Func", Param: "Param", If: "If", Else: "Else", Loop: "Loop", Switch: "Switch", Case: "Case",
	Return: "Return", Raise: "Raise", Try: "Try", Assign: "Assign", Call: "Call", Field: "Field",
	Index: "Index", Name: "Name", Num: "Num", Str: "Str", Bool: "Bool", Nil: "Nil", Eq: "Eq", Ne: "Ne",
	Lt: "Lt", Le: "Le", Gt: "Gt", Ge: "Ge", In: "In", NotIn: "NotIn", And: "And", Or: "Or", Not: "Not",
	Arith: "Arith", Len: "Len", Words: "Words", List: "List", Map: "Map", End: "End", Break: "Break",
}

// FieldName normalizes a field or variable name so that Go and Python
// spellings of one protocol field meet: "RetryCount", "retryCount" and
// "retry_count" are all "retry_count"; "TaskID" is "task_id", "HTTPStatus"
// "http_status".
func FieldName(s string) string {
	lowerOnly := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			lowerOnly = false
			break
		}
	}
	if lowerOnly {
		return s
	}
	b := make([]byte, 0, len(s)+4)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			prevLower := i > 0 && (isLower(s[i-1]) || isDigit(s[i-1]))
			nextLower := i+1 < len(s) && isLower(s[i+1]) && i > 0 && isUpper(s[i-1])
			if (prevLower || nextLower) && len(b) > 0 && b[len(b)-1] != '_' {
				b = append(b, '_')
			}
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
