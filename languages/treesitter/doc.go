// Package treesitter is the one place protoscan touches the tree-sitter
// binding (github.com/tree-sitter/go-tree-sitter) directly, so that no
// caller ever owns a C object.
//
// The binding has no finalizers: every Parser, Tree, TreeCursor, Query and
// QueryCursor must be closed exactly once, or its C memory is lost (RSS grew
// to 5.5 GB over 10k files without it), and a second Close crashes the
// process. This package therefore owns every Close:
//
//   - Parsers live in a bounded Pool (a channel, not a sync.Pool, which would
//     drop parsers without closing them). A parser is used by one goroutine
//     at a time.
//   - Pool.Parse parses, lends the tree to a callback, and closes it (and
//     any cursor it lent out) when the callback returns, panics included.
//     Nodes must not be kept after the callback. Parse (package level)
//     does the same with a process-wide pool per language.
//   - Input is bounded by a size cap, and parsing by a timeout and the
//     caller's context.
//
// For speed, Flatten copies a whole tree into a Go slice with a single cgo
// call (see flat.go), so extractors can walk it without a cgo call, or an
// allocation, per node (about 75 ns a node, a tenth of the parse).
//
// The grammars of TypeScript, TSX and JavaScript are made here too
// (grammars.go), once each, for the extractors to get pools of (PoolFor).
//
// Queries are not offered: QueryCursor.Captures leaks in the binding
// (Matches does not), and extractors here walk trees directly.
package treesitter
