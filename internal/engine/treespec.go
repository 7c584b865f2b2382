package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/handoff"
	"github.com/protoscan-dev/protoscan/internal/baseline"
	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/internal/scan"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// ruleSpecError is the finding of a spec of the scanned tree that could
// not be loaded, ruleSpecWarning of a spec that loaded with a warning
// (internal/rules/catalogue.go documents both).
const (
	ruleSpecError   = "protoscan/spec-error"
	ruleSpecWarning = "protoscan/spec-warning"
)

// specFallback collects the specs of the scanned tree that a scan could
// not load and replaced with an embedded one: a spec problem of the tree
// is a finding of the scan, never the end of it (DESIGN.md, Contracts).
type specFallback struct {
	root   string         // the directory the specs were looked for in
	prefix string         // put before the findings' paths, as scan.Options.Prefix
	cfg    *config.Config // the tree's config, when it named the spec
	// rev is --config-from-rev's commit, when the specs are its: they
	// have no place in the working tree
	rev *revSource
	// findings are the protoscan/spec-error findings, one per problem;
	// notes the lines for stderr, one per spec replaced.
	findings []finding.Finding
	notes    []string
	// replaced are the protocols whose spec of the tree the embedded
	// one replaced
	replaced []string
}

// add reports err, the failure to load a spec of the tree, as findings,
// and notes that instead was used in its place. fromConfig says the
// tree's config named the spec: a problem with no place inside the tree
// (a missing file, a link out of it) is then placed at the config's spec
// key.
func (s *specFallback) add(err error, instead *msgcheck.Spec, fromConfig bool) {
	s.replaced = append(s.replaced, instead.Protocol)
	s.record(err, fromConfig, "cannot load the spec: ", "spec not loaded",
		fmt.Sprintf("the scan uses the embedded %s v%s spec instead", instead.Protocol, instead.Version))
}

// record is add with its words: what prefixes each finding's message,
// failed and instead say in the note what failed and what stood in.
func (s *specFallback) record(err error, fromConfig bool, what, failed, instead string) {
	display := ""
	n := 0
	for _, leaf := range leafErrors(err) {
		file, msg := "", leaf.Error()
		loc := finding.Location{}
		var se *msgcheck.SpecError
		var pe *fs.PathError
		switch {
		case errors.As(leaf, &se):
			file, msg = se.File, se.Msg
			loc.Line, loc.Col = se.Line, se.Column
		case errors.As(leaf, &pe):
			// the path is the finding's place, relative to the root
			file, msg = pe.Path, pe.Err.Error()
		}
		if display == "" {
			display = file
		}
		if s.rev != nil {
			// a spec of the commit: the working tree's file of that name,
			// if any, is not the one that failed
			loc = finding.Location{Path: joinPrefix(s.prefix, "docs/specs")}
			msg = leaf.Error()
		} else if rel, ok := relIn(s.root, file); ok && exists(file) {
			loc.Path = joinPrefix(s.prefix, rel)
		} else if cfgRel, ok := relIn(s.root, s.cfgFile()); fromConfig && ok {
			p := s.cfg.Pos("spec")
			loc = finding.Location{Path: joinPrefix(s.prefix, cfgRel), Line: p.Line, Col: p.Column}
			msg = fmt.Sprintf("spec %q: %s", s.cfg.Spec, msg)
		} else {
			// nothing of the tree to point at: where the specs are looked for
			loc = finding.Location{Path: joinPrefix(s.prefix, "docs/specs")}
		}
		msg = what + msg
		s.findings = append(s.findings, finding.Finding{
			Rule:     ruleSpecError,
			Severity: finding.Error,
			Location: loc,
			Message:  msg,
			// the message, not the line: a fix elsewhere in the spec must
			// not make the problem new to a baseline
			Fingerprint: baseline.Fingerprint(ruleSpecError, loc.Path, []byte(msg)),
		})
		n++
	}
	if display == "" {
		display = "a spec of the tree"
	}
	problems := "1 problem"
	if n != 1 {
		problems = fmt.Sprintf("%d problems", n)
	}
	s.notes = append(s.notes, fmt.Sprintf("%s: %s (%s, reported as %s); %s", display, failed, problems, ruleSpecError, instead))
}

// warn reports what the loader warned about in specs (a JSON Schema
// keyword protoscan does not enforce) as warning findings at their
// place, for the specs inside the scanned tree; a spec outside it (named
// on the command line) has its warnings noted on stderr.
func (s *specFallback) warn(specs []*msgcheck.Spec) {
	for _, spec := range specs {
		for _, w := range spec.Warnings() {
			rel, ok := relIn(s.root, w.File)
			if !ok || s.rev.owns(w.File) {
				s.notes = append(s.notes, "warning: "+w.String())
				continue
			}
			loc := finding.Location{Path: joinPrefix(s.prefix, rel), Line: w.Line, Col: w.Col}
			s.findings = append(s.findings, finding.Finding{
				Rule:        ruleSpecWarning,
				Severity:    finding.Warning,
				Location:    loc,
				Message:     w.Msg,
				Fingerprint: baseline.Fingerprint(ruleSpecWarning, loc.Path, []byte(w.Msg)),
			})
		}
	}
}

// dropSpecParseErrors removes from findings the parse errors of the
// specs that failed to load: their protoscan/spec-error findings already
// report the same problem, at its place.
func (s *specFallback) dropSpecParseErrors(findings []finding.Finding) []finding.Finding {
	failed := map[string]bool{}
	for _, f := range s.findings {
		if f.Rule == ruleSpecError {
			failed[f.Path] = true
		}
	}
	if len(failed) == 0 {
		return findings
	}
	return slices.DeleteFunc(findings, func(f finding.Finding) bool {
		return f.Rule == scan.RuleParseError && failed[f.Path]
	})
}

// notInSpecs drops from uses the statuses written in the files of specs
// (a spec's own enum defines the statuses; it does not use them), for a
// scan of root whose paths carry prefix. With rev (--config-from-rev's
// commit, the specs of the scan's first root), the tree's copies of the
// commit's specs, and the specs discovery would find in the tree, are
// specs all the same, though not in effect.
func notInSpecs(uses []enumdrift.StatusUse, specs []*msgcheck.Spec, root, prefix string, rev *revSource) []enumdrift.StatusUse {
	files := map[string]bool{}
	for _, s := range specs {
		for _, src := range s.Sources() {
			if rel, ok := rev.treePath(src); ok {
				files[joinPrefix(prefix, rel)] = true
			} else if rel, ok := relIn(root, src); ok {
				files[joinPrefix(prefix, rel)] = true
			}
		}
	}
	if len(files) == 0 && rev == nil {
		return uses
	}
	return slices.DeleteFunc(slices.Clone(uses), func(u enumdrift.StatusUse) bool {
		if files[u.Path] {
			return true
		}
		if rev == nil {
			return false
		}
		rel, ok := u.Path, true
		if prefix != "" {
			rel, ok = strings.CutPrefix(u.Path, prefix+"/")
		}
		return ok && isDiscoveredSpec(rel)
	})
}

// isDiscoveredSpec reports whether rel, a path relative to a scanned root,
// is where discovery looks for specs.
func isDiscoveredSpec(rel string) bool {
	for _, pat := range []string{"docs/specs/protocol-core-v*.yaml", handoff.SpecGlob} {
		if ok, _ := path.Match(pat, rel); ok {
			return true
		}
	}
	return false
}

// vocabularySpec returns the spec enumdrift takes its statuses from:
// spec, unless it is a spec of the tree (discovered says so) that has
// no HANDBACK status enum (a spec of DELEGATE alone), which is reported
// and replaced with the embedded spec; msgcheck keeps using it.
func (s *specFallback) vocabularySpec(spec *msgcheck.Spec, discovered, fromConfig bool) *msgcheck.Spec {
	if !discovered || strings.HasPrefix(spec.Source, "embedded:") {
		return spec
	}
	if _, err := enumdrift.NewVocabulary(spec, nil); err == nil {
		return spec
	}
	def := msgcheck.DefaultSpec()
	s.record(&msgcheck.SpecError{File: spec.Source, Msg: "it has no string enum for handback.status"}, fromConfig,
		"cannot judge HANDBACK statuses by the spec: ", "no HANDBACK statuses",
		fmt.Sprintf("enumdrift uses those of the embedded %s v%s spec instead", def.Protocol, def.Version))
	return def
}

// specName names a spec file as the report names files: relative to the
// scanned root (behind its prefix) when the file is inside it, else as
// it was loaded (a --spec path, "embedded:...").
func (s *specFallback) specName(file string) string {
	if strings.HasPrefix(file, "embedded:") || s.rev.owns(file) {
		return file
	}
	if rel, ok := relIn(s.root, file); ok {
		return joinPrefix(s.prefix, rel)
	}
	return file
}

func (s *specFallback) cfgFile() string {
	if s.cfg == nil {
		return ""
	}
	return s.cfg.File
}

// leafErrors flattens errors.Join trees: msgcheck reports every problem
// of a spec, each a *msgcheck.SpecError, joined.
func leafErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, leafErrors(e)...)
		}
		return out
	}
	return []error{err}
}

// relIn returns file as a slash path relative to root, when it lies
// inside root (lexically: a link inside root to elsewhere is inside).
func relIn(root, file string) (string, bool) {
	if file == "" {
		return "", false
	}
	ar, err1 := filepath.Abs(root)
	af, err2 := filepath.Abs(file)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(ar, af)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// joinPrefix is a finding's path: rel under the prefix of its scanned root.
func joinPrefix(prefix, rel string) string {
	if prefix == "" {
		return rel
	}
	return path.Join(prefix, rel)
}

// exists reports whether there is a file, directory or link at p.
func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// isDir reports whether p is a directory (following links).
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
