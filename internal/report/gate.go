package report

import (
	"fmt"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/textsafe"
)

// Gate is what governs a scan's pass or fail beside its findings: the
// spec in effect for each protocol and why it won, the config in effect,
// and the settings of a config found in the tree that lower the gate (a
// pull request can write them). The scan always sets it; audit and
// validate leave it nil.
type Gate struct {
	// Specs are the specs in effect, protocol-core first, then the
	// other protocols the scan checks.
	Specs []GateSpec
	// Config is the configuration file in effect, as the report names
	// files; "" when there is none. ConfigFound says the scan found it
	// in the tree (else --config named it).
	Config      string
	ConfigFound bool
	// Rev is the commit the config and specs came from
	// (--config-from-rev), "main (3f2a9c1)"; "" for the working tree.
	Rev string
	// Lowered are the settings of a config found in the tree that lower
	// the gate, in file order; a config named with --config is the CI
	// owner's choice and lowers nothing here.
	Lowered []Lowered
}

// GateSpec is one spec in effect.
type GateSpec struct {
	Protocol string // "protocol-core"
	Version  string // "1.0"
	// Files are the spec's files as the report names files (several for
	// a spec of per-kind schemas), or "embedded:NAME" for a spec built
	// into protoscan.
	Files []string
	Why   SpecWhy
}

// SpecWhy says why a spec is the one in effect.
type SpecWhy string

// Why a spec won; the values are those of the JSON and SARIF reports.
const (
	SpecFlag       SpecWhy = "flag"       // named by --spec
	SpecConfig     SpecWhy = "config"     // named by the config's spec key
	SpecDiscovered SpecWhy = "discovered" // found in the tree at docs/specs/...
	SpecDefault    SpecWhy = "default"    // embedded: the tree has none
	SpecFallback   SpecWhy = "fallback"   // embedded: the tree's failed to load
	SpecRev        SpecWhy = "rev"        // from the commit of --config-from-rev
)

// Text words w for the text and Markdown reports and stderr.
func (w SpecWhy) Text() string {
	switch w {
	case SpecFlag:
		return "named by --spec"
	case SpecConfig:
		return "named by the config's spec key"
	case SpecDiscovered:
		return "discovered in the tree"
	case SpecFallback:
		return "the tree's spec failed to load"
	case SpecRev:
		return "from the commit of --config-from-rev"
	}
	return "the default"
}

// Embedded reports whether the spec is one built into protoscan.
func (s GateSpec) Embedded() bool { return s.Why == SpecDefault || s.Why == SpecFallback }

// Lowered is a setting of the config that lowers the gate.
type Lowered struct {
	// Location is where the setting is written in the config file.
	Location finding.Location
	// Setting is its top-level key: rules, fail-on, synonyms, include,
	// exclude or max-file-size.
	Setting string
	// Message says what it is and does: `rules "*/*": off turns off 40
	// rules`.
	Message string
}

// Notable reports whether the text and Markdown reports show the gate: a
// spec not the embedded default, or a setting that lowers the gate.
func (g *Gate) Notable() bool {
	if g == nil {
		return false
	}
	for _, s := range g.Specs {
		if s.Why != SpecDefault {
			return true
		}
	}
	return len(g.Lowered) > 0
}

// text is "protocol-core v1.0 from docs/specs/x.yaml (discovered in the
// tree)", or "... embedded (the default)": name writes the protocol and
// version, file each file, as the format writes them.
func (s GateSpec) text(name, file func(string) string) string {
	where := "embedded"
	if !s.Embedded() {
		files := make([]string, len(s.Files))
		for i, f := range s.Files {
			files[i] = file(f)
		}
		where = "from " + strings.Join(files, ", ")
	}
	return fmt.Sprintf("%s %s (%s)", name(s.Protocol+" v"+s.Version), where, s.Why.Text())
}

// configText is "CONFIG (found in the tree)" or "(named by --config)".
func (g *Gate) configText(file string) string {
	if g.Rev != "" {
		return file + " (from " + g.Rev + ", --config-from-rev)"
	}
	if g.ConfigFound {
		return file + " (found in the tree)"
	}
	return file + " (named by --config)"
}

// GateNotices are the lines the scan prints on stderr (each after
// "protoscan: "): the spec in effect for each protocol whose spec the
// tree chose (discovered in it, or named by the config found in it),
// and each setting of the tree's config that lowers the gate; none in
// the ordinary case, nor for what the command line chose (--spec,
// --config). The tree's strings are escaped by textsafe.
func GateNotices(g *Gate) []string {
	if g == nil {
		return nil
	}
	var out []string
	for _, s := range g.Specs {
		if s.Why == SpecDiscovered || s.Why == SpecConfig && g.ConfigFound {
			out = append(out, "spec in effect: "+s.text(textsafe.String, textsafe.Path))
		}
	}
	for _, l := range g.Lowered {
		out = append(out, "notice: the tree's config lowers the gate: "+textPlace(l.Location)+": "+textsafe.String(l.Message))
	}
	return out
}

// textGate writes the "gate:" section of the text report, when the gate
// is notable.
func textGate(b *strings.Builder, g *Gate, paint func(code, s string) string) {
	if !g.Notable() {
		return
	}
	b.WriteString(paint(bold, "gate:") + "\n")
	for _, s := range g.Specs {
		fmt.Fprintf(b, "  spec: %s\n", s.text(textsafe.String, textsafe.Path))
	}
	if g.Config != "" {
		fmt.Fprintf(b, "  config: %s\n", g.configText(textsafe.Path(g.Config)))
	}
	for _, l := range g.Lowered {
		fmt.Fprintf(b, "  %s: %s: %s\n", paint(yellow, "lowered"), textPlace(l.Location), textsafe.String(l.Message))
	}
}

// mdGate writes the "Gate" section of the Markdown report, when the gate
// is notable.
func mdGate(b *strings.Builder, g *Gate) {
	if !g.Notable() {
		return
	}
	b.WriteString("\n### Gate\n\n")
	for _, s := range g.Specs {
		fmt.Fprintf(b, "- Spec: %s\n", s.text(mdText, mdCode))
	}
	if g.Config != "" {
		fmt.Fprintf(b, "- Config: %s\n", g.configText(mdCode(g.Config)))
	}
	if len(g.Lowered) > 0 {
		b.WriteString("- **The tree's config lowers the gate:**\n")
		for _, l := range g.Lowered {
			fmt.Fprintf(b, "  - %s %s\n", mdCode(place(l.Location)), mdText(l.Message))
		}
	}
}

// jsonGate is the gate in the JSON report and in SARIF's run.properties.
type jsonGate struct {
	Specs   []jsonGateSpec  `json:"specs"`
	Config  *jsonGateConfig `json:"config"`
	Lowered []jsonLowered   `json:"lowered"`
}

type jsonGateSpec struct {
	Protocol string   `json:"protocol"`
	Version  string   `json:"version"`
	Files    []string `json:"files"`
	Why      SpecWhy  `json:"why"`
}

type jsonGateConfig struct {
	File  string `json:"file"`
	Found bool   `json:"found"`
	Rev   string `json:"rev,omitempty"`
}

type jsonLowered struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Setting string `json:"setting"`
	Message string `json:"message"`
}

// gateJSON is g as the JSON and SARIF reports write it; nil for nil.
func gateJSON(g *Gate) *jsonGate {
	if g == nil {
		return nil
	}
	out := &jsonGate{Specs: []jsonGateSpec{}, Lowered: []jsonLowered{}}
	for _, s := range g.Specs {
		out.Specs = append(out.Specs, jsonGateSpec{s.Protocol, s.Version, s.Files, s.Why})
	}
	if g.Config != "" {
		out.Config = &jsonGateConfig{g.Config, g.ConfigFound, g.Rev}
	}
	for _, l := range g.Lowered {
		out.Lowered = append(out.Lowered, jsonLowered{File: l.Location.Path, Line: l.Location.Line, Column: l.Location.Col,
			Setting: l.Setting, Message: l.Message})
	}
	return out
}
