package divergence

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/shape"
	protocol "github.com/protoscan-dev/protoscan/msgcheck/evidence"
)

// Escalation decisions as code writes them: a function decides to
// escalate (it returns or sets an escalate outcome, calls escalate(...),
// routes to a human or principal reviewer), or is named for it and shows
// protocol evidence, and the number it compares is a score of the work:
// quality_score, score, confidence, metrics.quality. Its subject is that
// number, on a scale: 0–1, or 0–100 read as 0–1 when the name says percent
// (quality_pct, quality_score) and the literal lies in 10–100, or its own
// (a 1–5 rating, a score on 0–100 whose name does not say percent).

// scoreQuantities are the words that name a score of the work itself.
var scoreQuantities = map[string]bool{"quality": true, "confidence": true}

// scoreUnits name the unit of a quantity; a subject of units alone
// ("score") is its own quantity.
var scoreUnits = map[string]bool{"score": true, "pct": true, "percent": true, "percentage": true}

// scoreModifiers qualify a score without making it a score of something
// else (overall_score, final_quality).
var scoreModifiers = map[string]bool{"overall": true, "final": true, "avg": true, "average": true, "mean": true, "aggregate": true, "total": true}

// otherScores are words of scores of other things: test coverage,
// similarity and retrieval, risk, HTTP. A subject's path, a function or a
// parameter named with one is not about the work's quality.
var otherScores = map[string]bool{
	"coverage": true, "similarity": true, "similar": true, "cosine": true, "distance": true, "relevance": true,
	"relevant": true, "retrieval": true, "retrieve": true, "rerank": true, "search": true, "embedding": true,
	"embeddings": true, "bleu": true, "rouge": true, "test": true, "tests": true, "lint": true,
	"http": true, "risk": true, "fraud": true, "spam": true, "toxicity": true,
	"sentiment": true, "credit": true, "health": true, "latency": true, "backoff": true,
}

// Scales of a subject other than 0–1, which are never merged with it.
// A scale is the measure of its thresholdKey: a score compared on 0–1
// has the measure "" of a value.
const (
	scaleRating  = "scale 1-5"   // a rating
	scaleSmall   = "scale 1-10"  // a literal above 1 and below 10
	scalePercent = "scale 0-100" // a literal in 10–100 not read on 0–1
	scaleRaw     = "scale ?"     // any other literal
	scaleUnit    = "scale 0-1"   // a percentage's name on 0–1 where the spec's scale is another
)

// scoreSubject is what an escalation's constant compares, read from its
// field's path: the quantity, whether its name says percent, whether it is
// a rating, and whether it is a score of the work at all.
type scoreSubject struct {
	quantity string
	percent  bool
	rating   bool
	weak     bool // a bare score or rating: of what, the name does not say
}

// subjectOf reads the score subject of a field path ("quality_score",
// "metrics.quality", "self.score"), or ok false.
func subjectOf(path string) (s scoreSubject, ok bool) {
	if path == "" {
		return s, false
	}
	segs := strings.Split(shape.FieldName(path), ".")
	for _, seg := range segs[:len(segs)-1] {
		for _, w := range strings.Split(seg, "_") {
			if otherScores[w] {
				return s, false
			}
		}
	}
	var quantity []string
	units := 0
	for _, w := range strings.Split(segs[len(segs)-1], "_") {
		switch {
		case w == "":
		case scoreQuantities[w]:
			quantity = append(quantity, w)
		case scoreUnits[w]:
			units++
			if w != "score" {
				s.percent = true
			}
		case w == "rating" || w == "stars":
			s.rating = true
		case scoreModifiers[w]:
		default:
			return s, false
		}
	}
	switch {
	case len(quantity) > 1:
		return s, false
	case len(quantity) == 1:
		s.quantity = quantity[0]
		if units > 0 {
			s.percent = true // quality_score, confidence_pct
		}
	case s.rating:
		s.quantity, s.weak = "rating", true
	case units > 0 && !s.percent && len(segs) > 1 && scoreQuantities[segs[len(segs)-2]]:
		s.quantity, s.percent = segs[len(segs)-2], true // quality.score
	case units > 0 && !s.percent:
		s.quantity, s.weak = "score", true
	default:
		return s, false // pct alone: a percentage of what
	}
	if s.rating {
		s.percent = false
	}
	return s, true
}

// scaleOf places value v of subject s on a scale: the key it is compared
// by, its value on that scale, and whether it was read from 0–100 as 0–1.
// A percentage goes by the spec's scale of the quantity (specMax, the
// maximum of its field; 0 when the spec bounds none): it is read on 0–1
// when that scale is 0–1 or unknown, taken as written when it is 0–100,
// and kept apart from the spec's field on any other.
func scaleOf(s scoreSubject, v, specMax float64) (key thresholdKey, norm float64, scaled bool) {
	key = thresholdKey{field: s.quantity}
	switch {
	case s.rating:
		key.measure = scaleRating
	case specMax == 100 && s.percent && v >= 10 && v <= 100:
	case specMax > 1 && s.percent && v >= 0 && v <= 100:
		key.measure = scalePercent // kept apart from the spec's field
		if v <= 1 {
			key.measure = scaleUnit
		}
	case v >= 0 && v <= 1:
	case s.percent && v >= 10 && v <= 100:
		return key, v / 100, true
	case v > 1 && v < 10:
		key.measure = scaleSmall
	case v >= 10 && v <= 100:
		key.measure = scalePercent
	default:
		key.measure = scaleRaw
	}
	return key, v, false
}

// escalationThresholds adds to out the constants an escalation decision
// compares score subjects with that are no protocol field (those are
// read by thresholds), each on its scale.
func (m *Model) escalationThresholds(fn *facts.Function, out map[thresholdKey][]constAt) map[thresholdKey][]constAt {
	for _, c := range fn.Consts {
		v, ok := c.Value.(float64)
		if !ok || !orderOp(c.Op) || c.Measure != "" || m.kinds(c.Field) != 0 {
			continue
		}
		s, ok := subjectOf(c.Field)
		if !ok {
			continue
		}
		k, norm, scaled := scaleOf(s, v, m.specMax(s.quantity))
		x := constAt{value: v, op: c.Op, field: c.Field, pos: c.Pos, name: c.Name, norm: norm, branch: c.Branch, scaled: scaled}
		if out == nil {
			out = map[thresholdKey][]constAt{}
		}
		if !containsNorm(out[k], norm) {
			out[k] = insertByNorm(out[k], x)
		}
	}
	return out
}

// specMax is the spec's maximum of quantity q (a field of that name:
// metrics.quality for quality), or 0 when it bounds none.
func (m *Model) specMax(q string) float64 {
	for _, l := range m.limits[thresholdKey{field: q}] {
		if l.Measure == "" && l.Op[0] == '<' {
			return l.Value
		}
	}
	return 0
}

func containsNorm(cs []constAt, v float64) bool {
	for _, c := range cs {
		if c.norm == v {
			return true
		}
	}
	return false
}

func insertByNorm(cs []constAt, x constAt) []constAt {
	i := 0
	for i < len(cs) && cs[i].norm < x.norm {
		i++
	}
	cs = append(cs, constAt{})
	copy(cs[i+1:], cs[i:])
	cs[i] = x
	return cs
}

func orderOp(op string) bool {
	switch op {
	case "<", "<=", ">", ">=":
		return true
	}
	return false
}

// scoreEscalation tells whether fn is an escalation decision by what it
// does: it compares a score of the work (scoreSubjects) and decides to
// escalate (an escalate outcome, or a route to a human or principal
// reviewer), or it is named for escalation (named) and shows protocol
// evidence. A bare score (a score of what?) needs the evidence too.
// Scores of other things (coverage, similarity, an HTTP status) never
// make one, nor do functions, parameters or calls named for them.
func (m *Model) scoreEscalation(f *facts.File, strs []facts.String, fn *facts.Function, named, shown bool) bool {
	strong, weak := scoreSubjects(fn)
	if !strong && !weak || namedForOther(fn) {
		return false
	}
	decides := bodyEscalates(strs, fn) || routesToReviewer(strs, fn)
	if decides && strong {
		return true
	}
	if !decides && !named {
		return false
	}
	return m.shows(f, fn, shown)
}

// shows tells whether fn, else its file, shows protocol evidence (package
// msgcheck/evidence); shown says its text does.
func (m *Model) shows(f *facts.File, fn *facts.Function, shown bool) bool {
	return shown || len(protocol.In(f, m.spec, fn)) > 0 || len(protocol.Of(f, m.spec)) > 0
}

// scoreSubjects tells whether fn compares a score of the work by order,
// with a number or a named constant: one whose name says what it scores
// (strong), or a bare score (weak).
func scoreSubjects(fn *facts.Function) (strong, weak bool) {
	for _, c := range fn.Consts {
		if !orderOp(c.Op) || c.Measure != "" {
			continue
		}
		if _, num := c.Value.(float64); !num && (c.Value != nil || c.Ref == "") {
			continue
		}
		if s, ok := subjectOf(c.Field); ok {
			if s.weak {
				weak = true
			} else {
				strong = true
			}
		}
	}
	return strong, weak
}

// measuresOther are the words of calls that compute a score of
// something else: cosine_similarity(a, b), rerank(docs). A call is named
// for what it does, so only these say the score compared is theirs (a
// decision that also runs run_tests() or re.match() is still one).
var measuresOther = map[string]bool{"cosine": true, "similarity": true, "embedding": true, "embed": true,
	"rerank": true, "bleu": true, "rouge": true, "coverage": true, "relevance": true}

// namedForOther tells whether fn's name or parameters name a score of
// something else (check_coverage, similarity_score), or it calls what
// computes one (cosine_similarity(a, b)).
func namedForOther(fn *facts.Function) bool {
	for _, n := range fn.Params {
		if hasWordOf(n, otherScores) {
			return true
		}
	}
	for _, n := range fn.Calls {
		if hasWordOf(n, measuresOther) {
			return true
		}
	}
	return hasWordOf(fn.Name[strings.LastIndexByte(fn.Name, '.')+1:], otherScores)
}

func hasWordOf(name string, words map[string]bool) bool {
	for _, w := range nameWords(name) {
		if words[w] {
			return true
		}
	}
	return false
}

// routingKeys are keys whose string values say where work goes:
// {"route": "human"}.
var routingKeys = map[string]bool{"route": true, "to": true, "assignee": true, "assign_to": true, "reviewer": true,
	"next": true, "target": true, "escalate_to": true, "handler": true, "queue": true, "destination": true,
	"owner": true, "action": true, "decision": true, "outcome": true, "agent": true}

// routesToReviewer tells whether fn routes work to a human or principal
// reviewer: it calls route_to_human(...) or request_human_review(...), or
// returns, assigns or sets a value naming one ("human_review",
// "principal-engineer", {"route": "human"}).
func routesToReviewer(strs []facts.String, fn *facts.Function) bool {
	for _, c := range fn.Calls {
		if namesReviewer(c, false) {
			return true
		}
	}
	for i := range strs {
		s := &strs[i]
		if s.Pos.Offset < fn.Pos.Offset || s.Pos.Offset >= fn.End.Offset || len(s.Value) > 64 {
			continue
		}
		if (s.Role == facts.RoleReturn || s.Role == facts.RoleAssign || s.Role == facts.RoleValue) &&
			namesReviewer(s.Value, routingKeys[shape.FieldName(s.Key)]) {
			return true
		}
	}
	return false
}

// reviewWords say that a human is asked to review or take over, not that
// a message is a human's (HumanMessage, {"role": "human"}).
var reviewWords = map[string]bool{"review": true, "reviewer": true, "approval": true, "approve": true, "route": true,
	"handoff": true, "escalate": true, "escalation": true, "loop": true, "intervention": true, "input": true,
	"engineer": true, "agent": true, "architect": true}

// namesReviewer tells whether a name or value names a human or principal
// reviewer: human or principal beside a word of review (human_review,
// route_to_human, principal-engineer), or human alone where the key says
// it is a route (routed).
func namesReviewer(s string, routed bool) bool {
	var human, principal, review bool
	n := 0
	for _, w := range strings.FieldsFunc(shape.FieldName(s), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	}) {
		n++
		switch {
		case w == "human" || w == "humans":
			human = true
		case w == "principal":
			principal = true
		case reviewWords[w]:
			review = true
		}
	}
	return (human || principal) && review || human && routed && n == 1
}

// written is how a value is named in a finding: as the code writes it,
// and on 0–1 when it was read from 0–100 ("70 (0.70)").
func written(x constAt) string {
	if !x.scaled {
		return num(x.value)
	}
	return fmt.Sprintf("%s (%s)", num(x.value), unitNum(x.norm))
}

// unitNum writes a value on 0–1 with two decimals at least: 0.70, 0.655.
func unitNum(v float64) string {
	if s := strconv.FormatFloat(v, 'f', 2, 64); num(v) == strings.TrimRight(strings.TrimRight(s, "0"), ".") {
		return s
	}
	return num(v)
}

// onScaleOf writes the values of ref on the scale member x writes its
// value on: 0.5 is 50 to a copy that compares 70 (0.70).
func onScaleOf(x constAt, ref []constAt) string {
	parts := make([]string, len(ref))
	for i, r := range ref {
		switch {
		case x.scaled && !r.scaled:
			parts[i] = num(math.Round(r.norm*100*1e9) / 1e9)
		case !x.scaled && r.scaled:
			parts[i] = num(r.norm)
		default:
			parts[i] = num(r.value)
		}
	}
	return strings.Join(parts, ", ")
}

// vendored tells whether a path lies in a copy of another project's code
// (third_party/, vendor/): its decisions are that project's, not copies
// of this one's.
func vendored(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		switch strings.ToLower(seg) {
		case "vendor", "vendored", "_vendor", "third_party", "third-party", "thirdparty", "site-packages", "node_modules":
			return true
		}
	}
	return false
}

func writtenList(cs []constAt) string {
	parts := make([]string, len(cs))
	for i, x := range cs {
		parts[i] = written(x)
	}
	return strings.Join(parts, ", ")
}

// The prefilter's needles of an escalation on a score: a reviewer (beside
// escalat, which the prefilter looks for already), and a score's word.
var (
	reviewerWords = [][]byte{[]byte("human"), []byte("principal")}
	scoreWords    = [][]byte{[]byte("quality"), []byte("score"), []byte("confidence"), []byte("rating")}
)

// mayEscalateOnScore mirrors scoreEscalation on a file's lower-cased
// bytes, given whether they hold escalat (esc): an outcome's word and a
// score's word, anywhere (quality in qualityscore, human in routetohuman).
func mayEscalateOnScore(lower []byte, esc bool) bool {
	return (esc || containsAny(lower, reviewerWords)) && containsAny(lower, scoreWords)
}

// otherScore tells whether two escalation decisions whose bodies look
// alike decide on different scores (a rating and a quality score, a score
// on 0–100 and one on 0–1): each compares a score, and no score of one is
// a score of the other. Those are two decisions, not copies of one.
func otherScore(c *Candidate, a, b map[thresholdKey][]constAt) bool {
	if c.Concept != Escalation {
		return false
	}
	sa, sb := scoreKeys(a), scoreKeys(b)
	if len(sa) == 0 || len(sb) == 0 {
		return false
	}
	for _, k := range sa {
		if slices.Contains(sb, k) {
			return false
		}
	}
	return true
}

// scoreKeys are the keys of ths that are scores of the work.
func scoreKeys(ths map[thresholdKey][]constAt) []thresholdKey {
	var out []thresholdKey
	for k, cs := range ths {
		if len(cs) > 0 && (k.measure == "" || strings.HasPrefix(k.measure, "scale ")) {
			if _, ok := subjectOf(cs[0].field); ok {
				out = append(out, k)
			}
		}
	}
	return out
}
