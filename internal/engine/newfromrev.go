package engine

import (
	"context"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/gitdiff"
)

// newFromRevRepo finds the repository of the working directory and
// checks that it has rev, for --new-from-rev.
func newFromRevRepo(ctx context.Context, rev string) (*gitdiff.Repo, error) {
	repo, err := gitdiff.FindRepo(ctx)
	if err == nil {
		err = repo.Verify(ctx, rev)
	}
	if err != nil {
		return nil, newFromRevError(rev, err)
	}
	return repo, nil
}

// newFromRevError words an error of --new-from-rev (revError).
func newFromRevError(rev string, err error) error { return revError("--new-from-rev", rev, err) }

// onlyChanged keeps the findings on lines changed since the merge base
// with rev, in each scanned root; a cluster is kept when any member is.
// It returns each root's changes too.
// The repository is the working directory's (newFromRevRepo): git never
// runs in a scanned root, which may hold a repository of its own.
func onlyChanged(ctx context.Context, repo *gitdiff.Repo, fs []finding.Finding, roots []string, prefixes []string, rev string) ([]finding.Finding, []gitdiff.Changes, error) {
	type root struct {
		prefix  string
		changes gitdiff.Changes
	}
	var rs []root
	var all []gitdiff.Changes
	for i, r := range roots {
		dir := dirOf(r)
		ch, err := repo.ChangedLines(ctx, dir, rev)
		if err != nil {
			return nil, nil, newFromRevError(rev, err)
		}
		rs = append(rs, root{prefixes[i], ch})
		all = append(all, ch)
	}
	changed := func(l finding.Location) bool {
		for _, r := range rs {
			rel := l.Path
			if r.prefix != "" {
				var ok bool
				if rel, ok = strings.CutPrefix(l.Path, r.prefix+"/"); !ok {
					continue
				}
			}
			if r.changes.Contains(rel, l.Line) {
				return true
			}
		}
		return false
	}
	kept := fs[:0]
	for _, f := range fs {
		if changed(f.Location) || slices.ContainsFunc(f.Related, changed) {
			kept = append(kept, f)
		}
	}
	return kept, all, nil
}

// newFromRev keeps the findings on the lines changed since the merge
// base with --new-from-rev, and adds the notes on what the change does
// to the gate itself: no suppression comment hides these notes, and a
// config the change wrote cannot turn them off.
type newFromRev struct{}

func (newFromRev) name() string { return "new from rev" }

func (newFromRev) run(s *state) error {
	rev := s.opts.NewFromRev
	if rev == "" {
		return nil
	}
	rep := s.rep
	var changes []gitdiff.Changes
	var err error
	if rep.Findings, changes, err = onlyChanged(s.ctx, s.repo, rep.Findings, s.paths, s.prefixes, rev); err != nil {
		return err
	}
	gov := governingFiles(s.root, s.cfg, s.fromRev, s.usedSpecs)
	notes := gateChangeNotes(gov, changes, s.prefixes, s.directives, s.unsuppressed, s.names)
	if s.opts.Config != "" || s.fromRev != nil {
		notes = applyRuleSettings(s.cfg, notes)
	}
	rep.Findings = append(rep.Findings, notes...)
	finding.Sort(rep.Findings)
	return nil
}
