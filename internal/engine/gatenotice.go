package engine

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/internal/report"
	"github.com/protoscan-dev/protoscan/internal/rules"
	"github.com/protoscan-dev/protoscan/internal/scan/walk"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// This file says what governs a scan's gate (report.Gate), so that a
// pull request cannot switch it off without a word: the spec in effect
// for each protocol and why it won, the config in effect, and each
// setting of a config found in the tree that lowers the gate.

// gateInput is what the scan settled that governs its gate.
type gateInput struct {
	cfg   *config.Config
	found bool            // cfg is the tree's own, found at the first PATH (no --config, no --config-from-rev)
	rev   string          // the commit of --config-from-rev, as the notices name it; "" for none
	set   map[string]bool // the flags given on the command line
	// specs are the specs in effect: the first core of protocol-core
	// (several versions when the tree has several), then the others.
	specs    []*msgcheck.Spec
	core     int
	fallback *specFallback
}

// gateNotice returns the scan's report.Gate and prints its notices on
// stderr: the spec of each protocol that is not the embedded one, and
// each setting of the tree's config that lowers the gate.
func (s *state) gateNotice(in gateInput) *report.Gate {
	g := gateOf(in)
	for _, line := range report.GateNotices(g) {
		s.notify(line)
	}
	return g
}

// gateOf is the report.Gate of in.
func gateOf(in gateInput) *report.Gate {
	g := &report.Gate{Rev: in.rev}
	for i, s := range in.specs {
		gs := report.GateSpec{Protocol: s.Protocol, Version: s.Version, Files: []string{s.Source}}
		switch {
		case strings.HasPrefix(s.Source, "embedded:"):
			gs.Why = report.SpecDefault
			if slices.Contains(in.fallback.replaced, s.Protocol) {
				gs.Why = report.SpecFallback
			}
		case i < in.core && in.set["spec"]:
			gs.Why = report.SpecFlag
		case in.rev != "":
			gs.Why = report.SpecRev
		case i < in.core && in.cfg != nil && in.cfg.Spec != "":
			gs.Why = report.SpecConfig
		default:
			gs.Why = report.SpecDiscovered
		}
		if !gs.Embedded() {
			gs.Files = nil
			for _, src := range s.Sources() {
				gs.Files = append(gs.Files, filepath.ToSlash(in.fallback.specName(src)))
			}
		}
		g.Specs = append(g.Specs, gs)
	}
	if in.cfg == nil {
		return g
	}
	file := in.fallback.specName(in.cfg.File)
	g.Config, g.ConfigFound = filepath.ToSlash(file), in.found
	if !in.found {
		return g // --config: the CI owner's choice
	}
	for _, l := range in.cfg.Lowerings(gateStandard(in.cfg, in.set)) {
		g.Lowered = append(g.Lowered, report.Lowered{
			Location: finding.Location{Path: g.Config, Line: l.Pos.Line, Col: l.Pos.Column},
			Setting:  l.Key, Message: l.Text,
		})
	}
	return g
}

// gateStandard is the gate of the scan without cfg: the default
// fail-on and size limit (the flags fix them when given), every rule of
// the catalogue and every rule id cfg names, at its default severity.
func gateStandard(cfg *config.Config, set map[string]bool) config.Standard {
	s := config.Standard{FailOn: "error", MaxFileSize: walk.DefaultMaxFileSize, Rules: map[string]finding.Severity{}}
	for _, key := range []string{"fail-on", "max-file-size"} {
		if set[key] {
			s.Fixed = append(s.Fixed, key)
		}
	}
	for _, d := range rules.ScanRules() {
		s.Rules[d.ID] = d.Severity
	}
	for _, r := range cfg.Rules {
		if r.Exact() {
			s.Rules[r.Pattern] = rules.Severity(r.Pattern)
		}
	}
	return s
}

// KeyedGate is g with its files named as SARIF names them: relative to
// the repository root.
func (m *PathMap) KeyedGate(g *report.Gate) *report.Gate {
	if g == nil {
		return nil
	}
	k := *g
	k.Specs = slices.Clone(g.Specs)
	for i, s := range k.Specs {
		if s.Embedded() {
			continue
		}
		files := make([]string, len(s.Files))
		for j, f := range s.Files {
			files[j] = m.key(f)
		}
		k.Specs[i].Files = files
	}
	if k.Config != "" {
		k.Config = m.key(k.Config)
	}
	k.Lowered = slices.Clone(g.Lowered)
	for i := range k.Lowered {
		k.Lowered[i].Location.Path = m.key(k.Lowered[i].Location.Path)
	}
	return &k
}
