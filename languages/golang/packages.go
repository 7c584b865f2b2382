package golang

import (
	"slices"
	"strings"
)

// PackageFiles are the files of the Go package imported as importPath
// from a file of directory dir ("" for dir's own package): the non-test
// .go files of the longest directory of the tree, under prefix, that
// ends the import path; nothing when the tree has none. files lists a
// directory's files (slash paths, "" for the root), sorted.
func PackageFiles(files func(dir string) []string, prefix, dir, importPath string) []string {
	pkg := ""
	if importPath == "" || importPath == "." { // the file's own package
		pkg = dir
	} else {
		for p := importPath; p != ""; {
			if d := joinDir(prefix, p); slices.ContainsFunc(files(d), isSource) {
				pkg = d
				break
			}
			i := strings.IndexByte(p, '/')
			if i < 0 {
				break
			}
			p = p[i+1:]
		}
		if pkg == "" {
			return nil
		}
	}
	var out []string
	for _, f := range files(pkg) {
		if isSource(f) {
			out = append(out, f)
		}
	}
	return out
}

// isSource reports a Go file that is not a test.
func isSource(f string) bool { return strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") }

func joinDir(dir, p string) string {
	if dir == "" || dir == "." {
		return p
	}
	return dir + "/" + p
}
