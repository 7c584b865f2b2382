package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/analyzers/divergence"
	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/handoff"
	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/internal/editdist"
	"github.com/protoscan-dev/protoscan/internal/report"
	"github.com/protoscan-dev/protoscan/internal/safefile"
	"github.com/protoscan-dev/protoscan/internal/scan"
	"github.com/protoscan-dev/protoscan/internal/textsafe"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// This file settles what a scan runs with, before it reads a file: the
// config merged with the flags, the specs, the analyzers, and what
// stderr says of them. Each error here ends the scan before its report.

// loadConfig finds the PATHs and the config (the tree's, --config's or
// --config-from-rev's commit's) and merges it with the flags: a flag
// given on the command line wins; the config's include, exclude and
// canonical come before the flags'.
func (s *state) loadConfig() error {
	o := &s.opts
	paths := o.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	s.paths = nestedPaths(paths)
	s.roots = WriteRoots(s.paths...)
	s.root = dirOf(s.paths[0])
	s.walk, s.specPath, s.failOn, s.canonical = o.Walk, o.Spec, o.FailOn, o.Canonical
	// a config of the tree names a spec of the tree
	s.cfgInTree = o.Config == "" || safefile.Within(s.root, o.Config)
	var named []string
	if o.Set["spec"] {
		named = o.Spec
	}
	// --config-from-rev: the config and specs of a commit govern the gate
	var err error
	if o.ConfigFromRev != "" {
		if o.Config != "" {
			return errors.New("--config and --config-from-rev both give the config: use one")
		}
		if s.fromRev, err = openRevSource(s.ctx, o.ConfigFromRev, s.root); err != nil {
			return err
		}
	}
	if s.fromRev != nil {
		s.cfg, err = s.fromRev.loadConfig(checkRevConfig(s.fromRev, s.root, named))
	} else {
		s.cfg, err = configFor(o.Config, s.paths[0], CheckConfig(s.root, named, s.cfgInTree))
	}
	if err != nil {
		return err
	}
	if s.cfg != nil {
		s.mergeConfig()
	}
	if s.threshold, s.never, err = failLevel(s.failOn); err != nil {
		return err
	}
	if o.NewFromRev != "" {
		// before the scan spends its time: a revision the clone lacks
		if s.repo, err = newFromRevRepo(s.ctx, o.NewFromRev); err != nil {
			return err
		}
	}
	s.names = NewPathMap(s.ctx, s.paths)
	return nil
}

// mergeConfig joins the config's settings to the flags'.
func (s *state) mergeConfig() {
	cfg, set := s.cfg, s.opts.Set
	s.walk.Include = append(slices.Clone(cfg.Include), s.walk.Include...)
	s.walk.Exclude = append(slices.Clone(cfg.Exclude), s.walk.Exclude...)
	if !set["spec"] && cfg.Spec != "" && s.fromRev == nil {
		s.specPath = cfg.SpecPaths()
		s.specInTree = s.cfgInTree
	}
	if !set["fail-on"] && cfg.FailOn != "" {
		s.failOn = cfg.FailOn
	}
	if !set["max-file-size"] && cfg.MaxFileSize != 0 {
		// a pull request writes the tree's config: it may lower the
		// limit, not raise or remove it
		if verb := "raise"; s.opts.Config == "" && (cfg.MaxFileSize < 0 || cfg.MaxFileSize > s.walk.MaxFileSize) {
			if cfg.MaxFileSize < 0 {
				verb = "remove"
			}
			s.notifyf("%s: max-file-size %d ignored: a config found in the tree may lower the limit, not %s it (use --max-file-size or --config)", cfg.File, cfg.MaxFileSize, verb)
		} else {
			s.walk.MaxFileSize = cfg.MaxFileSize
		}
	}
	s.canonical = append(slices.Clone(cfg.Canonical), s.canonical...)
	s.synonyms = cfg.SynonymMap()
}

// discovered says the spec is the tree's to find, not the user's.
func (s *state) discovered() bool { return !s.opts.Set["spec"] && s.opts.Config == "" }

// resolveSpecs loads protocol-core's spec. A spec the tree holds, or its
// own config names, that cannot be loaded is a finding, and the embedded
// spec stands in; one the user named (--spec, --config) is the user's
// error.
func (s *state) resolveSpecs() error {
	s.fallback = &specFallback{root: s.root, prefix: s.names.roots[0].display}
	s.fallback.rev = s.fromRev
	if !s.opts.Set["spec"] {
		s.fallback.cfg = s.cfg
	}
	var err error
	if s.fromRev != nil && !s.opts.Set["spec"] {
		s.specs, err = s.fromRev.protocolSpecs(s.cfg)
	} else {
		s.specs, _, err = ResolveSpecs(s.specPath, s.specInTree, s.root)
	}
	if err != nil {
		if !s.discovered() || !isDir(s.root) {
			return err
		}
		s.specs = []*msgcheck.Spec{msgcheck.DefaultSpec()}
		s.fallback.add(err, s.specs[0], len(s.specPath) > 0)
	}
	s.specs[0], err = withRenamed(s.cfg, s.specs[0])
	return err
}

// selectAnalyzers reads --analyzers.
func (s *state) selectAnalyzers() error {
	s.sopts = scan.Options{Walk: s.walk, Workers: s.opts.Workers}
	for _, a := range strings.Split(s.opts.Analyzers, ",") {
		switch strings.TrimSpace(a) {
		case "enumdrift":
			s.drift = true
		case "divergence":
			s.sopts.Divergence = divergence.NewModel(s.specs[0], divergence.Options{Canonical: s.canonical, SpecName: s.fallback.specName})
		case "msgcheck":
			s.validate = true
		default:
			return fmt.Errorf("unknown analyzer %q in --analyzers (want enumdrift, divergence, msgcheck%s)", a, editdist.Hint(strings.TrimSpace(a), analyzerNames, "; "))
		}
	}
	return nil
}

// otherProtocols adds, beside protocol-core, NEXUS handoffs and phase
// verdicts, and enumdrift's vocabulary of every protocol's enums.
func (s *state) otherProtocols() error {
	s.usedSpecs, s.kinds = s.specs, s.specs[0].Kinds()
	var err error
	if s.validate || s.drift {
		// the other protocols' enums drift too (NEXUS status, verdicts)
		var more []*msgcheck.Spec
		discover := handoff.Discover
		if s.fromRev != nil {
			discover = s.fromRev.handoffSpec
		}
		if s.protocols, more, err = scanProtocols(s.root, s.fallback, discover); err != nil {
			return err
		}
		s.usedSpecs = append(slices.Clone(s.specs), more...)
	}
	if !s.drift {
		return nil
	}
	vspec := s.fallback.vocabularySpec(s.specs[0], s.discovered(), len(s.specPath) > 0)
	// a spec or synonyms the user named declare the protocol
	s.declared = len(s.specPath) > 0 || len(s.synonyms) > 0
	if vspec, err = withRenamed(s.cfg, vspec); err != nil {
		return err
	}
	if s.sopts.Vocabulary, err = enumdrift.NewVocabulary(vspec, s.synonyms, s.usedSpecs[1:]...); err != nil {
		if s.cfg != nil && len(s.synonyms) > 0 {
			errs := checkSynonyms(s.cfg, vspec)
			if len(errs) == 0 {
				errs = config.Errors{s.cfg.Errorf(s.cfg.Pos("synonyms"), "%v", err)}
			}
			return errs
		}
		return err
	}
	return nil
}

// announce says on stderr where the config and specs came from, what
// stood in for a spec that failed, and what governs the gate; it starts
// the report with that gate.
func (s *state) announce() {
	s.fallback.warn(s.usedSpecs)
	if s.fromRev != nil {
		treeConfig, _ := config.Find(s.root)
		for _, n := range s.fromRev.notice(treeConfig) {
			s.notify(textsafe.String(n))
		}
	}
	for _, n := range s.fallback.notes {
		s.notify(textsafe.String(n))
	}
	gin := gateInput{cfg: s.cfg, found: s.opts.Config == "" && s.fromRev == nil, set: s.opts.Set, specs: s.usedSpecs, core: len(s.specs), fallback: s.fallback}
	if s.fromRev != nil {
		gin.rev = s.fromRev.where()
	}
	s.rep = &report.Report{Tool: "protoscan", Version: s.opts.Version, Gate: s.gateNotice(gin)}
}

// openCache opens the cache of per-file results, unless --no-cache.
func (s *state) openCache() {
	if s.opts.NoCache {
		return
	}
	var sums map[string]string // of the files read from git
	if s.fromRev != nil {
		sums = s.fromRev.sums
	}
	s.sopts.Cache, s.cacheKey = openCache(s.opts.CacheDir, s.opts.CacheVerify, s.usedSpecs, s.cfg, sums, s.opts.Analyzers, s.canonical, s.synonyms)
}

// failOnWords are the levels of --fail-on, as the config spells them.
var failOnWords = []string{"error", "warning", "note", "never", "none"}

// analyzerNames are the analyzers of --analyzers.
var analyzerNames = []string{"enumdrift", "divergence", "msgcheck"}

// failLevel reads --fail-on; with "none" no finding fails the run.
func failLevel(s string) (sev finding.Severity, never bool, err error) {
	if s == "none" || s == "never" {
		return 0, true, nil
	}
	sev, ok := finding.ParseSeverity(s)
	if !ok {
		return 0, false, fmt.Errorf("--fail-on %q: want error, warning, note or never%s", s, editdist.Hint(s, failOnWords, " ("))
	}
	return sev, false, nil
}
