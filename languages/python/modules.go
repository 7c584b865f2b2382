package python

import (
	"path"
	"slices"
	"strings"
)

// ModuleFiles is the file of module mod (as an import spells it:
// ".config", "pkg.limits") imported from a file of directory dir, or
// nothing: a relative import from dir's ancestors, an absolute one from
// the nearest directory above the importer that holds the module (a
// package root, a src/ layout). files lists a directory's files (slash
// paths, "" for the root), sorted.
func ModuleFiles(files func(dir string) []string, dir, mod string) []string {
	has := func(p string) bool {
		d, base := path.Split(p)
		_, found := slices.BinarySearch(files(strings.TrimSuffix(d, "/")), p)
		return base != "" && found
	}
	dots := len(mod) - len(strings.TrimLeft(mod, "."))
	rest := strings.ReplaceAll(mod[dots:], ".", "/")
	try := func(base string) []string {
		for _, p := range []string{rest + ".py", rest + "/__init__.py"} {
			if rest == "" {
				p = "__init__.py"
			}
			if p = join(base, p); has(p) {
				return []string{p}
			}
		}
		return nil
	}
	if dots > 0 {
		base := dir
		for range dots - 1 {
			if base == "" || base == "." {
				return nil
			}
			base = parent(base)
		}
		return try(base)
	}
	for base := dir; ; base = parent(base) {
		if f := try(base); f != nil {
			return f
		}
		if base == "" || base == "." {
			return nil
		}
	}
}

func join(dir, p string) string {
	if dir == "" || dir == "." {
		return p
	}
	return dir + "/" + p
}

func parent(p string) string {
	if d := path.Dir(p); d != "." {
		return d
	}
	return ""
}
