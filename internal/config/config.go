// Package config reads .protoscan.yaml, the per-repository configuration of
// protoscan: which files to scan, which spec to use, which rules run at
// which severity, extra HANDBACK status synonyms, the canonical
// implementations for divergence, and the failure level.
//
// The file is untrusted input (it comes with the repository being scanned):
// it is parsed through languages/yamldoc under a size and depth limit, YAML
// aliases are followed under a budget, and every problem is reported as an
// *Error naming file:line:column, all of them at once, sorted by position.
//
// Load checks the file on its own. Whether a rule id names a rule of the
// catalogue and whether a synonym maps to a status of the spec are for the
// caller to check (Rule.Pos and Synonym.CanonicalPos say where to point),
// so this package depends on neither; a Check given to Load does it, and
// its problems are reported with the file's own.
//
// A file found in the scanned tree comes with the pull request: Lowerings
// lists, at their lines, the settings by which it lowers the gate below
// a Standard the caller gives (the catalogue's rules and severities, the
// default fail-on and size limit), so that the scan can name them.
package config

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/glob"
	"github.com/protoscan-dev/protoscan/internal/safefile"
	"github.com/protoscan-dev/protoscan/languages/yamldoc"
)

// FileNames are the names Find looks for at a root, in order.
var FileNames = []string{".protoscan.yaml", ".protoscan.yml"}

// Limits on one configuration file.
const (
	// MaxBytes is the largest configuration file accepted.
	MaxBytes = 1 << 20
	// MaxDepth is the deepest nesting accepted (the format needs 3).
	MaxDepth = 32
	// MaxValues bounds the nodes visited, aliases followed included, so a
	// YAML alias bomb cannot make loading expensive.
	MaxValues = 100_000
	// MaxErrors is the most errors reported for one file.
	MaxErrors = 50
	// MaxGlobs is the most patterns a file may give in include, exclude,
	// canonical and rules together: the walk matches every path against
	// each, so their number multiplies the scan's cost.
	MaxGlobs = 1000
)

// Pos is a place in the configuration file; 1-based, columns in bytes
// (as yaml.v3 counts them). The zero Pos means unknown or not set.
type Pos struct {
	Line, Column int
}

// Config is a loaded configuration. The zero value, what an empty file
// loads as, sets nothing: every setting is left to the command line and
// the defaults.
type Config struct {
	// File is the path the configuration was loaded from, as given to
	// Load; errors name it and Spec is relative to its directory.
	File string
	// Include and Exclude are doublestar globs over slash paths relative to
	// the scan root, as --include and --exclude. They are valid patterns.
	Include, Exclude []string
	// Spec is the protocol spec file as written, relative to the directory
	// of File unless absolute; SpecPath resolves it. "" when not set. A
	// list of spec files (per-kind schemas) or directories sets Spec to the
	// first and Specs to them all.
	Spec  string
	Specs []string
	// Rules are the rule settings in file order; RuleSetting resolves them.
	Rules []Rule
	// Synonyms are extra HANDBACK status synonyms (legacy spelling ->
	// canonical status), in file order; SynonymMap gives them as a map.
	Synonyms []Synonym
	// Renamed are former names of message fields beyond those the spec
	// lists (formerly), in file order: renamed: {delegate.assignee: agent}.
	Renamed []Renamed
	// Canonical names the canonical implementations of divergence,
	// "GLOB" or "GLOB:NAME", as --canonical.
	Canonical []string
	// FailOn is "error", "warning", "note", "never" or "none" (the same), as --fail-on; ""
	// when not set.
	FailOn string
	// MaxFileSize is the largest file scanned in bytes, -1 for no limit,
	// as --max-file-size; 0 when not set. A scan takes it from the
	// tree's own file only when it lowers the limit.
	MaxFileSize int64

	pos   map[string]Pos   // top-level key -> position of its value
	items map[string][]Pos // include, exclude -> the position of each glob
}

// Rule is one entry of rules: a rule id or a glob over rule ids and what
// it sets.
type Rule struct {
	// Pattern is the key as written: a rule id ("enumdrift/unknown-status")
	// or a doublestar glob over ids ("enumdrift/*", "msgcheck/*-words"),
	// always family/name with one slash.
	Pattern string
	// Enabled is false for "off", false or {enabled: false}.
	Enabled bool
	// Severity is the severity set, when HasSeverity.
	Severity    finding.Severity
	HasSeverity bool
	// Pos is where the pattern is written.
	Pos Pos

	glob *glob.Glob // Pattern compiled by Load
}

// Exact reports whether r.Pattern is a rule id rather than a glob.
func (r Rule) Exact() bool { return !hasMeta(r.Pattern) }

// Match reports whether the rule id matches r.Pattern. Load compiled the
// pattern; a Rule made otherwise has it compiled on each call, and a
// pattern glob.Compile refuses matches only itself.
func (r Rule) Match(id string) bool {
	if r.Exact() {
		return r.Pattern == id
	}
	g := r.glob
	if g == nil {
		var err error
		if g, err = glob.Compile(r.Pattern); err != nil {
			return r.Pattern == id
		}
	}
	return g.Match(id)
}

// Synonym is one entry of synonyms.
type Synonym struct {
	Legacy, Canonical string
	// Pos is where Legacy is written, CanonicalPos where Canonical is.
	Pos, CanonicalPos Pos
}

// Renamed is one entry of renamed: the field Field of message kind Kind
// was once called Former.
type Renamed struct {
	Kind, Former, Field string
	// Pos is where KIND.FORMER is written, FieldPos where Field is.
	Pos, FieldPos Pos
}

// Pos returns the position of the value of a top-level key ("spec",
// "include", ...), or the zero Pos when the file does not set it.
func (c *Config) Pos(key string) Pos { return c.pos[key] }

// Errorf returns an *Error at p in c.File, for the checks a caller makes
// against the catalogue or the spec, so they read like Load's own.
func (c *Config) Errorf(p Pos, format string, args ...any) *Error {
	return &Error{File: c.File, Line: p.Line, Column: p.Column, Msg: fmt.Sprintf(format, args...)}
}

// SpecPath returns Spec resolved against the directory of File, or "" when
// no spec is set.
func (c *Config) SpecPath() string {
	if c.Spec == "" {
		return ""
	}
	p := filepath.FromSlash(c.Spec)
	if filepath.IsAbs(p) || c.File == "" {
		return p
	}
	return filepath.Join(filepath.Dir(c.File), p)
}

// SpecPaths returns Specs resolved as SpecPath resolves Spec (the files
// and directories msgcheck.LoadSpecs makes one spec of), or nil.
func (c *Config) SpecPaths() []string {
	var out []string
	for _, sp := range c.Specs {
		out = append(out, (&Config{File: c.File, Spec: sp}).SpecPath())
	}
	return out
}

// SynonymMap returns the synonyms as a map from legacy spelling to
// canonical status (nil when there are none), as
// enumdrift.NewVocabulary takes them.
func (c *Config) SynonymMap() map[string]string {
	if len(c.Synonyms) == 0 {
		return nil
	}
	m := make(map[string]string, len(c.Synonyms))
	for _, s := range c.Synonyms {
		m[s.Legacy] = s.Canonical
	}
	return m
}

// RuleSetting says what the configuration makes of the rule id.
//
// The entries of rules that apply to id are the one whose pattern is id
// itself and the globs that match it. They are ranked from the most
// specific: the exact id first, then the globs by the number of literal
// characters in them (the characters outside *, ?, [...] and {...}), so
// "msgcheck/*-words" outranks "msgcheck/*", which outranks "*/*"; between
// globs of equal rank the later one in the file wins.
//
// enabled comes from the most specific entry that applies: an entry turns
// its rules off with off, false or {enabled: false}, and on with anything
// else. sev comes from the most specific entry that applies and sets a
// severity, and overridden reports whether there is one; when overridden
// is false sev is meaningless and the rule keeps its default severity.
// With no entry applying, the result is (true, 0, false).
func (c *Config) RuleSetting(id string) (enabled bool, sev finding.Severity, overridden bool) {
	best, bestSev := c.deciding(id)
	enabled = best < 0 || c.Rules[best].Enabled
	if bestSev >= 0 {
		return enabled, c.Rules[bestSev].Severity, true
	}
	return enabled, 0, false
}

// deciding returns the indexes in Rules of the entries that decide
// whether id is enabled (best) and its severity (bestSev), as
// RuleSetting ranks them; -1 when no entry does.
func (c *Config) deciding(id string) (best, bestSev int) {
	best, bestSev = -1, -1
	rank := func(i int) int {
		if c.Rules[i].Exact() {
			return 1 << 30
		}
		return literalLen(c.Rules[i].Pattern)
	}
	better := func(i, j int) bool { return j < 0 || rank(i) >= rank(j) } // later wins ties
	for i, r := range c.Rules {
		if !r.Match(id) {
			continue
		}
		if better(i, best) {
			best = i
		}
		if r.HasSeverity && better(i, bestSev) {
			bestSev = i
		}
	}
	return best, bestSev
}

// hasMeta reports whether a pattern uses doublestar syntax.
func hasMeta(p string) bool { return strings.ContainsAny(p, `*?[]{}\`) }

// literalLen counts the characters of a glob outside its wildcards,
// character classes and alternatives; an escaped character counts as one.
func literalLen(p string) int {
	n, class, alt := 0, false, 0
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\' && i+1 < len(p):
			i++
			if !class && alt == 0 {
				n++
			}
		case class:
			if c == ']' {
				class = false
			}
		case c == '[':
			class = true
		case c == '{':
			alt++
		case c == '}' && alt > 0:
			alt--
		case alt > 0 || c == '*' || c == '?':
		default:
			n++
		}
	}
	return n
}

// Find returns the configuration file at root: .protoscan.yaml, else
// .protoscan.yml. ok is false when neither is a regular file (a symlink to
// one counts; LoadIn refuses one that leads out of root).
func Find(root string) (path string, ok bool) {
	for _, name := range FileNames {
		p := filepath.Join(root, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, true
		}
	}
	return "", false
}

// A Check is a caller's check of a configuration against what this
// package does not know (the rule catalogue, the statuses of the spec):
// it returns the problems it finds, made with Config.Errorf. Load runs it
// on the settings the file got right even when others are wrong, so that
// every problem of the file is reported in one run.
type Check func(*Config) Errors

// Load reads and checks the configuration file at path, which the user
// named: it may lie anywhere. An empty file (or one of comments only) is
// valid and sets nothing. Problems with the content, the file's own and
// those the checks find, are returned as an Errors list of every one
// found, sorted by position; so is a file that is not a regular file (a
// named pipe is never waited on) or is larger than MaxBytes. A file that
// cannot be read gives an error from the os package, and nil *Config.
func Load(path string, checks ...Check) (*Config, error) {
	return load(path, safefile.ReadOptions{Explicit: true}, checks)
}

// LoadIn is Load for the configuration file of the tree at root (the one
// Find found there; root "" is the current directory): a path that
// resolves out of root, through a link or "..", is refused, as the tree's
// author chose it.
func LoadIn(root, path string, checks ...Check) (*Config, error) {
	return load(path, safefile.ReadOptions{Root: cmp.Or(root, ".")}, checks)
}

func load(path string, opt safefile.ReadOptions, checks []Check) (*Config, error) {
	opt.Max = MaxBytes
	data, err := safefile.ReadFile(path, opt)
	if err != nil {
		var fe *safefile.Error
		if errors.As(err, &fe) {
			return nil, Errors{{File: fe.Path, Msg: fe.Reason}}
		}
		return nil, err
	}
	return Parse(path, data, checks...)
}

// Parse checks data as the content of the configuration file name (used
// in errors and as Config.File), as Load does.
func Parse(name string, data []byte, checks ...Check) (*Config, error) {
	return parse(name, data, MaxValues, checks...)
}

// parse is Parse with a budget of nodes to visit.
func parse(name string, data []byte, budget int, checks ...Check) (*Config, error) {
	cfg, _, err := parseVisited(name, data, budget, checks...)
	return cfg, err
}

// parseVisited is parse, and also returns the nodes it charged to the
// budget (tests bound them).
func parseVisited(name string, data []byte, budget int, checks ...Check) (_ *Config, visited int, _ error) {
	docs, err := yamldoc.Parse(name, data, yamldoc.Limits{MaxBytes: MaxBytes, MaxDepth: MaxDepth})
	if err != nil {
		if ye, ok := err.(*yamldoc.Error); ok {
			return nil, 0, Errors{{File: name, Line: ye.Line, Column: ye.Column, Msg: ye.Msg}}
		}
		return nil, 0, Errors{{File: name, Msg: err.Error()}}
	}
	l := &loader{cfg: &Config{File: name, pos: map[string]Pos{}, items: map[string][]Pos{}}, budget: budget, max: budget}
	if len(docs) > 1 {
		l.errorf(docs[1], "a configuration file holds one YAML document (found another here)")
	}
	if len(docs) > 0 {
		l.top(docs[0])
	}
	if !l.spent {
		for _, check := range checks {
			l.errs = append(l.errs, check(l.cfg)...)
		}
	}
	if len(l.errs) > 0 {
		return nil, l.max - l.budget, l.sorted()
	}
	return l.cfg, l.max - l.budget, nil
}

// The settings a file may hold, in the order of the documentation.
var topKeys = []string{"include", "exclude", "spec", "rules", "synonyms", "renamed", "canonical", "fail-on", "max-file-size"}

var ruleKeys = []string{"enabled", "severity"}

// ruleWords are the scalar settings of a rule.
var ruleWords = []string{"off", "on", "error", "warning", "note"}

var failOnWords = []string{"error", "warning", "note", "never", "none"}

type loader struct {
	cfg    *Config
	errs   Errors
	budget int
	max    int  // the budget at the start
	spent  bool // the budget ran out: stop
	nGlobs int  // the patterns read so far (MaxGlobs)
}

// oneMoreGlob counts a pattern at n and reports whether it is within
// MaxGlobs; the first one past it is an error.
func (l *loader) oneMoreGlob(n *yaml.Node) bool {
	l.nGlobs++
	if l.nGlobs == MaxGlobs+1 {
		l.errorf(n, "more than %d globs in include, exclude, canonical and rules together, the most a config may give", MaxGlobs)
	}
	return l.nGlobs <= MaxGlobs
}

// maxFound stops the walk: past it, more errors would only be dropped.
const maxFound = 20 * MaxErrors

func (l *loader) errorf(n *yaml.Node, format string, args ...any) {
	if len(l.errs) >= maxFound {
		l.spent = true
		return
	}
	e := &Error{File: l.cfg.File, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Column = n.Line, n.Column
	}
	l.errs = append(l.errs, e)
}

// sorted returns the errors in position order, at most MaxErrors of them.
func (l *loader) sorted() Errors {
	errs := slices.Clone(l.errs)
	slices.SortStableFunc(errs, compareErrors)
	if len(errs) > MaxErrors {
		msg := fmt.Sprintf("too many errors (%d more)", len(errs)-MaxErrors)
		if len(errs) >= maxFound {
			msg = fmt.Sprintf("too many errors (%d more found before giving up)", len(errs)-MaxErrors)
		}
		errs = append(errs[:MaxErrors:MaxErrors], &Error{File: l.cfg.File, Msg: msg})
	}
	return errs
}

// visit follows n if it is an alias and charges the budget; nil means
// stop (the budget is spent, which is reported once).
func (l *loader) visit(n *yaml.Node) *yaml.Node {
	if l.spent {
		return nil
	}
	for i := 0; n != nil && n.Kind == yaml.AliasNode; i++ {
		if i == 64 {
			l.errorf(n, "aliases nested too deep")
			return nil
		}
		n = n.Alias
	}
	if n == nil {
		return nil
	}
	l.budget--
	if l.budget < 0 {
		l.spent = true
		l.errorf(n, "the file expands to more than %d values (through aliases?)", l.max)
		return nil
	}
	return n
}

// pair is a key and its value from a mapping, the key a string.
type pair struct {
	key  string
	k, v *yaml.Node
}

// pairs lists the entries of mapping n (already visited), reporting merge
// keys, keys that are not strings and duplicate keys; what names the
// mapping in errors ("" at the top level).
func (l *loader) pairs(n *yaml.Node, what string) []pair {
	var out []pair
	first := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := l.visit(n.Content[i]), n.Content[i+1]
		if k == nil {
			return out
		}
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			l.errorf(k, "%smerge keys (<<) are not supported", what)
			continue
		}
		if k.Kind != yaml.ScalarNode || k.Tag != "!!str" {
			l.errorf(k, "%skeys must be strings (got %s)", what, describe(k))
			continue
		}
		if f, dup := first[k.Value]; dup {
			l.errorf(k, "%sduplicate key %q (first at line %d)", what, k.Value, f.Line)
			continue
		}
		first[k.Value] = k
		out = append(out, pair{key: k.Value, k: k, v: v})
	}
	return out
}

func (l *loader) top(doc *yaml.Node) {
	n := l.visit(doc)
	if n == nil {
		return
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return // "~" or "null": nothing set
	}
	if n.Kind != yaml.MappingNode {
		l.errorf(n, "the configuration must be a mapping of settings (got %s)", describe(n))
		return
	}
	c := l.cfg
	for _, p := range l.pairs(n, "") {
		if !slices.Contains(topKeys, p.key) {
			l.errorf(p.k, "unknown key %q%s", p.key, hint(p.key, topKeys, "want "+strings.Join(topKeys, ", ")))
			continue
		}
		v := l.visit(p.v)
		if v == nil {
			return
		}
		c.pos[p.key] = Pos{v.Line, v.Column}
		switch p.key {
		case "include":
			c.Include = l.globs(p.key, v)
		case "exclude":
			c.Exclude = l.globs(p.key, v)
		case "spec":
			if v.Kind == yaml.SequenceNode { // per-kind schema files
				for _, it := range l.list(p.key, "spec files or directories", v) {
					if it.s == "" {
						l.errorf(it.n, "%s: empty path", it.what)
					}
					c.Specs = append(c.Specs, it.s)
				}
				if len(v.Content) == 0 {
					l.errorf(v, "spec: empty list")
				}
			} else if s, ok := l.str(p.key, v); ok {
				if s == "" {
					l.errorf(v, "spec: empty path")
				}
				c.Specs = []string{s}
			}
			if len(c.Specs) > 0 {
				c.Spec = c.Specs[0]
			}
		case "rules":
			l.rules(v)
		case "synonyms":
			l.synonyms(v)
		case "renamed":
			l.renamed(v)
		case "canonical":
			c.Canonical = l.canonical(v)
		case "fail-on":
			if s, ok := l.str(p.key, v); ok {
				if !slices.Contains(failOnWords, s) {
					l.errorf(v, "fail-on: %q is not error, warning, note or never%s", s, hint(s, failOnWords, ""))
				}
				c.FailOn = s
			}
		case "max-file-size":
			c.MaxFileSize = l.size(v)
		}
	}
}

// str reads a string value.
func (l *loader) str(what string, v *yaml.Node) (string, bool) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
		l.errorf(v, "%s: must be a string (got %s)", what, describe(v))
		return "", false
	}
	return v.Value, true
}

// item is a string of a list, with its node and index.
type item struct {
	s    string
	n    *yaml.Node
	what string // "include[2]"
}

// list reads a list of strings, reporting each item that is not one.
func (l *loader) list(what, wants string, v *yaml.Node) []item {
	if v.Kind != yaml.SequenceNode {
		l.errorf(v, "%s: must be a list of %s (got %s)", what, wants, describe(v))
		return nil
	}
	var items []item
	for i, n := range v.Content {
		if n = l.visit(n); n == nil {
			break
		}
		w := fmt.Sprintf("%s[%d]", what, i)
		if s, ok := l.str(w, n); ok {
			items = append(items, item{s, n, w})
		}
	}
	return items
}

// globs reads include or exclude: the patterns are checked as the walk
// will use them (leading "./" and "/" and trailing "/" dropped).
func (l *loader) globs(what string, v *yaml.Node) []string {
	var out []string
	for _, it := range l.list(what, "globs", v) {
		if !l.oneMoreGlob(it.n) {
			break
		}
		q := it.s
		for {
			if r, ok := strings.CutPrefix(q, "./"); ok {
				q = r
			} else if r, ok := strings.CutPrefix(q, "/"); ok {
				q = r
			} else {
				break
			}
		}
		q = strings.TrimRight(q, "/")
		err := globError(q)
		switch {
		case q == "":
			l.errorf(it.n, "%s: glob %q matches nothing", it.what, it.s)
		case err != nil:
			l.errorf(it.n, "%s: %s", it.what, globMessage(err, it.s))
		default:
			out = append(out, it.s)
			l.cfg.items[what] = append(l.cfg.items[what], Pos{it.n.Line, it.n.Column})
		}
	}
	return out
}

// globError is why glob.Compile refuses p, or nil.
func globError(p string) error {
	_, err := glob.Compile(p)
	return err
}

// globMessage says why the glob as written was refused.
func globMessage(err error, written string) string {
	if errors.Is(err, glob.ErrBadPattern) {
		return fmt.Sprintf("invalid glob %q", written)
	}
	return fmt.Sprintf("glob %s: %s", glob.Short(written), capMessage(err))
}

// capMessage says which cap of SECURITY.md a glob is over.
func capMessage(err error) string {
	if errors.Is(err, glob.ErrTooLong) {
		return fmt.Sprintf("longer than %d bytes, the most a glob may be", glob.MaxLen)
	}
	return fmt.Sprintf("its braces expand to more than %d patterns, the most a glob may", glob.MaxAlternatives)
}

func (l *loader) canonical(v *yaml.Node) []string {
	var out []string
	for _, it := range l.list("canonical", "GLOB or GLOB:NAME strings", v) {
		if !l.oneMoreGlob(it.n) {
			break
		}
		pat, name, hasName := strings.Cut(it.s, ":")
		err := globError(pat)
		switch {
		case pat == "":
			l.errorf(it.n, "%s: %q has no glob (want GLOB or GLOB:NAME)", it.what, it.s)
		case err != nil:
			l.errorf(it.n, "%s: %s", it.what, globMessage(err, pat))
		case hasName && name == "":
			l.errorf(it.n, "%s: %q has no function name after the colon (want GLOB or GLOB:NAME)", it.what, it.s)
		default:
			out = append(out, it.s)
		}
	}
	return out
}

func (l *loader) size(v *yaml.Node) int64 {
	var n int64
	ok := false
	if v.Kind == yaml.ScalarNode {
		switch v.Tag {
		case "!!int": // 0x10, 0o10 and 1_000 are ints to yaml.v3 too
			var err error
			n, err = strconv.ParseInt(strings.ReplaceAll(v.Value, "_", ""), 0, 64)
			ok = err == nil
		case "!!float": // 1e6, as JSON Schema's "integer" allows
			f, err := strconv.ParseFloat(strings.ReplaceAll(v.Value, "_", ""), 64)
			ok = err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53
			n = int64(f)
		}
	}
	if ok && (n > 0 || n == -1) {
		return n
	}
	l.errorf(v, "max-file-size: must be a positive number of bytes, or -1 for no limit (got %s)", describe(v))
	return 0
}

func (l *loader) rules(v *yaml.Node) {
	if v.Kind != yaml.MappingNode {
		l.errorf(v, "rules: must be a mapping from rule ids or globs to settings (got %s)", describe(v))
		return
	}
	for _, p := range l.pairs(v, "rules: ") {
		if !l.oneMoreGlob(p.k) {
			break
		}
		r := Rule{Pattern: p.key, Enabled: true, Pos: Pos{p.k.Line, p.k.Column}}
		what := fmt.Sprintf("rule %q", p.key)
		ok := true
		family, name, slash := strings.Cut(p.key, "/")
		switch {
		case !slash || family == "" || name == "" || strings.Contains(name, "/"):
			l.errorf(p.k, "%s: want a rule id family/name, or a glob such as %q", what, suggestFamily(p.key))
			ok = false
		default:
			if g, err := glob.Compile(p.key); err != nil {
				if errors.Is(err, glob.ErrBadPattern) {
					l.errorf(p.k, "%s: invalid glob", what)
				} else {
					l.errorf(p.k, "rule %s: %s", glob.Short(p.key), capMessage(err))
				}
				ok = false
			} else {
				r.glob = g
			}
		}
		if !l.ruleValue(what, p.v, &r) || !ok {
			continue
		}
		l.cfg.Rules = append(l.cfg.Rules, r)
	}
}

// suggestFamily turns a key without a slash into the family glob the user
// probably meant.
func suggestFamily(key string) string {
	family, _, _ := strings.Cut(key, "/")
	if family == "" || strings.ContainsAny(family, `*?[]{}\`) {
		return "enumdrift/*"
	}
	return family + "/*"
}

// ruleValue reads a rule's setting into r.
func (l *loader) ruleValue(what string, v *yaml.Node, r *Rule) bool {
	v = l.visit(v)
	if v == nil {
		return false
	}
	switch {
	case v.Kind == yaml.ScalarNode && v.Tag == "!!bool":
		b, _ := strconv.ParseBool(strings.ToLower(v.Value))
		r.Enabled = b
		return true
	case v.Kind == yaml.ScalarNode && v.Tag == "!!str":
		switch v.Value {
		case "off":
			r.Enabled = false
			return true
		case "on":
			return true
		}
		if sev, ok := finding.ParseSeverity(v.Value); ok {
			r.Severity, r.HasSeverity = sev, true
			return true
		}
		l.errorf(v, "%s: unknown setting %q (want off, on, error, warning, note or a mapping with enabled and severity%s)", what, v.Value, didYouMean(v.Value, ruleWords))
		return false
	case v.Kind == yaml.MappingNode:
		ok := true
		for _, p := range l.pairs(v, what+": ") {
			if !slices.Contains(ruleKeys, p.key) {
				l.errorf(p.k, "%s: unknown key %q%s", what, p.key, hint(p.key, ruleKeys, "want enabled or severity"))
				ok = false
				continue
			}
			x := l.visit(p.v)
			if x == nil {
				return false
			}
			switch p.key {
			case "enabled":
				if x.Kind != yaml.ScalarNode || x.Tag != "!!bool" {
					l.errorf(x, "%s: enabled must be true or false (got %s)", what, describe(x))
					ok = false
					continue
				}
				r.Enabled, _ = strconv.ParseBool(strings.ToLower(x.Value))
			case "severity":
				if x.Kind != yaml.ScalarNode || x.Tag != "!!str" {
					l.errorf(x, "%s: severity must be error, warning or note (got %s)", what, describe(x))
					ok = false
					continue
				}
				sev, good := finding.ParseSeverity(x.Value)
				if !good {
					l.errorf(x, "%s: bad severity %q (want error, warning or note%s)", what, x.Value, didYouMean(x.Value, []string{"error", "warning", "note"}))
					ok = false
					continue
				}
				r.Severity, r.HasSeverity = sev, true
			}
		}
		return ok
	}
	l.errorf(v, "%s: want off, on, error, warning, note or a mapping with enabled and severity (got %s)", what, describe(v))
	return false
}

func (l *loader) synonyms(v *yaml.Node) {
	if v.Kind != yaml.MappingNode {
		l.errorf(v, "synonyms: must be a mapping from legacy spellings to canonical statuses (got %s)", describe(v))
		return
	}
	for _, p := range l.pairs(v, "synonyms: ") {
		what := fmt.Sprintf("synonym %q", p.key)
		x := l.visit(p.v)
		if x == nil {
			return
		}
		switch {
		case p.key == "":
			l.errorf(p.k, "synonyms: empty legacy spelling")
		case x.Kind != yaml.ScalarNode || x.Tag != "!!str":
			l.errorf(x, "%s: must map to a canonical status given as a string (got %s)", what, describe(x))
		case x.Value == "":
			l.errorf(x, "%s: maps to an empty status", what)
		case x.Value == p.key:
			l.errorf(x, "%s: maps to itself", what)
		default:
			l.cfg.Synonyms = append(l.cfg.Synonyms, Synonym{
				Legacy: p.key, Canonical: x.Value,
				Pos: Pos{p.k.Line, p.k.Column}, CanonicalPos: Pos{x.Line, x.Column},
			})
		}
	}
}

// renamed reads renamed: KIND.FORMER -> FIELD. Whether the kind and the
// field exist is the caller's check against the spec (Renamed.Pos and
// FieldPos say where to point).
func (l *loader) renamed(v *yaml.Node) {
	if v.Kind != yaml.MappingNode {
		l.errorf(v, "renamed: must be a mapping from KIND.FORMER_NAME to the field's name, as in {delegate.assignee: agent} (got %s)", describe(v))
		return
	}
	for _, p := range l.pairs(v, "renamed: ") {
		x := l.visit(p.v)
		if x == nil {
			return
		}
		kind, former, ok := strings.Cut(p.key, ".")
		switch {
		case !ok || kind == "" || former == "" || strings.Contains(former, "."):
			l.errorf(p.k, "renamed: %q must be KIND.FORMER_NAME, as in delegate.assignee", p.key)
		case x.Kind != yaml.ScalarNode || x.Tag != "!!str" || x.Value == "":
			l.errorf(x, "renamed %q: must name the field, as a string (got %s)", p.key, describe(x))
		case x.Value == former:
			l.errorf(x, "renamed %q: names the field itself", p.key)
		default:
			l.cfg.Renamed = append(l.cfg.Renamed, Renamed{Kind: kind, Former: former, Field: x.Value,
				Pos: Pos{p.k.Line, p.k.Column}, FieldPos: Pos{x.Line, x.Column}})
		}
	}
}

// describe names what a node is, for "got ..." in errors: a scalar as
// written (strings quoted, shortened), a collection by its kind.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		v := n.Value
		if len(v) > 40 {
			v = v[:37] + "..."
		}
		switch n.Tag {
		case "!!str":
			return strconv.Quote(v)
		case "!!null":
			return "null"
		case "!!int", "!!float", "!!bool":
			return v
		}
		return fmt.Sprintf("%s %s", n.Tag, strconv.Quote(v))
	}
	return "an alias"
}
