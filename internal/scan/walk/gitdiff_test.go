package walk

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// These tests use the git binary as the oracle for .gitignore semantics:
// `git ls-files --others --exclude-standard` lists exactly the untracked
// files git does not ignore, which is what the walk must yield.

func gitCmd(t *testing.T, dir string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	home := t.TempDir()
	// No user or system configuration: in particular no core.excludesFile.
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

func haveGit(t *testing.T) bool {
	t.Helper()
	_, err := exec.LookPath("git")
	return err == nil
}

// gitUntracked lists the files of dir (in a work tree) that git neither
// tracks nor ignores, as slash paths relative to dir.
func gitUntracked(t *testing.T, dir string) []string {
	out := gitCmd(t, dir, "ls-files", "--others", "--exclude-standard", "-z")
	files := []string{}
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	return files
}

// gitIgnores reports whether git ignores rel (relative to dir).
func gitIgnores(t *testing.T, dir, rel string) bool {
	cmd := exec.Command("git", "check-ignore", "-q", rel)
	cmd.Dir = dir
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		return false
	}
	if err != nil {
		t.Fatalf("git check-ignore %s: %v", rel, err)
	}
	return true
}

// checkAgainstGit turns root into a git work tree (if it is not one) and
// checks that the walk's files are the ones git does not ignore.
func checkAgainstGit(t *testing.T, root string, res *Result) {
	t.Helper()
	if !haveGit(t) {
		t.Log("git not installed: expectations not cross-checked")
		return
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		gitCmd(t, root, "init", "-q", "--template=")
	}
	if want, got := gitUntracked(t, root), rels(res.Files); !slices.Equal(got, want) {
		t.Errorf("walk disagrees with git:\n walk %q\n git  %q", got, want)
	}
}

func TestGitignoreAgainstGitRandom(t *testing.T) {
	if !haveGit(t) {
		t.Skip("git not installed")
	}
	// PROTOSCAN_GITDIFF_CASES=5000 for a longer hunt.
	n := 50
	if testing.Short() {
		n = 15
	}
	if v, err := strconv.Atoi(os.Getenv("PROTOSCAN_GITDIFF_CASES")); err == nil {
		n = v
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range n {
		root := t.TempDir()
		gitCmd(t, root, "init", "-q", "--template=")
		files, ignores := randomRepo(rng)
		mkTree(t, root, files)
		for dir, content := range ignores {
			p := filepath.Join(root, filepath.FromSlash(dir))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		res := mustWalk(t, root, Options{})
		want, got := gitUntracked(t, root), rels(res.Files)
		if !slices.Equal(got, want) {
			var desc strings.Builder
			for _, k := range sortedKeys(ignores) {
				fmt.Fprintf(&desc, "  %s:\n    %s\n", k, strings.ReplaceAll(strings.TrimSpace(ignores[k]), "\n", "\n    "))
			}
			t.Fatalf("case %d: walk disagrees with git\nignore files:\n%s walk only: %q\n git only:  %q",
				i, desc.String(), minus(got, want), minus(want, got))
		}
		// Walking a subdirectory must agree with git run there, which
		// applies the ignore files above it.
		// (Skipped when git ignores "a" itself: a root the user names is
		// always walked; see TestIgnoredRootIsWalked.)
		sub := filepath.Join(root, "a")
		if fi, err := os.Stat(sub); err == nil && fi.IsDir() && !gitIgnores(t, root, "a") {
			res := mustWalk(t, sub, Options{})
			want, got := gitUntracked(t, sub), rels(res.Files)
			if !slices.Equal(got, want) {
				t.Fatalf("case %d, subdirectory a: walk only %q, git only %q", i, minus(got, want), minus(want, got))
			}
		}
	}
}

var (
	dirNames  = []string{"a", "b", "build", "doc", "x y"}
	fileNames = []string{"m.go", "n.log", "o.txt", "foo", "Foo.txt", ".env", "#h", "!b", "d[1].txt", "tmp~", "build"}
	pieces    = []string{"a", "b", "build", "doc", "foo", "m.go", "*.log", "*.txt", "*", "**", "?", "[ab]", "[!a]*", "*o*", "x y", `\#h`, `\!b`, `d\[1\].txt`, "d[1].txt", "*~", "[[:upper:]]*", ".*"}
)

// randomRepo makes a small random tree and random ignore files for it.
func randomRepo(rng *rand.Rand) (files, ignores map[string]string) {
	files = map[string]string{}
	var dirs []string
	for range 3 + rng.IntN(12) {
		var parts []string
		for range rng.IntN(4) {
			parts = append(parts, dirNames[rng.IntN(len(dirNames))])
		}
		dir := strings.Join(parts, "/")
		dirs = append(dirs, dir)
		name := fileNames[rng.IntN(len(fileNames))]
		rel := join(dir, name)
		// A name cannot be both a file and a directory.
		clash := false
		for f := range files {
			if strings.HasPrefix(f, rel+"/") || strings.HasPrefix(rel, f+"/") {
				clash = true
			}
		}
		if !clash {
			files[rel] = "x"
		}
	}
	ignores = map[string]string{}
	places := append([]string{"", ""}, dirs...)
	for range rng.IntN(4) + 1 {
		dir := places[rng.IntN(len(places))]
		if files[join(dir, ".gitignore")] != "" {
			continue
		}
		// The ignore file's directory must not be (below) a file.
		blocked := false
		for f := range files {
			if dir == f || strings.HasPrefix(dir, f+"/") {
				blocked = true
			}
		}
		if blocked {
			continue
		}
		ignores[join(dir, ".gitignore")] += randomPatterns(rng)
	}
	if rng.IntN(3) == 0 {
		ignores[".git/info/exclude"] = randomPatterns(rng)
	}
	return files, ignores
}

func randomPatterns(rng *rand.Rand) string {
	var b strings.Builder
	for range 1 + rng.IntN(5) {
		if rng.IntN(10) == 0 {
			b.WriteString("# comment\n")
		}
		if rng.IntN(4) == 0 {
			b.WriteString("!")
		}
		if rng.IntN(4) == 0 {
			b.WriteString("/")
		}
		var parts []string
		for range 1 + rng.IntN(3) {
			parts = append(parts, pieces[rng.IntN(len(pieces))])
		}
		b.WriteString(strings.Join(parts, "/"))
		if rng.IntN(4) == 0 {
			b.WriteString("/")
		}
		if rng.IntN(8) == 0 {
			b.WriteString("  ")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
