package report

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/rules"
)

// SARIF 2.1.0 as GitHub code scanning reads it
// (https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning).
const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	// InformationURI is protoscan's home page (tool.driver.informationUri).
	InformationURI = "https://github.com/protoscan-dev/protoscan"
	// RulesDocURI is the page documenting every rule, one heading per rule
	// id; a rule's helpUri is this page with the heading's anchor.
	RulesDocURI = InformationURI + "/blob/main/docs/rules.md"
	// srcRoot is the uriBaseId of every location inside the repository:
	// its root, which run.originalUriBaseIds declares (Report.SrcRoot).
	srcRoot = "%SRCROOT%"
	// FingerprintKey is the partialFingerprints key of Finding.Fingerprint;
	// the version changes when the fingerprint's recipe does.
	FingerprintKey = "protoscan/v1"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool               `json:"tool"`
	Invocations        []sarifInvocation       `json:"invocations,omitempty"`
	OriginalURIBaseIDs map[string]sarifBaseURI `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                  `json:"columnKind"`
	Results            json.RawMessage         `json:"results"` // written by writeSARIFLog
	Properties         *sarifRunProperties     `json:"properties,omitempty"`
}

// sarifInvocation is the run's invocation: only there to say what the log
// left out.
type sarifInvocation struct {
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications"`
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
}

type sarifNotification struct {
	Message sarifText `json:"message"`
	Level   string    `json:"level"`
}

// sarifBaseURI is what a uriBaseId stands for: an absolute URI.
type sarifBaseURI struct {
	URI string `json:"uri"`
}

// sarifRunProperties is the run's property bag: the scan's summary.
type sarifRunProperties struct {
	Files         int `json:"files"`
	Parsed        int `json:"parsed"`
	Candidates    int `json:"candidates"`
	Suppressed    int `json:"suppressed"`
	Baselined     int `json:"baselined"`
	StaleBaseline int `json:"staleBaseline"`
	// Gate is the specs in effect and why, the config, and the settings
	// of the tree's config that lower the gate (the JSON report's gate).
	Gate *jsonGate `json:"gate,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules,omitempty"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifMultiformat struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	Name                 string             `json:"name,omitempty"`
	ShortDescription     sarifText          `json:"shortDescription"`
	FullDescription      sarifText          `json:"fullDescription"`
	Help                 sarifMultiformat   `json:"help"`
	HelpURI              string             `json:"helpUri"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
	Properties           *sarifRuleProps    `json:"properties,omitempty"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifRuleProps struct {
	Tags []string `json:"tags"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           *int              `json:"ruleIndex,omitempty"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	Fixes               []sarifFix        `json:"fixes,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifText            `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// sarifRegion is a text region by line and column; zero fields are
// unknown and left out.
type sarifRegion struct {
	StartLine   int `json:"startLine,omitempty"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// sarifOffsetRegion is a region by offset, where 0 is meaningful.
type sarifOffsetRegion struct {
	CharOffset int `json:"charOffset"`
	CharLength int `json:"charLength"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifOffsetRegion `json:"deletedRegion"`
	InsertedContent *sarifText        `json:"insertedContent,omitempty"`
}

// SARIFLimits bound a SARIF log; a zero field stands for GitHub's value
// (GitHubLimits).
type SARIFLimits struct {
	Results   int   // results per run
	Locations int   // locations, and related locations, per result
	Gzipped   int64 // bytes of the whole log compressed with gzip
}

// GitHubLimits are GitHub code scanning's limits on an uploaded SARIF
// file: 25,000 results per run, 1,000 locations per result, 10 MB
// gzipped (https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning#validating-your-sarif-file).
var GitHubLimits = SARIFLimits{Results: 25000, Locations: 1000, Gzipped: 10_000_000}

func (l SARIFLimits) orGitHub() SARIFLimits {
	if l.Results <= 0 {
		l.Results = GitHubLimits.Results
	}
	if l.Locations <= 0 {
		l.Locations = GitHubLimits.Locations
	}
	if l.Gzipped <= 0 {
		l.Gzipped = GitHubLimits.Gzipped
	}
	return l
}

// SARIFCut is what WriteSARIF left out of a log to keep within its
// limits.
type SARIFCut struct {
	Limits SARIFLimits // the limits kept to, zero fields filled in
	// OverCount results were past Limits.Results, OverSize more had to
	// go for the log to fit Limits.Gzipped: each time the least severe,
	// the last in report order among equals.
	OverCount, OverSize int
	// Related counts the related locations past Limits.Locations of
	// the results kept, the last of each result's.
	Related int
}

// Results is how many results were left out.
func (c SARIFCut) Results() int { return c.OverCount + c.OverSize }

// SARIF writes the report as WriteSARIF does within GitHubLimits.
func SARIF(w io.Writer, r *Report) error {
	_, err := WriteSARIF(w, r, GitHubLimits)
	return err
}

// WriteSARIF writes the report as a SARIF 2.1.0 log with one run, as
// GitHub code scanning accepts it: every rule of r.Rules in
// tool.driver.rules, one result per finding with its related locations,
// fix and fingerprint, in report order.
//
// The findings' paths are relative to r.SrcRoot, the repository root
// (uriBaseId %SRCROOT%, declared in run.originalUriBaseIds); a path
// outside it (absolute, or up with "..") is written as an absolute file
// URI, when r.SrcRoot says where it is. Columns, and a fix's offsets,
// count UTF-16 code units (run.columnKind), converted from the findings'
// bytes with the files' text from r.Source; a position it cannot
// convert is left out (a region keeps its lines, a fix goes).
//
// The log keeps within lim: past lim.Results it keeps the most severe
// results (error, then warning, then note; among equals the first in
// report order), and if the gzipped log is still over lim.Gzipped it
// leaves out the least severe of those until it fits; a result keeps its
// first lim.Locations related locations. The run says what was left out
// in a notification (invocations[0].toolExecutionNotifications), and so
// does the SARIFCut returned.
func WriteSARIF(w io.Writer, r *Report, lim SARIFLimits) (SARIFCut, error) {
	lim = lim.orGitHub()
	cut := SARIFCut{Limits: lim}
	name := r.Tool
	if name == "" {
		name = "protoscan"
	}
	driver := sarifDriver{Name: name, Version: r.Version, InformationURI: InformationURI}
	index := map[string]int{}
	for _, d := range r.Rules {
		if _, dup := index[d.ID]; dup {
			continue // rules must be unique; the first documents the id
		}
		index[d.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRuleOf(d))
	}
	run := sarifRun{Tool: sarifTool{driver}, ColumnKind: "utf16CodeUnits",
		Properties: &sarifRunProperties{Files: r.Files, Parsed: r.Parsed, Candidates: r.Candidates,
			Suppressed: r.Suppressed, Baselined: r.Baselined, StaleBaseline: r.StaleBaseline, Gate: gateJSON(r.Gate)}}
	if r.SrcRoot != "" {
		run.OriginalURIBaseIDs = map[string]sarifBaseURI{srcRoot: {URI: r.SrcRoot}}
	}
	base, _ := url.Parse(r.SrcRoot)

	// kept: the findings within the count, in report order, each with
	// its rank by severity (0 the most severe)
	rank := severityRanks(r.Findings)
	var kept []int
	for i := range r.Findings {
		if rank[i] < lim.Results {
			kept = append(kept, i)
		}
	}
	cut.OverCount = len(r.Findings) - len(kept)
	cols := newUTF16Columns(r.Source)
	for _, i := range kept {
		f := &r.Findings[i]
		cols.wantLocation(f.Location)
		for _, rel := range f.Related[:min(len(f.Related), lim.Locations)] {
			cols.wantLocation(rel)
		}
		cols.wantFix(f.Fix)
	}
	cols.resolve()
	b := sarifBuilder{base: base, cols: cols}
	results := make([]sarifPiece, len(kept))
	for j, i := range kept {
		f := &r.Findings[i]
		res := sarifResult{RuleID: f.Rule, Level: sarifLevel(f.Severity), Message: sarifText{f.Message},
			Locations: []sarifLocation{{PhysicalLocation: b.physical(f.Location)}}}
		if k, ok := index[f.Rule]; ok {
			res.RuleIndex = &k
		}
		if f.Fingerprint != "" {
			res.PartialFingerprints = map[string]string{FingerprintKey: f.Fingerprint}
		}
		related := f.Related
		if len(related) > lim.Locations {
			results[j].related = len(related) - lim.Locations
			related = related[:lim.Locations]
		}
		for k, rel := range related {
			loc := sarifLocation{ID: &k, PhysicalLocation: b.physical(rel)}
			if rel.Message != "" {
				loc.Message = &sarifText{rel.Message}
			}
			res.RelatedLocations = append(res.RelatedLocations, loc)
		}
		if f.Fix != nil && len(f.Fix.Edits) > 0 {
			if fx, ok := b.fix(f.Fix); ok {
				res.Fixes = []sarifFix{fx}
			}
		}
		data, err := marshalSARIF(res, resultIndent)
		if err != nil {
			return cut, err
		}
		results[j] = sarifPiece{data: data, rank: rank[i], related: results[j].related}
	}

	log := sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}
	// keeping the n most severe of the results: all of them, or as many
	// as fit the gzipped size
	cutAt := func(n int) SARIFCut {
		c := cut
		c.OverSize = len(results) - n
		for _, p := range results {
			if p.rank < n {
				c.Related += p.related
			}
		}
		return c
	}
	write := func(w io.Writer, n int) error { return writeSARIFLog(w, &log, cutAt(n), results, n) }
	n := len(results)
	if !fitsGzipped(write, n, lim.Gzipped) {
		lo, hi := 0, n // lo fits, or nothing does; hi does not
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			if fitsGzipped(write, mid, lim.Gzipped) {
				lo = mid
			} else {
				hi = mid
			}
		}
		n = lo
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := write(bw, n); err != nil {
		return cutAt(n), err
	}
	return cutAt(n), bw.Flush()
}

// severityRanks ranks findings by severity, error first, and among
// equals by their order.
func severityRanks(fs []finding.Finding) []int {
	order := make([]int, len(fs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(fs[a].Severity, fs[b].Severity) })
	rank := make([]int, len(fs))
	for r, i := range order {
		rank[i] = r
	}
	return rank
}

// sarifPiece is one result as it is written into the log.
type sarifPiece struct {
	data    []byte // the JSON, indented as a member of the results array
	rank    int    // by severity: the log keeps the results of rank < n
	related int    // related locations left out
}

// resultIndent is the indentation of an item of run.results.
const resultIndent = "        "

// resultsMark stands for the results array where the log's other parts
// are encoded; a JSON string holds no unescaped quote, so only the
// member itself matches it.
const resultsMark = `"protoscan:results"`

// marshalSARIF encodes v indented as encoding/json indents the log, its
// lines after the first with prefix, without the final newline.
func marshalSARIF(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// writeSARIFLog writes the log with the results of rank < n, in report
// order, and the notifications of what cut left out: the bytes are the
// same as encoding/json would write for the whole log.
func writeSARIFLog(w io.Writer, log *sarifLog, cut SARIFCut, results []sarifPiece, n int) error {
	run := &log.Runs[0]
	run.Invocations = sarifInvocations(cut)
	run.Results = json.RawMessage(resultsMark)
	head, err := marshalSARIF(log, "")
	if err != nil {
		return err
	}
	before, after, ok := bytes.Cut(head, []byte(resultsMark))
	if !ok {
		return errors.New("SARIF: the results member is missing")
	}
	if _, err := w.Write(before); err != nil {
		return err
	}
	sep := "[\n" + resultIndent
	for _, p := range results {
		if p.rank >= n {
			continue
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if _, err := w.Write(p.data); err != nil {
			return err
		}
		sep = ",\n" + resultIndent
	}
	end := "\n" + resultIndent[2:] + "]"
	if sep[0] == '[' {
		end = "[]"
	}
	if _, err := io.WriteString(w, end); err != nil {
		return err
	}
	_, err = w.Write(append(after, '\n'))
	return err
}

// sarifInvocations is the run's invocation when the log left something
// out: a warning notification for each limit it kept to.
func sarifInvocations(cut SARIFCut) []sarifInvocation {
	var notes []sarifNotification
	note := func(format string, a ...any) {
		notes = append(notes, sarifNotification{Message: sarifText{fmt.Sprintf(format, a...)}, Level: "warning"})
	}
	if cut.OverCount > 0 {
		note("%s left out: GitHub code scanning accepts at most %d per run; the most severe are kept",
			countOf(cut.OverCount, "result"), cut.Limits.Results)
	}
	if cut.OverSize > 0 {
		note("%s left out: GitHub code scanning accepts at most %s of gzipped SARIF; the most severe are kept",
			countOf(cut.OverSize, "result"), SizeText(cut.Limits.Gzipped))
	}
	if cut.Related > 0 {
		note("%s left out: GitHub code scanning accepts at most %s per result; the first are kept",
			countOf(cut.Related, "related location"), countOf(cut.Limits.Locations, "location"))
	}
	if len(notes) == 0 {
		return nil
	}
	return []sarifInvocation{{ToolExecutionNotifications: notes, ExecutionSuccessful: true}}
}

// countOf is n and noun, with an s unless n is 1.
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// SizeText writes a size in bytes as GitHub states its limits: "10 MB"
// for a whole number of megabytes (10^6 bytes), else in bytes.
func SizeText(n int64) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%d MB", n/1_000_000)
	case n == 1:
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// fitsGzipped reports whether the log write writes with n results is at
// most limit bytes gzipped. A log whose plain size is within the limit
// with room for gzip's own bytes (a stored block's 5 in 64 KiB, and the
// header) fits without being compressed.
func fitsGzipped(write func(io.Writer, int) error, n int, limit int64) bool {
	var plain countWriter
	if write(&plain, n) != nil {
		return false
	}
	if plain.n+plain.n/8192+64 <= limit {
		return true
	}
	var packed countWriter
	zw := gzip.NewWriter(&packed)
	bw := bufio.NewWriterSize(zw, 64<<10)
	if write(bw, n) != nil || bw.Flush() != nil || zw.Close() != nil {
		return false
	}
	return packed.n <= limit
}

// countWriter counts the bytes written to it.
type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

func sarifLevel(s finding.Severity) string {
	switch s {
	case finding.Error:
		return "error"
	case finding.Warning:
		return "warning"
	}
	return "note"
}

func sarifRuleOf(d rules.Doc) sarifRule {
	short := firstNonEmpty(d.Title, d.ID)
	rule := sarifRule{
		ID:                   d.ID,
		Name:                 d.Name,
		ShortDescription:     sarifText{short},
		FullDescription:      sarifText{firstNonEmpty(d.What, short)},
		Help:                 sarifMultiformat{Text: helpText(d), Markdown: helpMarkdown(d)},
		HelpURI:              RulesDocURI + "#" + githubAnchor(d.ID),
		DefaultConfiguration: sarifConfiguration{sarifLevel(d.Severity)},
	}
	if family, _, ok := strings.Cut(d.ID, "/"); ok && family != "" {
		rule.Properties = &sarifRuleProps{Tags: []string{family}}
	}
	return rule
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// helpText is a rule's documentation as plain text.
func helpText(d rules.Doc) string {
	var parts []string
	parts = append(parts, firstNonEmpty(d.What, d.Title, d.ID))
	if d.Why != "" {
		parts = append(parts, "Why: "+d.Why)
	}
	if d.Example != "" {
		parts = append(parts, "Example:\n"+indent(strings.TrimRight(d.Example, "\n"), "    "))
	}
	if d.Fix != "" {
		parts = append(parts, "Fix: "+d.Fix)
	}
	return strings.Join(parts, "\n\n")
}

// helpMarkdown is a rule's documentation as Markdown. The catalogue's
// prose is written for Markdown (`code` in backticks) and goes in as it
// is; the example becomes a fenced code block.
func helpMarkdown(d rules.Doc) string {
	var parts []string
	if d.Title != "" {
		parts = append(parts, "**"+d.Title+"**")
	}
	if d.What != "" {
		parts = append(parts, d.What)
	}
	if d.Why != "" {
		parts = append(parts, "**Why it matters.** "+d.Why)
	}
	if d.Example != "" {
		fence := strings.Repeat("`", max(3, longestRun(d.Example, '`')+1))
		parts = append(parts, "**Example**\n\n"+fence+"\n"+strings.TrimRight(d.Example, "\n")+"\n"+fence)
	}
	if d.Fix != "" {
		parts = append(parts, "**Fix.** "+d.Fix)
	}
	if len(parts) == 0 {
		parts = append(parts, mdCode(d.ID))
	}
	return strings.Join(parts, "\n\n")
}

func indent(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}

// githubAnchor is the anchor GitHub gives a Markdown heading: lower case,
// spaces as hyphens, punctuation other than - and _ dropped
// ("enumdrift/legacy-status" -> "enumdriftlegacy-status").
func githubAnchor(heading string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(heading) {
		switch {
		case c == ' ':
			b.WriteByte('-')
		case c == '-', c == '_', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c > 0x7f:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// sarifURI is a relative slash path as a URI reference: percent-encoded,
// with a first segment that cannot be taken for a scheme.
func sarifURI(path string) string {
	return (&url.URL{Path: path}).String()
}

// sarifArtifact locates a file by its path relative to the root base
// (%SRCROOT%); a path outside it is an absolute URI when base is known.
func sarifArtifact(base *url.URL, p string) sarifArtifactLocation {
	outside := strings.HasPrefix(p, "/") || p == ".." || strings.HasPrefix(p, "../")
	if outside && base != nil && base.IsAbs() {
		return sarifArtifactLocation{URI: base.ResolveReference(&url.URL{Path: p}).String()}
	}
	return sarifArtifactLocation{URI: sarifURI(p), URIBaseID: srcRoot}
}

// sarifBuilder writes locations and fixes: paths relative to the root
// base, columns and offsets in UTF-16 code units.
type sarifBuilder struct {
	base *url.URL
	cols *utf16Columns
}

func (b sarifBuilder) physical(l finding.Location) sarifPhysicalLocation {
	p := sarifPhysicalLocation{ArtifactLocation: sarifArtifact(b.base, l.Path)}
	if l.Line > 0 {
		p.Region = &sarifRegion{StartLine: l.Line}
		if l.Col > 0 {
			p.Region.StartColumn, _ = b.cols.col(l.Path, l.Line, l.Col)
		}
		// The end is known when it is not before the start; EndLine 0
		// with an EndCol is an end on the start line.
		if l.EndLine >= l.Line {
			p.Region.EndLine = l.EndLine
		}
		sameLine := l.EndLine == 0 || l.EndLine == l.Line
		if l.EndCol > 0 && (l.EndLine > l.Line || sameLine && l.EndCol > l.Col) {
			p.Region.EndColumn, _ = b.cols.col(l.Path, max(l.EndLine, l.Line), l.EndCol)
		}
	}
	return p
}

// fix groups a fix's edits by file, files in the order of their first
// edit, edits in their order; false when an offset cannot be converted.
func (b sarifBuilder) fix(fx *finding.Fix) (sarifFix, bool) {
	out := sarifFix{Description: sarifText{fx.Message}}
	at := map[string]int{}
	for _, e := range fx.Edits {
		i, ok := at[e.Path]
		if !ok {
			i = len(out.ArtifactChanges)
			at[e.Path] = i
			out.ArtifactChanges = append(out.ArtifactChanges, sarifArtifactChange{ArtifactLocation: sarifArtifact(b.base, e.Path)})
		}
		start, ok1 := b.cols.offset(e.Path, e.Offset)
		end, ok2 := b.cols.offset(e.Path, max(e.End, e.Offset))
		if !ok1 || !ok2 {
			return sarifFix{}, false
		}
		rep := sarifReplacement{DeletedRegion: sarifOffsetRegion{CharOffset: start, CharLength: end - start}}
		if e.New != "" {
			rep.InsertedContent = &sarifText{e.New}
		}
		out.ArtifactChanges[i].Replacements = append(out.ArtifactChanges[i].Replacements, rep)
	}
	return out, true
}
