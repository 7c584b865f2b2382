package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync/atomic"

	"github.com/protoscan-dev/protoscan/internal/messages"
	"github.com/protoscan-dev/protoscan/internal/scan"
	"github.com/protoscan-dev/protoscan/internal/suppress"
	"github.com/protoscan-dev/protoscan/internal/textsafe"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// rootTally is what the roots' walks counted, for the notices of a scan
// that read nothing or was interrupted.
type rootTally struct {
	scanned, walked, others int
	excluded                scan.Excluded
}

// scanRoots runs internal/scan over each PATH in turn, gathering the
// findings and what the summaries and steps need. A root that cannot be
// scanned is said and the others still are (Trouble); an interrupt ends
// the loop with a partial report.
func (s *state) scanRoots() error {
	var t rootTally
	stop := func() {}
	if s.opts.Progress != nil {
		var n atomic.Int64
		s.sopts.Progress = &n
		stop = s.opts.Progress(&n)
	}
	s.directives = map[string][]suppress.Directive{}
	s.prefixes = make([]string, len(s.paths))
	for i, p := range s.paths {
		fatal, err := s.scanRoot(i, p, &t)
		if fatal {
			stop()
			return err
		}
		if errors.Is(err, context.Canceled) {
			s.interrupted = true
			s.trouble = true
			break
		}
		if err != nil {
			s.notify(textsafe.Error(err))
			s.trouble = true
		}
	}
	stop()
	if s.rep.Files == 0 && !s.interrupted && !s.trouble {
		s.notify("warning: no file scanned: " + textsafe.String(noFileWhy(t.others, t.excluded, s.walk.Include)))
	}
	if s.interrupted {
		// the walk stops too: walked counts the files found until then
		s.notifyf("interrupted: partial report (%d of %d files scanned)", t.scanned, t.walked)
	}
	return nil
}

// scanRoot scans the i-th PATH p. A validator that cannot be made for
// it is fatal, the end of the scan; else err is the root's own trouble.
func (s *state) scanRoot(i int, p string, t *rootTally) (fatal bool, err error) {
	s.prefixes[i] = s.names.roots[i].display
	s.sopts.Prefix, s.sopts.KeyPrefix = s.prefixes[i], s.names.roots[i].key
	if s.validate {
		// skills are looked up in the repository being scanned
		v, err := msgcheck.New(msgcheck.Options{Root: dirOf(p)}, s.specs...)
		if err != nil {
			return true, err
		}
		s.sopts.Messages = messages.New(v, s.specs[0], s.protocols...)
		s.kinds = s.sopts.Messages.Kinds()
		s.sopts.CacheKey = s.cacheKey + "\x00" + v.RepoKey()
	} else {
		s.sopts.CacheKey = s.cacheKey
	}
	s.sopts.Walk.Tracked = nil
	if !s.walk.NoGitignore {
		s.sopts.Walk.Tracked = s.names.tracked(s.ctx, dirOf(p))
	}
	// a part of the repository (a subdirectory, a file) is not the tree
	// whose evidence decides: the rest of it may show the protocol
	s.sopts.AssumeEvidence = s.declared || !s.names.wholeTree(i)
	res, err := scan.Run(s.ctx, p, s.sopts)
	if res == nil {
		return false, err
	}
	rep := s.rep
	rep.Findings = append(rep.Findings, res.Findings...)
	rep.Files += res.Stats.Files
	rep.Parsed += res.Stats.Parsed
	rep.Candidates += res.Stats.Candidates
	s.outcomes = append(s.outcomes, res.Messages...)
	var rev *revSource // of the first root
	if i == 0 {
		rev = s.fromRev
	}
	s.statuses = append(s.statuses, notInSpecs(res.Statuses, s.usedSpecs, dirOf(p), s.prefixes[i], rev)...)
	maps.Copy(s.directives, res.Directives)
	t.scanned += res.Stats.Files + res.Stats.OtherFiles
	t.walked += res.Stats.Walked
	t.others += res.Stats.OtherFiles
	t.excluded.Add(res.Stats.Excluded)
	return false, err
}

// noFileWhy says why a scan read no file: the walk found files of no kind
// protoscan reads, or found none, with what left them out.
func noFileWhy(others int, excluded scan.Excluded, include []string) string {
	const kinds = ".go, .py, .pyi, .yaml, .yml, .json, .jsonl, .ndjson, .md, .markdown, .mdx"
	switch {
	case others == 1:
		return "the one file found is of no kind protoscan reads (" + kinds + ")"
	case others > 1:
		return fmt.Sprintf("none of the %d files found is of a kind protoscan reads (%s)", others, kinds)
	}
	var why []string
	for _, r := range []struct {
		n    int
		what string
	}{
		{excluded.Exclude, "--exclude or the config's exclude"},
		{excluded.Gitignore, ".gitignore (--no-gitignore scans them)"},
		{excluded.Default, "the default excludes: .git, node_modules, vendor, virtualenvs, caches, HTTP cassettes (--no-default-excludes scans them)"},
		{excluded.Other, "not regular files"},
	} {
		if n := r.n; n > 0 {
			why = append(why, fmt.Sprintf("%d by %s", n, r.what))
		}
	}
	if len(why) > 0 {
		return "every path was excluded: " + strings.Join(why, "; ")
	}
	if len(include) > 0 {
		return "no file matches the include globs (" + strings.Join(include, ", ") + ")"
	}
	return "the PATH holds no file"
}
