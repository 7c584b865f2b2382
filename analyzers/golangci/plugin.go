// Package golangci registers protoscan's Go analyzers, enumdrift and
// divergence, as a golangci-lint v2 module plugin named "protoscan".
//
// A custom golangci-lint binary built with `golangci-lint custom` from a
// .custom-gcl.yml that names this package runs them like any linter;
// docs/golangci-lint.md shows the files and the settings.
package golangci

import (
	"fmt"
	"slices"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/protoscan-dev/protoscan/analyzers/divergence"
	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// Name is the linter's name in .golangci.yml.
const Name = "protoscan"

func init() { register.Plugin(Name, New) }

// Settings are the plugin's settings under
// linters.settings.custom.protoscan.settings. Unknown keys are an error.
type Settings struct {
	// Spec is the protocol spec file, or a directory of per-kind schema
	// files, as `protoscan --spec` takes it; a relative path is taken from
	// the directory golangci-lint runs in. Empty: the embedded
	// protocol-core v1.0.
	Spec string `json:"spec"`
	// Analyzers names the analyzers to run; empty: all of them.
	Analyzers []string `json:"analyzers"`
}

// analyzers are the names Settings.Analyzers may hold, in the order they run.
var analyzers = []string{enumdrift.Analyzer.Name, divergence.Analyzer.Name}

// Plugin is the configured plugin.
type Plugin struct {
	spec *msgcheck.Spec
	run  []string
}

// New decodes the settings and loads the spec, so a wrong setting fails
// when golangci-lint starts rather than on the first package.
func New(conf any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](conf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	p := &Plugin{spec: msgcheck.DefaultSpec(), run: analyzers}
	if s.Spec != "" {
		if p.spec, err = msgcheck.LoadSpecs(s.Spec); err != nil {
			return nil, fmt.Errorf("%s: settings.spec: %w", Name, err)
		}
	}
	if len(s.Analyzers) > 0 {
		p.run = nil
		for _, a := range analyzers {
			if slices.Contains(s.Analyzers, a) {
				p.run = append(p.run, a)
			}
		}
		for _, a := range s.Analyzers {
			if !slices.Contains(analyzers, a) {
				return nil, fmt.Errorf("%s: settings.analyzers: unknown analyzer %q (known: %v)", Name, a, analyzers)
			}
		}
	}
	return p, nil
}

// BuildAnalyzers returns fresh analyzers that judge by the settings' spec.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	var out []*analysis.Analyzer
	for _, name := range p.run {
		switch name {
		case enumdrift.Analyzer.Name:
			out = append(out, enumdrift.New(p.spec))
		case divergence.Analyzer.Name:
			out = append(out, divergence.New(p.spec))
		}
	}
	return out, nil
}

// GetLoadMode asks for type information: the analyzers resolve the
// constants a comparison names through the type checker.
func (*Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
