package engine

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/fix"
	"github.com/protoscan-dev/protoscan/internal/report"
	"github.com/protoscan-dev/protoscan/internal/safefile"
	"github.com/protoscan-dev/protoscan/internal/textsafe"
	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/languages/facts"
)

// fixReport is --fix (and --diff) after a scan of paths: it applies the
// fixes the findings of rep offer, or with diffOnly prints them as a
// unified diff and changes nothing, and moves from rep the findings whose
// fixes it wrote to fixed, so that the report shows what is left. Only
// files in the scanned trees are edited.
func (s *state) fixReport(paths []string, rep *report.Report, diffOnly bool) (fixed []finding.Finding, err error) {
	// findings name files relative to the working directory (or
	// absolutely): their edits apply from here
	root, findings := ".", rep.Findings
	done, err := s.fixFiles(root, treeRoots(paths...), findings, diffOnly)
	if diffOnly {
		return nil, err
	}
	files := map[string]bool{}
	kept := make([]finding.Finding, 0, len(rep.Findings))
	for i, f := range rep.Findings {
		if !done[i] {
			kept = append(kept, f)
			continue
		}
		fixed = append(fixed, f)
		for _, ed := range f.Fix.Edits {
			files[fix.OSPath(root, ed.Path)] = true
		}
	}
	rep.Findings = kept
	if len(fixed) > 0 {
		s.notifyf("fixed %s in %s", plural(len(fixed), "finding"), plural(len(files), "file"))
	}
	return fixed, err
}

// plural writes n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// fixFiles applies the fixes of findings to the files under root (whose
// edit paths are relative to root), or with diffOnly prints them to stdout
// as a unified diff and changes no file, and tells which findings it fixed
// (or, with diffOnly, would). The other files are still fixed when one
// cannot be; the error names every file that was not. Files are
// handled in the order of their paths. Only a regular file inside roots
// is edited: a symbolic link, or a file a link leads to outside them, is
// left alone with a notice on stderr, since its target may be anything
// on the machine. A file is rewritten through a temporary file in its
// directory renamed over it (package safefile), so that it is never half
// written, and keeps its permissions.
//
// A fix that replaces a finding's Literal with its Canonical spelling (the
// drifted statuses of enumdrift) is applied only where the file still
// holds the Literal: a file changed since the scan, or a literal whose
// source spelling differs from its value (an escape), is left alone with
// a notice on stderr.
func (s *state) fixFiles(root string, roots []string, findings []finding.Finding, diffOnly bool) ([]bool, error) {
	byFile := map[string][]int{} // path on disk -> findings with an edit in it
	for i, f := range findings {
		if f.Fix == nil {
			continue
		}
		for _, ed := range f.Fix.Edits {
			p := fix.OSPath(root, ed.Path)
			if n := len(byFile[p]); n == 0 || byFile[p][n-1] != i {
				byFile[p] = append(byFile[p], i)
			}
		}
	}
	files := make([]string, 0, len(byFile))
	for p := range byFile {
		files = append(files, p)
	}
	slices.Sort(files)

	skip := make([]bool, len(findings)) // a fix not applied, in some file
	done := map[string]bool{}           // files written (or diffed)
	var errs []error
	for _, p := range files {
		if why := fixRefused(p, roots); why != "" {
			for _, i := range byFile[p] {
				skip[i] = true
			}
			s.notifyf("%s: fix not applied: %s", textsafe.String(p), textsafe.String(why))
			continue
		}
		src, mode, err := fixRead(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("cannot fix %s: %w", p, err))
			continue
		}
		var fixes [][]finding.Edit
		var which []int
		name := ""
		for _, i := range byFile[p] {
			f := findings[i]
			var mine []finding.Edit
			for _, ed := range f.Fix.Edits {
				if fix.OSPath(root, ed.Path) == p {
					mine = append(mine, ed)
				}
			}
			if fixStale(src, f, mine) {
				skip[i] = true
				s.notifyf("%s:%d:%d: fix not applied: the file does not hold %q there", textsafe.String(f.Path), f.Line, f.Col, f.Literal)
				continue
			}
			fixes = append(fixes, mine)
			which = append(which, i)
			name = mine[0].Path
		}
		if len(fixes) == 0 {
			continue
		}
		// the scan offered only fixes that keep the file whole; the file
		// may have changed since, so they are judged again on its bytes
		out, why := fix.Select(src, fixes, func(b []byte) ([]facts.Container, error) { return extract.Containers(p, b) })
		for j, i := range which {
			if why[j] != "" {
				skip[i] = true
				f := findings[i]
				s.notifyf("%s:%d:%d: fix not applied: %s", textsafe.String(f.Path), f.Line, f.Col, textsafe.String(why[j]))
			}
		}
		if bytes.Equal(out, src) {
			continue
		}
		if diffOnly {
			if _, err := s.opts.Stdout.Write(fix.Diff(name, src, out)); err != nil {
				return nil, err
			}
		} else if err := safefile.WriteFile(p, out, mode, roots...); err != nil {
			errs = append(errs, fmt.Errorf("cannot fix %s: %w", p, err))
			continue
		}
		done[p] = true
	}

	fixed := make([]bool, len(findings))
	for i, f := range findings {
		if f.Fix == nil || len(f.Fix.Edits) == 0 || skip[i] {
			continue
		}
		fixed[i] = true
		for _, ed := range f.Fix.Edits {
			fixed[i] = fixed[i] && done[fix.OSPath(root, ed.Path)]
		}
	}
	return fixed, errors.Join(errs...)
}

// fixStale reports a fix that replaces the finding's Literal with its
// Canonical spelling where src does not hold the Literal.
func fixStale(src []byte, f finding.Finding, edits []finding.Edit) bool {
	if len(f.Fix.Edits) != 1 || len(edits) != 1 || f.Literal == "" || edits[0].New != f.Canonical {
		return false
	}
	ed := edits[0]
	return ed.Offset < 0 || ed.End < ed.Offset || ed.End > len(src) || string(src[ed.Offset:ed.End]) != f.Literal
}

// fixRead reads a regular file (never through a symlink: the scan
// does not follow them either) and returns its permission bits.
func fixRead(p string) ([]byte, os.FileMode, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("not a regular file")
	}
	src, err := os.ReadFile(p)
	return src, fi.Mode() & (os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky), err
}

// fixRefused says why the file p is not to be edited, or "" when it may
// be: it must not be a symbolic link, and must lie inside one of roots
// once every link on its way is resolved.
func fixRefused(p string, roots []string) string {
	fi, err := os.Lstat(p)
	if err != nil {
		return "" // fixRead says what is wrong
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return "a symbolic link (protoscan edits only regular files in the scanned tree)"
	}
	// Abs before EvalSymlinks: the working directory may be $PWD, links
	// and all
	dir, err := filepath.Abs(filepath.Dir(p))
	if err == nil {
		dir, err = filepath.EvalSymlinks(dir)
	}
	if err != nil {
		return "" // fixRead says what is wrong
	}
	for _, r := range roots {
		rr, err := filepath.Abs(r)
		if err == nil {
			rr, err = filepath.EvalSymlinks(rr)
		}
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(rr, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return ""
		}
	}
	return "outside the scanned tree (a directory on its path is a symbolic link)"
}

// fixes applies the fixes of the findings left (--fix), or prints them
// as a diff (--diff); what it fixed is no longer the tree's problem.
type fixes struct{}

func (fixes) name() string { return "fixes" }

func (fixes) run(s *state) error {
	if !s.opts.Fix && !s.opts.Diff {
		return nil
	}
	var err error
	if s.fixed, err = s.fixReport(s.paths, s.rep, s.opts.Diff); err != nil {
		s.notify(textsafe.Error(err))
		s.trouble = true
	}
	for _, f := range s.fixed {
		delete(s.live, problem{f.Rule, finding.Location{Path: f.Path, Line: f.Line, Col: f.Col}})
	}
	return nil
}
