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
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/protoscan-dev/protoscan/analyzers/divergence"
	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/internal/editdist"
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
	case "init":
		return e.initConfig(args[1:])
	case "rules":
		return e.rules(args[1:])
	case "explain":
		return e.explain(args[1:])
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, "protoscan", versionLine())
		return exitOK
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[0] == "help" && slices.Contains(commands, args[1]) {
			// the command's own help, as CMD -h prints it
			return run([]string{args[1], "-h"}, stdin, stdout, stderr)
		}
		if len(args) > 1 && args[0] == "help" {
			fmt.Fprintf(stderr, "protoscan help: unknown command %q%s\n", args[1], didYouMean(args[1]))
			usage(stderr)
			return exitTrouble
		}
		usage(stdout)
		return exitOK
	}
	if a := args[0]; !strings.HasPrefix(a, "-") && !strings.ContainsAny(a, `/\.`) {
		if _, err := os.Lstat(a); err != nil {
			// neither a command nor a file: most likely a mistyped command
			return unknownCommand(stderr, a)
		}
	}
	// scan is the default command: protoscan ./repo
	return e.scan(args)
}

// commands are the words run takes as commands, in usage order.
var commands = []string{"scan", "audit", "validate", "phase", "spec", "config", "init", "rules", "explain", "version", "help"}

// unknownCommand says that word is neither a command nor an existing path,
// with the nearest command when one is close; exit 2.
func unknownCommand(w io.Writer, word string) int {
	fmt.Fprintf(w, "protoscan: unknown command %q, and no file or directory of that name%s\n", word, didYouMean(word))
	fmt.Fprintln(w, `Run "protoscan help" for the commands.`)
	return exitTrouble
}

// didYouMean is " (did you mean "CMD"?)" for the command nearest word, or
// "" when none is near.
func didYouMean(word string) string {
	if c := nearestCommand(word); c != "" {
		return fmt.Sprintf(" (did you mean %q?)", c)
	}
	return ""
}

// nearestCommand is the command within an edit distance of a third of
// word's length (at least 2) of it, the closest first; "" when none is.
func nearestCommand(word string) string {
	word = strings.ToLower(word)
	best, bestDist := "", max(2, len(word)/3)+1
	for _, c := range commands {
		if d := editdist.Distance(word, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
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
           validate protocol messages from YAML, JSON, Markdown or code files ("-" is stdin)
           --verdict F checks phase verdict JSON against its contract, fail-closed
  phase    --conditions F --handoff F [--repo DIR] [--campaign SLUG] [--phase N]
           judge a HANDOFF against a phase's exit conditions; prints the verdict JSON
  spec     [--spec F] [--root DIR] [--json-schema KIND]   print the protocol spec in effect, or one kind as JSON Schema
  config   schema | check [FILE]   print the JSON Schema of .protoscan.yaml, or check a config file
  init     [DIR]      write a commented starter .protoscan.yaml here (or in DIR)
  rules    [--json]   list every rule: id, default severity, title
  explain  RULE       print a rule's documentation: what, why, an example, the fix
  version  print the module version and VCS revision (also --version)

Run "protoscan <command> -h" or "protoscan help <command>" for a command's flags.
`)
}

// version is the module version when installed with go install, else the
// VCS revision, else "devel": the tool version reports carry.
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

// versionLine is what version and --version print after "protoscan": the
// module version ("devel" for a build of a checkout), then the VCS
// revision and whether the tree had uncommitted changes, when the build
// recorded them: "v1.2.0 (revision 0123abcd..., modified)".
func versionLine() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return versionOf(bi)
}

// versionOf is versionLine for the build info bi.
func versionOf(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	rev, modified := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return v
	}
	if modified {
		return v + " (revision " + rev + ", modified)"
	}
	return v + " (revision " + rev + ")"
}
