package msgcheck

import (
	"fmt"
	"strings"
	"sync"

	"cel.dev/cel-go/cel"
	celast "cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/ext"
	"cel.dev/cel-go/interpreter"
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
	prg  cel.Program
	err  error // why the rule does not compile, in the spec's words
}

// program returns the rule's compiled program, compiling it first if the
// spec was parsed with lazy rules.
func (r *celRule) program() (cel.Program, error) {
	r.once.Do(func() { r.prg, r.err = compileRule(r.expr) })
	return r.prg, r.err
}

// constantFolder folds the constant parts of a rule; cel-go's own
// optimizer, so a folded rule means what the rule says.
var constantFolder = func() *cel.StaticOptimizer {
	folder, err := cel.NewConstantFoldingOptimizer()
	if err != nil {
		panic(err) // given no options, it cannot fail
	}
	o, err := cel.NewStaticOptimizer(folder)
	if err != nil {
		panic(err)
	}
	return o
}()

// sharedEnv is the CEL environment of every rule; a cel.Env may be used
// by several goroutines at once.
var sharedEnv = sync.OnceValues(celEnv)

// compileRule compiles a rule's expression, or says why it cannot be.
func compileRule(expr string) (cel.Program, error) {
	env, err := sharedEnv()
	if err != nil {
		return nil, fmt.Errorf("CEL environment: %v", err)
	}
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		return nil, fmt.Errorf("CEL rule %q does not compile: %s", expr, strings.ReplaceAll(iss.Err().Error(), "\n", " "))
	}
	if ast.OutputType() != cel.BoolType && ast.OutputType() != cel.DynType {
		return nil, fmt.Errorf("CEL rule %q must be a boolean expression (it is %s)", expr, ast.OutputType())
	}
	// constants computed once ("0.05 + 1e-9", a literal list), not on
	// every evaluation
	if folded, iss := constantFolder.Optimize(env, ast); iss.Err() == nil {
		ast = folded
	}
	// a constant pattern of matches() is compiled here, once, not on
	// every evaluation
	opts := []cel.ProgramOption{cel.EvalOptions(cel.OptOptimize), cel.OptimizeRegex(interpreter.MatchesRegexOptimization)}
	if hasComprehension(ast) {
		// only a loop can make a rule's cost outgrow the message;
		// tracking the cost of every step halves the speed of the rest
		opts = append(opts, cel.CostLimit(celCostLimit))
	}
	prg, err := env.Program(ast, opts...)
	if err != nil {
		return nil, fmt.Errorf("CEL rule %q: %v", expr, err)
	}
	return prg, nil
}

// hasComprehension reports whether a rule loops (all, exists, map,
// filter...): without a loop, evaluating it is linear in the size of the
// rule and the message.
func hasComprehension(a *cel.Ast) bool {
	found := false
	celast.PreOrderVisit(celast.NavigateAST(a.NativeRep()), celast.NewExprVisitor(func(e celast.Expr) {
		if e.Kind() != celast.ComprehensionKind {
			return
		}
		// cel.bind is a comprehension over an empty list: no loop
		r := e.AsComprehension().IterRange()
		found = found || r.Kind() != celast.ListKind || len(r.AsList().Elements()) > 0
	}))
	return found
}

// maxRules bounds the CEL rules of one spec; compiling one takes about
// 100 µs, and every rule runs on every message of its kind.
const maxRules = 1000

// celCostLimit stops a hostile rule (nested loops over the message's lists)
// from running away; real rules cost a few dozen units. A rule without a
// loop runs without the limit (see hasComprehension).
const celCostLimit = 1_000_000

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
	for _, r := range k.rules {
		prg, err := r.program()
		if err != nil {
			// only a lazy rule of an embedded spec gets here, and their
			// tests compile them all
			res.add(Finding{Field: r.fieldPath, Rule: r.rule, Message: err.Error()}, true)
			continue
		}
		out, _, err := prg.Eval(act)
		if err != nil {
			if strings.Contains(err.Error(), "no such key") || !clean {
				continue
			}
			res.add(Finding{Field: r.fieldPath, Rule: r.rule, Message: fmt.Sprintf("rule %q could not be evaluated: %v", r.expr, err)}, true)
			continue
		}
		b, isBool := out.Value().(bool)
		if !isBool {
			res.add(Finding{Field: r.fieldPath, Rule: r.rule, Message: fmt.Sprintf("rule %q did not evaluate to a boolean (got %s)", r.expr, out.Type())}, true)
			continue
		}
		if b {
			continue
		}
		msg := r.message
		if r.fieldPath != "" {
			msg = r.fieldPath + ": " + msg
		}
		res.add(Finding{Field: r.fieldPath, Rule: r.rule, Message: msg, path: stepsOf(r.fieldPath)}, r.warning)
	}
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
