package extract

import (
	"path"
	"strings"
)

// IsTestPath reports a file of tests by its slash path: Go's *_test.go,
// Python's test_*.py, *_test.py and conftest.py, or any file under a
// tests/, test/ or testing/ directory. Its literals are fixtures: copies
// of decisions and sets that lack values are there on purpose.
func IsTestPath(rel string) bool {
	base := path.Base(rel)
	if strings.HasSuffix(base, "_test.go") || strings.HasSuffix(base, "_test.py") ||
		strings.HasPrefix(base, "test_") || base == "conftest.py" {
		return true
	}
	for _, seg := range strings.Split(path.Dir(rel), "/") {
		if seg == "tests" || seg == "test" || seg == "testing" {
			return true
		}
	}
	return false
}
