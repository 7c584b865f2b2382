//go:build !cgo

package treesitter

// Without cgo the tree-sitter grammars (C code) cannot be built, and go
// turns cgo off by itself where it finds no C compiler. The build's first
// error line is this constant's, so it says what to do.
const _ = "protoscan needs cgo and a C compiler: install gcc or clang, then build with CGO_ENABLED=1" + 0
