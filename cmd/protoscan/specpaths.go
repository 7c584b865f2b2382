package main

import (
	"flag"
	"strings"
)

// specPaths is the --spec flag: repeatable, each value a spec file, a
// per-kind schema file (handback.schema.json) or a directory of them;
// msgcheck.LoadSpecs makes one spec of them all.
type specPaths []string

func (p *specPaths) String() string { return strings.Join(*p, ",") }

func (p *specPaths) Set(v string) error {
	*p = append(*p, v)
	return nil
}

// specUsage begins the usage of --spec; each command adds what is used
// without it.
const specUsage = "protocol spec `FILE`, or per-kind schema files or a directory of them (repeatable)"

// specFlag defines --spec on fs; usage says what is used without it.
func specFlag(fs *flag.FlagSet, usage string) *specPaths {
	p := new(specPaths)
	fs.Var(p, "spec", specUsage+usage)
	return p
}
