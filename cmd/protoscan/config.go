package main

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// config runs "protoscan config schema" and "protoscan config check [FILE]".
func (e *env) config(args []string) int {
	const usage = "usage: protoscan config schema | protoscan config check [FILE]"
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, usage)
		return exitTrouble
	}
	switch args[0] {
	case "schema":
		fs := flag.NewFlagSet("config schema", flag.ContinueOnError)
		fs.SetOutput(e.stderr)
		var extra []string
		if code, done := parseFlags(e, fs, "usage: protoscan config schema", args[1:], func(a string) { extra = append(extra, a) }); done {
			return code
		}
		if len(extra) > 0 {
			fmt.Fprintf(e.stderr, "protoscan config schema: unexpected argument %q\n", extra[0])
			return exitTrouble
		}
		e.stdout.Write(config.Schema())
		return exitOK
	case "check":
		return e.configCheck(args[1:])
	case "help", "-h", "-help", "--help":
		fmt.Fprintln(e.stdout, usage)
		fmt.Fprintln(e.stdout, "  schema         print the JSON Schema (draft-07) of .protoscan.yaml")
		fmt.Fprintln(e.stdout, "  check [FILE]   check a configuration file (default: .protoscan.yaml or .protoscan.yml here)")
		return exitOK
	}
	fmt.Fprintf(e.stderr, "protoscan config: unknown command %q%s\n%s\n", args[0], nearValue(args[0], []string{"check", "schema"}, " ("), usage)
	return exitTrouble
}

// configCheck loads a configuration file and prints "ok", or every error
// (one per line, FILE:LINE:COL: message) and exits 2.
func (e *env) configCheck(args []string) int {
	fs := flag.NewFlagSet("config check", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var files []string
	if code, done := parseFlags(e, fs, "usage: protoscan config check [FILE]", args, func(a string) { files = append(files, a) }); done {
		return code
	}
	var err error
	var cfg *config.Config
	root := "."
	switch len(files) {
	case 0:
		p, ok := config.Find(".")
		if !ok {
			fmt.Fprintln(e.stderr, "protoscan config check: no .protoscan.yaml or .protoscan.yml in the current directory")
			return exitTrouble
		}
		// the current directory's file is the tree's: read from inside it
		cfg, err = config.LoadIn(".", p)
	case 1:
		cfg, err = config.Load(files[0])
		root = filepath.Dir(files[0])
	default:
		fmt.Fprintln(e.stderr, "protoscan config check: give one FILE at most")
		return exitTrouble
	}
	if err == nil {
		err = checkConfig(cfg, root)
	}
	if err != nil {
		return e.configTrouble("protoscan config check:", err)
	}
	fmt.Fprintln(e.stdout, "ok")
	return exitOK
}

// checkConfig is what scan rejects in a config that loaded, checked
// the same way: rule settings that name no rule (checkConfigRules), and
// synonyms that map to no status of the spec the scan of root would use
// (the config's spec, else the tree's, else the embedded one; a spec that
// cannot be loaded is the scan's protoscan/spec-error finding, not a
// config error, so the embedded spec judges then, as in the scan).
func checkConfig(cfg *config.Config, root string) error {
	if cfg == nil {
		return nil
	}
	if err := checkConfigRules(cfg); err != nil {
		return err
	}
	syn := cfg.SynonymMap()
	if len(syn) == 0 {
		return nil
	}
	var paths specPaths
	if cfg.Spec != "" {
		paths = cfg.SpecPaths()
	}
	spec := msgcheck.DefaultSpec()
	if specs, _, err := resolveSpecs(paths, true, root); err == nil && len(specs) > 0 {
		spec = specs[0]
	}
	if _, err := enumdrift.NewVocabulary(spec, syn); err != nil {
		return config.Errors{cfg.Errorf(cfg.Pos("synonyms"), "%v", err)}
	}
	return nil
}

// configTrouble prints a config's errors as config check and scan both
// print them, one FILE:LINE:COL: message per line (any other error after
// prefix), and returns exit 2.
func (e *env) configTrouble(prefix string, err error) int {
	var list config.Errors
	if errors.As(err, &list) {
		for _, le := range list {
			fmt.Fprintln(e.stderr, le)
		}
	} else {
		fmt.Fprintln(e.stderr, prefix, err)
	}
	return exitTrouble
}
