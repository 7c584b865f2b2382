package report

import (
	"encoding/json"
	"io"
	"net/url"
	"strings"

	"github.com/protoscan-dev/protoscan/internal/finding"
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
	OriginalURIBaseIDs map[string]sarifBaseURI `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult           `json:"results"`
	Properties         *sarifRunProperties     `json:"properties,omitempty"`
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

// SARIF writes the report as a SARIF 2.1.0 log with one run, as GitHub code
// scanning accepts it: every rule of r.Rules in tool.driver.rules, one
// result per finding with its related locations, fix and fingerprint.
// The findings' paths are relative to r.SrcRoot, the repository root
// (uriBaseId %SRCROOT%, declared in run.originalUriBaseIds); a path
// outside it (absolute, or up with "..") is written as an absolute file
// URI, when r.SrcRoot says where it is; columns
// are the findings' byte columns, and a fix's offsets its byte offsets
// (SARIF counts characters: the two agree on ASCII text).
func SARIF(w io.Writer, r *Report) error {
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
	run := sarifRun{Tool: sarifTool{driver}, Results: []sarifResult{},
		Properties: &sarifRunProperties{Files: r.Files, Parsed: r.Parsed, Candidates: r.Candidates,
			Suppressed: r.Suppressed, Baselined: r.Baselined, StaleBaseline: r.StaleBaseline}}
	if r.SrcRoot != "" {
		run.OriginalURIBaseIDs = map[string]sarifBaseURI{srcRoot: {URI: r.SrcRoot}}
	}
	base, _ := url.Parse(r.SrcRoot)
	for _, f := range r.Findings {
		res := sarifResult{RuleID: f.Rule, Level: sarifLevel(f.Severity), Message: sarifText{f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical(base, f.Location)}}}
		if i, ok := index[f.Rule]; ok {
			res.RuleIndex = &i
		}
		if f.Fingerprint != "" {
			res.PartialFingerprints = map[string]string{FingerprintKey: f.Fingerprint}
		}
		for i, rel := range f.Related {
			loc := sarifLocation{ID: &i, PhysicalLocation: sarifPhysical(base, rel)}
			if rel.Message != "" {
				loc.Message = &sarifText{rel.Message}
			}
			res.RelatedLocations = append(res.RelatedLocations, loc)
		}
		if f.Fix != nil && len(f.Fix.Edits) > 0 {
			res.Fixes = []sarifFix{sarifFixOf(base, f.Fix)}
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
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

func sarifPhysical(base *url.URL, l finding.Location) sarifPhysicalLocation {
	p := sarifPhysicalLocation{ArtifactLocation: sarifArtifact(base, l.Path)}
	if l.Line > 0 {
		p.Region = &sarifRegion{StartLine: l.Line, StartColumn: l.Col}
		// The end is known when it is not before the start; EndLine 0
		// with an EndCol is an end on the start line.
		if l.EndLine >= l.Line {
			p.Region.EndLine = l.EndLine
		}
		sameLine := l.EndLine == 0 || l.EndLine == l.Line
		if l.EndCol > 0 && (l.EndLine > l.Line || sameLine && l.EndCol > l.Col) {
			p.Region.EndColumn = l.EndCol
		}
	}
	return p
}

// sarifFixOf groups a fix's edits by file, files in the order of their
// first edit, edits in their order.
func sarifFixOf(base *url.URL, fx *finding.Fix) sarifFix {
	out := sarifFix{Description: sarifText{fx.Message}}
	at := map[string]int{}
	for _, e := range fx.Edits {
		i, ok := at[e.Path]
		if !ok {
			i = len(out.ArtifactChanges)
			at[e.Path] = i
			out.ArtifactChanges = append(out.ArtifactChanges, sarifArtifactChange{ArtifactLocation: sarifArtifact(base, e.Path)})
		}
		rep := sarifReplacement{DeletedRegion: sarifOffsetRegion{CharOffset: e.Offset, CharLength: max(0, e.End-e.Offset)}}
		if e.New != "" {
			rep.InsertedContent = &sarifText{e.New}
		}
		out.ArtifactChanges[i].Replacements = append(out.ArtifactChanges[i].Replacements, rep)
	}
	return out
}
