package engine

import (
	"fmt"
	"maps"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/baseline"
	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/internal/gitdiff"
	"github.com/protoscan-dev/protoscan/internal/suppress"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// ruleGateChanged is the note --new-from-rev adds where the change under
// review edits what governs the gate: the config, a spec, a suppression
// comment (internal/rules/catalogue.go documents it).
const ruleGateChanged = "protoscan/gate-changed"

// governing is what governs the gate of a scan, as paths relative to its
// first root: --new-from-rev notes the changes to them.
type governing struct {
	configs []string // config files
	specs   []string // spec files, and directories of them (a trailing "/")
	// fromRev says the config and specs of this scan come from a commit
	fromRev *revSource
}

// governingFiles lists what governs the gate of a scan of root: the
// config files the tree may hold at root and the config the scan read
// when it is in the tree; the specs discovery looks for, those the
// config names, and those the scan used.
func governingFiles(root string, cfg *config.Config, fromRev *revSource, specs []*msgcheck.Spec) *governing {
	g := &governing{fromRev: fromRev}
	g.configs = append(g.configs, config.FileNames...)
	if cfg != nil && !fromRev.owns(cfg.File) {
		if rel, ok := relIn(root, cfg.File); ok {
			g.configs = append(g.configs, rel)
		}
		for _, p := range cfg.SpecPaths() {
			if rel, ok := relIn(root, p); ok {
				g.specs = append(g.specs, rel, rel+"/")
			}
		}
	}
	if cfg != nil && fromRev.owns(cfg.File) {
		// the commit's config names its specs; the tree's copies of them
		// are what the change edits
		for _, p := range cfg.Specs {
			rel := path.Clean(p)
			g.specs = append(g.specs, rel, rel+"/")
		}
	}
	if fromRev != nil {
		g.specs = append(g.specs, fromRev.read...)
	}
	for _, s := range specs {
		for _, src := range s.Sources() {
			if rel, ok := fromRev.treePath(src); ok {
				g.specs = append(g.specs, rel)
			} else if rel, ok := relIn(root, src); ok && !strings.HasPrefix(src, "embedded:") {
				g.specs = append(g.specs, rel)
			}
		}
	}
	return g
}

// kind tells what rel (relative to the first root) is to the gate: "config",
// "spec" or "".
func (g *governing) kind(rel string) string {
	if slices.Contains(g.configs, rel) {
		return "config"
	}
	if isDiscoveredSpec(rel) {
		return "spec"
	}
	for _, s := range g.specs {
		if s == rel || strings.HasSuffix(s, "/") && strings.HasPrefix(rel, s) {
			return "spec"
		}
	}
	return ""
}

// gateChangeNotes are the notes of --new-from-rev on the changes that
// govern the gate: an edit of the config or of a spec (in the first
// root), a suppression comment added or changed (in any). changes are
// each root's changed lines, prefixes their paths' prefixes; directives
// are the scan's suppression comments by path, and before the findings
// before the comments were applied (to count what each one hides).
func gateChangeNotes(g *governing, changes []gitdiff.Changes, prefixes []string, directives map[string][]suppress.Directive, before []finding.Finding, names *PathMap) []finding.Finding {
	var notes []finding.Finding
	add := func(loc finding.Location, msg string) {
		notes = append(notes, finding.Finding{
			Rule: ruleGateChanged, Severity: finding.Note, Location: loc, Message: msg,
			Fingerprint: baseline.Fingerprint(ruleGateChanged, names.key(loc.Path), []byte(msg)),
		})
	}
	fromRev := ""
	if g.fromRev != nil {
		fromRev = "; this scan takes the config and specs from " + g.fromRev.where()
	}
	if len(changes) > 0 {
		for _, rel := range slices.Sorted(maps.Keys(changes[0])) {
			var what string
			switch g.kind(rel) {
			case "config":
				what = "the config that governs the gate"
			case "spec":
				what = "a protocol spec the gate judges messages by"
			default:
				continue
			}
			rs := changes[0][rel]
			line := 0
			if len(rs) > 0 {
				line = rs[0].Start
			}
			add(finding.Location{Path: joinPrefix(prefixes[0], rel), Line: line},
				fmt.Sprintf("this change edits %s, %s (%s)%s", path.Base(rel), what, describeLines(rs), fromRev))
		}
	}
	// the suppression comments on changed lines
	byPath := map[string][]finding.Finding{}
	for _, f := range before {
		if _, ok := directives[f.Path]; ok {
			byPath[f.Path] = append(byPath[f.Path], f)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(directives)) {
		ch, rel, ok := changesOf(p, changes, prefixes)
		if !ok {
			continue
		}
		var counter *suppress.Counter
		ds := directives[p]
		for i := range ds {
			d := &ds[i]
			if d.Reason == "" || len(d.Rules) == 0 || !ch.Contains(rel, d.Pos.Line) || d.Pos.Line <= 0 {
				continue // no reason or no rule: it hides nothing, and says so itself
			}
			if counter == nil {
				counter = suppress.NewCounter(byPath[p])
			}
			n := counter.Hides(d)
			where := "here"
			if d.File {
				where = "in this file"
			}
			hides := fmt.Sprintf("hides %s %s", plural(n, "finding"), where)
			if n == 0 {
				hides = "hides no finding now"
			}
			kw := "protoscan:ignore"
			if d.File {
				kw = "protoscan:file-ignore"
			}
			loc := d.Pos
			loc.Path = p
			add(loc, fmt.Sprintf("new suppression comment: %s %s %s", kw, strings.Join(d.Rules, ", "), hides))
		}
	}
	return notes
}

// changesOf finds the root a finding's path p belongs to and returns its
// changes and p relative to it.
func changesOf(p string, changes []gitdiff.Changes, prefixes []string) (gitdiff.Changes, string, bool) {
	for i, ch := range changes {
		rel := p
		if prefixes[i] != "" {
			var ok bool
			if rel, ok = strings.CutPrefix(p, prefixes[i]+"/"); !ok {
				continue
			}
		}
		if _, ok := ch[rel]; ok {
			return ch, rel, true
		}
	}
	return nil, "", false
}

// describeLines says which lines changed: "lines 3-4, 9", at most four
// ranges and a count of the rest.
func describeLines(rs []gitdiff.LineRange) string {
	switch {
	case len(rs) == 0:
		return "no line added: lines removed, or the file renamed"
	case len(rs) == 1 && rs[0].End == math.MaxInt:
		return "the whole file"
	case len(rs) == 1 && rs[0].Start == rs[0].End:
		return fmt.Sprintf("line %d", rs[0].Start)
	}
	var parts []string
	for i, r := range rs {
		if i == 4 {
			parts = append(parts, fmt.Sprintf("and %d more", len(rs)-i))
			break
		}
		if r.Start == r.End {
			parts = append(parts, fmt.Sprint(r.Start))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", r.Start, r.End))
		}
	}
	return "lines " + strings.Join(parts, ", ")
}
