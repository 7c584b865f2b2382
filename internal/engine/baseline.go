package engine

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/baseline"
	"github.com/protoscan-dev/protoscan/internal/suppress"
)

// writeBaseline writes every finding into file, through Options.Create
// (safely, inside roots; "-" for stdout).
func (s *state) writeBaseline(file string, roots []string, fs []finding.Finding) error {
	f, err := s.opts.Create(file, roots)
	if err != nil {
		return err
	}
	if err := baseline.Write(f, fs); err != nil {
		f.Abort()
		return err
	}
	return f.Close()
}

// filterBaseline drops the findings b holds, matched on their
// repository-relative paths, and counts the entries of the scanned trees
// that matched none as stale; the entries of a baseline an earlier
// protoscan wrote, relative to the scanned PATH, match too (see
// baseline.Match), their fingerprints recomputed from the flagged line,
// read again with the scan's size limit.
func (m *PathMap) filterBaseline(b *baseline.Baseline, fs []finding.Finding, maxSize int64) (kept []finding.Finding, matched, stale int) {
	keys := m.Keyed(fs)
	srcs := map[string]*baseline.Lines{}
	legacy := func(i int, tail string) string {
		f := fs[i]
		var text []byte
		switch {
		case f.Rule == suppress.RuleUnused || f.Rule == suppress.RuleNoReason || f.Rule == suppress.RuleBadGlob:
			text = []byte(f.Message) // as applySuppressions fingerprints them
		case f.Line > 0:
			lines, ok := srcs[f.Path]
			if !ok {
				lines = baseline.NewLines(readHead(filepath.FromSlash(f.Path), maxSize))
				srcs[f.Path] = lines
			}
			text = lines.Text(f.Line)
		}
		return baseline.Fingerprint(f.Rule, tail, text)
	}
	in, left := b.Match(keys, legacy)
	for _, e := range left {
		// an entry of a file no PATH reaches is not stale: it was not
		// looked at
		if slices.ContainsFunc(m.roots, func(r scanRoot) bool { return under(e.Path, r.scope) }) {
			stale++
		}
	}
	for i, f := range fs {
		if in[i] {
			matched++
			continue
		}
		kept = append(kept, f)
	}
	return kept, matched, stale
}

// readHead reads at most limit bytes of the regular file name (nil when
// it cannot be read): the scan read it, so its flagged lines are there.
func readHead(name string, limit int64) []byte {
	if limit <= 0 {
		limit = 2 << 20
	}
	fi, err := os.Stat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, io.LimitReader(f, limit)); err != nil {
		return nil
	}
	return buf.Bytes()
}

// baselineStep writes the baseline (--write-baseline: every finding
// recorded, none reported) or drops the findings it holds (--baseline).
type baselineStep struct{}

func (baselineStep) name() string { return "baseline" }

func (baselineStep) run(s *state) error {
	rep, out := s.rep, s.opts.WriteBaseline
	switch {
	case out != "" && s.interrupted:
		// a baseline of part of the tree would report the rest as new
		s.notifyf("%s not written: the scan was interrupted", out)
	case out != "":
		if err := s.writeBaseline(out, s.roots, s.names.Keyed(rep.Findings)); err != nil {
			return err
		}
		rep.Baselined, rep.Findings = len(rep.Findings), nil
	case s.opts.Baseline != "":
		b, err := baseline.Load(s.opts.Baseline, s.roots...)
		if err != nil {
			return err
		}
		rep.Findings, rep.Baselined, rep.StaleBaseline = s.names.filterBaseline(b, rep.Findings, s.walk.MaxFileSize)
	}
	return nil
}
