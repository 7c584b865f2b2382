package messages

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"github.com/protoscan-dev/protoscan/languages/jsondoc"
	"github.com/protoscan-dev/protoscan/languages/yamldoc"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// Decode decodes every document of a message file (or stdin) named name
// whose path is path: JSON by extension or by content, otherwise YAML;
// a list of mappings is one message per item (yamlnode.SplitLists). A
// file without a document is an error.
func Decode(name, path string, data []byte) ([]*yaml.Node, error) {
	var err error
	ext := strings.ToLower(filepath.Ext(path))
	looksJSON := ext == ".json" || ext == ".jsonl" || (ext != ".yaml" && ext != ".yml" && startsLikeJSON(data))
	var docs []*yaml.Node
	if looksJSON {
		docs, err = jsondoc.Parse(name, data, jsondoc.DefaultLimits())
		if err != nil && ext != ".json" && ext != ".jsonl" {
			// a YAML flow mapping also starts with '{'
			if yd, yerr := yamldoc.Parse(name, data, yamldoc.DefaultLimits()); yerr == nil {
				docs, err = yd, nil
			}
		}
	} else {
		docs, err = yamldoc.Parse(name, data, yamldoc.DefaultLimits())
	}
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("%s: no message in it", name)
	}
	return yamlnode.SplitLists(docs), nil
}

// startsLikeJSON reports data that begins (after a BOM and spaces) as JSON
// does.
func startsLikeJSON(data []byte) bool {
	t := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// ResultFindings are the errors and warnings of a message's result as
// findings, for the SARIF and Markdown forms; a finding without a place
// of its own is at the message's line.
func ResultFindings(name string, line int, res msgcheck.Result) []finding.Finding {
	var out []finding.Finding
	add := func(fs []msgcheck.Finding, sev finding.Severity) {
		for _, f := range fs {
			loc := finding.Location{Path: name, Line: f.Line, Col: f.Column}
			if loc.Line == 0 {
				loc.Line, loc.Col = line, 0
			}
			out = append(out, finding.Finding{Rule: f.Rule, Severity: sev, Location: loc, Message: f.Message})
		}
	}
	add(res.Errors, finding.Error)
	add(res.Warnings, finding.Warning)
	return out
}

// ByteColumns gives res's findings the byte columns the scan reports,
// so that both point at the same place on a line with non-ASCII text.
func ByteColumns(cols *yamlnode.Columns, res msgcheck.Result) {
	for _, list := range [][]msgcheck.Finding{res.Errors, res.Warnings} {
		for i := range list {
			list[i].Column = cols.Byte(list[i].Line, list[i].Column)
		}
	}
}
