package semantic

import (
	"context"
	"strings"
	"sync"

	"github.com/protoscan-dev/protoscan/msgcheck/pipeline"
)

// Rule ids of the paths validator.
const (
	RuleHallucinatedPath = "msgcheck/semantic-hallucinated-path"
	RulePathOutside      = "msgcheck/semantic-path-outside-root"
)

// Paths reports file paths a message claims that the repository does not
// have. A claim is the value of a path field (file, files, path, paths,
// files_changed, ... and any key ending in _file, _files, _path, _paths),
// or a token of prose that has a slash or is a file name with a known
// extension (internal/foo.go, SPEC.md). A bare file name is found
// anywhere in the repository; a path is looked up from the root. Prose
// after a creating verb ("Create internal/new.go") and URLs, globs and
// variables are not claims, and neither are the path fields of a DELEGATE
// whose key speaks of creating.
type Paths struct {
	snap *Snapshot
}

// NewPaths returns the validator over a snapshot of the repository.
func NewPaths(snap *Snapshot) *Paths { return &Paths{snap: snap} }

// Name is "paths".
func (*Paths) Name() string { return "paths" }

// Validate looks up every path the message claims.
func (p *Paths) Validate(_ context.Context, a *pipeline.Artifact) ([]pipeline.Reason, error) {
	c := pathPool.Get().(*pathCheck)
	c.snap, c.kind, c.reasons = p.snap, a.Kind, nil
	c.t = &c.own
	c.t.reset()
	c.walk(a.Message, false)
	reasons := c.reasons
	c.snap, c.reasons = nil, nil
	pathPool.Put(c)
	if len(reasons) == 0 {
		return nil, nil
	}
	return sortReasons(reasons), nil
}

// pathPool recycles the walks: a clean message costs no allocation.
var pathPool = sync.Pool{New: func() any { return new(pathCheck) }}

type pathCheck struct {
	snap    *Snapshot
	kind    string
	t       *trail // own, or the trail of a walk shared with other checks
	own     trail
	reasons []pipeline.Reason
}

func (c *pathCheck) walk(v any, pathField bool) {
	if c.t.depth() > maxDepth {
		return
	}
	switch x := v.(type) {
	case string:
		c.text(x, pathField)
	case map[string]any:
		for k, e := range x {
			on, pathField := c.visit(k)
			if !on {
				continue
			}
			c.t.push(k)
			c.walk(e, pathField)
			c.t.pop()
		}
	case []any:
		for i, e := range x {
			c.t.pushIndex(i)
			c.walk(e, pathField)
			c.t.pop()
		}
	}
}

// text judges a string: a whole path in a path field, else prose.
func (c *pathCheck) text(s string, pathField bool) {
	if pathField {
		c.claimField(s)
	} else {
		c.prose(s)
	}
}

// visit says whether the check looks under the key k of a mapping, and
// whether what is there is a path field.
func (c *pathCheck) visit(k string) (on, pathField bool) {
	if c.kind == "delegate" && creatingKey(k) {
		return false, false // a DELEGATE may name files still to be created
	}
	return true, c.isPathKey(k)
}

// isPathKey reports a key whose values are paths. A switch, not a map:
// every key of every message comes here, and hashing it costs more.
func (c *pathCheck) isPathKey(k string) bool {
	switch k {
	case "file", "files", "path", "paths", "files_changed", "changed_files", "files_modified", "modified_files",
		"files_created", "created_files", "files_touched", "files_read", "evidence_files":
		return true
	}
	return strings.HasSuffix(k, "_file") || strings.HasSuffix(k, "_files") ||
		strings.HasSuffix(k, "_path") || strings.HasSuffix(k, "_paths")
}

func creatingKey(k string) bool { return strings.Contains(k, "create") || strings.Contains(k, "new") }

// claimField judges the value of a path field: the whole value is a path.
func (c *pathCheck) claimField(s string) {
	s = strings.TrimSpace(s)
	if s == "" || notAPath(s) || strings.ContainsAny(s, " \t\n") {
		if strings.ContainsAny(s, " \t\n") {
			c.prose(s) // "src/a.go (new)": judge its tokens
		}
		return
	}
	c.judge(s, strings.IndexByte(s, '/') < 0)
}

// prose judges the path-like tokens of free text.
func (c *pathCheck) prose(s string) {
	if !hasExtensionDot(s) {
		return // most strings: no token can be a path (see looksLikePath)
	}
	prev1, prev2 := "", ""
	for i := 0; i < len(s); {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		if i == j {
			break
		}
		word := s[i:j]
		tok := trimQuotes(word)
		for len(tok) > 0 && tok[len(tok)-1] == '.' {
			tok = trimQuotes(tok[:len(tok)-1])
		}
		if looksLikePath(tok) && !creating(prev1) && !creating(prev2) {
			c.judge(tok, strings.IndexByte(tok, '/') < 0)
		}
		prev2, prev1 = prev1, word
		i = j
	}
}

func (c *pathCheck) judge(p string, bare bool) {
	if bare {
		if c.snap.HasBase(p) || c.snap.Lookup(p) == Exists {
			return
		}
		c.reasons = append(c.reasons, c.t.reason(RuleHallucinatedPath, "file "+quote(p)+" does not exist in the repository"))
		return
	}
	switch c.snap.Lookup(p) {
	case Missing:
		c.reasons = append(c.reasons, c.t.reason(RuleHallucinatedPath, "path "+quote(p)+" does not exist in the repository"))
	case Outside:
		c.reasons = append(c.reasons, c.t.reason(RulePathOutside, "path "+quote(p)+" is outside the repository"))
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// notAPath rules out URLs, globs, variables and placeholders.
func notAPath(s string) bool {
	if s == "" || s[0] == '~' || s[0] == '-' {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', ']', '{', '}', '$', '<', '>', '|', '=', '@':
			return true
		case ':':
			if strings.HasPrefix(s[i:], "://") {
				return true
			}
		}
	}
	return false
}

// looksLikePath is a token of prose that claims a file: relative, made of
// path characters, with a known extension. The extension is checked
// first: most words of prose have none.
func looksLikePath(tok string) bool {
	dot := strings.LastIndexByte(tok, '.')
	if dot <= 0 || dot == len(tok)-1 || len(tok) < 3 || !knownExt(tok[dot+1:]) {
		return false
	}
	if slash := strings.LastIndexByte(tok, '/'); slash > dot || slash == dot-1 {
		return false // the dot is not in the base name, or the base name is only an extension
	}
	if tok[0] == '/' || strings.HasPrefix(tok, "www.") {
		return false
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '/' || c == '_' || c == '-' || c == '+') {
			return false
		}
	}
	return true
}

// hasExtensionDot reports whether s has a dot followed by a letter, as
// every token looksLikePath accepts does (its extension is known, and
// known extensions start with a letter); a sentence's full stop is
// followed by a space or nothing.
func hasExtensionDot(s string) bool {
	for {
		i := strings.IndexByte(s, '.')
		if i < 0 || i == len(s)-1 {
			return false
		}
		if c := s[i+1] | 0x20; c >= 'a' && c <= 'z' {
			return true
		}
		s = s[i+1:]
	}
}

func knownExt(ext string) bool {
	if len(ext) > 5 {
		return false
	}
	switch lower(ext) {
	case "go", "py", "md", "yaml", "yml", "json", "jsonl", "toml", "txt", "ts", "tsx", "js", "jsx", "mjs",
		"rs", "java", "kt", "rb", "sh", "sql", "proto", "html", "css", "cfg", "ini", "mod", "sum", "c", "h",
		"cc", "cpp", "hpp", "cs", "swift", "ipynb", "csv", "xml", "lock", "env", "tf", "txtar":
		return true
	}
	return false
}

// creating reports a word after which a path is one still to be made.
func creating(word string) bool {
	switch trimQuotes(word) {
	case "create", "creates", "creating", "add", "adds", "adding", "write", "writes", "writing", "generate",
		"generates", "scaffold", "introduce", "new", "make", "makes", "touch", "mkdir", "into", "to", "as",
		"Create", "Add", "Write", "Generate", "Scaffold", "Introduce", "New", "Make", "Touch", "Into", "To", "As":
		return true
	}
	return false
}
