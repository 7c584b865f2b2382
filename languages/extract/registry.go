package extract

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/golang"
	"github.com/protoscan-dev/protoscan/languages/python"
	"github.com/protoscan-dev/protoscan/languages/typescript"
)

// Lang is one language protoscan reads, and everything the scan, the
// suppressions, the fixes and the analyzers need to know of it: the one
// place a language is named. Adding a language is a package under
// languages/ that turns its source into facts, plus one Register call.
type Lang struct {
	// Name is the language's name in facts.File.Lang and the reports.
	Name string
	// Suffixes are the file name suffixes of the language, lower case
	// with the dot (".py"); a name's suffix is compared in lower case.
	Suffixes []string
	// FenceLabels are the Markdown fence labels of the language, as
	// markdown.Normalize spells them ("python" for py and python3).
	FenceLabels []string
	// Comments is how its comments are written, for suppression
	// directives; facts.NoComments for none.
	Comments facts.CommentSyntax
	// Data says its files are documents of data (YAML, JSON, JSON
	// Lines), a message being a whole document, rather than source whose
	// messages are literals or fenced blocks.
	Data bool
	// Divergence says the divergence analyzer reads its functions.
	Divergence bool
	// Messages says its files may hold protocol messages for msgcheck
	// (Go's message literals are judged by the go/analysis pass).
	Messages bool
	// QuotedStrings says every string of the language is quoted, so the
	// prefilter may ask for a word between quotes.
	QuotedStrings bool
	// Consts are the named numeric constants a file defines at its top
	// level, which the divergence analyzer resolves other files'
	// references to; nil for a language whose files define none.
	Consts func(ctx context.Context, src []byte) map[string]float64
	// ModuleFiles are the files of the module a file of the language at
	// path from names in an import (a facts.Const.Ref's MODULE), among
	// the tree's files (files lists a directory's, sorted; prefix is
	// what the tree's paths start with); nil: references not resolved.
	ModuleFiles func(files func(dir string) []string, prefix, from, module string) []string
	// Parse extracts the facts of a file (rel is its slash path from
	// the scan root) and lists its broken parts.
	Parse func(rel string, src []byte) (*facts.File, []Broken)
	// Block extracts the body of a Markdown block of the language, its
	// positions relative to the body; nil if blocks of it are not read.
	Block func(rel string, body []byte) (*facts.File, []Broken)
	// Containers lists the containers of a file whose constant members
	// must be distinct (see facts.Container), for the fixes' check; nil
	// for none.
	Containers func(rel string, src []byte) ([]facts.Container, error)
	// BlockContainers is Containers for a Markdown block's body; nil for
	// none.
	BlockContainers func(rel string, body []byte) ([]facts.Container, error)
	// Imports are the names a file binds by importing them from another
	// module, each to "MODULE:NAME" (as facts.Const.Ref spells it), which
	// the divergence analyzer follows to a constant re-exported by a
	// package; nil for a language that has none.
	Imports func(ctx context.Context, src []byte) map[string]string
	// Bands says its files are documents whose escalation bands the
	// divergence analyzer reads (the mappings of a YAML file or block);
	// Tables, that its text holds tables of them too (Markdown's).
	Bands, Tables bool
	// Prose says its files are documents whose code blocks illustrate
	// code: the divergence analyzer compares their functions with the
	// code's, and never counts them as copies.
	Prose bool
	// Minified says a file of the language (its name, its bytes) is
	// minified or bundled: generated, not written, so it is not read
	// (a protoscan/minified note says so); nil for never.
	Minified func(name string, src []byte) bool
}

// languages is the registry, in registration order.
var (
	mu        sync.RWMutex
	languages []*Lang
)

func init() {
	for _, l := range builtin() {
		if err := Register(l); err != nil {
			panic(err)
		}
	}
}

// builtin are the languages protoscan reads out of the box.
func builtin() []*Lang {
	data := func(name string) func(rel string, src []byte) (*facts.File, []Broken) {
		return func(rel string, src []byte) (*facts.File, []Broken) {
			docs, broken := dataParts(name, rel, src)
			f := &facts.File{}
			nodeFacts(f, src, docs)
			return f, broken
		}
	}
	dataBlock := func(name string) func(rel string, body []byte) (*facts.File, []Broken) {
		return func(rel string, body []byte) (*facts.File, []Broken) {
			docs, broken := dataParts(name, rel, body)
			return blockFacts(body, docs), broken
		}
	}
	code := func(extract func(string, []byte) (*facts.File, error)) func(rel string, src []byte) (*facts.File, []Broken) {
		return func(rel string, src []byte) (*facts.File, []Broken) {
			f, err := extract(rel, src)
			if err != nil {
				return f, []Broken{{Part: "file", Err: err}}
			}
			return f, nil
		}
	}
	codeBlock := func(extract func(string, []byte) (*facts.File, error)) func(rel string, body []byte) (*facts.File, []Broken) {
		return func(rel string, body []byte) (*facts.File, []Broken) {
			part, _ := extract(rel, body) // a block that does not parse is an example in prose
			return part, nil
		}
	}
	yamlContainers := func(rel string, src []byte) ([]facts.Container, error) {
		return dataContainers("yaml", rel, src)
	}
	jsonContainers := func(rel string, src []byte) ([]facts.Container, error) {
		return dataContainers("json", rel, src)
	}
	return []*Lang{
		{
			Name: "go", Suffixes: []string{".go"}, FenceLabels: []string{"go"},
			Comments: facts.CComments, Divergence: true, QuotedStrings: true,
			Consts: func(_ context.Context, src []byte) map[string]float64 { return golang.FileConsts(src) },
			ModuleFiles: func(files func(string) []string, prefix, from, module string) []string {
				return golang.PackageFiles(files, prefix, dirOf(from), module)
			},
			Imports: func(_ context.Context, src []byte) map[string]string {
				return golang.FileImports(src)
			},
			Parse: code(golang.Extract),
			Block: func(rel string, body []byte) (*facts.File, []Broken) { return goSnippet(rel, body), nil },
			Containers: func(_ string, src []byte) ([]facts.Container, error) {
				return golang.Containers(src)
			},
			BlockContainers: goBlockContainers,
		},
		{
			Name: "python", Suffixes: []string{".py", ".pyi"}, FenceLabels: []string{"python"},
			Comments: facts.PythonComments, Divergence: true, Messages: true, QuotedStrings: true,
			Consts: func(ctx context.Context, src []byte) map[string]float64 {
				m, _ := python.ModuleConsts(ctx, src)
				return m
			},
			ModuleFiles: func(files func(string) []string, _, from, module string) []string {
				return python.ModuleFiles(files, dirOf(from), module)
			},
			Imports: func(ctx context.Context, src []byte) map[string]string {
				m, _ := python.ModuleImports(ctx, src)
				return m
			},
			Parse: code(python.Extract),
			Block: func(rel string, body []byte) (*facts.File, []Broken) {
				part, _ := python.Extract(rel, body) // a block that does not parse is an example in prose
				return part, nil
			},
			Containers: func(_ string, src []byte) ([]facts.Container, error) {
				return python.Containers(src)
			},
			BlockContainers: func(_ string, body []byte) ([]facts.Container, error) {
				return python.Containers(body)
			},
		},
		{
			// .d.ts is a .ts by its last suffix; vocabularies only for now:
			// no messages, no divergence (issue 42's later steps)
			Name: "typescript", Suffixes: []string{".ts", ".mts", ".cts"}, FenceLabels: []string{"typescript"},
			Comments: facts.JSComments, QuotedStrings: true,
			Parse: code(typescript.Extract), Block: codeBlock(typescript.ExtractTS),
			Minified: typescript.Minified,
		},
		{
			Name: "typescript", Suffixes: []string{".tsx"}, FenceLabels: []string{"tsx"},
			Comments: facts.JSComments, QuotedStrings: true,
			Parse: code(typescript.Extract), Block: codeBlock(typescript.ExtractTSX),
			Minified: typescript.Minified,
		},
		{
			Name: "javascript", Suffixes: []string{".js", ".jsx", ".mjs", ".cjs"}, FenceLabels: []string{"javascript", "jsx"},
			Comments: facts.JSComments, QuotedStrings: true,
			Parse: code(typescript.Extract), Block: codeBlock(typescript.ExtractJS),
			Minified: typescript.Minified,
		},
		{
			// a handoff block is YAML (or JSON, which YAML reads)
			Name: "yaml", Suffixes: []string{".yaml", ".yml"}, FenceLabels: []string{"yaml", "nexus_handoff", "nexus_handoff_v2"},
			Comments: facts.YAMLComments, Messages: true, Data: true,
			Parse: data("yaml"), Block: dataBlock("yaml"),
			Containers: yamlContainers, BlockContainers: yamlContainers,
			Bands: true,
		},
		{
			Name: "json", Suffixes: []string{".json"}, FenceLabels: []string{"json"},
			Comments: facts.JSONComments, Messages: true, QuotedStrings: true, Data: true,
			Parse: data("json"), Block: dataBlock("json"),
			Containers: jsonContainers, BlockContainers: jsonContainers,
		},
		{
			Name: "jsonl", Suffixes: []string{".jsonl", ".ndjson"}, FenceLabels: []string{"jsonl"},
			Comments: facts.JSONComments, Messages: true, QuotedStrings: true, Data: true,
			Parse: data("jsonl"), Block: dataBlock("jsonl"),
			Containers: func(rel string, src []byte) ([]facts.Container, error) {
				return dataContainers("jsonl", rel, src)
			},
			BlockContainers: jsonContainers,
		},
		{
			// MDX is Markdown with JSX, whose lines are prose here; its
			// comments are {/* */} and its fences may be indented deeper
			Name: "markdown", Suffixes: []string{".md", ".markdown"},
			Comments: facts.MarkdownComments, Divergence: true, Messages: true,
			Parse: markdownFile, Containers: markdownContainers,
			Bands: true, Tables: true, Prose: true,
		},
		{
			Name: "markdown", Suffixes: []string{".mdx"},
			Comments: facts.MDXComments, Divergence: true, Messages: true,
			Parse: markdownFile, Containers: markdownContainers,
			Bands: true, Tables: true, Prose: true,
		},
	}
}

// Register adds a language to the registry. Its name, a suffix and
// Parse are required; a suffix or fence label another language has is
// an error.
func Register(l *Lang) error {
	if l == nil || l.Name == "" || l.Parse == nil || len(l.Suffixes) == 0 {
		return fmt.Errorf("extract: a language needs a name, suffixes and Parse")
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range l.Suffixes {
		if s != strings.ToLower(s) || !strings.HasPrefix(s, ".") {
			return fmt.Errorf("extract: language %s: suffix %q is not a lower-case .suffix", l.Name, s)
		}
		if o := forSuffix(s); o != nil {
			return fmt.Errorf("extract: language %s: suffix %s is %s's", l.Name, s, o.Name)
		}
	}
	for _, label := range l.FenceLabels {
		if o := forFence(label); o != nil {
			return fmt.Errorf("extract: language %s: fence label %s is %s's", l.Name, label, o.Name)
		}
	}
	languages = append(languages, l)
	return nil
}

// ForPath is the language of a file by its name, or nil when protoscan
// does not read it.
func ForPath(name string) *Lang {
	mu.RLock()
	defer mu.RUnlock()
	return forSuffix(strings.ToLower(path.Ext(name)))
}

// ForFence is the language of a Markdown block's label (as
// markdown.Normalize spells it), or nil.
func ForFence(label string) *Lang {
	mu.RLock()
	defer mu.RUnlock()
	return forFence(label)
}

func forSuffix(ext string) *Lang {
	for _, l := range languages {
		if slices.Contains(l.Suffixes, ext) {
			return l
		}
	}
	return nil
}

func forFence(label string) *Lang {
	if label == "" {
		return nil
	}
	for _, l := range languages {
		if slices.Contains(l.FenceLabels, label) {
			return l
		}
	}
	return nil
}

// FenceComments is the comment syntax of a Markdown block by its label
// (as markdown.Normalize spells it), for suppression directives: its
// language's, and JSONC's for jsonc and json5 blocks, which are not read
// as data (a strict parser would report their comments) but whose
// comments may hold directives.
func FenceComments(label string) facts.CommentSyntax {
	if l := ForFence(label); l != nil {
		return l.Comments
	}
	if label == "jsonc" || label == "json5" {
		return facts.JSONComments
	}
	return facts.NoComments
}

// dirOf is the directory of a slash path, "" for the root.
func dirOf(p string) string {
	if d := path.Dir(p); d != "." {
		return d
	}
	return ""
}

// Named is the registered language of that name (the first, for
// Markdown and MDX), or nil.
func Named(name string) *Lang {
	mu.RLock()
	defer mu.RUnlock()
	for _, l := range languages {
		if l.Name == name {
			return l
		}
	}
	return nil
}
