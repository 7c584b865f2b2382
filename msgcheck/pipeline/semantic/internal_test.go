package semantic

import (
	"path"
	"strings"
	"testing"
)

// isClean stands in for path.Clean on the lookup path: it must never call
// a path clean that Clean would change.
func TestIsClean(t *testing.T) {
	cases := []string{"", ".", "..", "a", "a/b", "a//b", "a/./b", "a/../b", "./a", "../a", "a/", "/a", "a/.", "a/..",
		".a", "a.", "..a", "a..", "a/.b/c", "a/b..c/d", "internal/queue/api.go", "docs/SPEC.md", "x/y/z/"}
	for _, p := range cases {
		want := p != "" && p[0] != '/' && path.Clean(p) == p && p != "." && p != ".." && !strings.HasPrefix(p, "../")
		if got := isClean(p); got != want {
			t.Errorf("isClean(%q) = %v, want %v", p, got, want)
		}
	}
}

// Every string of up to 8 characters over "a", "." and "/": whatever
// isClean accepts, path.Clean leaves alone.
func TestIsCleanExhaustive(t *testing.T) {
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		if isClean(prefix) && path.Clean(prefix) != prefix {
			t.Errorf("isClean(%q), but path.Clean gives %q", prefix, path.Clean(prefix))
		}
		if n == 0 {
			return
		}
		for _, c := range []string{"a", ".", "/"} {
			gen(prefix+c, n-1)
		}
	}
	gen("", 8)
}

// criteriaKey is one pass over the key; it must agree with the plain
// reading: lower-case the key and look for each word.
func TestCriteriaKey(t *testing.T) {
	plain := func(k string) bool {
		k = strings.ToLower(k)
		for _, w := range []string{"criteri", "check", "condition", "test", "verification", "assertion"} {
			if strings.Contains(k, w) {
				return true
			}
		}
		return false
	}
	for _, k := range []string{"", "criteria", "acceptance_criteria", "Checks", "exit_conditions", "TESTS", "unit_tests_run",
		"verification", "Assertions", "status", "confidence", "crit", "chec", "tes", "c", "cc", "assert", "contest", "vérification",
		"ACCEPTANCE_CRITERIA", "xcheckx", "re-test", "conditional", "assertion_list"} {
		if got, want := criteriaKey(k), plain(k); got != want {
			t.Errorf("criteriaKey(%q) = %v, want %v", k, got, want)
		}
	}
}
