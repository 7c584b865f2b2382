package golangci_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/protoscan-dev/protoscan/analyzers/golangci"
)

// build gets the plugin as golangci-lint does: by name, from the registry,
// with settings decoded from what .golangci.yml holds.
func build(t *testing.T, settings map[string]any) register.LinterPlugin {
	t.Helper()
	newPlugin, err := register.GetPlugin(golangci.Name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(settings)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDefaultSpec(t *testing.T) {
	p := build(t, nil)
	if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
		t.Errorf("load mode %q, want %q", got, register.LoadModeTypesInfo)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range as {
		names = append(names, a.Name)
	}
	if got := strings.Join(names, ","); got != "enumdrift,divergence" {
		t.Fatalf("analyzers %s, want enumdrift,divergence", got)
	}
	analysistest.Run(t, analysistest.TestData(), as[0], "status")
	analysistest.Run(t, analysistest.TestData(), as[1], "escalation")
}

// The spec setting replaces the embedded spec: "done" is canonical there
// and "success" is not.
func TestSpecSetting(t *testing.T) {
	p := build(t, map[string]any{
		"spec":      filepath.Join(analysistest.TestData(), "acme.yaml"),
		"analyzers": []string{"enumdrift"},
	})
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 || as[0].Name != "enumdrift" {
		t.Fatalf("analyzers %v, want enumdrift only", as)
	}
	analysistest.Run(t, analysistest.TestData(), as[0], "custom")
}

func TestBadSettings(t *testing.T) {
	newPlugin, err := register.GetPlugin(golangci.Name)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		settings map[string]any
		want     string
	}{
		{"unknown key", map[string]any{"specs": "x.yaml"}, `unknown field "specs"`},
		{"missing spec", map[string]any{"spec": filepath.Join(t.TempDir(), "nope.yaml")}, "settings.spec"},
		{"unknown analyzer", map[string]any{"analyzers": []string{"enumdrfit"}}, `unknown analyzer "enumdrfit"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := newPlugin(tc.settings)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
