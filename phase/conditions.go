package phase

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/languages/yamldoc"
)

// Kind is the kind of an exit condition.
type Kind string

// The exit condition kinds.
const (
	FileExists      Kind = "file_exists"
	CommandPasses   Kind = "command_passes"
	MetricThreshold Kind = "metric_threshold"
	VisualVerify    Kind = "visual_verify"
	Manual          Kind = "manual"
)

var allKinds = []Kind{FileExists, CommandPasses, MetricThreshold, VisualVerify, Manual}

// Operators are the comparison operators of metric_threshold.
var Operators = []string{">=", "<=", "==", "!=", ">", "<"}

// Condition is one exit condition.
type Condition struct {
	Kind         Kind
	Arg          string // the text after "kind:", trimmed
	Line, Column int    // where it is written
	// metric_threshold only: "coverage >= 80%"
	Metric string  // "coverage"
	Op     string  // ">="
	Value  float64 // 80
}

// String is the condition as the verdict names it: "file_exists: src/x.ts".
func (c Condition) String() string { return string(c.Kind) + ": " + c.Arg }

// Exit is a phase's exit conditions, with the campaign and phase when the
// conditions file names them.
type Exit struct {
	Campaign   string // "" when not given
	Phase      int
	HasPhase   bool
	Conditions []Condition
}

// Limits of a conditions file: real ones are a few lines.
const (
	MaxConditionsBytes = 1 << 20
	MaxConditions      = 1000
	maxConditionsDepth = 8
)

// Error is a problem in a conditions file, "name:line:col: msg".
type Error struct {
	Name         string
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	switch {
	case e.Line == 0:
		return e.Name + ": " + e.Msg
	case e.Column == 0:
		return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Name, e.Line, e.Column, e.Msg)
}

// slugRE is a campaign slug, as the verdict spec has it. The package's
// patterns are compiled when first used, not at start-up: every run of
// protoscan (one per package under go vet -vettool) would pay for them.
var slugRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]+([._-][a-z0-9]+)*$`) })

// ValidSlug reports whether s is a campaign slug.
func ValidSlug(s string) bool { return slugRE().MatchString(s) }

// ParseConditions parses exit conditions, named name in errors. The file
// is YAML, read with the bounded yamldoc reader, in one of two shapes: the
// list form, one condition a line ("- file_exists: src/auth/handler.ts",
// "- command_passes: npx tsc --noEmit"), or a mapping that names the
// campaign and the phase beside the list:
//
//	Campaign: auth-rewrite
//	Phase: 3 — Auth handler
//	Exit conditions:
//	  - metric_threshold: coverage >= 80%
//
// A condition written as one quoted string ("manual: ask: the PM") is
// read the same way. Anything else is an error with its place.
func ParseConditions(name string, data []byte) (*Exit, error) {
	docs, err := yamldoc.Parse(name, data, yamldoc.Limits{MaxBytes: MaxConditionsBytes, MaxDepth: maxConditionsDepth})
	if err != nil {
		if ye, ok := err.(*yamldoc.Error); ok {
			msg := ye.Msg
			if strings.Contains(msg, "mapping values are not allowed") {
				msg += " (a condition holding ': ' must be quoted whole: - \"manual: ask: the PM\")"
			}
			return nil, &Error{name, ye.Line, ye.Column, msg}
		}
		return nil, &Error{Name: name, Msg: err.Error()}
	}
	switch len(docs) {
	case 0:
		return nil, &Error{Name: name, Msg: "no exit conditions in it"}
	case 1:
	default:
		return nil, &Error{name, docs[1].Line, docs[1].Column, "more than one YAML document; give one list of exit conditions"}
	}
	p := &condParser{name: name, exit: &Exit{}}
	root := docs[0]
	switch root.Kind {
	case yaml.SequenceNode:
		p.list(root)
	case yaml.MappingNode:
		p.header(root)
	default:
		p.errorf(root, "want a list of exit conditions (- file_exists: PATH, one a line)")
	}
	if p.err != nil {
		return nil, p.err
	}
	if len(p.exit.Conditions) == 0 {
		return nil, &Error{Name: name, Msg: "no exit conditions in it"}
	}
	return p.exit, nil
}

type condParser struct {
	name string
	exit *Exit
	err  *Error // the first problem
}

func (p *condParser) errorf(n *yaml.Node, format string, args ...any) {
	if p.err == nil {
		p.err = &Error{p.name, n.Line, n.Column, fmt.Sprintf(format, args...)}
	}
}

// headerKey normalizes "Exit conditions", "exit_conditions", "Exit-Conditions".
func headerKey(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.NewReplacer(" ", "_", "-", "_").Replace(s)
}

var phaseNumRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d{1,9})(?:\D|$)`) })

func (p *condParser) header(m *yaml.Node) {
	var list *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if v.Kind == yaml.AliasNode {
			p.errorf(v, "aliases are not allowed in exit conditions")
			return
		}
		switch headerKey(k.Value) {
		case "campaign":
			if v.Kind != yaml.ScalarNode || !ValidSlug(strings.TrimSpace(v.Value)) {
				p.errorf(v, "campaign: must be a slug: lowercase letters and digits, words joined by '-', '_' or '.' (got %q)", v.Value)
				return
			}
			p.exit.Campaign = strings.TrimSpace(v.Value)
		case "phase":
			sub := phaseNumRE().FindStringSubmatch(strings.TrimSpace(v.Value))
			if v.Kind != yaml.ScalarNode || sub == nil {
				p.errorf(v, "phase: must start with the phase number (got %q)", v.Value)
				return
			}
			p.exit.Phase, _ = strconv.Atoi(sub[1])
			p.exit.HasPhase = true
		case "exit_conditions", "conditions":
			if v.Kind != yaml.SequenceNode {
				p.errorf(v, "%s: must be a list of exit conditions", k.Value)
				return
			}
			list = v
		default:
			p.errorf(k, "unknown key %q (want Campaign, Phase and Exit conditions)", k.Value)
			return
		}
	}
	if list == nil {
		p.errorf(m, "no Exit conditions list")
		return
	}
	p.list(list)
}

func (p *condParser) list(seq *yaml.Node) {
	if len(seq.Content) > MaxConditions {
		p.errorf(seq, "more than %d exit conditions", MaxConditions)
		return
	}
	for _, item := range seq.Content {
		c, ok := p.condition(item)
		if !ok {
			return
		}
		p.exit.Conditions = append(p.exit.Conditions, c)
	}
}

func (p *condParser) condition(item *yaml.Node) (Condition, bool) {
	c := Condition{Line: item.Line, Column: item.Column}
	var kindText string
	argNode := item
	switch item.Kind {
	case yaml.MappingNode:
		if len(item.Content) != 2 {
			p.errorf(item, "want one condition per list item (kind: argument), got %d keys", len(item.Content)/2)
			return c, false
		}
		kindText, argNode = item.Content[0].Value, item.Content[1]
		if argNode.Kind != yaml.ScalarNode {
			p.errorf(argNode, "%s: the argument must be one line of text", kindText)
			return c, false
		}
		c.Arg = argNode.Value
		if argNode.ShortTag() == "!!null" {
			c.Arg = ""
		}
	case yaml.ScalarNode:
		k, arg, found := strings.Cut(item.Value, ":")
		if !found {
			p.errorf(item, "want 'kind: argument' (got %q)", item.Value)
			return c, false
		}
		kindText, c.Arg = k, arg
	default:
		p.errorf(item, "want 'kind: argument' (file_exists, command_passes, metric_threshold, visual_verify or manual)")
		return c, false
	}
	c.Kind = Kind(strings.ToLower(strings.TrimSpace(kindText)))
	known := false
	for _, k := range allKinds {
		known = known || c.Kind == k
	}
	if !known {
		p.errorf(item, "unknown condition kind %q (want file_exists, command_passes, metric_threshold, visual_verify or manual)", strings.TrimSpace(kindText))
		return c, false
	}
	c.Arg = strings.TrimSpace(c.Arg)
	if c.Arg == "" {
		p.errorf(argNode, "%s: empty argument", c.Kind)
		return c, false
	}
	if strings.ContainsAny(c.Arg, "\n\r") {
		p.errorf(argNode, "%s: the argument must be one line of text", c.Kind)
		return c, false
	}
	if c.Kind == MetricThreshold {
		if !parseMetric(&c) {
			p.errorf(argNode, "metric_threshold: want 'METRIC OP VALUE' with OP one of %s and VALUE a number (got %q)", strings.Join(Operators, ", "), c.Arg)
			return c, false
		}
	}
	return c, true
}

var metricRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(.*?[^<>=!\s])\s*(>=|<=|==|!=|>|<)\s*(-?\d+(?:\.\d+)?)\s*(%|[a-zA-Z]{1,8})?$`)
})

// parseMetric splits "coverage >= 80%" into metric, operator and value.
func parseMetric(c *Condition) bool {
	m := metricRE().FindStringSubmatch(c.Arg)
	if m == nil {
		return false
	}
	v, err := strconv.ParseFloat(m[3], 64)
	if err != nil {
		return false
	}
	c.Metric, c.Op, c.Value = strings.TrimSpace(m[1]), m[2], v
	return c.Metric != ""
}

// compare applies op to got and want.
func compare(got float64, op string, want float64) bool {
	switch op {
	case ">=":
		return got >= want
	case "<=":
		return got <= want
	case ">":
		return got > want
	case "<":
		return got < want
	case "==":
		return got == want
	case "!=":
		return got != want
	}
	return false
}
