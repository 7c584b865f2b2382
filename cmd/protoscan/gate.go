package main

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/baseline"
	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/internal/gitdiff"
	"github.com/protoscan-dev/protoscan/internal/rules"
	"github.com/protoscan-dev/protoscan/internal/scan"
	"github.com/protoscan-dev/protoscan/internal/suppress"
)

// This file holds what turns a scan's findings into the CI gate's report,
// in the order DESIGN.md gives: the config's rule settings, inline
// suppressions, the baseline, then --new-from-rev.

// checkConfigRules rejects rule settings that name no rule protoscan has.
func checkConfigRules(cfg *config.Config) config.Errors {
	var errs config.Errors
	all := rules.ScanRules()
	for _, r := range cfg.Rules {
		if r.Exact() {
			if rules.IsAuditCheck(r.Pattern) {
				errs = append(errs, cfg.Errorf(r.Pos, "%q is a check of protoscan audit, which .protoscan.yaml does not configure", r.Pattern))
				continue
			}
			if _, ok := rules.Lookup(r.Pattern); !ok {
				if near := nearestRule(r.Pattern); near != "" {
					errs = append(errs, cfg.Errorf(r.Pos, "unknown rule %q (did you mean %q? protoscan rules lists them)", r.Pattern, near))
				} else {
					errs = append(errs, cfg.Errorf(r.Pos, "unknown rule %q (protoscan rules lists them)", r.Pattern))
				}
			}
			continue
		}
		if !slices.ContainsFunc(all, func(d rules.Doc) bool { return r.Match(d.ID) }) {
			errs = append(errs, cfg.Errorf(r.Pos, "%q matches no rule (protoscan rules lists them)", r.Pattern))
		}
	}
	return errs
}

// applyRuleSettings drops the findings of rules the config turns off and
// sets the severity it gives. A finding that stands for another rule's
// (Finding.StandsFor) is off when either rule is, and takes its own
// rule's severity, else the other's.
func applyRuleSettings(cfg *config.Config, fs []finding.Finding) []finding.Finding {
	if cfg == nil || len(cfg.Rules) == 0 {
		return fs
	}
	kept := fs[:0]
	for _, f := range fs {
		enabled, sev, overridden := cfg.RuleSetting(f.Rule)
		if f.StandsFor != "" {
			on, alias, set := cfg.RuleSetting(f.StandsFor)
			enabled = enabled && on
			if !overridden && set {
				sev, overridden = alias, true
			}
		}
		if !enabled {
			continue
		}
		if overridden {
			f.Severity = sev
		}
		kept = append(kept, f)
	}
	return kept
}

// applySuppressions removes what protoscan:ignore comments silence and
// adds the comments that silenced nothing or lack a reason.
func applySuppressions(fs []finding.Finding, directives map[string][]suppress.Directive, names *pathMap) ([]finding.Finding, int) {
	if len(directives) == 0 {
		return fs, 0
	}
	kept, n, problems := suppress.Apply(fs, directives)
	for i := range problems {
		// the comment's own text is not at hand here; its message names
		// its rules, which is as stable as the comment
		problems[i].Fingerprint = baseline.Fingerprint(problems[i].Rule, names.key(problems[i].Path), []byte(problems[i].Message))
	}
	return append(kept, problems...), n
}

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

// writeBaseline writes every finding into file (see create for roots).
func (e *env) writeBaseline(file string, roots []string, fs []finding.Finding) error {
	f, err := e.create(file, roots)
	if err != nil {
		return err
	}
	if err := baseline.Write(f, fs); err != nil {
		f.Abort()
		return err
	}
	return f.Close()
}

// ruleDocs documents every rule the report may show: the catalogue, and
// each generated msgcheck id of the findings resolved to its family.
func ruleDocs(fs []finding.Finding) []rules.Doc {
	docs := rules.ScanRules()
	have := map[string]bool{}
	for _, d := range docs {
		have[d.ID] = true
	}
	for _, f := range fs {
		if have[f.Rule] {
			continue
		}
		have[f.Rule] = true
		if d, ok := rules.Lookup(f.Rule); ok {
			docs = append(docs, d)
		}
	}
	slices.SortFunc(docs, func(a, b rules.Doc) int { return strings.Compare(a.ID, b.ID) })
	return docs
}

// configFor finds the config of a scan: --config, else .protoscan.yaml
// at the first scanned root, read only from inside that root; check
// joins its problems to the file's own.
func configFor(flagPath, root string, check config.Check) (*config.Config, error) {
	if flagPath != "" {
		return config.Load(flagPath, check)
	}
	p, ok := config.Find(dirOf(root))
	if !ok {
		return nil, nil
	}
	return config.LoadIn(dirOf(root), p, check)
}

// slashClean is a path as findings prefix it.
func slashClean(p string) string { return path.Clean(filepath.ToSlash(p)) }

// startProgress shows, on a terminal stderr only, how many files the scan
// has read, and returns the function that clears the line at the end.
func (e *env) startProgress(opts *scan.Options) (stop func()) {
	if !isTerminal(e.stderr) {
		return func() {}
	}
	var n atomic.Int64
	opts.Progress = &n
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				fmt.Fprint(e.stderr, "\r\x1b[K")
				return
			case <-t.C:
				fmt.Fprintf(e.stderr, "\r\x1b[Kprotoscan: %d files read", n.Load())
			}
		}
	}()
	return func() { close(done); <-finished }
}
