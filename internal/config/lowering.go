package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
)

// Standard is the gate a configuration is judged against: what the scan
// would do without the file.
type Standard struct {
	// FailOn is the failure level without the file: "error" (the
	// default), "warning", "note", or "never" / "none".
	FailOn string
	// MaxFileSize is the file size limit without the file, in bytes;
	// negative for no limit.
	MaxFileSize int64
	// Rules are the rule ids the scan can report, each with its default
	// severity (the catalogue's, and the ids the file names exactly).
	Rules map[string]finding.Severity
	// Fixed are the top-level keys ("fail-on", "max-file-size") the
	// command line sets: the file's setting of them does not apply, so
	// it lowers nothing.
	Fixed []string
}

// A Lowering is a setting of a configuration that makes the gate let
// through what it would fail without the file: rules turned off or down
// in severity, a fail-on less strict than the standard's, a synonym (a
// spelling that drifted becomes a legacy one), an exclude glob, an
// include list (only what it matches is scanned), a file size limit
// below the standard's.
type Lowering struct {
	// Key is the top-level key of the setting: "rules", "fail-on",
	// "synonyms", "exclude", "include" or "max-file-size".
	Key string
	// Pos is where the setting is written: the rule's pattern, the
	// synonym's legacy spelling, the exclude glob, the value of the key.
	Pos Pos
	// Text says what the setting is and does, in the words of the
	// file: `rules "*/*": off turns off 40 rules`. It holds the file's
	// strings quoted as Go quotes them; a renderer escapes it as it
	// escapes the tree's text.
	Text string
}

// everything are the include globs that match every file.
var everything = []string{"**", "**/*", "*/**", "./**", "/**"}

// Lowerings lists the settings of c that lower the gate below s, in
// file order. A rule entry lowers the gate when it is the entry that
// decides, for at least one rule of s.Rules, that the rule is off or
// has a severity below its default (an entry that turns rules on or
// raises their severity, or that a more specific entry overrides for
// every rule it matches, lowers nothing); fail-on when it is less strict
// than s.FailOn; every synonym; every exclude glob; include unless one
// of its globs matches every file; max-file-size when it is below
// s.MaxFileSize. A key of s.Fixed lowers nothing.
func (c *Config) Lowerings(s Standard) []Lowering {
	if c == nil {
		return nil
	}
	var out []Lowering
	out = append(out, c.ruleLowerings(s.Rules)...)
	fixed := func(key string) bool { return slices.Contains(s.Fixed, key) }
	if c.FailOn != "" && !fixed("fail-on") && strictness(c.FailOn) < strictness(s.FailOn) {
		does := "lets every finding pass"
		if strictness(c.FailOn) > 0 {
			does = "fails on fewer findings than " + s.FailOn
		}
		out = append(out, Lowering{Key: "fail-on", Pos: c.Pos("fail-on"), Text: "fail-on: " + c.FailOn + " " + does})
	}
	for _, syn := range c.Synonyms {
		out = append(out, Lowering{Key: "synonyms", Pos: syn.Pos,
			Text: fmt.Sprintf("synonyms %s -> %s makes %[1]s a legacy spelling of %[2]s", strconv.Quote(syn.Legacy), strconv.Quote(syn.Canonical))})
	}
	if len(c.Include) > 0 && !slices.ContainsFunc(c.Include, func(g string) bool { return slices.Contains(everything, g) }) {
		quoted := make([]string, len(c.Include))
		for i, g := range c.Include {
			quoted[i] = strconv.Quote(g)
		}
		out = append(out, Lowering{Key: "include", Pos: c.Pos("include"),
			Text: fmt.Sprintf("include %s scans only the files it matches", strings.Join(quoted, ", "))})
	}
	for i, g := range c.Exclude {
		out = append(out, Lowering{Key: "exclude", Pos: c.itemPos("exclude", i),
			Text: fmt.Sprintf("exclude %s skips the files it matches", strconv.Quote(g))})
	}
	if n := c.MaxFileSize; n > 0 && !fixed("max-file-size") && (s.MaxFileSize < 0 || n < s.MaxFileSize) {
		limit := "no limit"
		if s.MaxFileSize >= 0 {
			limit = fmt.Sprintf("%d bytes", s.MaxFileSize)
		}
		out = append(out, Lowering{Key: "max-file-size", Pos: c.Pos("max-file-size"),
			Text: fmt.Sprintf("max-file-size: %d skips larger files (the limit is otherwise %s)", n, limit)})
	}
	slices.SortStableFunc(out, func(a, b Lowering) int {
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		return a.Pos.Column - b.Pos.Column
	})
	return out
}

// itemPos is the position of the i-th glob of include or exclude, else
// the key's.
func (c *Config) itemPos(key string, i int) Pos {
	if ps := c.items[key]; i < len(ps) {
		return ps[i]
	}
	return c.Pos(key)
}

// ruleLowerings is a Lowering per entry of rules that decides, for some
// rule of rules, that it is off or below its default severity.
func (c *Config) ruleLowerings(rules map[string]finding.Severity) []Lowering {
	if len(c.Rules) == 0 {
		return nil
	}
	off := make([]int, len(c.Rules))   // rules each entry turns off
	lower := make([]int, len(c.Rules)) // rules each entry lowers
	ids := make([]string, 0, len(rules))
	for id := range rules {
		ids = append(ids, id)
	}
	for _, r := range c.Rules { // a rule named exactly is one the scan reports
		if _, ok := rules[r.Pattern]; r.Exact() && !ok {
			ids = append(ids, r.Pattern)
		}
	}
	for _, id := range ids {
		def, known := rules[id]
		if !known {
			def = finding.Error // unknown to the caller: as rules.Severity says
		}
		best, bestSev := c.deciding(id)
		switch {
		case best >= 0 && !c.Rules[best].Enabled:
			off[best]++
		case bestSev >= 0 && c.Rules[bestSev].Severity > def:
			lower[bestSev]++
		}
	}
	var out []Lowering
	for i, r := range c.Rules {
		if off[i] == 0 && lower[i] == 0 {
			continue
		}
		var does []string
		if off[i] > 0 {
			does = append(does, "turns off "+count(off[i], "rule"))
		}
		if lower[i] > 0 {
			does = append(does, fmt.Sprintf("lowers the severity of %s to %s", count(lower[i], "rule"), r.Severity))
		}
		out = append(out, Lowering{Key: "rules", Pos: r.Pos,
			Text: fmt.Sprintf("rules %s: %s %s", strconv.Quote(r.Pattern), setting(r), strings.Join(does, " and "))})
	}
	return out
}

// setting words a rule entry's value.
func setting(r Rule) string {
	switch {
	case !r.Enabled:
		return "off"
	case r.HasSeverity:
		return r.Severity.String()
	}
	return "on"
}

// strictness orders fail-on levels: never passes everything (0), error
// fails on errors (1), warning on warnings too, note on every finding.
func strictness(level string) int {
	switch level {
	case "never", "none":
		return 0
	case "warning":
		return 2
	case "note":
		return 3
	}
	return 1
}

func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
