package engine

import (
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/config"
)

// applyRuleSettings drops the findings of rules the config turns off and
// sets the severity it gives. A finding that stands for another rule's
// (Finding.StandsFor) is off when either rule is, and takes its own
// rule's severity, else the other's.
func applyRuleSettings(cfg *config.Config, fs []finding.Finding) []finding.Finding {
	if cfg == nil || len(cfg.Rules) == 0 {
		return fs
	}
	kept := fs[:0]
	for _, f := range fs {
		enabled, sev, overridden := cfg.RuleSetting(f.Rule)
		if f.StandsFor != "" {
			on, alias, set := cfg.RuleSetting(f.StandsFor)
			enabled = enabled && on
			if !overridden && set {
				sev, overridden = alias, true
			}
		}
		if !enabled {
			continue
		}
		if overridden {
			f.Severity = sev
		}
		kept = append(kept, f)
	}
	return kept
}

// ruleSettings applies the config's rule settings to the findings.
type ruleSettings struct{}

func (ruleSettings) name() string { return "rule settings" }

func (ruleSettings) run(s *state) error {
	s.rep.Findings = applyRuleSettings(s.cfg, s.rep.Findings)
	return nil
}
