package main

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/internal/editdist"
	"github.com/protoscan-dev/protoscan/internal/engine"
	"github.com/protoscan-dev/protoscan/internal/textsafe"
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
	fmt.Fprintf(e.stderr, "protoscan config: unknown command %q%s\n%s\n", args[0], editdist.Hint(args[0], []string{"check", "schema"}, " ("), usage)
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
		_, err = config.LoadIn(".", p, engine.CheckConfig(".", nil, true))
	case 1:
		_, err = config.Load(files[0], engine.CheckConfig(filepath.Dir(files[0]), nil, true))
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
