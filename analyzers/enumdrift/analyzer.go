package enumdrift

import (
	"fmt"
	"go/token"
	"os"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/protoscan/protoscan/analyzers/specflag"
	"github.com/protoscan/protoscan/fix"
	"github.com/protoscan/protoscan/languages/golang"
)

// Analyzer reports HANDBACK status drift in Go packages. It runs the same
// extraction and the same judgement as `protoscan scan`, with the type
// checker's information added.
var Analyzer = &analysis.Analyzer{
	Name: "enumdrift",
	Doc: `report HANDBACK status values that drift from the protocol spec

A HANDBACK status must be one of the canonical values of the protocol spec
(success, failure, partial, blocked, escalate in protocol-core v1.0).
enumdrift reports case drift ("SUCCESS"), legacy aliases ("failed") and
unknown values ("done") where the context makes a string a HANDBACK status:
a HANDBACK struct or map literal, a const block or slice covering the
canonical statuses, a routing table keyed by them, or a comparison, switch
or assignment on a status field that is also compared with canonical
values. Statuses of other things (HTTP, health checks) are left alone.`,
	URL: "https://github.com/protoscan/protoscan#enumdrift",
	Run: run,
}

// spec is registered in init: Analyzer's Run reads it, so a package-level
// initializer would be a cycle.
var spec *specflag.Flag

func init() { spec = specflag.Register(&Analyzer.Flags) }

var vocab = sync.OnceValues(func() (*Vocabulary, error) {
	sp, err := spec.Spec()
	if err != nil {
		return nil, err
	}
	return NewVocabulary(sp, nil)
})

func run(pass *analysis.Pass) (any, error) {
	v, err := vocab()
	if err != nil {
		return nil, err
	}
	for _, file := range pass.Files {
		tf := pass.Fset.File(file.Pos())
		if tf == nil {
			continue
		}
		f := golang.ExtractFile(pass.Fset, file, pass.TypesInfo)
		f.Path = tf.Name()
		fds := Check(f, v)
		// a fix that would break the file is not offered (see fix.Select)
		read := pass.ReadFile
		if read == nil {
			read = os.ReadFile
		}
		if src, err := read(tf.Name()); err == nil {
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
	return nil, nil
}

// position turns a 1-based line and byte column into a token.Pos.
func position(tf *token.File, line, col int) token.Pos {
	if line < 1 || line > tf.LineCount() {
		return token.NoPos
	}
	return tf.LineStart(line) + token.Pos(col-1)
}
