package msgcheck

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/functions"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
)

// The cost limit is checked after each call, on the call's result; a call
// whose result can be far larger than its arguments (replace with a long
// replacement, join of one long string many times over, format of a list
// that holds the same list twice at every level, quote doubling every
// backslash) would build that result before the check. These functions
// are wrapped to measure their result first and refuse to build one over
// maxRuleString bytes (split: maxSplitParts parts); matches refuses a
// pattern over maxMatchesPattern bytes.

// maxRuleString bounds a string a rule's function call builds.
const maxRuleString = 4 << 20

// maxSplitParts bounds the parts of one split; each costs about fifty
// bytes beside its text.
const maxSplitParts = 1 << 18

// maxMatchesPattern bounds the pattern of a matches() call, which a rule
// may take from the message: RE2 matches in linear time, but compiling a
// pattern costs time and memory in its length (4 MB: seconds and half a
// gigabyte), before any cost is counted. A spec's own patterns are
// shorter (a rule is at most 4 KiB).
const maxMatchesPattern = 4 << 10

// limits are the functions' budgets and what they count, when not
// maxRuleString bytes of result.
var limits = map[string]struct {
	n    int
	what string
}{
	"split":   {maxSplitParts, "would build more than %d parts"},
	"matches": {maxMatchesPattern, "pattern is longer than %d bytes"},
}

// errOverBudget marks an evaluation stopped by a budget; evalRules reports
// it as a rule over its budget, like cel-go's cost limit.
const errOverBudget = "over the rule budget"

// guardedFunctions returns env's bindings of the functions above, each
// checked before it runs.
func guardedFunctions(env *cel.Env) ([]*functions.Overload, error) {
	var out []*functions.Overload
	for name, fn := range env.Functions() {
		size := resultSizes[name]
		if size == nil {
			continue
		}
		bindings, err := fn.Bindings()
		if err != nil {
			return nil, err
		}
		for _, b := range bindings {
			out = append(out, guard(b, name, size))
		}
	}
	return out, nil
}

// resultSizes estimates, from a call's arguments (the receiver first), the
// size of its result, in bytes for a string and in parts for a split; an
// estimate need not be exact, only never below the real size by much, and
// it stops counting past limit.
var resultSizes = map[string]func(args []ref.Val, limit int) int{
	"replace": func(args []ref.Val, limit int) int {
		s, old, repl, ok := threeStrings(args)
		if !ok {
			return 0
		}
		n := -1
		if len(args) == 4 {
			if i, isInt := args[3].(types.Int); isInt && i >= 0 {
				n = int(min(i, types.Int(len(s)+1)))
			}
		}
		count := strings.Count(s, old) // runes+1 for an empty old
		if n >= 0 {
			count = min(count, n)
		}
		return len(s) + count*max(len(repl)-len(old), 0)
	},
	"join": func(args []ref.Val, limit int) int {
		list, ok := args[0].(traits.Lister)
		if !ok {
			return 0
		}
		sep := 0
		if len(args) == 2 {
			if s, isStr := args[1].(types.String); isStr {
				sep = len(s)
			}
		}
		total := 0
		n, _ := list.Size().(types.Int)
		for i := types.Int(0); i < n && total <= limit; i++ {
			if s, isStr := list.Get(i).(types.String); isStr {
				total += len(s) + sep
			}
		}
		return total
	},
	"format": func(args []ref.Val, limit int) int {
		format, _ := args[0].(types.String)
		total := 2 * len(format) // %% and %s stand in for themselves or less
		if len(args) == 2 {
			total += printedSize(args[1], limit-total)
		}
		return total
	},
	"strings.quote": func(args []ref.Val, limit int) int {
		s, _ := args[0].(types.String)
		return 3*len(s) + 2 // \\ for \, \ufffd's three bytes for a bad one
	},
	"matches": func(args []ref.Val, limit int) int {
		if len(args) < 2 {
			return 0
		}
		pattern, _ := args[1].(types.String) // the receiver first
		return len(pattern)
	},
	"split": func(args []ref.Val, limit int) int {
		s, sep, ok := twoStrings(args)
		if !ok {
			return 0
		}
		if sep == "" {
			return utf8.RuneCountInString(s)
		}
		return strings.Count(s, sep) + 1
	},
}

// printedSize is about how many bytes format prints for v, counting no
// further than limit: containers are walked, and a list that holds the
// same list twice at every level is walked once per path, so the limit
// also bounds the walk.
func printedSize(v ref.Val, limit int) int {
	switch x := v.(type) {
	case types.String:
		return len(x) + 2
	case types.Bytes:
		return 4*len(x) + 3
	case traits.Lister:
		total := 2
		n, _ := x.Size().(types.Int)
		for i := types.Int(0); i < n && total <= limit; i++ {
			total += printedSize(x.Get(i), limit-total) + 2
		}
		return total
	case traits.Mapper:
		total := 2
		for it := x.Iterator(); it.HasNext() == types.True && total <= limit; {
			k := it.Next()
			total += printedSize(k, limit-total) + printedSize(x.Get(k), limit-total) + 4
		}
		return total
	}
	return 64 // a number, a timestamp, a duration (precision is capped at 100)
}

func twoStrings(args []ref.Val) (string, string, bool) {
	if len(args) < 2 {
		return "", "", false
	}
	a, ok1 := args[0].(types.String)
	b, ok2 := args[1].(types.String)
	return string(a), string(b), ok1 && ok2
}

func threeStrings(args []ref.Val) (string, string, string, bool) {
	a, b, ok := twoStrings(args)
	if !ok || len(args) < 3 {
		return "", "", "", false
	}
	c, ok := args[2].(types.String)
	return a, b, string(c), ok
}

// guard wraps the binding b of function name so that it refuses a call
// whose result would be over budget.
func guard(b *functions.Overload, name string, size func([]ref.Val, int) int) *functions.Overload {
	limit, what := maxRuleString, "would build more than %d bytes"
	if l, ok := limits[name]; ok {
		limit, what = l.n, l.what
	}
	refuse := func(args ...ref.Val) ref.Val {
		if size(args, limit) > limit {
			return types.NewErr("%s %s: %s", name, fmt.Sprintf(what, limit), errOverBudget)
		}
		return nil
	}
	g := *b
	if u := b.Unary; u != nil {
		g.Unary = func(v ref.Val) ref.Val {
			if err := refuse(v); err != nil {
				return err
			}
			return u(v)
		}
	}
	if bin := b.Binary; bin != nil {
		g.Binary = func(l, r ref.Val) ref.Val {
			if err := refuse(l, r); err != nil {
				return err
			}
			return bin(l, r)
		}
	}
	if f := b.Function; f != nil {
		g.Function = func(args ...ref.Val) ref.Val {
			if err := refuse(args...); err != nil {
				return err
			}
			return f(args...)
		}
	}
	return &g
}
