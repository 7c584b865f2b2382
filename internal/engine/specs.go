package engine

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// ResolveSpecs returns the specs of a run, and its root (the default
// root when root is empty): specPath, else the protocol-core specs under
// docs/specs/ of the root. specPath is the user's, read from anywhere,
// unless inTree says the tree named it; the tree's specs are read only
// from inside the root.
func ResolveSpecs(specPath []string, inTree bool, root string) ([]*msgcheck.Spec, string, error) {
	if root == "" {
		root = FindRoot()
	} else if fi, err := os.Stat(root); err != nil {
		return nil, root, fmt.Errorf("root: %w", err)
	} else if !fi.IsDir() {
		return nil, root, fmt.Errorf("root %s: not a directory", root)
	}
	if len(specPath) > 0 {
		load := msgcheck.LoadSpecs
		if inTree {
			load = func(p ...string) (*msgcheck.Spec, error) { return msgcheck.LoadSpecsIn(root, p...) }
		}
		s, err := load(specPath...)
		if err != nil {
			return nil, root, err
		}
		return []*msgcheck.Spec{s}, root, nil
	}
	specs, err := msgcheck.Discover(root)
	return specs, root, err
}

// FindRoot is the nearest ancestor of the working directory holding .git,
// else the working directory.
func FindRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return wd
		}
		dir = parent
	}
}
