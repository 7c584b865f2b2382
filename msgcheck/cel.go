package msgcheck

import (
	"fmt"
	"strings"
	"sync"

	"cel.dev/cel-go/cel"
	celast "cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/ext"
	"cel.dev/cel-go/interpreter"
	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"go.yaml.in/yaml/v3"
)

// celRule is one x-protoscan-validations entry: a CEL expression over the
// message (as `self`) that must be true, as Kubernetes writes
// x-kubernetes-validations.
type celRule struct {
	expr      string
	message   string
	fieldPath string // the field the finding is about, without "self."
	rule      string // full rule id
	warning   bool

	// The program is compiled when the spec is parsed, or, for the
	// embedded specs (trusted, and compiled in full by their tests), on
	// first use: compiling is most of what starting protoscan costs, and
	// most runs evaluate no rule.
	once sync.Once
	c    compiled
	err  error // why the rule does not compile, in the spec's words
}

// compiled is a rule's program under the cost limit, and where the rule's
// cost has a static bound (see costBound), the same program without the
// limit and the bound.
type compiled struct {
	prg, untracked cel.Program
	bound          uint64
}

// program returns the rule's compiled program, compiling it first if the
// spec was parsed with lazy rules.
func (r *celRule) program() (cel.Program, error) {
	c, err := r.compiled()
	return c.prg, err
}

func (r *celRule) compiled() (compiled, error) {
	r.once.Do(func() { r.c, r.err = compileRule(r.expr) })
	return r.c, r.err
}

// untracked reports whether the kind's rules can run without cost
// tracking on a message that fits costHint: every rule has a static cost
// bound, and together they stay within celMessageBudget, so tracking
// could stop none of them. Tracking costs more than the rules themselves
// (a NEXUS handoff's five: about 5 µs with it, 2 without).
func (k *kind) untracked() bool {
	return k.rulesBounded != nil && k.rulesBounded()
}

// bounded compiles the kind's rules and reports whether they are bounded
// as untracked says.
func (k *kind) bounded() bool {
	var sum uint64
	for _, r := range k.rules {
		c, err := r.compiled()
		if err != nil || c.untracked == nil {
			return false
		}
		sum += c.bound
	}
	return len(k.rules) > 0 && sum <= celMessageBudget
}

// constantFolder folds the constant parts of a rule; cel-go's own
// optimizer, so a folded rule means what the rule says. Folding evaluates
// those parts, so it runs in the fold environment (see celEnvs), under
// foldCostLimit, and gives up after a few rounds: a part that does not
// fold is evaluated with the rest of the rule, under the rule's own limit.
var constantFolder = func() *cel.StaticOptimizer {
	folder, err := cel.NewConstantFoldingOptimizer(cel.MaxConstantFoldIterations(maxFoldRounds))
	if err != nil {
		panic(err) // given valid options, it cannot fail
	}
	o, err := cel.NewStaticOptimizer(folder)
	if err != nil {
		panic(err)
	}
	return o
}()

// maxFoldRounds bounds the folding rounds of one rule: a part that failed
// to fold (over foldCostLimit) is tried again each round. Real rules fold
// in one or two.
const maxFoldRounds = 4

// foldCostLimit bounds what folding one constant part of a rule may cost;
// real constants ("0.05 + 1e-9", a literal list) cost a few units.
const foldCostLimit = 10_000

// celEnvs are the CEL environment of every rule and the one constant
// folding evaluates in; a cel.Env may be used by several goroutines at
// once.
type celEnvs struct{ rules, fold, untracked *cel.Env }

var sharedEnv = sync.OnceValues(func() (celEnvs, error) {
	base, err := celEnv()
	if err != nil {
		return celEnvs{}, err
	}
	guards, err := guardedFunctions(base)
	if err != nil {
		return celEnvs{}, err
	}
	rules, err := base.Extend(cel.Lib(budgetLib{cel.Functions(guards...), cel.CostLimit(celCostLimit)}))
	if err != nil {
		return celEnvs{}, err
	}
	fold, err := rules.Extend(cel.Lib(budgetLib{cel.CostLimit(foldCostLimit)}))
	if err != nil {
		return celEnvs{}, err
	}
	// the same functions, guarded the same way, without the cost limit
	untracked, err := base.Extend(cel.Lib(budgetLib{cel.Functions(guards...)}))
	return celEnvs{rules, fold, untracked}, err
})

// budgetLib adds program options to every program of an environment,
// including those constant folding builds, which take no options of
// their own.
type budgetLib []cel.ProgramOption

func (budgetLib) CompileOptions() []cel.EnvOption       { return nil }
func (l budgetLib) ProgramOptions() []cel.ProgramOption { return l }

// compileRule compiles a rule's expression, or says why it cannot be.
func compileRule(expr string) (compiled, error) {
	envs, err := sharedEnv()
	if err != nil {
		return compiled{}, fmt.Errorf("CEL environment: %v", err)
	}
	if len(expr) > maxRuleBytes {
		return compiled{}, fmt.Errorf("CEL rule %q is longer than %d bytes", shorten(expr), maxRuleBytes)
	}
	env := envs.rules
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		return compiled{}, fmt.Errorf("CEL rule %q does not compile: %s", expr, strings.ReplaceAll(iss.Err().Error(), "\n", " "))
	}
	if ast.OutputType() != cel.BoolType && ast.OutputType() != cel.DynType {
		return compiled{}, fmt.Errorf("CEL rule %q must be a boolean expression (it is %s)", expr, ast.OutputType())
	}
	// constants computed once ("0.05 + 1e-9", a literal list), not on
	// every evaluation; only in a rule without a loop or cel.bind, whose
	// values are no larger than its text (but for the guarded functions):
	// folding a loop can write a literal of millions of nodes into the
	// rule, under any cost limit
	nloops := comprehensions(ast)
	loops := nloops > 0
	if !loops {
		if folded, iss := constantFolder.Optimize(envs.fold, ast); iss.Err() == nil {
			ast = folded
		}
	}
	// a constant pattern of matches() is compiled here, once, not on
	// every evaluation; the cost limit comes with the environment
	opts := []cel.ProgramOption{cel.EvalOptions(cel.OptOptimize), cel.OptimizeRegex(interpreter.MatchesRegexOptimization)}
	memory := loops && sharesValues(ast)
	if memory {
		// tracking memory adds to what every evaluation allocates, so
		// only the rules that need it (see sharesValues) have it
		opts = append(opts, cel.MemoryLimit(celMemoryLimit))
	}
	prg, err := env.Program(ast, opts...)
	if err != nil {
		return compiled{}, fmt.Errorf("CEL rule %q: %v", expr, err)
	}
	c := compiled{prg: prg}
	if memory {
		return c, nil // the memory limit needs tracking
	}
	if bound, ok := costBound(env, ast, nloops); ok {
		if c.untracked, err = envs.untracked.Program(ast, opts...); err == nil {
			c.bound = bound
		} else {
			c.untracked = nil
		}
	}
	return c, nil
}

// costHint bounds every string (in bytes), list and map (in entries) of
// a message whose rules may run untracked; real messages are far smaller.
const costHint = 4096

// maxHintDepth bounds how deep fitsCostHint looks; a deeper message is
// tracked.
const maxHintDepth = 32

// maxUntrackedCost is the most one rule may cost, by cel-go's static
// estimate on a message that fits costHint, to run untracked.
const maxUntrackedCost = celCostLimit / 10

// costBound returns cel-go's static estimate of the most a rule, with
// loops loops and cel.binds (see comprehensions), costs on a message that
// fits costHint (see fitsCostHint), when it is at most maxUntrackedCost.
// The estimate is an upper bound of the cost the tracker counts
// (FuzzCELBound holds it to that).
func costBound(env *cel.Env, ast *cel.Ast, loops int) (uint64, bool) {
	// the estimator's time grows with the product of nested loops'
	// references (a cel.bind of a cel.bind... of self doubles it at
	// each level), so it only sees rules of a loop or two
	if loops > maxBoundLoops {
		return 0, false
	}
	est, err := env.EstimateCost(ast, selfSizes{})
	if err != nil || est.Max > maxUntrackedCost {
		return 0, false
	}
	return est.Max, true
}

// selfSizes tells cel-go's estimator that every value read from self has
// at most costHint bytes or entries, which fitsCostHint checks of each
// message before its rules run untracked.
type selfSizes struct{}

func (selfSizes) EstimateCallCost(function, overloadID string, target *cost.AstNode, args []cost.AstNode) *cost.CallEstimate {
	return nil
}

func (selfSizes) EstimateSize(n cost.AstNode) *cost.SizeEstimate {
	if p := n.Path(); len(p) > 0 && p[0] == "self" {
		e := cost.RangedSizeEstimate(0, costHint)
		return &e
	}
	return nil
}

// fitsCostHint reports whether every string of v has at most costHint
// bytes (so at most as many code points, which cel-go sizes strings by),
// and every list and map at most costHint entries, down to maxHintDepth.
// A value of another type is not known to fit.
func fitsCostHint(v any, depth int) bool {
	switch v := v.(type) {
	case nil, bool, int, int64, uint64, float64:
		return true
	case string:
		return len(v) <= costHint
	case []any:
		if len(v) > costHint || depth >= maxHintDepth {
			return false
		}
		for _, e := range v {
			if !fitsCostHint(e, depth+1) {
				return false
			}
		}
		return true
	case map[string]any:
		if len(v) > costHint || depth >= maxHintDepth {
			return false
		}
		for k, e := range v {
			if len(k) > costHint || !fitsCostHint(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// maxBoundLoops bounds the loops and cel.binds of a rule costBound
// estimates; real rules have one or none.
const maxBoundLoops = 2

// comprehensions counts a rule's loops (all, exists, map, filter...) and
// cel.binds, each a comprehension (a bind's over an empty list).
func comprehensions(a *cel.Ast) int {
	n := 0
	celast.PreOrderVisit(celast.NavigateAST(a.NativeRep()), celast.NewExprVisitor(func(e celast.Expr) {
		if e.Kind() == celast.ComprehensionKind {
			n++
		}
	}))
	return n
}

// celMemoryLimit bounds the largest value a rule that may share values
// (see sharesValues) builds or reads, in cel-go's elements (one per item,
// one per ten bytes of a string): a value that holds the same list twice
// at every level is small in memory but costs time in proportion to this
// size to compare or print, and the cost limit counts such a call only
// after it returns.
const celMemoryLimit = 1 << 20

// sharesValues reports whether a rule with a comprehension may build a
// value that holds one value many times over (see celMemoryLimit): it
// loops (all, exists, map...), or it has a list, map or message literal
// or a "+" (a list concatenation shares both lists). A cel.bind of the
// message's fields or of a function's result builds nothing new.
func sharesValues(a *cel.Ast) bool {
	found := false
	celast.PreOrderVisit(celast.NavigateAST(a.NativeRep()), celast.NewExprVisitor(func(e celast.Expr) {
		switch e.Kind() {
		case celast.ComprehensionKind:
			r := e.AsComprehension().IterRange()
			found = found || r.Kind() != celast.ListKind || len(r.AsList().Elements()) > 0 // cel.bind loops over []
		case celast.ListKind:
			// cel.bind's own empty range is no value of the rule's
			found = found || len(e.AsList().Elements()) > 0
		case celast.MapKind, celast.StructKind:
			found = true
		case celast.CallKind:
			found = found || e.AsCall().FunctionName() == operators.Add
		}
	}))
	return found
}

// maxRules bounds the CEL rules of one spec; compiling one takes about
// 100 µs, and every rule runs on every message of its kind.
const maxRules = 1000

// maxRuleBytes bounds the text of one CEL rule; real rules are a line or
// two, and compiling costs time in proportion to the text.
const maxRuleBytes = 4096

// celMessageBudget bounds what all the CEL rules of a kind may cost on
// one message, in cel-go's cost units: a thousand rules each stopped at
// celCostLimit would take minutes. Once it is spent, the rules left are
// reported as not evaluated; real rules cost a few dozen units each.
const celMessageBudget = celCostLimit

// maxSpecRuleBytes bounds the text of all the CEL rules of one spec:
// compiling and estimating the cost (costBound) take up to about 10 µs a
// byte, so loading them stays under a third of a second. Real specs have
// a few hundred bytes of rules.
const maxSpecRuleBytes = 32 << 10

// celCostLimit bounds what evaluating one rule on one message may cost,
// in cel-go's cost units (about one per step, one per ten bytes a string
// operation touches): a hostile rule (nested loops over the message's
// lists, a string doubled by nested cel.bind) stops there with a finding.
// Real rules cost a few dozen units.
const celCostLimit = 1_000_000

// celEnv is the environment rules are written in, before the budget.
func celEnv() (*cel.Env, error) {
	return cel.NewEnv(
		cel.Variable("self", cel.MapType(cel.StringType, cel.DynType)),
		cel.CrossTypeNumericComparisons(true),
		// split, indexOf, substring...: a "3/5" step is compared as numbers
		ext.Strings(),
		// cel.bind(name, value, expr): a value computed once per rule
		ext.Bindings(),
		// math.abs, math.greatest...: a tolerance in one call
		ext.Math(),
	)
}

func (c *compiler) celRules(kindName string, n *yaml.Node) []*celRule {
	if n.Kind != yaml.SequenceNode {
		c.errorf(n, "%s must be a list of {rule, message}", celKeyword)
		return nil
	}
	var out []*celRule
	for i, item := range n.Content {
		if c.rules++; c.rules > maxRules {
			c.errorf(item, "more than %d %s rules in the spec", maxRules, celKeyword)
			break
		}
		item = deref(item)
		if item.Kind != yaml.MappingNode {
			c.errorf(item, "%s[%d] must be a mapping with rule and message", celKeyword, i)
			continue
		}
		r := &celRule{rule: fmt.Sprintf("msgcheck/%s-rule-%d", kindName, i+1)}
		var at *yaml.Node
		for _, kv := range pairs(item) {
			switch kv[0].Value {
			case "rule":
				r.expr, at = kv[1].Value, kv[1]
			case "message":
				r.message = kv[1].Value
			case "fieldPath":
				r.fieldPath = strings.TrimPrefix(strings.TrimPrefix(kv[1].Value, "self"), ".")
			case "reason":
				r.rule = "msgcheck/" + kindName + "-" + ruleWord(kv[1].Value)
			case "severity":
				switch kv[1].Value {
				case "warning":
					r.warning = true
				case "error":
				default:
					c.errorf(kv[1], "severity must be error or warning (got %q)", kv[1].Value)
				}
			default:
				if !isAnnotation(kv[0].Value) {
					c.errorf(kv[0], "unknown key %q in a validation rule (want rule, message, fieldPath, reason, severity)", kv[0].Value)
				}
			}
		}
		if r.expr == "" {
			c.errorf(item, "%s[%d] has no rule", celKeyword, i)
			continue
		}
		if c.ruleBytes += len(r.expr); c.ruleBytes > maxSpecRuleBytes {
			c.errorf(at, "the spec's %s rules are longer than %d bytes in all", celKeyword, maxSpecRuleBytes)
			break
		}
		if r.message == "" {
			r.message = "failed rule: " + r.expr
		}
		if !c.lazyRules {
			if _, err := r.program(); err != nil {
				c.errorf(at, "%s", err)
				continue
			}
		}
		out = append(out, r)
	}
	return out
}

// evalRules runs a kind's CEL rules on a message. A rule that reads a field
// the message lacks does not apply (the missing field is reported by its
// own rule); any other evaluation error, or a result that is not a
// boolean, is a warning, since it is a spec bug.
func evalRules(k *kind, m map[string]any, res *Result) {
	// a field of the wrong type already has its finding; a rule tripping
	// over it is not a second problem
	clean := len(res.Errors)+len(res.Warnings) == 0
	act := selfActivation{m}
	if k.untracked() && fitsCostHint(m, 0) {
		// no rule can reach a limit (see kind.untracked)
		for _, r := range k.rules {
			c, _ := r.compiled()
			out, _, err := c.untracked.Eval(act)
			ruleOutcome(r, out, err, clean, res)
		}
		return
	}
	var spent uint64 // cost units, against celMessageBudget
	for i, r := range k.rules {
		if spent > celMessageBudget {
			res.add(Finding{Field: r.fieldPath, Rule: r.rule, Message: fmt.Sprintf(
				"rule %s and the %d after it not evaluated: the spec's rules exceeded their cost budget on this message", r.rule, len(k.rules)-i-1)}, true)
			return
		}
		prg, err := r.program()
		if err != nil {
			// only a lazy rule of an embedded spec gets here, and their
			// tests compile them all
			res.add(Finding{Field: r.fieldPath, Rule: r.rule, Message: err.Error()}, true)
			continue
		}
		out, details, err := prg.Eval(act)
		if details != nil && details.ActualCost() != nil {
			spent += *details.ActualCost()
		}
		if err != nil && overBudget(err) {
			spent += celCostLimit // however far the tracker got
		}
		ruleOutcome(r, out, err, clean, res)
	}
}

// ruleOutcome adds to res what a rule's evaluation found: nothing when it
// held, its finding when it did not, a warning when it could not be
// evaluated (clean: the message has no other finding; a rule tripping
// over a field of the wrong type is not a second problem).
func ruleOutcome(r *celRule, out ref.Val, err error, clean bool, res *Result) {
	if err != nil {
		if overBudget(err) {
			res.add(Finding{Field: r.fieldPath, Rule: r.rule, Message: fmt.Sprintf("rule %s (%q) exceeded its cost budget", r.rule, shorten(r.expr))}, true)
			return
		}
		if strings.Contains(err.Error(), "no such key") || !clean {
			return
		}
		res.add(Finding{Field: r.fieldPath, Rule: r.rule, Message: fmt.Sprintf("rule %q could not be evaluated: %v", r.expr, err)}, true)
		return
	}
	b, isBool := out.Value().(bool)
	if !isBool {
		res.add(Finding{Field: r.fieldPath, Rule: r.rule, Message: fmt.Sprintf("rule %q did not evaluate to a boolean (got %s)", r.expr, out.Type())}, true)
		return
	}
	if b {
		return
	}
	msg := r.message
	if r.fieldPath != "" {
		msg = r.fieldPath + ": " + msg
	}
	res.add(Finding{Field: r.fieldPath, Rule: r.rule, Message: msg, path: yamlnode.ParsePath(r.fieldPath)}, r.warning)
}

// overBudget reports whether an evaluation stopped at a budget: cel-go's
// cost or memory limit, or a guarded function (see guard) refusing a call.
func overBudget(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "limit exceeded") || strings.Contains(msg, errOverBudget)
}

// selfActivation binds self without building a map per message.
type selfActivation struct{ self map[string]any }

func (a selfActivation) ResolveName(name string) (any, bool) {
	if name == "self" {
		return a.self, true
	}
	return nil, false
}

func (a selfActivation) Parent() interpreter.Activation { return nil }
