package golang

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// ExtractCounting is ExtractFile that also counts the times the walk
// enters each node.
func ExtractCounting(fset *token.FileSet, f *ast.File, info *types.Info) (*facts.File, map[ast.Node]int) {
	entered := map[ast.Node]int{}
	out := extractFile(fset, f, info, func(n ast.Node) { entered[n]++ })
	return out, entered
}
