package enumdrift

import (
	"fmt"
	"go/token"
	"os"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/protoscan-dev/protoscan/analyzers/internal/specflag"
	"github.com/protoscan-dev/protoscan/internal/fix"
	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/golang"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// Analyzer reports HANDBACK status drift in Go packages. It runs the same
// extraction and the same judgement as `protoscan scan`, with the type
// checker's information added.
var Analyzer = &analysis.Analyzer{
	Name: "enumdrift",
	Doc: `report enum values that drift from the protocol spec

A HANDBACK status must be one of the canonical values of the protocol spec
(success, failure, partial, blocked, escalate in protocol-core v1.0), and
so must every other enum-valued field of the specs (a DELEGATE's agent,
NEXUS status and next_action, a verdict). enumdrift reports case and
separator drift ("SUCCESS", "senior_engineer"), legacy aliases ("failed",
or a word an alias table of the package maps) and unknown values ("done";
no nearest value is guessed by spelling) where the context binds
a string to such a field: a message struct or map literal, a const block
or slice covering the enum, a slice or map the field is looked up in, a
routing table keyed by the values, or a comparison, switch or assignment
on the field that is also compared with two canonical values. Values of other
things (HTTP, health checks) are left alone.`,
	URL: "https://github.com/protoscan-dev/protoscan#enumdrift",
}

// The -spec flag is registered in init: Analyzer's Run reads it, so a
// package-level initializer would be a cycle.
func init() { Analyzer.Run = runner(specflag.Register(&Analyzer.Flags).Spec) }

// New returns an analyzer like Analyzer that judges by sp (and the
// embedded specs of the other protocols) instead of the -spec flag; it is
// how a host without flags, such as a golangci-lint plugin, configures it.
func New(sp *msgcheck.Spec) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name: Analyzer.Name,
		Doc:  Analyzer.Doc,
		URL:  Analyzer.URL,
		Run:  runner(func() (*msgcheck.Spec, error) { return sp, nil }),
	}
}

// otherProtocols are the embedded specs of the protocols beside the one
// --spec names, whose enums drift too (NEXUS status, verdicts).
var otherProtocols = []string{"nexus-handoff-v2.yaml", "phase-verdict-v1.yaml"}

// runner returns the Run of an analyzer whose spec load returns; the
// vocabulary is built once, on the first package.
func runner(load func() (*msgcheck.Spec, error)) func(*analysis.Pass) (any, error) {
	vocab := sync.OnceValues(func() (*Vocabulary, error) {
		sp, err := load()
		if err != nil {
			return nil, err
		}
		var more []*msgcheck.Spec
		for _, name := range otherProtocols {
			o, err := msgcheck.EmbeddedSpec(name)
			if err != nil {
				return nil, err
			}
			if o.Protocol != sp.Protocol {
				more = append(more, o)
			}
		}
		return NewVocabulary(sp, nil, more...)
	})
	return func(pass *analysis.Pass) (any, error) {
		v, err := vocab()
		if err != nil {
			return nil, err
		}
		return nil, run(pass, v)
	}
}

func run(pass *analysis.Pass, v *Vocabulary) error {
	// the package's alias tables explain the drift of all its files: the
	// files are extracted first, then judged
	type extracted struct {
		tf  *token.File
		f   *facts.File
		src []byte // nil when the file cannot be read
	}
	var files []extracted
	var tables []AliasTable
	read := pass.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	// the package is the tree: without protocol evidence in any of its
	// files, everyone's words are not reported (see Vocabulary.Shared)
	shown := false
	for _, file := range pass.Files {
		tf := pass.Fset.File(file.Pos())
		if tf == nil {
			continue
		}
		f := golang.ExtractFile(pass.Fset, file, pass.TypesInfo)
		f.Path = tf.Name()
		src, err := read(tf.Name())
		if err != nil {
			src = nil
		}
		golang.AddNotes(f, src)
		files = append(files, extracted{tf, f, src})
		tables = append(tables, Analyze(f, v).Tables...)
		if !shown {
			shown = v.Evidence(f, src)
		}
	}
	v = v.WithAliases(tables)
	// a collection of one file tested in another (facts.Test.From "."):
	// each file is analyzed with the tests the others make
	var others []facts.Test
	for _, x := range files {
		for _, t := range x.f.Tests {
			if t.From == "." {
				t.In, t.Scope = x.f.Path, ""
				others = append(others, t)
			}
		}
	}
	for _, x := range files {
		tf, f := x.tf, x.f
		var extra []facts.Test
		for _, t := range others {
			if t.In != f.Path {
				extra = append(extra, t)
			}
		}
		fds := AnalyzeWith(f, v, extra).Findings
		if !shown {
			fds = slices.DeleteFunc(fds, v.Shared)
		}
		// a fix that would break the file is not offered (see fix.Select)
		if src := x.src; src != nil {
			fix.Vet(src, fds, golang.Containers)
		} else {
			for i := range fds {
				fds[i].Fix = nil
			}
		}
		for _, fd := range fds {
			d := analysis.Diagnostic{Category: fd.Rule, Message: fmt.Sprintf("%s (%s)", fd.Message, fd.Rule)}
			d.Pos = position(tf, fd.Line, fd.Col)
			if fd.EndLine > 0 {
				d.End = position(tf, fd.EndLine, fd.EndCol)
			}
			for _, r := range fd.Related {
				// the alias tables are in the package's files
				for _, x := range files {
					if x.f.Path == r.Path {
						d.Related = append(d.Related, analysis.RelatedInformation{Pos: position(x.tf, r.Line, r.Col), Message: r.Message})
					}
				}
			}
			if fd.Fix != nil {
				sf := analysis.SuggestedFix{Message: fd.Fix.Message}
				for _, e := range fd.Fix.Edits {
					sf.TextEdits = append(sf.TextEdits, analysis.TextEdit{Pos: tf.Pos(e.Offset), End: tf.Pos(e.End), NewText: []byte(e.New)})
				}
				d.SuggestedFixes = []analysis.SuggestedFix{sf}
			}
			pass.Report(d)
		}
	}
	return nil
}

// position turns a 1-based line and byte column into a token.Pos.
func position(tf *token.File, line, col int) token.Pos {
	if line < 1 || line > tf.LineCount() {
		return token.NoPos
	}
	return tf.LineStart(line) + token.Pos(col-1)
}
