package msgcheck

import (
	"bytes"
	"cmp"
	"embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/protoscan-dev/protoscan/internal/safefile"
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

// LoadSpecs reads and compiles the spec the user named with one or more
// paths (a repeated flag): a spec file, per-kind schema files
// (handback.schema.json, or any file with x-protoscan-kind), or
// directories of them, of which every *.yaml, *.yml and *.json file is
// read, in name order. One file is LoadSpec's spec. The kinds of several
// files make one spec: a kind defined twice is an error, and so are two
// files of different versions or protocols (a file without either takes
// the others'). Each file is read as LoadSpec reads it.
func LoadSpecs(paths ...string) (*Spec, error) {
	return loadSpecs(paths, "", safefile.ReadOptions{Explicit: true})
}

// LoadSpecsIn is LoadSpecs for paths of the tree at root, read as
// LoadSpecIn reads them; a directory out of root is refused too.
func LoadSpecsIn(root string, paths ...string) (*Spec, error) {
	root = cmp.Or(root, ".")
	return loadSpecs(paths, root, safefile.ReadOptions{Root: root})
}

// specExts are the file name extensions a spec directory's files have.
var specExts = []string{".yaml", ".yml", ".json"}

func loadSpecs(paths []string, root string, opt safefile.ReadOptions) (*Spec, error) {
	var files []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil || !fi.IsDir() {
			files = append(files, p) // loadSpec says what is wrong with it
			continue
		}
		if root != "" && !safefile.Within(root, p) {
			return nil, &SpecError{File: p, Msg: "directory outside the tree"}
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, fmt.Errorf("spec: %w", err)
		}
		n := len(files)
		for _, e := range entries {
			if !e.IsDir() && slices.Contains(specExts, strings.ToLower(filepath.Ext(e.Name()))) {
				files = append(files, filepath.Join(p, e.Name()))
			}
		}
		if len(files) == n {
			return nil, &SpecError{File: p, Msg: "no spec files (*.yaml, *.yml, *.json) in the directory"}
		}
	}
	switch len(files) {
	case 0:
		return nil, errors.New("spec: no spec file given")
	case 1:
		return loadSpec(files[0], opt)
	}
	var parts []*Spec
	var errs []error
	for _, f := range files {
		s, err := loadSpec(f, opt)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		parts = append(parts, s)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return mergeSpecs(parts)
}

// MergeSpecs makes one spec of several parsed with ParseSpec, as
// LoadSpecs makes one of several files: for specs read from elsewhere
// than the disk (a git revision). One part is itself.
func MergeSpecs(parts ...*Spec) (*Spec, error) {
	switch len(parts) {
	case 0:
		return nil, errors.New("spec: no spec file given")
	case 1:
		return parts[0], nil
	}
	return mergeSpecs(parts)
}

// IsSpecFile reports whether LoadSpecs reads the file name when it lies
// in a directory it is given: *.yaml, *.yml and *.json.
func IsSpecFile(name string) bool {
	return slices.Contains(specExts, strings.ToLower(filepath.Ext(name)))
}

// CompareVersions orders dotted spec versions numerically (1.10 > 1.9),
// as Discover orders the specs it finds.
func CompareVersions(a, b string) int { return compareVersions(a, b) }

// mergeSpecs makes one spec of the kinds of several. Kinds are immutable
// once compiled, so the merged spec shares them.
func mergeSpecs(parts []*Spec) (*Spec, error) {
	m := &Spec{}
	var names []string
	var errs []error
	from := map[string]string{} // kind -> file
	versionFrom, protocolFrom := "", ""
	for _, p := range parts {
		names = append(names, p.Source)
		m.sources = append(m.sources, p.sources...)
		m.warnings = append(m.warnings, p.warnings...)
		if p.Version != "" {
			if m.Version == "" {
				m.Version, versionFrom = p.Version, p.Source
			} else if normalizeVersion(p.Version) != normalizeVersion(m.Version) {
				errs = append(errs, &SpecError{File: p.Source, Msg: fmt.Sprintf("version %q differs from version %q of %s", p.Version, m.Version, versionFrom)})
			}
		}
		if p.Protocol != "" {
			if m.Protocol == "" {
				m.Protocol, protocolFrom = p.Protocol, p.Source
			} else if p.Protocol != m.Protocol {
				errs = append(errs, &SpecError{File: p.Source, Msg: fmt.Sprintf("protocol %q differs from protocol %q of %s", p.Protocol, m.Protocol, protocolFrom)})
			}
		}
		if p.pipeline != nil {
			if m.pipeline != nil {
				errs = append(errs, &SpecError{File: p.Source, Msg: "a second pipeline section (one file of a spec holds it)"})
			}
			m.pipeline = p.pipeline
		}
		for _, k := range p.kinds {
			if f, dup := from[k.name]; dup {
				errs = append(errs, &SpecError{File: p.Source, Msg: fmt.Sprintf("message kind %q is defined in %s too", k.name, f)})
				continue
			}
			from[k.name] = p.Source
			if k.inferred {
				nk := *k // its file's spec keeps the signature it inferred alone
				k = &nk
			}
			m.kinds = append(m.kinds, k)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	inferSignatures(m.kinds)
	m.Source = strings.Join(names, ", ")
	return m, nil
}

// Discover finds the specs a repository ships: docs/specs/protocol-core-v*.yaml
// under root, highest version first, each read as LoadSpecIn reads it.
// With none, it returns the embedded default spec.
func Discover(root string) ([]*Spec, error) {
	specs, err := DiscoverGlob(root, "docs/specs/protocol-core-v*.yaml")
	if err == nil && len(specs) == 0 {
		specs = []*Spec{DefaultSpec()}
	}
	return specs, err
}

// DiscoverGlob reads the specs whose paths under root match pattern (a
// slash path of filepath.Match), each as LoadSpecIn reads it, highest
// version first (by path for equal versions); none is no error.
func DiscoverGlob(root, pattern string) ([]*Spec, error) {
	matches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
	slices.Sort(matches)
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
