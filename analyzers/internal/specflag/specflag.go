// Package specflag gives each go/analysis Analyzer of protoscan its -spec
// flag and loads the protocol spec it names once per process, so every
// package the vet tool analyzes uses the same compiled spec.
package specflag

import (
	"flag"
	"sync"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// Flag is a registered -spec flag.
type Flag struct {
	path string
	load func() (*msgcheck.Spec, error)
}

// Register adds -spec to fs (an Analyzer's Flags).
func Register(fs *flag.FlagSet) *Flag {
	f := &Flag{}
	fs.StringVar(&f.path, "spec", "", "protocol spec `file`, or a directory of per-kind schema files (default: the embedded protocol-core v1.0)")
	f.load = sync.OnceValues(func() (*msgcheck.Spec, error) {
		if f.path == "" {
			return msgcheck.DefaultSpec(), nil
		}
		return msgcheck.LoadSpecs(f.path) // a spec file, or a directory of per-kind schemas
	})
	return f
}

// Spec returns the spec the flag names, loaded on first use.
func (f *Flag) Spec() (*msgcheck.Spec, error) { return f.load() }
