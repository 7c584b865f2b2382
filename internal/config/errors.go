package config

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/protoscan-dev/protoscan/internal/editdist"
)

// Error is one problem in a configuration file. Line and Column are
// 1-based; either is 0 when unknown (yaml.v3 gives syntax errors a line
// only).
type Error struct {
	File         string
	Line, Column int
	Msg          string
}

// Error formats e as "file:line:column: msg", leaving out a zero line or
// column.
func (e *Error) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	case e.Column == 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// Errors is every problem found in one file, sorted by position. Its
// Error is one line per problem; errors.As finds each *Error in it.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.Is and errors.As see each *Error.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// compareErrors orders by line, column and message; an error without a
// position (about the whole file) comes first.
func compareErrors(a, b *Error) int {
	return cmp.Or(
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		cmp.Compare(a.Msg, b.Msg),
	)
}

// hint returns " (did you mean "X"?)" for the candidate nearest to s, or
// " (want)" when none is near and want is not empty.
func hint(s string, candidates []string, want string) string {
	if c, ok := nearest(s, candidates); ok {
		return fmt.Sprintf(" (did you mean %q?)", c)
	}
	if want == "" {
		return ""
	}
	return " (" + want + ")"
}

// didYouMean returns "; did you mean "X"?" for the candidate nearest to s,
// to end a parenthesis, or "".
func didYouMean(s string, candidates []string) string {
	if c, ok := nearest(s, candidates); ok {
		return fmt.Sprintf("; did you mean %q?", c)
	}
	return ""
}

// nearest finds the candidate s is most likely a misspelling of, as
// editdist.Nearest finds it (fail_on, failOn; warn for warning; a swap of
// letters).
func nearest(s string, candidates []string) (string, bool) {
	return editdist.Nearest(s, candidates)
}
