package divergence

// Bands of a document: the escalation policy a repository writes in a
// YAML file or a Markdown table beside the code that implements it.
//
//	quality_score:                      | Quality score | Action                   |
//	  "<60": "Escalate to senior"       |---------------|--------------------------|
//	  "60-74": "Peer review"            | < 60          | Escalate to human review |
//	  ">=75": "Accept"                  | 60–74         | Peer review              |
//
// A band is a cut-off (< 60, <= 0.5, below 60) or a range (0-59, 60–74)
// with an outcome; the bands whose outcome names escalation (else review)
// are the document's escalation thresholds on the subject the band, its
// column or its key names. They become a Candidate of the escalation
// concept marked Doc, which Cluster joins to the code's copies through
// the subject they share: a document that says < 60 where the code says
// < 70 is a conflicting threshold. A document is never a copy of the
// code (no duplicate finding counts it) nor canonical. A grade table
// ("90-100": "A") names no escalation and gives nothing.

import (
	"bytes"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/languages/facts"
)

// bandsName is the Function name of a document's bands in findings.
const bandsName = "escalation bands"

// maxBandLine bounds the length of a table line read for bands.
const maxBandLine = 4096

var (
	// a cut-off, after an optional subject: "< 60", "quality < 0.6",
	// "below 60%", "≥ 75"
	cutBand = regexp.MustCompile(`(?i)^([a-z][a-z0-9_. ]*?)?\s*(<=|>=|=<|=>|<|>|≤|≥|below|under|above|over|less than|more than|at least|at most)\s*(-?\d+(?:\.\d+)?)\s*%?$`)
	// a cut-off written after the number: "75+", "75% and up", "59 or less"
	postBand = regexp.MustCompile(`(?i)^([a-z][a-z0-9_. ]*?)?\s*(-?\d+(?:\.\d+)?)\s*%?\s*(\+|and up|and above|and over|or more|or higher|or above|or less|or lower|or below|and below|and under)$`)
	// a range: "0-59", "60 – 74", "0.5 to 0.7", "quality 0-59"
	rangeBand = regexp.MustCompile(`(?i)^([a-z][a-z0-9_. ]*?)?\s*(-?\d+(?:\.\d+)?)\s*%?\s*(?:-|–|—|to|\.\.)\s*(-?\d+(?:\.\d+)?)\s*%?$`)
	// a YAML key that is a cut-off itself: escalate_below, review_under,
	// escalation_threshold
	cutKey = regexp.MustCompile(`^(?:escalat[a-z]*|review[a-z]*)_(below|under|above|over|at_least|at_most|threshold|min|max)$`)
	// outcomes that say not to escalate
	negated = regexp.MustCompile(`(?i)\b(no|not|never|without|don't|do not|skip)\b[^.;,]*\b(escalat|review)`)
)

var cutOps = map[string]string{
	"<": "<", "<=": "<=", "=<": "<=", "≤": "<=", "below": "<", "under": "<", "less than": "<", "at most": "<=",
	">": ">", ">=": ">=", "=>": ">=", "≥": ">=", "above": ">", "over": ">", "more than": ">", "at least": ">=",
	// keys
	"threshold": "<", "min": "<", "max": ">",
	// after the number
	"+": ">=", "and up": ">=", "and above": ">=", "and over": ">=", "or more": ">=", "or higher": ">=", "or above": ">=",
	"or less": "<=", "or lower": "<=", "or below": "<=", "and below": "<=", "and under": "<=",
}

// band is one line of a band table.
type band struct {
	subject string
	op      string // a cut-off's operator; "" for a range
	v       float64
	lo, hi  float64 // a range
	outcome string
	pos     facts.Pos
}

// parseBand reads text as a band, or reports false.
func parseBand(text string) (band, bool) {
	s := strings.TrimSpace(strings.Trim(strings.TrimSpace(text), "`*_\"'"))
	if len(s) == 0 || len(s) > 80 {
		return band{}, false
	}
	if m := cutBand.FindStringSubmatch(s); m != nil {
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			return band{}, false
		}
		return band{subject: subjectName(m[1]), op: cutOps[strings.ToLower(m[2])], v: v}, true
	}
	if m := postBand.FindStringSubmatch(s); m != nil {
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			return band{}, false
		}
		return band{subject: subjectName(m[1]), op: cutOps[strings.ToLower(m[3])], v: v}, true
	}
	if m := rangeBand.FindStringSubmatch(s); m != nil {
		lo, err1 := strconv.ParseFloat(m[2], 64)
		hi, err2 := strconv.ParseFloat(m[3], 64)
		if err1 != nil || err2 != nil || hi < lo {
			return band{}, false
		}
		return band{subject: subjectName(m[1]), lo: lo, hi: hi}, true
	}
	return band{}, false
}

// subjectName normalizes the subject a document names ("Quality score
// (0-100)", "quality_score") as a field path ("quality_score"); "" when
// it names none.
func subjectName(s string) string {
	if i := strings.IndexAny(s, "(["); i >= 0 {
		s = s[:i]
	}
	s = strings.ToLower(strings.TrimSpace(s))
	var b strings.Builder
	sep := false
	for _, r := range s {
		switch {
		case 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '.':
			if sep && b.Len() > 0 {
				b.WriteByte('_')
			}
			sep = false
			b.WriteRune(r)
		default:
			sep = true
		}
	}
	return strings.Trim(b.String(), "._")
}

// outcomeNames tells whether an outcome names escalation (or, with
// review, review) without saying not to.
func outcomeNames(outcome string, review bool) bool {
	o := strings.ToLower(outcome)
	word := "escalat"
	if review {
		word = "review"
	}
	return strings.Contains(o, word) && !negated.MatchString(o)
}

// MayHaveBands tells from a document's lower-cased bytes whether it may
// hold escalation bands: whether it names escalation or review.
func MayHaveBands(lower []byte) bool {
	return bytes.Contains(lower, []byte("escalat")) || bytes.Contains(lower, []byte("review"))
}

// Bands returns the escalation bands of document rel, of a language
// whose documents hold them (extract.Lang.Bands: its mappings, and with
// Tables, its tables and YAML blocks) as candidates of the escalation
// concept, one per table.
func Bands(rel string, src []byte) []Candidate {
	l := extract.ForPath(rel)
	if l == nil || !l.Bands || extract.IsTestPath(rel) {
		return nil
	}
	lang := l.Name
	var out []Candidate
	if l.Tables {
		out = markdownBands(rel, lang, src)
		if !yamlFence(src) {
			return out // no YAML block: the tables were all
		}
	}
	f, _ := extract.Parse(rel, src)
	if f != nil {
		out = append(out, mappingBands(rel, lang, f)...)
	}
	return out
}

// bandCandidate makes the candidate of a table's bands: its escalation
// thresholds, or none.
func bandCandidate(rel, lang string, bands []band) []Candidate {
	chosen := pick(bands, false)
	if len(chosen) == 0 {
		chosen = pick(bands, true)
	}
	fn := facts.Function{Name: bandsName}
	for _, i := range chosen {
		b := bands[i]
		if b.subject == "" {
			continue
		}
		c := facts.Const{Field: b.subject, Op: b.op, Value: b.v, Pos: b.pos}
		if b.op == "" { // a range: the lowest band below its top, the highest above its bottom
			lowest, highest, next := true, true, math.Inf(1)
			for j, o := range bands {
				if j == i {
					continue
				}
				lo := o.lo
				if o.op != "" {
					lo = o.v
				}
				if lo < b.lo {
					lowest = false
				}
				if lo > b.lo {
					highest = false
				}
				if lo > b.hi && lo < next {
					next = lo
				}
			}
			switch {
			case lowest && !math.IsInf(next, 1):
				c.Op, c.Value = "<", next
			case lowest:
				c.Op, c.Value = "<=", b.hi
			case highest:
				c.Op, c.Value = ">=", b.lo
			default:
				continue // a band in the middle is no cut-off
			}
		}
		if len(fn.Consts) == 0 {
			fn.Pos = b.pos
		}
		fn.End = b.pos
		fn.Consts = append(fn.Consts, c)
	}
	if len(fn.Consts) == 0 {
		return nil
	}
	return []Candidate{{Concept: Escalation, Path: rel, Lang: lang, Fn: fn, Doc: true}}
}

// pick returns the bands whose outcome names escalation (review).
func pick(bands []band, review bool) []int {
	var out []int
	for i, b := range bands {
		if outcomeNames(b.outcome, review) {
			out = append(out, i)
		}
	}
	return out
}

// markdownBands reads the Markdown tables of src, outside fenced blocks,
// with a column of two or more bands.
func markdownBands(rel, lang string, src []byte) []Candidate {
	var out []Candidate
	var header []cell
	var rows [][]cell
	inTable, fenced := false, false
	flush := func() {
		if inTable {
			out = append(out, tableBands(rel, lang, header, rows)...)
		}
		inTable, header, rows = false, nil, nil
	}
	line, off := 0, 0
	var prev []cell
	for off < len(src) {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		text := src[off : off+end]
		line++
		pos := facts.Pos{Line: line, Col: 1, Offset: off}
		off += end + 1
		t := bytes.TrimSpace(text)
		if bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~")) {
			flush()
			fenced = !fenced
			continue
		}
		if fenced || len(text) > maxBandLine || len(t) == 0 || t[0] != '|' {
			flush()
			prev = nil
			continue
		}
		cells := splitRow(text, pos)
		switch {
		case inTable:
			rows = append(rows, cells)
		case prev != nil && separatorRow(cells):
			inTable, header = true, prev
		default:
			prev = cells
		}
	}
	flush()
	return out
}

// cell is a table cell and where its text starts.
type cell struct {
	text string
	pos  facts.Pos
}

// splitRow splits a table line into its cells.
func splitRow(text []byte, at facts.Pos) []cell {
	var out []cell
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && (text[i] != '|' || i > 0 && text[i-1] == '\\') {
			continue
		}
		if start >= 0 {
			raw := text[start:i]
			lead := len(raw) - len(bytes.TrimLeft(raw, " \t"))
			out = append(out, cell{text: string(bytes.TrimSpace(raw)),
				pos: facts.Pos{Line: at.Line, Col: start + lead + 1, Offset: at.Offset + start + lead}})
		}
		start = i + 1
	}
	if n := len(out); n > 0 && out[n-1].text == "" && bytes.HasSuffix(bytes.TrimSpace(text), []byte("|")) {
		out = out[:n-1]
	}
	return out
}

func separatorRow(cells []cell) bool {
	if len(cells) == 0 {
		return false
	}
	for _, c := range cells {
		if strings.Trim(c.text, ":- ") != "" || !strings.Contains(c.text, "-") {
			return false
		}
	}
	return true
}

// tableBands finds the band column of a table (the first with two
// bands or more) and makes its candidate; the other cells of a row are
// its outcome, the column's header its subject.
func tableBands(rel, lang string, header []cell, rows [][]cell) []Candidate {
	for col := range header {
		var bands []band
		for _, r := range rows {
			if col >= len(r) {
				continue
			}
			b, ok := parseBand(r[col].text)
			if !ok {
				continue
			}
			if b.subject == "" {
				b.subject = subjectName(header[col].text)
			}
			var outcome []string
			for k, c := range r {
				if k != col {
					outcome = append(outcome, c.text)
				}
			}
			b.outcome = strings.Join(outcome, " ")
			b.pos = r[col].pos
			bands = append(bands, b)
		}
		if len(bands) >= 2 {
			return bandCandidate(rel, lang, bands)
		}
	}
	return nil
}

// mappingBands reads the mappings of a YAML document (or of a Markdown
// file's YAML blocks): keys that are bands with an outcome as value, and
// keys that are cut-offs under an escalation key (escalate_below: 60).
func mappingBands(rel, lang string, f *facts.File) []Candidate {
	at := make(map[int]int, len(f.Mappings))
	for i := range f.Mappings {
		at[f.Mappings[i].Pos.Offset] = i
	}
	var out []Candidate
	seen := make([]bool, len(f.Mappings))
	var walk func(i int, path []string, depth int)
	walk = func(i int, path []string, depth int) {
		if seen[i] || depth > 32 {
			return
		}
		seen[i] = true
		mp := &f.Mappings[i]
		subject := ""
		for k := len(path) - 1; k >= 0 && subject == ""; k-- {
			if !policyWord(path[k]) {
				subject = subjectName(path[k])
			}
		}
		underEscalation := false
		for _, p := range path {
			if strings.Contains(strings.ToLower(p), "escalat") {
				underEscalation = true
			}
		}
		var bands, cuts []band
		for _, e := range mp.Entries {
			switch v := e.Value.(type) {
			case string:
				if b, ok := parseBand(e.Key); ok {
					if b.subject == "" {
						b.subject = subject
					}
					b.outcome, b.pos = v, e.KeyPos
					bands = append(bands, b)
				}
				switch strings.ToLower(e.Key) {
				case "metric", "field", "subject", "on", "score":
					subject = subjectName(v)
				}
			case float64, int64:
				n, _ := v.(float64)
				if k, ok := v.(int64); ok {
					n = float64(k)
				}
				if m := cutKey.FindStringSubmatch(strings.ToLower(e.Key)); m != nil && (underEscalation || strings.HasPrefix(strings.ToLower(e.Key), "escalat")) {
					op := cutOps[strings.ReplaceAll(m[1], "_", " ")]
					cuts = append(cuts, band{op: op, v: n, outcome: e.Key, pos: e.KeyPos})
				}
			}
		}
		for k := range cuts {
			cuts[k].subject = subject
		}
		if len(bands) >= 2 || len(bands) == 1 && underEscalation {
			out = append(out, bandCandidate(rel, lang, bands)...)
		}
		if len(cuts) > 0 {
			out = append(out, bandCandidate(rel, lang, cuts)...)
		}
		for _, e := range mp.Entries {
			if _, ok := e.Value.(map[string]any); !ok {
				continue
			}
			if j, ok := at[e.ValPos.Offset]; ok {
				walk(j, append(path[:len(path):len(path)], e.Key), depth+1)
			}
		}
	}
	for i := range f.Mappings {
		if f.Mappings[i].Root && !f.Mappings[i].InCode {
			walk(i, nil, 0)
		}
	}
	return out
}

// policyWord reports a key that names the policy rather than its
// subject: escalation, thresholds, bands, rules.
func policyWord(k string) bool {
	k = strings.ToLower(k)
	for _, w := range []string{"escalat", "threshold", "band", "rule", "polic", "routing", "review", "tier"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// hasCode reports whether some of the members are code, not documents.
func hasCode(cands []Candidate, members []int) bool {
	for _, i := range members {
		if !cands[i].Doc {
			return true
		}
	}
	return false
}

// code returns the members of c that are code, not documents.
func (c *cluster) code() []*Candidate {
	var out []*Candidate
	for _, mb := range c.members {
		if !mb.Doc {
			out = append(out, mb)
		}
	}
	return out
}

// yamlFence reports whether Markdown src may open a YAML block: a fence
// followed by y or Y (yaml, yml, YAML).
func yamlFence(src []byte) bool {
	for _, f := range []string{"```", "~~~"} {
		for rest := src; ; {
			i := bytes.Index(rest, []byte(f))
			if i < 0 {
				break
			}
			rest = bytes.TrimLeft(rest[i+len(f):], " ")
			if len(rest) > 0 && (rest[0] == 'y' || rest[0] == 'Y') {
				return true
			}
		}
	}
	return false
}
