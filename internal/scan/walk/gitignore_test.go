package walk

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
)

func TestParseIgnore(t *testing.T) {
	data := "\xef\xbb\xbf# comment\n" +
		"\n" +
		"*.log\n" +
		"!keep.log\n" +
		"build/\n" +
		"/anchored\n" +
		"doc/frotz/\n" +
		`\#not-a-comment` + "\n" +
		`\!not-negated` + "\n" +
		"trailing   \n" +
		`escaped\ ` + "\n" +
		"tab\t\n" +
		"crlf\r\n" +
		"   \n" +
		"!\n" +
		"/\n" +
		" #leading-space\n" +
		"a/**/b"
	got := parseIgnore([]byte(data))
	want := []ignoreRule{
		{pattern: "*.log", basename: true, endsWith: true, line: 3, text: "*.log"},
		{pattern: "keep.log", negate: true, basename: true, literal: true, line: 4, text: "!keep.log"},
		{pattern: "build", dirOnly: true, basename: true, literal: true, line: 5, text: "build/"},
		{pattern: "anchored", literal: true, line: 6, text: "/anchored"},
		{pattern: "doc/frotz", dirOnly: true, literal: true, line: 7, text: "doc/frotz/"},
		{pattern: `\#not-a-comment`, basename: true, line: 8, text: `\#not-a-comment`},
		{pattern: `\!not-negated`, basename: true, line: 9, text: `\!not-negated`},
		{pattern: "trailing", basename: true, literal: true, line: 10, text: "trailing"},
		{pattern: `escaped\ `, basename: true, line: 11, text: `escaped\ `},
		{pattern: "tab\t", basename: true, literal: true, line: 12, text: "tab\t"},
		{pattern: "crlf", basename: true, literal: true, line: 13, text: "crlf"},
		{pattern: " #leading-space", basename: true, literal: true, line: 17, text: " #leading-space"},
		{pattern: "a/**/b", line: 18, text: "a/**/b"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseIgnore:")
		for i := range max(len(got), len(want)) {
			var g, w ignoreRule
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Errorf(" [%d]\n got  %+v\n want %+v", i, g, w)
			}
		}
	}
}

func TestTrimTrailingSpaces(t *testing.T) {
	for in, want := range map[string]string{
		"a":        "a",
		"a  ":      "a",
		`a\ `:      `a\ `,
		`a\  `:     `a\ `,
		`a\ \  `:   `a\ \ `,
		"a b ":     "a b",
		"   ":      "",
		`a\`:       `a\`,
		"a\t ":     "a\t",
		`a\\  `:    `a\\`,
		" lead  x": " lead  x",
	} {
		if got := trimTrailingSpaces(in); got != want {
			t.Errorf("trimTrailingSpaces(%q) = %q, want %q", in, got, want)
		}
	}
}

// matchOne applies one ignore file's rules (at the root) to a path, as the
// walk would for that path alone (not considering its parent directories).
func matchOne(rules string, rel string, isDir bool) bool {
	st := ignoreStack{{rules: parseIgnore([]byte(rules))}}
	_, r := st.match(rel, rel[strings.LastIndexByte(rel, '/')+1:], isDir)
	return r != nil && !r.negate
}

// Examples from gitignore(5) and git's behaviour, path by path.
func TestIgnoreRuleMatching(t *testing.T) {
	cases := []struct {
		rules string
		rel   string
		isDir bool
		want  bool
	}{
		// No slash: the base name, at any depth.
		{"*.log", "a.log", false, true},
		{"*.log", "x/y/a.log", false, true},
		{"*.log", "a.log.txt", false, false},
		{"foo", "foo", true, true},
		{"foo", "a/b/foo", false, true},
		// Trailing slash: directories only (a file or a symlink is not one).
		{"foo/", "foo", false, false},
		{"foo/", "a/foo", true, true},
		// A slash at the start or in the middle anchors to the file's dir.
		{"/foo", "foo", false, true},
		{"/foo", "a/foo", false, false},
		{"doc/frotz", "doc/frotz", true, true},
		{"doc/frotz", "a/doc/frotz", true, false},
		{"doc/frotz/", "doc/frotz", true, true},
		{"frotz/", "a/frotz", true, true},
		// '*' does not cross '/'.
		{"doc/*.txt", "doc/a.txt", false, true},
		{"doc/*.txt", "doc/x/a.txt", false, false},
		// "**".
		{"**/foo", "foo", false, true},
		{"**/foo", "a/b/foo", false, true},
		{"**/foo/bar", "x/foo/bar", false, true},
		{"abc/**", "abc/x/y", false, true},
		{"abc/**", "abc", true, false},
		{"a/**/b", "a/b", false, true},
		{"a/**/b", "a/x/y/b", false, true},
		{"a/**/b", "a/x/y/c", false, false},
		// Negation: the last matching pattern wins.
		{"*.log\n!keep.log", "keep.log", false, false},
		{"*.log\n!keep.log", "other.log", false, true},
		{"!keep.log\n*.log", "keep.log", false, true},
		// Escapes.
		{`\#hash`, "#hash", false, true},
		{"#hash", "#hash", false, false},
		{`\!bang`, "!bang", false, true},
		{`sp\ `, "sp ", false, true},
		{"sp ", "sp ", false, false},
		{`data\[1\].txt`, "data[1].txt", false, true},
		{"data[1].txt", "data1.txt", false, true},
		// Classes.
		{"[!a]*.go", "b.go", false, true},
		{"[!a]*.go", "a.go", false, false},
		{"?.go", "ab.go", false, false},
		// Case-sensitive, as git on Linux.
		{"*.LOG", "a.log", false, false},
	}
	for _, c := range cases {
		if got := matchOne(c.rules, c.rel, c.isDir); got != c.want {
			t.Errorf("rules %q, path %q (dir %v): ignored = %v, want %v", c.rules, c.rel, c.isDir, got, c.want)
		}
	}
}

func TestNestedGitignore(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		".gitignore": "*.log\n" +
			"/only-root.txt\n" +
			"build/\n" +
			"generated\n" +
			"!important.log\n" +
			"cache/*\n" +
			"!cache/keep.yaml\n" +
			"out/\n" +
			"!out/kept.go\n" +
			`\#notes` + "\n",
		"a.log":                 "",
		"important.log":         "",
		"only-root.txt":         "",
		"sub/only-root.txt":     "", // anchored pattern: only at the root
		"sub/app.log":           "",
		"sub/important.log":     "",
		"build/x.go":            "",
		"sub/build/y.go":        "",
		"sub/build.go":          "", // "build/" is for directories
		"generated":             "", // no trailing slash: files too
		"sub/generated/z.go":    "",
		"cache/tmp.bin":         "",
		"cache/keep.yaml":       "", // re-included: cache itself is not excluded
		"out/kept.go":           "", // cannot be re-included: out/ is excluded
		"#notes":                "",
		"sub/.gitignore":        "!*.log\nlocal.txt\n/anchored.md\n",
		"sub/local.txt":         "",
		"local.txt":             "", // sub's pattern does not apply above sub
		"sub/anchored.md":       "",
		"sub/other/anchored.md": "", // "/anchored.md" in sub/.gitignore: only sub/anchored.md
		"sub/deeper/.gitignore": "*.md\n!keep.md\n",
		"sub/deeper/keep.md":    "",
		"sub/deeper/drop.md":    "",
		"sub/deeper/more.log":   "", // re-included by sub/.gitignore
	})
	res := mustWalk(t, root, Options{})
	assertRels(t, res.Files,
		".gitignore", "cache/keep.yaml", "important.log", "local.txt",
		"sub/.gitignore", "sub/app.log", "sub/build.go", "sub/deeper/.gitignore",
		"sub/deeper/keep.md", "sub/deeper/more.log",
		"sub/important.log", "sub/only-root.txt", "sub/other/anchored.md")
	wantEx := map[string]string{
		"#notes":             ".gitignore:10:\\#notes",
		"a.log":              ".gitignore:1:*.log",
		"build":              ".gitignore:3:build/",
		"cache/tmp.bin":      ".gitignore:6:cache/*",
		"generated":          ".gitignore:4:generated",
		"only-root.txt":      ".gitignore:2:/only-root.txt",
		"out":                ".gitignore:8:out/",
		"sub/anchored.md":    "sub/.gitignore:3:/anchored.md",
		"sub/build":          ".gitignore:3:build/",
		"sub/deeper/drop.md": "sub/deeper/.gitignore:1:*.md",
		"sub/generated":      ".gitignore:4:generated",
		"sub/local.txt":      "sub/.gitignore:2:local.txt",
	}
	gotEx := map[string]string{}
	for _, e := range res.Excluded {
		if e.Reason != ReasonGitignore {
			t.Errorf("unexpected exclusion %+v", e)
		}
		gotEx[e.Rel] = e.Detail
	}
	if !reflect.DeepEqual(gotEx, wantEx) {
		t.Errorf("excluded\n got  %v\n want %v", gotEx, wantEx)
	}
	if len(res.Notices) != 0 {
		t.Errorf("gitignored paths must be silent: %v", res.Notices)
	}

	all := mustWalk(t, root, Options{NoGitignore: true})
	if len(all.Files) != 25 || len(all.Excluded) != 0 {
		t.Errorf("NoGitignore: %d files, excluded %v", len(all.Files), all.Excluded)
	}
	checkAgainstGit(t, root, res)
}

func TestInfoExcludeAndPrecedence(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		".git/info/exclude": "# local\n*.tmp\nkeep.secret\n",
		".git/HEAD":         "ref: refs/heads/main\n",
		".gitignore":        "*.secret\n!keep.secret\n",
		"a.tmp":             "",
		"sub/b.tmp":         "",
		"x.secret":          "",
		"keep.secret":       "", // .gitignore's negation beats info/exclude
		"main.go":           "",
	})
	res := mustWalk(t, root, Options{})
	assertRels(t, res.Files, ".gitignore", "keep.secret", "main.go")
	if e, _ := findExcluded(res, "a.tmp"); e.Detail != ".git/info/exclude:2:*.tmp" {
		t.Errorf("a.tmp excluded by %q", e.Detail)
	}
	res = mustWalk(t, root, Options{NoGitignore: true})
	assertRels(t, res.Files, ".gitignore", "a.tmp", "keep.secret", "main.go", "sub/b.tmp", "x.secret")
}

// When the root is a subdirectory of a work tree, git applies the ignore
// files above it too.
func TestEnclosingWorkTree(t *testing.T) {
	top := t.TempDir()
	mkTree(t, top, map[string]string{
		".git/info/exclude":           "*.tmp\n",
		".gitignore":                  "*.log\n/services/api/dist/\nservices/api/local.yaml\n",
		"services/.gitignore":         "*.bak\n",
		"services/api/a.go":           "",
		"services/api/a.log":          "",
		"services/api/a.tmp":          "",
		"services/api/a.bak":          "",
		"services/api/dist/x.js":      "",
		"services/api/local.yaml":     "",
		"services/api/sub/local.yaml": "",
	})
	res := mustWalk(t, filepath.Join(top, "services", "api"), Options{})
	assertRels(t, res.Files, "a.go", "sub/local.yaml")
	want := map[string]string{
		"a.bak":      "../.gitignore:1:*.bak",
		"a.log":      "../../.gitignore:1:*.log",
		"a.tmp":      "../../.git/info/exclude:1:*.tmp",
		"dist":       "../../.gitignore:2:/services/api/dist/",
		"local.yaml": "../../.gitignore:3:services/api/local.yaml",
	}
	got := map[string]string{}
	for _, e := range res.Excluded {
		got[e.Rel] = e.Detail
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("excluded\n got  %v\n want %v", got, want)
	}
}

// A root the user names is walked even when an enclosing .gitignore ignores
// it (as ripgrep does): naming it is asking for it. What is under it is
// still subject to the enclosing ignore files.
func TestIgnoredRootIsWalked(t *testing.T) {
	top := t.TempDir()
	mkTree(t, top, map[string]string{
		".git/HEAD":        "",
		".gitignore":       "generated/\n*.log\n",
		"generated/a.go":   "",
		"generated/b.log":  "",
		"generated/c/d.go": "",
	})
	res := mustWalk(t, filepath.Join(top, "generated"), Options{})
	assertRels(t, res.Files, "a.go", "c/d.go")
}

// Inside a nested repository (a submodule) only its own ignore files apply.
func TestNestedRepositoryResetsIgnores(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		".git/HEAD":                     "",
		".gitignore":                    "*.yaml\n",
		"a.yaml":                        "",
		"mod/.git":                      "gitdir: ../.git/modules/mod\n",
		".git/modules/mod/info/exclude": "*.json\n",
		"mod/b.yaml":                    "",
		"mod/c.json":                    "",
		"mod/.gitignore":                "*.txt\n",
		"mod/d.txt":                     "",
	})
	res := mustWalk(t, root, Options{})
	assertRels(t, res.Files, ".gitignore", "mod/.gitignore", "mod/b.yaml")
	if e, _ := findExcluded(res, "mod/c.json"); e.Detail != "mod/.git/info/exclude:1:*.json" {
		t.Errorf("mod/c.json excluded by %q", e.Detail)
	}
}

// A linked worktree (git worktree add) has a .git file pointing into the
// main repository, whose info/exclude it shares through "commondir": it is
// read when the main repository is within the scan root.
func TestLinkedWorktreeInfoExclude(t *testing.T) {
	dir := t.TempDir()
	mkTree(t, dir, map[string]string{
		"main/.git/info/exclude":           "*.tmp\n",
		"main/.git/worktrees/wt/commondir": "../..\n",
		"wt/.git":                          "gitdir: ../main/.git/worktrees/wt\n",
		"wt/a.go":                          "",
		"wt/b.tmp":                         "",
	})
	res := mustWalk(t, dir, Options{})
	assertRels(t, res.Files, "wt/a.go")
	if e, _ := findExcluded(res, "wt/b.tmp"); e.Reason != ReasonGitignore {
		t.Errorf("wt/b.tmp: %+v", e)
	}
}

// The tree is untrusted: a .git file, a commondir file or an info
// directory that leads outside the scan root is not followed, and what is
// read of a .git or commondir file is bounded. (A linked worktree scanned
// on its own therefore goes without its main repository's info/exclude.)
func TestGitPointersStayInsideRoot(t *testing.T) {
	outside := t.TempDir()
	mkTree(t, outside, map[string]string{
		"repo/.git/info/exclude":           "*.go\n",
		"repo/.git/worktrees/wt/commondir": "../..\n",
		"info/exclude":                     "*.go\n",
	})
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		"abs/.git":              "gitdir: " + filepath.Join(outside, "repo/.git") + "\n",
		"abs/a.go":              "",
		"rel/.git":              "gitdir: " + relTo(t, filepath.Join(root, "rel"), filepath.Join(outside, "repo/.git")) + "\n",
		"rel/a.go":              "",
		"wt/.git":               "gitdir: " + filepath.Join(outside, "repo/.git/worktrees/wt") + "\n",
		"wt/a.go":               "",
		"common/.git":           "gitdir: g\n",
		"common/g/commondir":    relTo(t, filepath.Join(root, "common/g"), outside) + "\n",
		"common/a.go":           "",
		"big/.git":              "gitdir: g\n" + strings.Repeat("#", maxGitPointerSize),
		"big/g/info/exclude":    "*.go\n",
		"big/a.go":              "",
		"bigcommon/.git":        "gitdir: g\n",
		"bigcommon/g/commondir": strings.Repeat("x", maxGitPointerSize+1),
		"bigcommon/a.go":        "",
		"link/.git/HEAD":        "",
		"link/a.go":             "",
	})
	symlink(t, filepath.Join(outside, "info"), filepath.Join(root, "link/.git/info"))
	res := mustWalk(t, root, Options{})
	// bigcommon/g/commondir is not read, so its git dir is its own, and
	// that has no info/exclude: nothing is excluded anywhere
	assertRels(t, res.Files, "abs/a.go", "big/a.go", "big/g/info/exclude",
		"bigcommon/a.go", "bigcommon/g/commondir", "common/a.go", "common/g/commondir",
		"link/a.go", "rel/a.go", "wt/a.go")
	if len(res.Notices) != 0 {
		t.Errorf("notices: %v", res.Notices)
	}

	// the same from inside: a scan root whose own .git leads out
	res = mustWalk(t, filepath.Join(root, "abs"), Options{})
	assertRels(t, res.Files, "a.go")
}

// relTo is the relative path from dir to target.
func relTo(t *testing.T, dir, target string) string {
	t.Helper()
	r, err := filepath.Rel(dir, target)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestUnreadableIgnoreFile(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{"a.go": "", "sub/b.go": ""})
	// A directory where a file is expected makes the read fail for anyone.
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".git", "info", "exclude", "oops"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := mustWalk(t, root, Options{})
	assertRels(t, res.Files, "a.go", "sub/b.go")
	if len(res.Notices) != 0 {
		t.Errorf("an info/exclude that is not a regular file is skipped silently, as git does: %v", res.Notices)
	}

	// A symlinked .gitignore is not read (git opens it with O_NOFOLLOW).
	mkTree(t, root, map[string]string{"real-ignore": "*.go\n"})
	symlink(t, "real-ignore", filepath.Join(root, ".gitignore"))
	res = mustWalk(t, root, Options{})
	assertRels(t, res.Files, "a.go", "real-ignore", "sub/b.go")
}

// An ignore file that exists but cannot be read is a notice, and the walk
// goes on without its patterns.
func TestUnreadableIgnoreFileNotice(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{"a.go": "", "a.log": "", "sub/.gitignore": "*.go\n", "sub/b.go": ""})
	fsys := &fakeFS{open: func(name string) (*os.File, error) {
		if strings.HasSuffix(name, ".gitignore") {
			return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EACCES}
		}
		return os.Open(name)
	}}
	var notices []Notice
	var files []string
	err := stream(context.Background(), root, Options{}, Handler{
		File:   func(f File) error { files = append(files, f.Rel); return nil },
		Notice: func(n Notice) { notices = append(notices, n) },
	}, fsys)
	if err != nil {
		t.Fatal(err)
	}
	want := []Notice{{"sub/.gitignore", RuleUnreadable, "cannot read ignore file: permission denied; its patterns are not applied"}}
	if !reflect.DeepEqual(notices, want) {
		t.Errorf("notices %v, want %v", notices, want)
	}
	// The unreadable file is reported once, not handed to the scanner too.
	if !slices.Equal(files, []string{"a.go", "a.log", "sub/b.go"}) {
		t.Errorf("files %q", files)
	}
}

func FuzzParseIgnore(f *testing.F) {
	f.Add("*.log\n!keep.log\nbuild/\n/x\n\\#y\n a/**/b \n")
	f.Add("[!a-\n**/**/**\n\\")
	f.Fuzz(func(t *testing.T, data string) {
		rules := parseIgnore([]byte(data))
		st := ignoreStack{{rules: rules}}
		for _, p := range []string{"a", "a/b", "build", "x/y/z.log", "#y", ".hidden/.x"} {
			st.match(p, p[strings.LastIndexByte(p, '/')+1:], false)
			st.match(p, p[strings.LastIndexByte(p, '/')+1:], true)
		}
		for _, r := range rules {
			// ("0//" leaves the pattern "0/", which, as in git, can match no
			// path; the seed in testdata keeps that case.)
			if r.pattern == "" || r.line < 1 || r.negate != strings.HasPrefix(r.text, "!") {
				t.Fatalf("bad rule %+v", r)
			}
		}
	})
}

// With Options.Tracked, .gitignore leaves out no tracked file, as git
// does not: an ignored directory is entered for its tracked files alone.
func TestGitignoreTracked(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		".gitignore":            "*.yaml\nhidden/\n",
		"a.yaml":                "",
		"b.yaml":                "",
		"hidden/x.yaml":         "",
		"hidden/deep/y.py":      "",
		"hidden/deep/z.py":      "",
		"hidden/untracked/w.py": "",
	})
	tracked := map[string]bool{"a.yaml": true, "hidden/deep/y.py": true, "hidden": true, "hidden/deep": true}
	res := mustWalk(t, root, Options{Tracked: func(rel string, dir bool) bool { return tracked[rel] }})
	assertRels(t, res.Files, ".gitignore", "a.yaml", "hidden/deep/y.py")
	for _, rel := range []string{"b.yaml", "hidden/x.yaml", "hidden/deep/z.py", "hidden/untracked"} {
		if e, ok := findExcluded(res, rel); !ok || e.Reason != ReasonGitignore {
			t.Errorf("%s: excluded %+v, %v; want by .gitignore", rel, e, ok)
		}
	}
	// without the list, .gitignore is all there is
	assertRels(t, mustWalk(t, root, Options{}).Files, ".gitignore")
}
