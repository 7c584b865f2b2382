package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/handoff"
	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/internal/gitdiff"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// --config-from-rev REV: the config and the specs that govern the gate
// come from a commit (in CI, the pull request's base), not from the tree
// under review, so that a pull request cannot switch the gate off by
// editing .protoscan.yaml or adding a spec. They are read through the
// hardened gitdiff.Repo out of git's object store, never checked out and
// never written to disk, each under the limit the same file has in the
// tree (the config 1 MiB, a spec 4 MiB), regular files only.

// revSource is where a scan with --config-from-rev takes its config and
// specs from.
type revSource struct {
	ctx    context.Context
	repo   *gitdiff.Repo
	rev    string // as the command line gave it
	commit string // its full hash
	// root is the scan root (the first PATH's directory) as a slash path
	// from the repository's top level, "" for the top level: the config
	// and specs are looked for at the same place in the commit.
	root string
	// sums are the SHA-256 of each file read, by its name: the cache key.
	sums map[string]string
	// read are the files read, relative to root: those that govern the
	// gate, for --new-from-rev's notes.
	read []string
	// config is the config's name when the commit has one.
	config string
	// specs tells whether the commit's tree has a spec the scan looked
	// for (in effect unless it failed to load).
	specs bool
}

// flagConfigFromRev is the flag's name in messages.
const flagConfigFromRev = "--config-from-rev"

// openRevSource finds the repository of the working directory and the
// commit rev names, for the scan of root.
func openRevSource(ctx context.Context, rev, root string) (*revSource, error) {
	repo, err := gitdiff.FindRepo(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s %s: no git repository to read the config from: %w", flagConfigFromRev, rev, err)
	}
	commit, err := repo.Commit(ctx, rev)
	if err != nil {
		return nil, revError(flagConfigFromRev, rev, err)
	}
	rel, err := repo.RelDir(root)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flagConfigFromRev, rev, err)
	}
	return &revSource{ctx: ctx, repo: repo, rev: rev, commit: commit, root: rel, sums: map[string]string{}}, nil
}

// short is the commit's hash as git abbreviates it.
func (s *revSource) short() string { return s.commit[:7] }

// prefix begins the name of every file of the commit: "abc1234:".
func (s *revSource) prefix() string { return s.short() + ":" }

// name names the file rel (relative to the scan root) of the commit as
// git does, "abc1234:path/from/the/top": errors, spec sources and the
// config's File carry it.
func (s *revSource) name(rel string) string { return s.prefix() + path.Join(s.root, rel) }

// owns reports whether name is the name of a file of the commit.
func (s *revSource) owns(name string) bool { return s != nil && strings.HasPrefix(name, s.prefix()) }

// treePath returns the path relative to the scan root of a file the
// commit's name names.
func (s *revSource) treePath(name string) (string, bool) {
	if !s.owns(name) {
		return "", false
	}
	p := strings.TrimPrefix(name, s.prefix())
	if s.root == "" {
		return p, true
	}
	return strings.CutPrefix(p, s.root+"/")
}

// readFile reads rel (relative to the scan root) from the commit, at most
// max bytes. A file the commit does not have is an error wrapping
// fs.ErrNotExist.
func (s *revSource) readFile(rel string, max int64) ([]byte, error) {
	data, err := s.repo.ReadFile(s.ctx, s.commit, path.Join(s.root, rel), max)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	s.sums[s.name(rel)] = hex.EncodeToString(sum[:])
	s.read = append(s.read, rel)
	return data, nil
}

// loadConfig returns the commit's .protoscan.yaml (else .protoscan.yml)
// at the scan root, checked as the tree's would be, or nil when it has
// neither.
func (s *revSource) loadConfig(check config.Check) (*config.Config, error) {
	for _, n := range config.FileNames {
		data, err := s.readFile(n, config.MaxBytes)
		var fe *gitdiff.FileError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case errors.As(err, &fe):
			return nil, config.Errors{{File: fe.Path, Msg: fe.Reason}}
		case err != nil:
			return nil, fmt.Errorf("%s %s: %w", flagConfigFromRev, s.rev, err)
		}
		s.config = s.name(n)
		return config.Parse(s.name(n), data, check)
	}
	return nil, nil
}

// loadSpec reads and compiles the spec file rel of the commit.
func (s *revSource) loadSpec(rel string) (*msgcheck.Spec, error) {
	name := s.name(rel)
	s.specs = true // found, whether or not it loads
	data, err := s.readFile(rel, msgcheck.MaxSpecBytes)
	var fe *gitdiff.FileError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &msgcheck.SpecError{File: name, Msg: "no such file in " + s.rev}
	case errors.As(err, &fe):
		return nil, &msgcheck.SpecError{File: fe.Path, Msg: fe.Reason}
	case err != nil:
		return nil, err
	}
	return msgcheck.ParseSpec(name, data)
}

// specDir lists the names of the commit's files in the directory rel of
// the scan root that match pattern (a path.Match pattern of base names),
// in name order; none when it has no such directory.
func (s *revSource) specDir(rel, pattern string) ([]string, error) {
	es, err := s.repo.ReadDir(s.ctx, s.commit, path.Join(s.root, rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range es {
		base := path.Base(e.Name)
		if ok, _ := path.Match(pattern, base); ok && !e.Dir() {
			out = append(out, path.Join(rel, base))
		}
	}
	return out, nil
}

// protocolSpecs returns the protocol-core specs of the commit as a scan
// of the tree would find them: the paths its config's spec names
// (relative to the scan root, inside it), else
// docs/specs/protocol-core-v*.yaml, highest version first, else the
// embedded spec.
func (s *revSource) protocolSpecs(cfg *config.Config) ([]*msgcheck.Spec, error) {
	if cfg != nil && len(cfg.Specs) > 0 {
		sp, err := s.configSpecs(cfg.Specs)
		if err != nil {
			return nil, err
		}
		return []*msgcheck.Spec{sp}, nil
	}
	files, err := s.specDir("docs/specs", "protocol-core-v*.yaml")
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return []*msgcheck.Spec{msgcheck.DefaultSpec()}, nil
	}
	var specs []*msgcheck.Spec
	for _, f := range files {
		sp, err := s.loadSpec(f)
		if err != nil {
			return nil, err
		}
		specs = append(specs, sp)
	}
	slices.SortStableFunc(specs, func(a, b *msgcheck.Spec) int { return msgcheck.CompareVersions(b.Version, a.Version) })
	return specs, nil
}

// configSpecs loads the spec the commit's config names: files and
// directories (their *.yaml, *.yml and *.json files) of the commit, as
// msgcheck.LoadSpecs makes one spec of them; a path out of the scan root
// is refused, as it is for the tree's config.
func (s *revSource) configSpecs(paths []string) (*msgcheck.Spec, error) {
	var files []string
	for _, p := range paths {
		rel := path.Clean(filepath.ToSlash(p))
		if path.IsAbs(rel) || filepath.IsAbs(p) || rel == ".." || strings.HasPrefix(rel, "../") {
			return nil, &msgcheck.SpecError{File: p, Msg: "outside the tree: the config of " + s.rev + " may name files of its own tree only"}
		}
		e, err := s.repo.Stat(s.ctx, s.commit, path.Join(s.root, rel))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, &msgcheck.SpecError{File: s.name(rel), Msg: "no such file in " + s.rev}
		case err != nil:
			return nil, err
		case !e.Dir():
			files = append(files, rel) // loadSpec says what else is wrong
			continue
		}
		n := len(files)
		in, err := s.specDir(rel, "*")
		if err != nil {
			return nil, err
		}
		for _, f := range in {
			if msgcheck.IsSpecFile(f) {
				files = append(files, f)
			}
		}
		if len(files) == n {
			return nil, &msgcheck.SpecError{File: s.name(rel), Msg: "no spec files (*.yaml, *.yml, *.json) in the directory"}
		}
	}
	var parts []*msgcheck.Spec
	var errs []error
	for _, f := range files {
		sp, err := s.loadSpec(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		parts = append(parts, sp)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return msgcheck.MergeSpecs(parts...)
}

// handoffSpec returns the NEXUS handoff spec of the commit, as
// handoff.Discover finds the tree's: the highest version of
// docs/specs/nexus-handoff-v2*.yaml, else the embedded spec.
func (s *revSource) handoffSpec(string) (*msgcheck.Spec, error) {
	files, err := s.specDir(path.Dir(handoff.SpecGlob), path.Base(handoff.SpecGlob))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return handoff.DefaultSpec()
	}
	var best *msgcheck.Spec
	for _, f := range files {
		sp, err := s.loadSpec(f)
		if err != nil {
			return nil, err
		}
		if best == nil || msgcheck.CompareVersions(best.Version, sp.Version) < 0 {
			best = sp
		}
	}
	return best, nil
}

// notice is what stderr says of the source, once: where the config and
// the specs come from, that the tree's config does not count, and what
// stands in for what the commit lacks.
func (s *revSource) notice(treeConfig string) []string {
	where := s.where()
	line := "config and specs from " + where
	if treeConfig != "" {
		line += "; the working tree's " + filepath.Base(treeConfig) + " is not used"
	}
	out := []string{line}
	at := ""
	if s.root != "" {
		at = " in " + s.root + "/"
	}
	switch {
	case s.config == "" && !s.specs:
		out = append(out, where+" has no .protoscan.yaml"+at+" and no spec under docs/specs: the default settings and the embedded specs apply")
	case s.config == "":
		out = append(out, where+" has no .protoscan.yaml"+at+": the default settings apply")
	}
	return out
}

// where names the commit as the notices and reports do: "main
// (3f2a9c1)", or the short hash alone when REV is a hash.
func (s *revSource) where() string {
	if strings.HasPrefix(s.commit, s.rev) {
		return s.short()
	}
	return fmt.Sprintf("%s (%s)", s.rev, s.short())
}

// hexRev matches a revision that is a commit hash, full or abbreviated.
var hexRev = regexp.MustCompile(`^[0-9a-f]{7,64}$`)

// revError words an error of --new-from-rev or --config-from-rev: a
// revision the repository lacks is most often one a CI checkout did not
// fetch (actions/checkout fetches one commit by default).
func revError(flagName, rev string, err error) error {
	if !errors.Is(err, gitdiff.ErrNoRevision) {
		return fmt.Errorf("%s %s: %w", flagName, rev, err)
	}
	if flagName != flagConfigFromRev {
		return fmt.Errorf("%s %s: %v; in CI, fetch the history (actions/checkout with fetch-depth: 0) or name a revision that exists", flagName, rev, gitdiff.ErrNoRevision)
	}
	fetch := "git fetch --no-tags --depth=1 origin COMMIT"
	switch branch, ok := strings.CutPrefix(rev, "origin/"); {
	case hexRev.MatchString(rev) && len(rev) >= 40:
		fetch = "git fetch --no-tags --depth=1 origin " + rev
	case ok && branch != "":
		fetch = fmt.Sprintf("git fetch --no-tags --depth=1 origin %s:refs/remotes/origin/%s", branch, branch)
	}
	return fmt.Errorf("%s %s: %v; in CI, fetch it (%s) or name a revision that exists", flagName, rev, gitdiff.ErrNoRevision, fetch)
}

// checkRevConfig is checkConfig for the config of s's commit: rule
// settings that name no rule, and synonyms that map to no status of the
// spec the scan would use, the named one (--spec) or the commit's.
func checkRevConfig(s *revSource, root string, named []string) config.Check {
	return func(cfg *config.Config) config.Errors {
		errs := checkConfigRules(cfg)
		if len(cfg.Synonyms) == 0 && len(cfg.Renamed) == 0 {
			return errs
		}
		var specs []*msgcheck.Spec
		var err error
		if len(named) > 0 {
			specs, _, err = ResolveSpecs(named, false, root)
		} else {
			specs, err = s.protocolSpecs(cfg)
		}
		spec := msgcheck.DefaultSpec()
		if err == nil && len(specs) > 0 {
			spec = specs[0]
		}
		errs = append(errs, checkRenamed(cfg, spec)...)
		return append(errs, checkSynonyms(cfg, spec)...)
	}
}
