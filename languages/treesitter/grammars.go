//go:build cgo

package treesitter

import (
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjavascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tstypescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// The grammars of TypeScript, TSX and JavaScript, at the versions go.mod
// pins (tree-sitter-typescript v0.23.2, tree-sitter-javascript v0.23.1,
// ABI 14 like tree-sitter-python's). A grammar is a static C table: it is
// never closed, and each is made once.
var (
	tsOnce, tsxOnce, jsOnce sync.Once
	tsLang, tsxLang, jsLang *sitter.Language
)

// TypeScript is the grammar of .ts, .mts and .cts files (no JSX: <T>x is
// a type assertion there).
func TypeScript() *sitter.Language {
	tsOnce.Do(func() { tsLang = sitter.NewLanguage(tstypescript.LanguageTypescript()) })
	return tsLang
}

// TSX is the grammar of .tsx files: TypeScript with JSX.
func TSX() *sitter.Language {
	tsxOnce.Do(func() { tsxLang = sitter.NewLanguage(tstypescript.LanguageTSX()) })
	return tsxLang
}

// JavaScript is the grammar of .js, .jsx, .mjs and .cjs files, JSX
// included (the grammar reads it everywhere).
func JavaScript() *sitter.Language {
	jsOnce.Do(func() { jsLang = sitter.NewLanguage(tsjavascript.Language()) })
	return jsLang
}
