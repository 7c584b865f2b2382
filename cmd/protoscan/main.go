// Command protoscan checks multi-agent protocol messages and the code that
// produces them. This file holds the command dispatch; each subcommand
// lives in its own file.
//
// Exit codes (a contract): 0 nothing at or above the failure level, 1
// findings or invalid messages, 2 usage, config or spec errors, unreadable
// input, or an internal failure.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

const (
	exitOK      = 0
	exitFailed  = 1
	exitTrouble = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// env is what a subcommand may touch: its streams and nothing global.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		usage(stderr)
		return exitTrouble
	}
	switch args[0] {
	case "validate":
		return e.validate(args[1:])
	case "spec":
		return e.spec(args[1:])
	case "version":
		fmt.Fprintln(stdout, "protoscan", version())
		return exitOK
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	}
	fmt.Fprintf(stderr, "protoscan: unknown command %q\n", args[0])
	usage(stderr)
	return exitTrouble
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: protoscan <command> [flags]

commands:
  validate [--delegate F | --handback F | F...] [--json] [--spec F] [--root DIR]
           validate protocol messages from YAML or JSON files ("-" is stdin)
  spec     [--spec F] [--root DIR]   print the protocol spec in effect
  version  print the version

Run "protoscan <command> -h" for a command's flags.
`)
}

// version is the module version when installed with go install, else the
// VCS revision, else "devel".
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return "devel-" + s.Value[:12]
		}
	}
	return "devel"
}
