package main

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/internal/textsafe"
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
	switch len(files) {
	case 0:
		p, ok := config.Find(".")
		if !ok {
			fmt.Fprintln(e.stderr, "protoscan config check: no .protoscan.yaml or .protoscan.yml in the current directory")
			return exitTrouble
		}
		// the current directory's file is the tree's: read from inside it
		_, err = config.LoadIn(".", p, checkConfig(".", nil, true))
	case 1:
		_, err = config.Load(files[0], checkConfig(filepath.Dir(files[0]), nil, true))
	default:
		fmt.Fprintln(e.stderr, "protoscan config check: give one FILE at most")
		return exitTrouble
	}
	if err != nil {
		return e.configTrouble("protoscan config check:", err)
	}
	fmt.Fprintln(e.stdout, "ok")
	return exitOK
}

// checkConfig is what scan rejects in a config beyond the file's own
// problems, checked the same way by scan and config check: rule settings
// that name no rule (checkConfigRules), and synonyms that map to no
// status of the spec a scan of root would use (checkSynonyms): specPath
// when given (--spec), else the config's spec (read from inside root
// when inTree), else the tree's, else the embedded one. A spec that
// cannot be loaded is the scan's protoscan/spec-error finding or its
// exit 2, not a config error, so the embedded spec judges then, as it
// does in the scan.
func checkConfig(root string, specPath specPaths, inTree bool) config.Check {
	return func(cfg *config.Config) config.Errors {
		errs := checkConfigRules(cfg)
		if len(cfg.Synonyms) == 0 {
			return errs
		}
		paths, named := specPath, len(specPath) > 0
		if !named && cfg.Spec != "" {
			paths = cfg.SpecPaths()
		}
		spec := msgcheck.DefaultSpec()
		if specs, _, err := resolveSpecs(paths, inTree && !named, root); err == nil && len(specs) > 0 {
			spec = specs[0]
		}
		return append(errs, checkSynonyms(cfg, spec)...)
	}
}

// checkSynonyms rejects each synonym that maps to no HANDBACK status of
// spec (of the embedded spec when spec has none, as enumdrift falls back
// to it), at the status it names, with the nearest status; enumdrift's
// NewVocabulary refuses the same synonyms.
func checkSynonyms(cfg *config.Config, spec *msgcheck.Spec) config.Errors {
	statuses, _, ok := spec.Enum("handback", "status")
	if !ok || len(statuses) == 0 {
		statuses, _, _ = msgcheck.DefaultSpec().Enum("handback", "status")
	}
	var errs config.Errors
	for _, s := range cfg.Synonyms {
		if slices.Contains(statuses, s.Canonical) {
			continue
		}
		errs = append(errs, cfg.Errorf(s.CanonicalPos, "synonym %q maps to %q, which is not a HANDBACK status (%s%s)",
			s.Legacy, s.Canonical, strings.Join(statuses, ", "), nearValue(s.Canonical, statuses, "; ")))
	}
	return errs
}

// configTrouble prints a config's errors as config check and scan both
// print them, one FILE:LINE:COL: message per line (any other error after
// prefix), and returns exit 2.
func (e *env) configTrouble(prefix string, err error) int {
	var list config.Errors
	if errors.As(err, &list) {
		for _, le := range list {
			fmt.Fprintln(e.stderr, textsafe.Error(le))
		}
	} else {
		fmt.Fprintln(e.stderr, prefix, textsafe.Error(err))
	}
	return exitTrouble
}
