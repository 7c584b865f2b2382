package divergence

import (
	"fmt"
	"go/token"
	"os"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/protoscan-dev/protoscan/analyzers/internal/specflag"
	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/golang"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// Analyzer reports duplicated and divergent protocol decisions in Go
// packages. Each package's candidates are exported as a fact, so a copy in
// a package that imports another copy is clustered with it; packages that
// do not import each other are only compared by `protoscan scan`.
var Analyzer = &analysis.Analyzer{
	Name: "divergence",
	Doc: `report protocol decisions implemented more than once, and copies that disagree

An escalation decision, a DELEGATE or HANDBACK validation or a status
normalisation written again in several functions (renamed, ported to
another package or language) drifts: one copy escalates below quality 0.5,
another below 0.7. divergence reports each cluster of such functions once,
with every member, and each protocol field the members compare with
different constants. A threshold the spec contradicts (a scope word floor
other than minWords, a quality compared outside minimum/maximum) is
reported too, with the spec's file:line. A function is a candidate only
when it reads the protocol's fields, or escalates on a score of the work
(quality_score, confidence), so generic validate() or check() functions
and escalations on coverage or HTTP statuses are ignored. A validation
that requires other fields than the spec (divergence/required-fields) or
matches a field such as task_id with a format of its own
(divergence/format, with a value one accepts and the other rejects) is
reported too.`,
	URL:       "https://github.com/protoscan-dev/protoscan#divergence",
	FactTypes: []analysis.Fact{new(PackageCandidates)},
}

// PackageCandidates is the fact a package exports: its candidates.
type PackageCandidates struct{ Candidates []Candidate }

// AFact marks PackageCandidates as an analysis fact.
func (*PackageCandidates) AFact() {}

func (f *PackageCandidates) String() string {
	if len(f.Candidates) == 1 {
		return "1 candidate"
	}
	return fmt.Sprintf("%d candidates", len(f.Candidates))
}

// The -spec flag is registered in init: Analyzer's Run reads it, so a
// package-level initializer would be a cycle.
func init() { Analyzer.Run = runner(specflag.Register(&Analyzer.Flags).Spec) }

// New returns an analyzer like Analyzer that judges by sp instead of the
// -spec flag; it is how a host without flags, such as a golangci-lint
// plugin, configures it.
func New(sp *msgcheck.Spec) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:      Analyzer.Name,
		Doc:       Analyzer.Doc,
		URL:       Analyzer.URL,
		FactTypes: Analyzer.FactTypes,
		Run:       runner(func() (*msgcheck.Spec, error) { return sp, nil }),
	}
}

// runner returns the Run of an analyzer whose spec load returns; the model
// is built once, on the first package.
func runner(load func() (*msgcheck.Spec, error)) func(*analysis.Pass) (any, error) {
	model := sync.OnceValues(func() (*Model, error) {
		sp, err := load()
		if err != nil {
			return nil, err
		}
		return NewModel(sp, Options{}), nil
	})
	return func(pass *analysis.Pass) (any, error) {
		m, err := model()
		if err != nil {
			return nil, err
		}
		return runAnalyzer(pass, m)
	}
}

func runAnalyzer(pass *analysis.Pass, m *Model) (any, error) {
	read := pass.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	var own []Candidate
	files := map[string]*token.File{}
	for _, file := range pass.Files {
		tf := pass.Fset.File(file.Pos())
		if tf == nil {
			continue
		}
		f := golang.ExtractFile(pass.Fset, file, pass.TypesInfo)
		f.Path = tf.Name()
		files[f.Path] = tf
		src, err := read(tf.Name())
		if err != nil {
			src = nil
		}
		own = append(own, CandidatesIn(f, src, m)...)
		for _, fd := range Formats(f, m) {
			pass.Report(analysis.Diagnostic{Pos: position(tf, fd.Line, fd.Col), Category: fd.Rule,
				Message: fmt.Sprintf("%s (%s)", fd.Message, fd.Rule), Related: related(pass.Fset, fd.Related, files)})
		}
	}
	if len(own) == 0 {
		return nil, nil
	}
	pass.ExportPackageFact(&PackageCandidates{Candidates: own})
	all := append([]Candidate(nil), own...)
	for _, pf := range pass.AllPackageFacts() {
		if pf.Package == pass.Pkg {
			continue
		}
		if fact, ok := pf.Fact.(*PackageCandidates); ok {
			all = append(all, fact.Candidates...)
		}
	}
	for _, fd := range Cluster(all, m) {
		// a cluster is reported by the packages that own a member, at
		// their first member, so that a cluster of imported packages only
		// is left to them
		tf := files[fd.Path]
		if tf == nil {
			fd, tf = moveToOwn(fd, files)
			if tf == nil {
				continue
			}
		}
		pass.Report(analysis.Diagnostic{
			Pos:      position(tf, fd.Line, fd.Col),
			Category: fd.Rule,
			Message:  fmt.Sprintf("%s (%s)", fd.Message, fd.Rule),
			Related:  related(pass.Fset, fd.Related, files),
		})
	}
	return nil, nil
}

// moveToOwn relocates a finding whose place is in an imported package to
// its first related location in this package, if any.
func moveToOwn(fd finding.Finding, files map[string]*token.File) (finding.Finding, *token.File) {
	for _, r := range fd.Related {
		if tf := files[r.Path]; tf != nil {
			fd.Location = finding.Location{Path: r.Path, Line: r.Line, Col: r.Col}
			return fd, tf
		}
	}
	return fd, nil
}

// related turns the related locations in this package into diagnostics'
// related information; the others are named in the message already.
func related(fset *token.FileSet, locs []finding.Location, files map[string]*token.File) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	for _, l := range locs {
		if tf := files[l.Path]; tf != nil {
			out = append(out, analysis.RelatedInformation{Pos: position(tf, l.Line, l.Col), Message: l.Message})
		}
	}
	return out
}

func position(tf *token.File, line, col int) token.Pos {
	if line < 1 || line > tf.LineCount() {
		return tf.Pos(0)
	}
	return tf.LineStart(line) + token.Pos(col-1)
}
