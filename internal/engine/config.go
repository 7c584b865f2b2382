package engine

import (
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/internal/editdist"
	"github.com/protoscan-dev/protoscan/internal/rules"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// CheckConfig is what scan rejects in a config beyond the file's own
// problems, checked the same way by scan and config check: rule settings
// that name no rule (checkConfigRules), and synonyms that map to no
// status of the spec a scan of root would use (checkSynonyms): specPath
// when given (--spec), else the config's spec (read from inside root
// when inTree), else the tree's, else the embedded one. A spec that
// cannot be loaded is the scan's protoscan/spec-error finding or its
// exit 2, not a config error, so the embedded spec judges then, as it
// does in the scan.
func CheckConfig(root string, specPath []string, inTree bool) config.Check {
	return func(cfg *config.Config) config.Errors {
		errs := checkConfigRules(cfg)
		if len(cfg.Synonyms) == 0 && len(cfg.Renamed) == 0 {
			return errs
		}
		paths, named := specPath, len(specPath) > 0
		if !named && cfg.Spec != "" {
			paths = cfg.SpecPaths()
		}
		spec := msgcheck.DefaultSpec()
		if specs, _, err := ResolveSpecs(paths, inTree && !named, root); err == nil && len(specs) > 0 {
			spec = specs[0]
		}
		errs = append(errs, checkRenamed(cfg, spec)...)
		return append(errs, checkSynonyms(cfg, spec)...)
	}
}

// checkSynonyms rejects each synonym that maps to no HANDBACK status of
// spec (of the embedded spec when spec has none, as enumdrift falls back
// to it), at the status it names, with the nearest status; enumdrift's
// NewVocabulary refuses the same synonyms.
func checkSynonyms(cfg *config.Config, spec *msgcheck.Spec) config.Errors {
	statuses, _, ok := spec.Enum("handback", "status")
	if !ok || len(statuses) == 0 {
		statuses, _, _ = msgcheck.DefaultSpec().Enum("handback", "status")
	}
	var errs config.Errors
	for _, s := range cfg.Synonyms {
		if slices.Contains(statuses, s.Canonical) {
			continue
		}
		errs = append(errs, cfg.Errorf(s.CanonicalPos, "synonym %q maps to %q, which is not a HANDBACK status (%s%s)",
			s.Legacy, s.Canonical, strings.Join(statuses, ", "), editdist.Hint(s.Canonical, statuses, "; ")))
	}
	return errs
}

// configFor finds the config of a scan: --config, else .protoscan.yaml
// at the first scanned root, read only from inside that root; check
// joins its problems to the file's own.
func configFor(flagPath, root string, check config.Check) (*config.Config, error) {
	if flagPath != "" {
		return config.Load(flagPath, check)
	}
	p, ok := config.Find(dirOf(root))
	if !ok {
		return nil, nil
	}
	return config.LoadIn(dirOf(root), p, check)
}

// checkConfigRules rejects rule settings that name no rule protoscan has.
func checkConfigRules(cfg *config.Config) config.Errors {
	var errs config.Errors
	all := rules.ScanRules()
	for _, r := range cfg.Rules {
		if r.Exact() {
			if rules.IsAuditCheck(r.Pattern) {
				errs = append(errs, cfg.Errorf(r.Pos, "%q is a check of protoscan audit, which .protoscan.yaml does not configure", r.Pattern))
				continue
			}
			if _, ok := rules.Lookup(r.Pattern); !ok {
				if near := rules.Nearest(r.Pattern); near != "" {
					errs = append(errs, cfg.Errorf(r.Pos, "unknown rule %q (did you mean %q? protoscan rules lists them)", r.Pattern, near))
				} else {
					errs = append(errs, cfg.Errorf(r.Pos, "unknown rule %q (protoscan rules lists them)", r.Pattern))
				}
			}
			continue
		}
		if !slices.ContainsFunc(all, func(d rules.Doc) bool { return r.Match(d.ID) }) {
			errs = append(errs, cfg.Errorf(r.Pos, "%q matches no rule (protoscan rules lists them)", r.Pattern))
		}
	}
	return errs
}
