package scan_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/internal/messages"
	"github.com/protoscan-dev/protoscan/internal/scan"
	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/nodefacts"
	"github.com/protoscan-dev/protoscan/languages/yamldoc"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// toy is a language of "key = value" lines and ";" comments, added
// through the registry alone: its records are messages and its values
// drift like any other language's, and a directive in its comments is
// read.
var toy = &extract.Lang{
	Name: "toy", Suffixes: []string{".toy"}, FenceLabels: []string{"toy"},
	Comments: facts.YAMLComments, Messages: true,
	Parse: func(rel string, src []byte) (*facts.File, []extract.Broken) {
		// a toy file is YAML once "=" is ":" (positions are kept: the
		// two are one byte each)
		y := bytes.ReplaceAll(src, []byte(" = "), []byte(" : "))
		docs, err := yamldoc.Parse(rel, y, yamldoc.DefaultLimits())
		f := &facts.File{}
		nodefacts.Extract(f, y, docs, 0, 0)
		if err != nil {
			return f, []extract.Broken{{Part: "file", Err: err}}
		}
		return f, nil
	},
}

func TestToyLanguage(t *testing.T) {
	if err := extract.Register(toy); err != nil {
		t.Fatal(err)
	}
	if err := extract.Register(&extract.Lang{Name: "toy2", Suffixes: []string{".toy"}, Parse: toy.Parse}); err == nil {
		t.Error("a second language took .toy")
	}
	dir := writeTree(t, map[string]string{"a.toy": "handoff_type = HANDBACK\ntask_id = t-1\nstatus = done\n"})
	v, err := msgcheck.New(msgcheck.Options{Root: dir}, msgcheck.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	res, err := scan.Run(context.Background(), dir, scan.Options{Vocabulary: vocabulary(t), Messages: messages.New(v, msgcheck.DefaultSpec())})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Files != 1 {
		t.Errorf("%d files scanned, want the .toy file", res.Stats.Files)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, fmt.Sprintf("%s:%d:%d %s", f.Path, f.Line, f.Col, f.Rule))
	}
	joined := strings.Join(got, "\n")
	for _, want := range []string{"a.toy:3:10 enumdrift/unknown-status", "msgcheck/handback-output-required"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no %s among the findings:\n%s", want, joined)
		}
	}
	if len(res.Messages) != 1 || res.Messages[0].Kind != "handback" {
		t.Errorf("messages %+v, want one HANDBACK", res.Messages)
	}
}
