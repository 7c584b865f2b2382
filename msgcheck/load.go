package msgcheck

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/protoscan/protoscan/yamlnode"
)

//go:embed specs/*.yaml
var embedded embed.FS

// DefaultSpecName is the embedded spec used when a repository has none.
const DefaultSpecName = "protocol-core-v1.0.yaml"

// EmbeddedSpec returns a compiled embedded spec by file name; compiled
// once, when first asked for (an audit needs one spec of three, and
// every command pays for what it compiles before its first message).
func EmbeddedSpec(name string) (*Spec, error) {
	if load, ok := embeddedSpecs()[name]; ok {
		return load()
	}
	return nil, fmt.Errorf("no embedded spec %q", name)
}

// embeddedSpecs maps each embedded spec's file name to its compiler.
var embeddedSpecs = sync.OnceValue(func() map[string]func() (*Spec, error) {
	loaders := map[string]func() (*Spec, error){}
	entries, _ := embedded.ReadDir("specs")
	for _, e := range entries {
		name := e.Name()
		loaders[name] = sync.OnceValues(func() (*Spec, error) {
			data, err := embedded.ReadFile("specs/" + name)
			if err != nil {
				return nil, err
			}
			// lazy rules: TestEmbeddedSpecsCompile compiles them all
			return parseSpec("embedded:"+name, data, true)
		})
	}
	return loaders
})

// DefaultSpec is the embedded protocol-core v1.0 spec.
func DefaultSpec() *Spec {
	s, err := EmbeddedSpec(DefaultSpecName)
	if err != nil {
		panic("msgcheck: embedded spec is broken: " + err.Error()) // a build defect, caught by tests
	}
	return s
}

// EmbeddedSpecSource returns the YAML text of an embedded spec.
func EmbeddedSpecSource(name string) ([]byte, error) { return embedded.ReadFile("specs/" + name) }

type cachedSpec struct {
	size  int64
	mtime int64
	spec  *Spec
}

var fileCache sync.Map // absolute path -> cachedSpec

// LoadSpec reads and compiles a spec file, once per process for an
// unchanged file.
func LoadSpec(path string) (*Spec, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	if c, ok := fileCache.Load(abs); ok {
		cs := c.(cachedSpec)
		if cs.size == fi.Size() && cs.mtime == fi.ModTime().UnixNano() {
			return cs.spec, nil
		}
	}
	if fi.Size() > maxSpecBytes {
		return nil, &SpecError{File: path, Msg: fmt.Sprintf("spec is larger than %d bytes", maxSpecBytes)}
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	s, err := ParseSpec(path, data)
	if err != nil {
		return nil, err
	}
	fileCache.Store(abs, cachedSpec{fi.Size(), fi.ModTime().UnixNano(), s})
	return s, nil
}

// Discover finds the specs a repository ships: docs/specs/protocol-core-v*.yaml
// under root, highest version first. With none, it returns the embedded
// default spec.
func Discover(root string) ([]*Spec, error) {
	matches, _ := filepath.Glob(filepath.Join(root, "docs", "specs", "protocol-core-v*.yaml"))
	if len(matches) == 0 {
		return []*Spec{DefaultSpec()}, nil
	}
	var specs []*Spec
	for _, m := range matches {
		s, err := LoadSpec(m)
		if err != nil {
			return nil, err
		}
		specs = append(specs, s)
	}
	slices.SortStableFunc(specs, func(a, b *Spec) int { return compareVersions(b.Version, a.Version) })
	return specs, nil
}

// compareVersions orders dotted versions numerically: 1.10 > 1.9.
func compareVersions(a, b string) int {
	pa := strings.Split(strings.TrimPrefix(a, "v"), ".")
	pb := strings.Split(strings.TrimPrefix(b, "v"), ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return strings.Compare(a, b)
}

// stepsOf turns a dotted field path ("metrics.quality") into steps.
func stepsOf(path string) []yamlnode.Step {
	if path == "" {
		return nil
	}
	var out []yamlnode.Step
	for _, p := range strings.Split(path, ".") {
		out = append(out, yamlnode.Step{Key: p, Index: -1})
	}
	return out
}
