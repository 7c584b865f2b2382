package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/protoscan-dev/protoscan/internal/editdist"
)

// cmdPrefix is how a command's own messages begin: "protoscan:" for scan,
// the default command, "protoscan validate:" for the others.
func cmdPrefix(fs *flag.FlagSet) string {
	if fs.Name() == "scan" {
		return "protoscan:"
	}
	return "protoscan " + fs.Name() + ":"
}

// printFlagError says what was wrong with the command line in one line
// (flagError), then where the command's flags are listed: the whole usage
// would bury the line that matters.
func printFlagError(w io.Writer, fs *flag.FlagSet, err error) {
	fmt.Fprintln(w, cmdPrefix(fs), flagError(fs, err))
	fmt.Fprintf(w, "Run \"protoscan %s -h\" for its flags.\n", fs.Name())
}

// flagError rewrites an error of fs.Parse in the spelling the docs use
// (--fail-on, -j), with the flag nearest to an unknown one.
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		s := "unknown flag " + dashed(name)
		if near := nearestFlag(fs, name); near != "" {
			s += " (did you mean " + near + "?)"
		}
		return s
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return "flag " + dashed(name) + " needs a value"
	}
	// invalid value "V" for flag -NAME: ERR; invalid boolean value "V" for -NAME: ERR
	for _, head := range []string{"invalid value ", "invalid boolean value "} {
		rest, ok := strings.CutPrefix(msg, head)
		if !ok {
			continue
		}
		quoted, err := strconv.QuotedPrefix(rest)
		if err != nil {
			break
		}
		rest = strings.TrimPrefix(strings.TrimPrefix(rest[len(quoted):], " for flag -"), " for -")
		name, why, ok := strings.Cut(rest, ": ")
		if !ok {
			break
		}
		if head == "invalid boolean value " {
			why = "want true or false"
		}
		return fmt.Sprintf("invalid value %s for %s: %s", quoted, dashed(name), why)
	}
	return msg
}

// dashed spells a flag as the docs do: -j, --fail-on; quoted when the
// name holds what a terminal would not show as it is.
func dashed(name string) string {
	s := "--" + name
	if len(name) == 1 {
		s = "-" + name
	}
	if q := strconv.Quote(s); q[1:len(q)-1] != s {
		return q
	}
	return s
}

// nearestFlag is the flag of fs a mistyped one most likely meant, spelled
// as dashed spells it ("" when none is near): a format's name is the
// --format of it (--sarif is --format sarif), else editdist.Nearest among
// the flags' names. A name of one letter is near too many to guess.
func nearestFlag(fs *flag.FlagSet, name string) string {
	name = strings.TrimLeft(name, "-")
	if fs.Lookup("format") != nil && slices.Contains(formatNames, strings.ToLower(name)) {
		return "--format " + strings.ToLower(name)
	}
	if len(name) < 2 {
		return ""
	}
	names := []string{"help"}
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if near, ok := editdist.Nearest(name, names); ok {
		return dashed(near)
	}
	return ""
}
