package semantic

import (
	"context"
	"strings"
	"sync"

	"github.com/protoscan-dev/protoscan/msgcheck/pipeline"
)

// Rule ids of the commands validator.
const (
	RuleUnsafeCommand = "msgcheck/semantic-unsafe-command"
	RuleCredential    = "msgcheck/semantic-credential-in-command"
)

// Commands reports unsafe shell commands in the plan of a message: the
// strings under plan, steps, commands, command, cmd, script, scripts, run
// (at any depth). Unsafe are: a recursive rm of /, ~ or $HOME (or with
// --no-preserve-root); a download piped or substituted into a shell (curl
// ... | sh, bash -c "$(wget ...)"); chmod 777 and its spellings; and a
// credential written into the command (PASSWORD=..., --token ..., a URL
// with user:password@, an Authorization header, a GitHub, OpenAI, AWS or
// Slack token). A reason never repeats a credential's value.
type Commands struct{}

// NewCommands returns the validator.
func NewCommands() *Commands { return &Commands{} }

// Name is "commands".
func (*Commands) Name() string { return "commands" }

// commandKey reports a key whose strings are commands.
func commandKey(k string) bool {
	switch k {
	case "plan", "steps", "commands", "command", "cmd", "script", "scripts", "run", "shell":
		return true
	}
	return false
}

// Validate checks the strings of the message's plan fields.
func (*Commands) Validate(_ context.Context, a *pipeline.Artifact) ([]pipeline.Reason, error) {
	c := cmdPool.Get().(*cmdCheck)
	c.t = &c.own
	c.t.reset()
	c.reasons = nil
	c.walk(a.Message, false)
	reasons := c.reasons
	c.reasons = nil
	cmdPool.Put(c)
	if len(reasons) == 0 {
		return nil, nil
	}
	return sortReasons(reasons), nil
}

type cmdCheck struct {
	t       *trail // own, or the trail of a walk shared with other checks
	own     trail
	seg     segment
	reasons []pipeline.Reason
}

// cmdPool recycles the walks: a clean message costs no allocation.
var cmdPool = sync.Pool{New: func() any { return new(cmdCheck) }}

func (c *cmdCheck) walk(v any, inPlan bool) {
	if c.t.depth() > maxDepth {
		return
	}
	switch x := v.(type) {
	case string:
		if inPlan {
			c.command(x)
		}
	case map[string]any:
		for k, e := range x {
			c.t.push(k)
			c.walk(e, inPlan || commandKey(k))
			c.t.pop()
		}
	case []any:
		for i, e := range x {
			c.t.pushIndex(i)
			c.walk(e, inPlan)
			c.t.pop()
		}
	}
}

// segment is one simple command of a line: the words between ;, &&, ||, |
// and newlines. In a plan step written as prose ("Clean up with rm -rf /")
// the command starts at its command word, wherever that is.
type segment struct {
	line   string // the whole string, for reasons
	words  []string
	piped  bool // its input is the previous segment's output (|)
	buffer [24]string
}

// command checks one string, segment by segment.
func (c *cmdCheck) command(s string) {
	cur := &c.seg
	cur.piped = false
	start, prevDownloads := 0, false
	for i := 0; i <= len(s); i++ {
		sep, width := byte(0), 1
		if i < len(s) {
			ch := s[i]
			switch {
			case ch == ';' || ch == '\n':
				sep = ch
			case ch == '|' && i > 0 && s[i-1] == '>':
				continue // >| redirection
			case ch == '|' || ch == '&':
				sep = ch
				if i+1 < len(s) && s[i+1] == ch {
					width = 2 // || and &&
				} else if ch == '&' {
					continue // a lone & (2>&1, background) does not split
				}
			default:
				continue
			}
		}
		cur.line = s
		cur.split(s[start:i])
		c.check(prevDownloads, cur)
		prevDownloads = isDownloader(cur)
		cur.piped = sep == '|' && width == 1
		start = i + width
		i += width - 1
	}
}

// split fills the segment's words; quotes and backticks around words are
// dropped.
func (g *segment) split(text string) {
	g.words = g.buffer[:0]
	for i := 0; i < len(text); {
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		j := i
		for j < len(text) && !isSpace(text[j]) {
			j++
		}
		if i < j && len(g.words) < cap(g.words) {
			g.words = append(g.words, trimQuoteChars(text[i:j]))
		}
		i = j
	}
}

// name returns the command word of the segment and its arguments, after
// sudo, env and variable assignments.
func (g *segment) name() (string, []string) {
	w := g.words
	for len(w) > 0 && (w[0] == "sudo" || w[0] == "env" || w[0] == "exec" || w[0] == "command" ||
		(strings.IndexByte(w[0], '=') > 0 && !strings.HasPrefix(w[0], "-"))) {
		w = w[1:]
	}
	if len(w) == 0 {
		return "", nil
	}
	return baseName(w[0]), w[1:]
}

func baseName(cmd string) string { return cmd[strings.LastIndexByte(cmd, '/')+1:] }

func (c *cmdCheck) unsafe(g *segment, what string) {
	c.reasons = append(c.reasons, c.t.reason(RuleUnsafeCommand, "unsafe command "+quote(redact(strings.TrimSpace(g.line)))+": "+what))
}

func (c *cmdCheck) check(prevDownloads bool, g *segment) {
	if len(g.words) == 0 {
		return
	}
	var rmArgs, chmodArgs []string
	var rm, chmod bool
	for i, w := range g.words {
		switch baseName(w) {
		case "rm":
			if !rm {
				rm, rmArgs = true, g.words[i+1:]
			}
		case "chmod":
			if !chmod {
				chmod, chmodArgs = true, g.words[i+1:]
			}
		}
	}
	if rm && rmRoot(rmArgs) {
		c.unsafe(g, "deletes the whole file system or the home directory")
	}
	if chmod && worldWritable(chmodArgs) {
		c.unsafe(g, "makes files writable by everyone")
	}
	name, args := g.name()
	if isShell(name) || name == "eval" || name == "source" || name == "." || name == "iex" {
		if g.piped && prevDownloads {
			c.unsafe(g, "runs a downloaded script unreviewed (download piped into a shell)")
		} else if substitutesDownload(args) {
			c.unsafe(g, "runs a downloaded script unreviewed (download substituted into a shell)")
		}
	}
	if what := credential(name, g.words); what != "" {
		c.reasons = append(c.reasons, c.t.reason(RuleCredential,
			"command "+quote(redact(strings.TrimSpace(g.line)))+" passes a credential in clear text ("+what+"); read it from the environment or a secret store"))
	}
}

func rmRoot(args []string) bool {
	recursive, noPreserve, danger := false, false, false
	for _, a := range args {
		switch {
		case a == "--recursive":
			recursive = true
		case a == "--no-preserve-root":
			noPreserve = true
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if strings.ContainsAny(a, "rR") {
				recursive = true
			}
		default:
			switch strings.TrimRight(a, "/") {
			case "", "/*", "~", "~/*", "$HOME", "${HOME}", "$HOME/*", "${HOME}/*", "/.":
				danger = true
			}
		}
	}
	return recursive && (danger || noPreserve)
}

func worldWritable(args []string) bool {
	for _, a := range args {
		switch a {
		case "777", "0777", "666", "0666", "a+rwx", "ugo+rwx", "a+w", "o+w", "o+rwx", "a=rwx", "ugo=rwx":
			return true
		}
	}
	return false
}

func isShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "fish", "ash":
		return true
	}
	return false
}

func isDownloader(g *segment) bool {
	for _, w := range g.words {
		switch baseName(w) {
		case "curl", "wget", "fetch", "iwr", "Invoke-WebRequest":
			return true
		}
	}
	return false
}

func substitutesDownload(args []string) bool {
	for _, a := range args {
		for _, p := range [...]string{"$(curl", "$(wget", "<(curl", "<(wget", "`curl", "`wget"} {
			if strings.Contains(a, p) {
				return true
			}
		}
	}
	return false
}

// secretNames are parts of variable names that hold secrets.
var secretNames = [...]string{"PASSWORD", "PASSWD", "PASSPHRASE", "SECRET", "TOKEN", "API_KEY", "APIKEY",
	"ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL", "AUTH"}

// secretFlags are options whose value is a secret.
var secretFlags = [...]string{"--password", "--passwd", "--pass", "--token", "--api-key", "--apikey",
	"--secret", "--client-secret", "--access-key", "--secret-key", "--auth-token"}

// credential names the credential a command writes out, or "".
func credential(name string, words []string) string {
	for i, w := range words {
		if eq := strings.IndexByte(w, '='); eq > 0 && !strings.HasPrefix(w, "-") {
			if secretName(w[:eq]) && literal(w[eq+1:]) {
				return w[:eq] + "=..."
			}
		}
		if strings.HasPrefix(w, "--") {
			for _, f := range secretFlags {
				if !strings.HasPrefix(w, f) {
					continue
				}
				if len(w) == len(f) && i+1 < len(words) && literal(words[i+1]) {
					return f + " ..."
				}
				if len(w) > len(f) && w[len(f)] == '=' && literal(w[len(f)+1:]) {
					return f + "=..."
				}
			}
		}
		if (name == "mysql" || name == "mysqldump" || name == "mysqladmin") && strings.HasPrefix(w, "-p") && len(w) > 2 && literal(w[2:]) {
			return "-p..."
		}
		if name == "curl" && (w == "-u" || w == "--user") && i+1 < len(words) {
			if _, pass, ok := strings.Cut(words[i+1], ":"); ok && literal(pass) {
				return w + " user:..."
			}
		}
		if (w == "Bearer" || w == "Basic" || w == "token") && i > 0 && strings.EqualFold(strings.TrimSuffix(words[i-1], ":"), "Authorization") &&
			i+1 < len(words) && literal(words[i+1]) {
			return "Authorization: " + w + " ..."
		}
		if strings.IndexByte(w, '@') >= 0 && userinfo(w) {
			return "a URL with user:password@"
		}
		if len(w) >= 20 {
			if kind := tokenShape(w); kind != "" {
				return kind
			}
		}
	}
	return ""
}

func secretName(n string) bool {
	for _, s := range secretNames {
		if containsFold(n, s) {
			return true
		}
	}
	return false
}

// literal reports a value written out, not a reference to one.
func literal(v string) bool {
	v = trimQuoteChars(v)
	if len(v) < 3 || strings.HasPrefix(v, "$") || strings.HasPrefix(v, "<") || strings.HasPrefix(v, "{{") ||
		strings.HasPrefix(v, "%") || strings.HasPrefix(v, "-") {
		return false
	}
	if placeholder(v) {
		return false // a placeholder
	}
	return true
}

// placeholder reports values made only of *, x, X and dots (***, xxxx).
func placeholder(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c != '*' && c != 'x' && c != 'X' && c != '.' {
			return false
		}
	}
	return true
}

func userinfo(w string) bool {
	i := strings.Index(w, "://")
	if i < 0 {
		return false
	}
	rest := w[i+3:]
	if slash := strings.IndexByte(rest, '/'); slash >= 0 {
		rest = rest[:slash]
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return false
	}
	_, pass, ok := strings.Cut(rest[:at], ":")
	return ok && literal(pass)
}

// tokenShape names well-known secret token formats.
func tokenShape(w string) string {
	w = trimQuoteChars(w)
	switch {
	case hasPrefixLen(w, "ghp_", 36), hasPrefixLen(w, "gho_", 36), hasPrefixLen(w, "ghs_", 36), hasPrefixLen(w, "github_pat_", 40):
		return "a GitHub token"
	case hasPrefixLen(w, "sk-", 23):
		return "an API secret key"
	case hasPrefixLen(w, "xoxb-", 20), hasPrefixLen(w, "xoxp-", 20):
		return "a Slack token"
	case len(w) == 20 && strings.HasPrefix(w, "AKIA") && upperAlnum(w[4:]):
		return "an AWS access key id"
	case strings.Contains(w, "-----BEGIN") && strings.Contains(w, "PRIVATE"):
		return "a private key"
	}
	return ""
}

func hasPrefixLen(w, prefix string, min int) bool {
	return len(w) >= min && strings.HasPrefix(w, prefix)
}

func upperAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// redact replaces the values of credentials in a command by "...", so a
// reason never carries a secret.
func redact(text string) string {
	words := strings.Fields(text)
	for i, w := range words {
		if eq := strings.IndexByte(w, '='); eq > 0 && (secretName(w[:eq]) || isSecretFlag(w[:eq])) {
			words[i] = w[:eq+1] + "..."
			continue
		}
		if i > 0 && (isSecretFlag(words[i-1]) || words[i-1] == "-u" || words[i-1] == "--user" ||
			words[i-1] == "Bearer" || words[i-1] == "Basic") {
			words[i] = "..."
			continue
		}
		if strings.HasPrefix(w, "-p") && len(w) > 2 {
			words[i] = "-p..."
			continue
		}
		if userinfo(w) || tokenShape(w) != "" {
			words[i] = "..."
		}
	}
	return strings.Join(words, " ")
}

func isSecretFlag(w string) bool {
	for _, f := range secretFlags {
		if w == f {
			return true
		}
	}
	return false
}
