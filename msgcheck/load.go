package msgcheck

import (
	"bytes"
	"cmp"
	"embed"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/protoscan/protoscan/internal/safefile"
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
	data []byte
	spec *Spec
}

var fileCache sync.Map // absolute path -> cachedSpec

// LoadSpec reads and compiles a spec file the user named (a flag or a
// command-line argument), once per process for unchanged content. It may
// lie anywhere, but must be a regular file of at most 4 MiB.
func LoadSpec(path string) (*Spec, error) {
	return loadSpec(path, safefile.ReadOptions{Explicit: true})
}

// LoadSpecIn is LoadSpec for a spec file of the tree at root (the
// current directory for ""), which the tree's author chose: a path that
// resolves out of root (through a link or "..") is refused.
func LoadSpecIn(root, path string) (*Spec, error) {
	return loadSpec(path, safefile.ReadOptions{Root: cmp.Or(root, ".")})
}

func loadSpec(path string, opt safefile.ReadOptions) (*Spec, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	opt.Max = maxSpecBytes
	// read before the cache is asked: the checks hold for every load
	data, err := safefile.ReadFile(path, opt)
	if err != nil {
		var fe *safefile.Error
		if errors.As(err, &fe) {
			return nil, &SpecError{File: fe.Path, Msg: fe.Reason}
		}
		return nil, fmt.Errorf("spec: %w", err)
	}
	if c, ok := fileCache.Load(abs); ok {
		if cs := c.(cachedSpec); bytes.Equal(cs.data, data) {
			return cs.spec, nil
		}
	}
	s, err := ParseSpec(path, data)
	if err != nil {
		return nil, err
	}
	fileCache.Store(abs, cachedSpec{data, s})
	return s, nil
}

// Discover finds the specs a repository ships: docs/specs/protocol-core-v*.yaml
// under root, highest version first, each read as LoadSpecIn reads it.
// With none, it returns the embedded default spec.
func Discover(root string) ([]*Spec, error) {
	matches, _ := filepath.Glob(filepath.Join(root, "docs", "specs", "protocol-core-v*.yaml"))
	if len(matches) == 0 {
		return []*Spec{DefaultSpec()}, nil
	}
	var specs []*Spec
	for _, m := range matches {
		s, err := LoadSpecIn(root, m)
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
