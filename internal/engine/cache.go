package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/internal/safefile"
	"github.com/protoscan-dev/protoscan/internal/scan/cache"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// openCache returns the cache in dir (the user cache directory when
// dir is "") and the part of its key the command line
// decides: the specs' and the config's contents (sums has those read
// from git, by name), the analyzers and their
// settings. It returns nil when there is no usable cache: a scan without
// one is slower, never wrong, so that is not an error.
func openCache(dir string, verify bool, specs []*msgcheck.Spec, cfg *config.Config, sums map[string]string, analyzers string, canonical []string, synonyms map[string]string) (*cache.Dir, string) {
	if dir == "" {
		var err error
		if dir, err = cache.DefaultDir(); err != nil {
			return nil, ""
		}
	}
	var names []string
	for _, a := range strings.Split(analyzers, ",") {
		names = append(names, strings.TrimSpace(a))
	}
	slices.Sort(names)
	parts := []string{"analyzers", strings.Join(slices.Compact(names), ",")}
	for _, s := range specs {
		for _, src := range s.Sources() {
			// an embedded spec is part of the build, which the key names
			if sum, ok := sums[src]; ok {
				parts = append(parts, "spec", src, sum)
			} else if !strings.HasPrefix(src, "embedded:") {
				sum, err := fileSum(src)
				if err != nil {
					return nil, ""
				}
				parts = append(parts, "spec", src, sum)
			} else {
				parts = append(parts, "spec", src)
			}
		}
	}
	if sum, ok := sums[cfgFileOf(cfg)]; ok {
		parts = append(parts, "config", cfg.File, sum)
	} else if cfg != nil {
		sum, err := fileSum(cfg.File)
		if err != nil {
			return nil, ""
		}
		parts = append(parts, "config", cfg.File, sum)
	}
	parts = append(parts, "canonical")
	parts = append(parts, canonical...)
	parts = append(parts, "synonyms")
	for _, k := range slices.Sorted(maps.Keys(synonyms)) {
		parts = append(parts, k, synonyms[k])
	}
	d, err := cache.Open(dir)
	if err != nil {
		return nil, ""
	}
	d.Verify = verify
	key := cache.NewKey(parts...)
	return d, hex.EncodeToString(key[:])
}

// fileSum is the SHA-256 of a spec or config file already loaded (and so
// already checked against its tree), read again under the same bounds.
func fileSum(name string) (string, error) {
	data, err := safefile.ReadFile(name, safefile.ReadOptions{Explicit: true})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// cfgFileOf is the file cfg was read from, "" for none.
func cfgFileOf(cfg *config.Config) string {
	if cfg == nil {
		return ""
	}
	return cfg.File
}
