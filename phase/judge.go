package phase

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Verdict is the judgement of one phase (contract: every field required,
// keys in this order; see msgcheck/specs/phase-verdict-v1.yaml).
type Verdict struct {
	Verdict           string   `json:"verdict"` // Pass or Fail
	Phase             int      `json:"phase"`
	Campaign          string   `json:"campaign"`
	ConditionsChecked int      `json:"conditions_checked"`
	ConditionsMet     []string `json:"conditions_met"`
	ConditionsFailed  []string `json:"conditions_failed"`
	Warnings          []string `json:"warnings"`
	Suggestions       []string `json:"suggestions"`
}

// Verdict values, and the fixed texts of the contract.
const (
	Pass            = "pass"
	Fail            = "fail"
	NoHandoff       = "no HANDOFF provided"
	ManualNote      = "(manual — logged, not validated)"
	DefaultCampaign = "unknown"
)

// JSON is the verdict as the contract writes it: indented by two spaces,
// keys in contract order, empty lists as [], a final newline. Same
// verdict, same bytes.
func (v Verdict) JSON() []byte {
	for _, l := range []*[]string{&v.ConditionsMet, &v.ConditionsFailed, &v.Warnings, &v.Suggestions} {
		if *l == nil {
			*l = []string{}
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic("phase: verdict does not encode: " + err.Error()) // strings and ints always do
	}
	return b.Bytes()
}

// Options are the judge's inputs beyond the conditions and the HANDOFF.
type Options struct {
	// Campaign and Phase win over what the conditions file names; with
	// neither, the verdict says DefaultCampaign and phase 0, with a warning.
	Campaign string
	Phase    int
	PhaseSet bool
	// Repo, when set, is a directory file_exists paths are also looked up
	// in (a stat, through os.Root: no path or symlink leaves it).
	Repo string
}

// Suggestions the judge makes, once each, in the order first needed.
const (
	suggestHandoff   = "Re-run the phase: the agent must end with a ---HANDOFF--- block that reports the work done"
	suggestFiles     = "List every file created or changed in a 'Files changed' section of the HANDOFF"
	suggestVerify    = "Add a 'Verification:' field to the HANDOFF with each command run and its observed result (e.g. 'npm test: 47 passed')"
	suggestVague     = "Report observed results, not expectations: hedged wording ('should work', 'probably passes') is not evidence"
	suggestFix       = "Fix what the HANDOFF reports as failing or missing, then re-run the phase"
	suggestMetric    = "Report each metric of the exit conditions with its measured value in the HANDOFF"
	suggestThreshold = "Meet each metric threshold of the exit conditions before advancing"
	suggestVisual    = "Attach a screenshot (a file path or a link) of each route that needs visual verification"
	suggestRepo      = "Create the files the exit conditions name in the repository, or correct their paths"
)

// outcome is the judgement of one condition.
type outcome struct {
	met      bool
	note     string // what follows "condition — "
	warnings []string
	suggest  string
}

func metOutcome(note string) outcome { return outcome{met: true, note: note} }
func failOutcome(note, suggest string) outcome {
	return outcome{note: note, suggest: suggest}
}

// Judge judges a HANDOFF against exit conditions. It reads nothing but
// opts.Repo (stat only) and runs nothing; the same inputs give the same
// verdict.
func Judge(exit *Exit, h *Handoff, opts Options) Verdict {
	v := Verdict{Campaign: DefaultCampaign}
	var conds []Condition
	var general []string
	if exit != nil {
		conds = exit.Conditions
		if exit.Campaign != "" {
			v.Campaign = exit.Campaign
		}
		if exit.HasPhase {
			v.Phase = exit.Phase
		}
	}
	if opts.Campaign != "" {
		v.Campaign = opts.Campaign
	}
	if opts.PhaseSet {
		v.Phase = opts.Phase
	}
	if v.Campaign == DefaultCampaign && opts.Campaign == "" && (exit == nil || exit.Campaign == "") {
		general = append(general, "campaign not given (--campaign, or a 'Campaign:' line in the conditions): recorded as '"+DefaultCampaign+"'")
	}
	if !opts.PhaseSet && (exit == nil || !exit.HasPhase) {
		general = append(general, "phase not given (--phase, or a 'Phase:' line in the conditions): recorded as 0")
	}
	v.ConditionsChecked = len(conds)
	if h.Empty() {
		v.Verdict = Fail
		v.ConditionsFailed = []string{NoHandoff}
		v.Warnings = general
		v.Suggestions = []string{suggestHandoff}
		return v
	}
	if h.Blocks > 1 {
		general = append(general, "the input holds "+strconv.Itoa(h.Blocks)+" ---HANDOFF--- blocks: only the first was judged")
	}
	j := &judge{h: h, repo: opts.Repo}
	if opts.Repo != "" {
		j.root, j.rootErr = os.OpenRoot(opts.Repo)
		if j.root != nil {
			defer j.root.Close()
		}
	}
	nonManual := 0
	for _, c := range conds {
		var o outcome
		switch c.Kind {
		case Manual:
			v.ConditionsMet = append(v.ConditionsMet, c.String()+" "+ManualNote)
			continue
		case FileExists:
			o = j.file(c)
		case CommandPasses:
			o = j.command(c)
		case MetricThreshold:
			o = j.metric(c)
		case VisualVerify:
			o = j.visual(c)
		}
		nonManual++
		text := c.String() + " — " + o.note
		if o.met {
			v.ConditionsMet = append(v.ConditionsMet, text)
		} else {
			v.ConditionsFailed = append(v.ConditionsFailed, text)
		}
		for _, w := range o.warnings {
			v.Warnings = append(v.Warnings, c.String()+" — "+w)
		}
		if o.suggest != "" && !contains(v.Suggestions, o.suggest) {
			v.Suggestions = append(v.Suggestions, o.suggest)
		}
	}
	if nonManual == 0 {
		general = append(general, "no non-manual exit conditions: nothing was validated against the HANDOFF")
	}
	v.Warnings = append(v.Warnings, general...)
	v.Verdict = Pass
	if len(v.ConditionsFailed) > 0 {
		v.Verdict = Fail
	}
	return v
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

type judge struct {
	h       *Handoff
	repo    string
	root    *os.Root
	rootErr error
}

// first keeps the first quote of a kind of evidence.
func first(dst *string, s string) {
	if *dst == "" {
		*dst = s
	}
}

// cleanArg strips the quoting a condition may carry: `src/x.ts`.
func cleanArg(s string) string { return strings.TrimSpace(strings.Trim(s, "`'\"")) }

// fileFromLex judges "removed the debug log from src/x.ts": a removal
// from the file is a change to it.
var fileFromLex = func() lexicon {
	l := lexicon{pos: set(), neg: set()}
	for w := range fileLex.pos {
		l.pos[w] = true
	}
	for w := range fileLex.neg {
		if w == "deleted" || w == "removed" || w == "reverted" {
			l.pos[w] = true
		} else {
			l.neg[w] = true
		}
	}
	return l
}()

func fileClass(clause, p string) polarity {
	for _, prep := range []string{"from ", "in ", "inside ", "to "} {
		if strings.Contains(clause, prep+p) || strings.Contains(clause, prep+"`"+p) {
			return classify(clause, fileFromLex)
		}
	}
	return classify(clause, fileLex)
}

func (j *judge) file(c Condition) outcome {
	p := strings.TrimPrefix(cleanArg(c.Arg), "./")
	base := ""
	if i := strings.LastIndexByte(strings.TrimSuffix(p, "/"), '/'); i >= 0 {
		base = strings.TrimSuffix(p, "/")[i+1:]
	}
	var neg, section, pos, hedgedItem, hedgedSection, byBase, vag, men string
	for _, l := range j.h.lines {
		if l.files {
			switch {
			case containsPath(l.text, p):
				switch fileClass(l.text, p) {
				case against:
					first(&neg, l.text)
				case vague:
					if hedgedItem == "" {
						hedgedItem, hedgedSection = l.text, l.section
					}
				default:
					first(&section, l.section)
				}
			case base != "" && containsPath(l.text, base) && fileClass(l.text, base) != against:
				first(&byBase, l.text)
			}
			continue
		}
		for _, cl := range l.clauses {
			switch {
			case containsPath(cl, p):
				switch fileClass(cl, p) {
				case against:
					first(&neg, cl)
				case claim:
					first(&pos, cl)
				case vague:
					first(&vag, cl)
				default:
					first(&men, cl)
				}
			case base != "" && containsPath(cl, base) && fileClass(cl, base) == claim:
				first(&byBase, cl)
			}
		}
	}
	var o outcome
	switch {
	case neg != "":
		o = failOutcome("HANDOFF contradicts it: "+quote(neg), suggestFix)
	case section != "":
		o = metOutcome("HANDOFF lists it in the '" + section + "' section")
	case pos != "":
		o = metOutcome("HANDOFF states " + quote(pos))
	case hedgedItem != "":
		o = metOutcome("HANDOFF lists it in the '" + hedgedSection + "' section")
		o.warnings = []string{"listed, but in hedged words: " + quote(hedgedItem)}
	case byBase != "":
		o = metOutcome("HANDOFF states " + quote(byBase))
		o.warnings = []string{"weak evidence: the HANDOFF names '" + base + "' but not the full path"}
	case vag != "":
		o = failOutcome("only vague language: "+quote(vag)+" is not evidence", suggestVague)
	case men != "":
		o = failOutcome("HANDOFF names it but does not claim it was created or changed: "+quote(men), suggestFiles)
	default:
		o = failOutcome("HANDOFF does not mention this file", suggestFiles)
	}
	if j.repo != "" {
		o = j.checkRepo(p, o)
	}
	return o
}

// checkRepo adds what a stat under the repository says to a file_exists
// outcome: the tree is stronger evidence than the HANDOFF either way.
func (j *judge) checkRepo(p string, o outcome) outcome {
	const checked = "(checked with --repo)"
	exists, reason := j.stat(p)
	switch {
	case reason != "":
		o.warnings = append(o.warnings, "not checked in the repository: "+reason)
	case exists && o.met:
		o.note += "; the file exists in the repository " + checked
	case exists:
		o = outcome{met: true, note: "the file exists in the repository " + checked + ", but " + o.note,
			warnings: append(o.warnings, "only the repository check supports it; the HANDOFF does not report it")}
	case o.met:
		o = outcome{note: "not in the repository " + checked + ", though " + o.note, warnings: o.warnings, suggest: suggestRepo}
	default:
		o.note = "not in the repository " + checked + "; " + o.note
		o.suggest = suggestRepo
	}
	return o
}

// stat looks p up under the repository: no absolute paths, no "..", no
// symlink out of it (os.Root refuses them all).
func (j *judge) stat(p string) (exists bool, reason string) {
	if j.rootErr != nil || j.root == nil {
		return false, "the repository directory cannot be opened"
	}
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "\\") {
		return false, "the path is absolute"
	}
	name := strings.TrimSuffix(filepath.FromSlash(p), string(filepath.Separator))
	if name == "" {
		name = "."
	}
	_, err := j.root.Stat(name)
	switch {
	case err == nil:
		return true, ""
	case errors.Is(err, fs.ErrNotExist):
		return false, ""
	}
	return false, "the path leaves the repository or cannot be read"
}

// command categories: words in a command that tell its kind of check, and
// the words a HANDOFF reports that check with.
var categories = []struct {
	triggers, keywords map[string]bool
}{
	{set("tsc", "mypy", "pyright", "typecheck", "types", "flow"), set("typecheck", "typechecks", "typechecking", "typechecked", "tsc", "types", "typing", "mypy", "pyright")},
	{set("test", "tests", "jest", "vitest", "pytest", "mocha", "ava", "karma", "playwright", "cypress", "spec", "e2e", "unittest"),
		set("test", "tests", "testing", "suite", "specs", "spec", "jest", "vitest", "pytest", "mocha", "playwright", "cypress", "e2e")},
	{set("build", "webpack", "tsup", "rollup", "esbuild", "compile"), set("build", "builds", "compile", "compiles", "compiled", "compilation", "bundle", "bundled")},
	{set("lint", "eslint", "ruff", "flake8", "pylint", "golangci", "clippy", "vet", "stylelint", "biome"),
		set("lint", "linter", "linting", "lints", "eslint", "ruff", "clippy", "vet", "flake8", "pylint", "golangci")},
	{set("prettier", "gofmt", "black", "fmt", "format"), set("format", "formatting", "formatted", "prettier", "gofmt", "fmt")},
}

// runners are the words before the program: npx tsc, npm run lint, go test.
var runners = set("npx", "npm", "pnpm", "yarn", "bun", "bunx", "run", "exec", "python", "python3", "m", "go",
	"cargo", "poetry", "uv", "node", "deno", "sh", "bash", "make", "dotnet", "mvn", "gradle", "gradlew")

var genericWords = set("ci", "checks", "everything", "pipeline", "verification", "all")

func (j *judge) command(c Condition) outcome {
	cmd := strings.ToLower(strings.Join(strings.Fields(cleanArg(c.Arg)), " "))
	keywords := set()
	prog := ""
	for _, f := range strings.Fields(cmd) {
		if strings.HasPrefix(f, "-") || strings.ContainsAny(f, "./") {
			continue
		}
		w := strings.Trim(f, "\"'`")
		if prog == "" && !runners[w] && len(w) >= 2 {
			prog = w
		}
	}
	if prog != "" {
		keywords[prog] = true
	}
	for _, t := range tokenize(cmd) {
		for _, cat := range categories {
			if cat.triggers[t] {
				for k := range cat.keywords {
					keywords[k] = true
				}
			}
		}
	}
	var neg, pos, genNeg, genPos, vag, men string
	for _, l := range j.h.lines {
		if l.files {
			continue // a list of files claims nothing about commands
		}
		for _, cl := range l.clauses {
			low := strings.ToLower(strings.Join(strings.Fields(cl), " "))
			toks := tokenize(low)
			specific := strings.Contains(low, cmd)
			generic := false
			for i, t := range toks {
				specific = specific || keywords[t] || (t == "type" && i+1 < len(toks) && strings.HasPrefix(toks[i+1], "check") && keywords["typecheck"])
				generic = generic || genericWords[t] && (t != "all" || i+1 < len(toks) && (toks[i+1] == "green" || toks[i+1] == "checks"))
			}
			if !specific && !generic {
				continue
			}
			pol := classify(cl, commandLex)
			switch {
			case specific && pol == against:
				first(&neg, cl)
			case specific && pol == claim:
				first(&pos, cl)
			case pol == against:
				first(&genNeg, cl)
			case pol == claim:
				first(&genPos, cl)
			case pol == vague:
				first(&vag, cl)
			case specific:
				first(&men, cl)
			}
		}
	}
	switch {
	case neg != "":
		return failOutcome("HANDOFF contradicts it: "+quote(neg), suggestFix)
	case pos != "":
		return metOutcome("HANDOFF states " + quote(pos))
	case genNeg != "":
		return failOutcome("HANDOFF contradicts it: "+quote(genNeg), suggestFix)
	case genPos != "":
		o := metOutcome("HANDOFF states " + quote(genPos))
		o.warnings = []string{"weak evidence: only a general claim; the HANDOFF does not name this command or its kind of check"}
		return o
	case vag != "":
		return failOutcome("only vague language: "+quote(vag)+" is not evidence", suggestVague)
	case men != "":
		return failOutcome("HANDOFF mentions it but does not claim it ran and passed: "+quote(men), suggestVerify)
	}
	return failOutcome("HANDOFF does not claim this command was run and passed", suggestVerify)
}

var approx = set("about", "around", "approximately", "approx", "roughly", "nearly", "almost", "circa", "ca")

// leadingNumber reads the number a token starts with: "85", "85.5", "180ms", "92/100".
func leadingNumber(t string) (float64, bool) {
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.' && i > 0) {
		i++
	}
	if i == 0 {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.TrimSuffix(t[:i], "."), 64)
	return f, err == nil
}

func formatNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func (j *judge) metric(c Condition) outcome {
	mt := tokenize(strings.NewReplacer("_", " ", "-", " ").Replace(strings.ToLower(c.Metric)))
	var unmet, met, vag, men, unmetWhy, metWhy string
	for _, l := range j.h.lines {
		if l.files {
			continue
		}
		for _, cl := range l.clauses {
			toks := tokenize(strings.NewReplacer("_", " ", "-", " ").Replace(strings.ToLower(cl)))
			k := indexSeq(toks, mt)
			if k < 0 {
				continue
			}
			if hedged(toks) || strings.ContainsAny(cl, "~≈") {
				first(&vag, cl)
				continue
			}
			val, at, ok := 0.0, -1, false
			for i := k + len(mt); i < len(toks) && !ok; i++ {
				val, ok = leadingNumber(toks[i])
				at = i
			}
			if !ok && k > 0 {
				val, ok = leadingNumber(toks[k-1])
				at = k - 1
			}
			if !ok {
				first(&men, cl)
				continue
			}
			// "from 70% to 85%", "70% → 85%": the value reached
			for at+1 < len(toks) {
				next := at + 1
				if toks[next] == "to" && next+1 < len(toks) {
					next++
				}
				v2, ok2 := leadingNumber(toks[next])
				if !ok2 {
					break
				}
				val, at = v2, next
			}
			if at > 0 && approx[toks[at-1]] {
				first(&vag, cl)
				continue
			}
			if compare(val, c.Op, c.Value) {
				if met == "" {
					met, metWhy = cl, formatNum(val)+" "+c.Op+" "+formatNum(c.Value)
				}
			} else if unmet == "" {
				unmet, unmetWhy = cl, formatNum(val)+" is not "+c.Op+" "+formatNum(c.Value)
			}
		}
	}
	switch {
	case unmet != "":
		return failOutcome("HANDOFF reports "+quote(unmet)+" ("+unmetWhy+")", suggestThreshold)
	case met != "":
		return metOutcome("HANDOFF reports " + quote(met) + " (" + metWhy + ")")
	case vag != "":
		return failOutcome("only vague language: "+quote(vag)+" is not evidence", suggestVague)
	case men != "":
		return failOutcome("HANDOFF mentions "+c.Metric+" but reports no value: "+quote(men), suggestMetric)
	}
	return failOutcome("HANDOFF does not report "+c.Metric, suggestMetric)
}

func indexSeq(toks, seq []string) int {
	if len(seq) == 0 {
		return -1
	}
outer:
	for i := 0; i+len(seq) <= len(toks); i++ {
		for k, s := range seq {
			if toks[i+k] != s {
				continue outer
			}
		}
		return i
	}
	return -1
}

var attachmentRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)!\[[^\]]*\]\([^)\s]+\)|[\w./-]+\.(?:png|jpe?g|gif|webp|svg|mp4|webm|mov)\b`)
})

var visualSections = set("screenshots", "screenshot", "visual", "visuals", "visual verification", "visual check",
	"visual checks", "ui verification", "visual evidence")

func (j *judge) visual(c Condition) outcome {
	route := cleanArg(c.Arg)
	var neg, attached, unattached, vag, men string
	for _, l := range j.h.lines {
		inVisual := visualSections[normSection(l.section)]
		attach := attachmentRE().MatchString(l.text)
		for _, cl := range l.clauses {
			if !containsPath(cl, route) {
				continue
			}
			pol := classify(cl, visualLex)
			if pol == mention && inVisual {
				pol = claim
			}
			switch pol {
			case against:
				first(&neg, cl)
			case claim:
				if attach {
					first(&attached, l.text)
				} else {
					first(&unattached, cl)
				}
			case vague:
				first(&vag, cl)
			default:
				first(&men, cl)
			}
		}
	}
	switch {
	case neg != "":
		return failOutcome("HANDOFF contradicts it: "+quote(neg), suggestFix)
	case attached != "":
		return metOutcome("HANDOFF references a screenshot: " + quote(attached))
	case unattached != "":
		o := metOutcome("HANDOFF states " + quote(unattached))
		o.warnings = []string{"visual check claimed, but no screenshot file or link attached"}
		return o
	case vag != "":
		return failOutcome("only vague language: "+quote(vag)+" is not evidence", suggestVague)
	case men != "":
		return failOutcome("HANDOFF names the route but shows no screenshot or visual confirmation of it: "+quote(men), suggestVisual)
	}
	return failOutcome("HANDOFF has no screenshot or visual confirmation of this route", suggestVisual)
}
