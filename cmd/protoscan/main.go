// Command protoscan checks multi-agent protocol messages and the code that
// produces them. This file holds the command dispatch; each subcommand
// lives in its own file.
//
// Exit codes (a contract): 0 nothing at or above the failure level, 1
// findings or invalid messages, 2 usage, config or spec errors, unreadable
// input, or an internal failure. A spec that scan found in the tree and
// cannot load is a finding (protoscan/spec-error), not an exit 2.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/protoscan/protoscan/analyzers/divergence"
	"github.com/protoscan/protoscan/analyzers/enumdrift"
)

const (
	exitOK      = 0
	exitFailed  = 1
	exitTrouble = 2
)

func main() {
	if isVetTool(os.Args[1:]) {
		unitchecker.Main(enumdrift.Analyzer, divergence.Analyzer) // exits
	}
	stop := startCPUProfile(os.Getenv(envCPUProfile), os.Stderr)
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// isVetTool reports whether go vet is running us as its -vettool: it asks
// for -V=full and -flags, then passes one .cfg file per package.
func isVetTool(args []string) bool {
	if len(args) == 0 {
		return false
	}
	a := args[0]
	return a == "-flags" || strings.HasPrefix(a, "-V=") || strings.HasSuffix(args[len(args)-1], ".cfg")
}

// env is what a subcommand may touch: its streams and nothing global.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		return e.scan(nil)
	}
	switch args[0] {
	case "scan":
		return e.scan(args[1:])
	case "validate":
		return e.validate(args[1:])
	case "audit":
		return e.audit(args[1:])
	case "phase":
		return e.phase(args[1:])
	case "spec":
		return e.spec(args[1:])
	case "config":
		return e.config(args[1:])
	case "rules":
		return e.rules(args[1:])
	case "explain":
		return e.explain(args[1:])
	case "version":
		fmt.Fprintln(stdout, "protoscan", version())
		return exitOK
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	}
	// scan is the default command: protoscan ./repo
	return e.scan(args)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: protoscan <command> [flags]

commands:
  scan     [flags] [PATH...]   (the default command; no PATH means .)
           the compliance report: messages, status drift, divergent decisions;
           --format text|json|sarif|markdown[=FILE], --fail-on LEVEL, --config F,
           --baseline F, --write-baseline F, --new-from-rev REV, --fix, --diff
  audit    [--format F] [--fail-under PCT] [--root DIR] PATH...   ("-" is JSON Lines on stdin)
           audit a message queue: every message validated, orphans, pending, duplicates, cycles
  validate [--delegate F | --handback F | --handoff F | --verdict F | F...] [--json] [--spec F] [--root DIR] [--events F]
           validate protocol messages from YAML or JSON files ("-" is stdin)
           --verdict F checks phase verdict JSON against its contract, fail-closed
  phase    --conditions F --handoff F [--repo DIR] [--campaign SLUG] [--phase N]
           judge a HANDOFF against a phase's exit conditions; prints the verdict JSON
  spec     [--spec F] [--root DIR] [--json-schema KIND]   print the protocol spec in effect, or one kind as JSON Schema
  config   schema | check [FILE]   print the JSON Schema of .protoscan.yaml, or check a config file
  rules    [--json]   list every rule: id, default severity, title
  explain  RULE       print a rule's documentation: what, why, an example, the fix
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
