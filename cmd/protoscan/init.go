package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/internal/engine"
	"github.com/protoscan-dev/protoscan/internal/safefile"
)

// initConfig writes a commented starter .protoscan.yaml: protoscan init [DIR].
// A configuration already there, of either name, is left as it is: exit
// 2 and nothing written.
func (e *env) initConfig(args []string) int {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var dirs []string
	usage := "usage: protoscan init [DIR]   (writes DIR/.protoscan.yaml; DIR defaults to the current directory)"
	if code, done := parseFlags(e, fs, usage, args, func(a string) { dirs = append(dirs, a) }); done {
		return code
	}
	dir := "."
	switch len(dirs) {
	case 0:
	case 1:
		dir = dirs[0]
		if fi, err := os.Stat(dir); err != nil {
			fmt.Fprintln(e.stderr, "protoscan init:", err)
			return exitTrouble
		} else if !fi.IsDir() {
			fmt.Fprintf(e.stderr, "protoscan init: %s is not a directory\n", dir)
			return exitTrouble
		}
	default:
		fmt.Fprintln(e.stderr, usage)
		return exitTrouble
	}
	for _, name := range config.FileNames {
		// whatever is there, a file, a link, a directory, is the user's
		if p := filepath.Join(dir, name); lexists(p) {
			fmt.Fprintf(e.stderr, "protoscan init: %s already exists; nothing written (protoscan config check checks it)\n", p)
			return exitTrouble
		}
	}
	p := filepath.Join(dir, config.FileNames[0])
	if err := safefile.WriteFile(p, config.Starter(), 0o644, engine.WriteRoots(dir)...); err != nil {
		fmt.Fprintln(e.stderr, "protoscan init:", err)
		return exitTrouble
	}
	check := "protoscan config check"
	if dir != "." {
		check += " " + p
	}
	fmt.Fprintf(e.stdout, "wrote %s: edit it, then run %q\n", p, check)
	return exitOK
}

// lexists reports whether there is a file, directory or link at p.
func lexists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
