package msgcheck

import (
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/yamlnode"
)

// extensionLimits bound the conversion of a kind's x- annotation; a
// policy block is a few dozen nodes.
var extensionLimits = yamlnode.Limits{MaxDepth: 32, MaxNodes: 10_000}

// extension keeps an x- annotation of a kind (x-nexus-handoff) as plain
// values, for the packages that give a kind more meaning than validation.
func (c *compiler) extension(k *kind, key string, v *yaml.Node) {
	if !strings.HasPrefix(key, "x-") {
		return
	}
	val, err := yamlnode.ToValue(v, extensionLimits)
	if err != nil {
		c.errorf(v, "%s.%s: %v", k.name, key, err)
		return
	}
	if k.extensions == nil {
		k.extensions = map[string]any{}
	}
	k.extensions[key] = val
}

// Extension returns the value of an x- annotation of a kind (a key such
// as x-nexus-handoff beside core_fields), converted to plain values as
// yamlnode.ToValue does. Validation ignores these annotations; a package
// that acts on a kind (handoff routing) reads its policy from here, so
// that the policy is data of the spec too.
func (s *Spec) Extension(kindName, key string) (any, bool) {
	k := s.kind(kindName)
	if k == nil {
		return nil, false
	}
	v, ok := k.extensions[key]
	return v, ok
}

// RuleInfo describes one x-protoscan-validations rule of a kind.
type RuleInfo struct {
	ID        string // msgcheck/<kind>-<reason>, or msgcheck/<kind>-rule-<n>
	Expr      string // the CEL expression
	Message   string
	FieldPath string // the field the rule is about, without "self."
	Warning   bool   // severity: warning
}

// Rules returns the CEL rules of a kind, in spec order.
func (s *Spec) Rules(kindName string) []RuleInfo {
	k := s.kind(kindName)
	if k == nil {
		return nil
	}
	out := make([]RuleInfo, len(k.rules))
	for i, r := range k.rules {
		out[i] = RuleInfo{ID: r.rule, Expr: r.expr, Message: r.message, FieldPath: r.fieldPath, Warning: r.warning}
	}
	return out
}

// ValidateAt validates msg, a value the caller decoded from n and may have
// amended (a migration filling in fields the source lacks), and places
// every finding at its line and column in n where n has the field. It is
// ValidateNode for callers that need the value between decoding and
// validation.
func (v *Validator) ValidateAt(kindName string, msg any, n *yaml.Node) Result {
	var start time.Time
	if v.timing {
		start = time.Now()
	}
	res := v.runLocated(kindName, msg)
	if n != nil {
		for _, list := range [][]Finding{res.Errors, res.Warnings} {
			for i := range list {
				list[i].Line, list[i].Column = yamlnode.Locate(n, list[i].path, list[i].atKey)
			}
			slices.SortStableFunc(list, func(a, b Finding) int {
				if a.Line != b.Line {
					return a.Line - b.Line
				}
				return a.Column - b.Column
			})
		}
	}
	if v.timing {
		res.Duration = time.Since(start)
	}
	return res
}
