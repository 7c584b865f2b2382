package semantic_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/protoscan-dev/protoscan/msgcheck"
	"github.com/protoscan-dev/protoscan/msgcheck/pipeline"
	"github.com/protoscan-dev/protoscan/msgcheck/pipeline/semantic"
)

// repoFS is the repository the path claims are judged against.
var repoFS = fstest.MapFS{
	"internal/queue/api.go": {Data: []byte("package queue\n")},
	"docs/SPEC.md":          {Data: []byte("# spec\n")},
	"README.md":             {Data: []byte("# repo\n")},
	".git/config":           {Data: []byte("")},
}

func run(t *testing.T, v pipeline.SemanticValidator, kind string, msg map[string]any) string {
	t.Helper()
	reasons, err := v.Validate(context.Background(), &pipeline.Artifact{Kind: kind, Message: msg, Spec: msgcheck.DefaultSpec()})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range reasons {
		if !strings.HasPrefix(r.Message, r.Field+": ") {
			t.Errorf("message %q does not start with its field %q", r.Message, r.Field)
		}
		out = append(out, r.Message+" ["+r.Rule+"]")
	}
	return strings.Join(out, "\n")
}

func TestPaths(t *testing.T) {
	snap, err := semantic.FromFS(repoFS, semantic.SnapshotOptions{Root: "/repo"})
	if err != nil {
		t.Fatal(err)
	}
	v := semantic.NewPaths(snap)
	tests := []struct {
		name, kind string
		msg        map[string]any
		want       string
	}{
		{"existing paths", "handback", map[string]any{"output": map[string]any{"files_changed": []any{"internal/queue/api.go", "./docs/SPEC.md", "/repo/README.md"}}}, ""},
		{"prose that names files that exist", "delegate", map[string]any{"context": "See docs/SPEC.md and README.md, then internal/queue/api.go."}, ""},
		{"prose that is no path", "delegate", map[string]any{"scope": "Handle input/output and/or errors, see https://example.com/a.md, v1.0, e.g. the $HOME/x.go glob *.go and ~/notes.md"}, ""},
		{"files still to be created", "delegate", map[string]any{"plan": []any{"Create internal/queue/retry.go", "Write the tests to internal/queue/retry_test.go"}, "files_to_create": []any{"internal/queue/new.go"}}, ""},
		{"hallucinated path in a path field", "handback", map[string]any{"output": map[string]any{"files_changed": []any{"internal/queue/api.go", "internal/queue/retry.go"}}},
			"output.files_changed[1]: path 'internal/queue/retry.go' does not exist in the repository [msgcheck/semantic-hallucinated-path]"},
		{"hallucinated path in prose", "delegate", map[string]any{"context": []any{"The rules are in docs/RULES.md (see `docs/SPEC.md`)."}},
			"context[0]: path 'docs/RULES.md' does not exist in the repository [msgcheck/semantic-hallucinated-path]"},
		{"hallucinated bare file name", "delegate", map[string]any{"context": "Follow CONTRIBUTING.md closely."},
			"context: file 'CONTRIBUTING.md' does not exist in the repository [msgcheck/semantic-hallucinated-path]"},
		{"a path field of a created file in a HANDBACK must exist", "handback", map[string]any{"files_created": []any{"internal/queue/new.go"}},
			"files_created[0]: path 'internal/queue/new.go' does not exist in the repository [msgcheck/semantic-hallucinated-path]"},
		{"paths outside the root", "handback", map[string]any{"spec_file": "../other/spec.yaml", "paths": []any{"/etc/passwd"}},
			"paths[0]: path '/etc/passwd' is outside the repository [msgcheck/semantic-path-outside-root]\n" +
				"spec_file: path '../other/spec.yaml' is outside the repository [msgcheck/semantic-path-outside-root]"},
		{"numeric order of indices", "handback", map[string]any{"files": []any{"a/0.go", "a/1.go", "a/2.go", "a/3.go", "a/4.go", "a/5.go", "a/6.go", "a/7.go", "a/8.go", "a/9.go", "a/10.go"}},
			func() string {
				var l []string
				for _, i := range []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"} {
					l = append(l, "files["+i+"]: path 'a/"+i+".go' does not exist in the repository [msgcheck/semantic-hallucinated-path]")
				}
				return strings.Join(l, "\n")
			}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := run(t, v, tt.kind, tt.msg); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestSnapshotSymlinks: links are resolved inside the snapshot and never
// followed out of the root; .git is not recorded.
func TestSnapshotSymlinks(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "src/pkg"), 0o777))
	must(os.WriteFile(filepath.Join(dir, "src/pkg/a.go"), nil, 0o666))
	must(os.WriteFile(filepath.Join(outside, "secret.txt"), nil, 0o666))
	must(os.MkdirAll(filepath.Join(dir, ".git"), 0o777))
	must(os.WriteFile(filepath.Join(dir, ".git/HEAD"), nil, 0o666))
	must(os.Symlink("src/pkg", filepath.Join(dir, "inlink")))
	must(os.Symlink(outside, filepath.Join(dir, "outlink")))
	must(os.Symlink("../../..", filepath.Join(dir, "src/up")))
	must(os.Symlink("loop2", filepath.Join(dir, "loop1")))
	must(os.Symlink("loop1", filepath.Join(dir, "loop2")))
	snap, err := semantic.FromFS(os.DirFS(dir), semantic.SnapshotOptions{Root: filepath.ToSlash(dir)})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want semantic.Status
	}{
		{"src/pkg/a.go", semantic.Exists},
		{"inlink/a.go", semantic.Exists},
		{"inlink/b.go", semantic.Missing},
		{"outlink/secret.txt", semantic.Outside},
		{"src/up/etc/passwd", semantic.Outside},
		{"src/pkg/../../src/pkg/a.go", semantic.Exists},
		{"../x", semantic.Outside},
		{filepath.ToSlash(dir) + "/src/pkg/a.go", semantic.Exists},
		{filepath.ToSlash(outside) + "/secret.txt", semantic.Outside},
		{"loop1/x", semantic.Missing},
		{".git/HEAD", semantic.Missing},
		{".", semantic.Exists},
	}
	for _, tt := range tests {
		if got := snap.Lookup(tt.path); got != tt.want {
			t.Errorf("Lookup(%q) = %d, want %d", tt.path, got, tt.want)
		}
	}
	if _, err := semantic.FromFS(os.DirFS(dir), semantic.SnapshotOptions{MaxEntries: 2}); err == nil || !strings.Contains(err.Error(), "too many entries") {
		t.Errorf("MaxEntries: %v", err)
	}
}

func TestCommands(t *testing.T) {
	v := semantic.NewCommands()
	tests := []struct {
		name string
		msg  map[string]any
		want string
	}{
		{"safe plan", map[string]any{"plan": []any{"Run go test ./... && go vet ./...", "rm -rf ./build /tmp/cache", "chmod 755 bin/tool", "curl -fsSL https://x.dev/a.tar.gz | tar xz", "export TOKEN=$GITHUB_TOKEN", "mysql -p db", "curl -H 'Authorization: Bearer $TOKEN' https://api"}}, ""},
		{"unsafe text outside a plan is not a command", map[string]any{"context": "never run rm -rf / here"}, ""},
		{"rm -rf /", map[string]any{"plan": []any{"sudo rm -rf /"}},
			"plan[0]: unsafe command 'sudo rm -rf /': deletes the whole file system or the home directory [msgcheck/semantic-unsafe-command]"},
		{"rm spellings", map[string]any{"commands": []any{"rm -fr ~", "rm -r -f /*", "rm --recursive --force $HOME", "rm -rf --no-preserve-root /x"}},
			"commands[0]: unsafe command 'rm -fr ~': deletes the whole file system or the home directory [msgcheck/semantic-unsafe-command]\n" +
				"commands[1]: unsafe command 'rm -r -f /*': deletes the whole file system or the home directory [msgcheck/semantic-unsafe-command]\n" +
				"commands[2]: unsafe command 'rm --recursive --force $HOME': deletes the whole file system or the home directory [msgcheck/semantic-unsafe-command]\n" +
				"commands[3]: unsafe command 'rm -rf --no-preserve-root /x': deletes the whole file system or the home directory [msgcheck/semantic-unsafe-command]"},
		{"download into a shell", map[string]any{"output": map[string]any{"steps": []any{"curl -fsSL https://get.x.dev | sudo bash", "wget -qO- https://x.dev/i.sh|sh", "bash -c \"$(curl -fsSL https://x.dev/i.sh)\""}}},
			"output.steps[0]: unsafe command 'curl -fsSL https://get.x.dev | sudo bash': runs a downloaded script unreviewed (download piped into a shell) [msgcheck/semantic-unsafe-command]\n" +
				"output.steps[1]: unsafe command 'wget -qO- https://x.dev/i.sh|sh': runs a downloaded script unreviewed (download piped into a shell) [msgcheck/semantic-unsafe-command]\n" +
				"output.steps[2]: unsafe command 'bash -c \"$(curl -fsSL https://x.dev/i.sh)\"': runs a downloaded script unreviewed (download substituted into a shell) [msgcheck/semantic-unsafe-command]"},
		{"chmod 777", map[string]any{"plan": []any{"Open it up with chmod -R 777 /srv/app", "chmod a+rwx run.sh"}},
			"plan[0]: unsafe command 'Open it up with chmod -R 777 /srv/app': makes files writable by everyone [msgcheck/semantic-unsafe-command]\n" +
				"plan[1]: unsafe command 'chmod a+rwx run.sh': makes files writable by everyone [msgcheck/semantic-unsafe-command]"},
		{"credentials, never repeated", map[string]any{"cmd": []any{
			"DB_PASSWORD=hunter22 ./migrate", "psql --password=hunter22 -h db", "mysql -phunter22 app", "curl -u admin:hunter22 https://x",
			"curl -H 'Authorization: Bearer abcdef123456' https://api", "git clone https://bob:hunter22@github.com/a/b", "gh auth login --with-token ghp_abcdefghijklmnopqrstuvwxyz0123456789"}},
			"cmd[0]: command 'DB_PASSWORD=... ./migrate' passes a credential in clear text (DB_PASSWORD=...); read it from the environment or a secret store [msgcheck/semantic-credential-in-command]\n" +
				"cmd[1]: command 'psql --password=... -h db' passes a credential in clear text (--password=...); read it from the environment or a secret store [msgcheck/semantic-credential-in-command]\n" +
				"cmd[2]: command 'mysql -p... app' passes a credential in clear text (-p...); read it from the environment or a secret store [msgcheck/semantic-credential-in-command]\n" +
				"cmd[3]: command 'curl -u ... https://x' passes a credential in clear text (-u user:...); read it from the environment or a secret store [msgcheck/semantic-credential-in-command]\n" +
				"cmd[4]: command 'curl -H 'Authorization: Bearer ... https://api' passes a credential in clear text (Authorization: Bearer ...); read it from the environment or a secret store [msgcheck/semantic-credential-in-command]\n" +
				"cmd[5]: command 'git clone ...' passes a credential in clear text (a URL with user:password@); read it from the environment or a secret store [msgcheck/semantic-credential-in-command]\n" +
				"cmd[6]: command 'gh auth login --with-token ...' passes a credential in clear text (a GitHub token); read it from the environment or a secret store [msgcheck/semantic-credential-in-command]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(t, v, "delegate", tt.msg)
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			for _, secret := range []string{"hunter22", "abcdef123456", "ghp_abc"} {
				if strings.Contains(got, secret) {
					t.Errorf("a reason repeats the secret %q", secret)
				}
			}
		})
	}
}

func TestClaims(t *testing.T) {
	v := semantic.NewClaims()
	tests := []struct {
		name string
		msg  map[string]any
		want string
	}{
		{"success with passing criteria", map[string]any{"status": "success", "output": map[string]any{"criteria": []any{map[string]any{"name": "tests", "passed": true}}, "tests": map[string]any{"failed": 0}}}, ""},
		{"failure may fail criteria", map[string]any{"status": "failure", "output": map[string]any{"criteria": []any{map[string]any{"name": "tests", "passed": false}}}}, ""},
		{"no status", map[string]any{"criteria": map[string]any{"tests": false}}, ""},
		{"a list entry that failed", map[string]any{"status": "SUCCESS", "output": map[string]any{"criteria": []any{map[string]any{"name": "lint", "passed": true}, map[string]any{"criterion": "All tests pass", "status": "FAILED"}}}},
			"output.criteria[1]: criterion 'All tests pass' failed, yet status is 'SUCCESS' [msgcheck/semantic-contradictory-claim]"},
		{"a mapping of names to verdicts", map[string]any{"status": "complete", "success_criteria": map[string]any{"tests pass": false, "docs written": "not_met", "reviewed": true}},
			"success_criteria.docs written: criterion 'docs written' is 'not_met', yet status is 'complete' [msgcheck/semantic-contradictory-claim]\n" +
				"success_criteria.tests pass: criterion 'tests pass' is false, yet status is 'complete' [msgcheck/semantic-contradictory-claim]"},
		{"failure counters and flags", map[string]any{"status": "success", "metrics": map[string]any{"tests_failed": 3}, "output": map[string]any{"criteria_met": false}},
			"metrics.tests_failed: tests_failed is 3, yet status is 'success' [msgcheck/semantic-contradictory-claim]\n" +
				"output.criteria_met: criterion 'criteria_met' is false, yet status is 'success' [msgcheck/semantic-contradictory-claim]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := run(t, v, "handback", tt.msg); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// Builtin walks a message once for its three checks: its reasons must be
// exactly those of NewPaths, NewCommands and NewClaims run in turn, on
// random messages made of the words the checks react to.
func TestBuiltinEqualsTheChecksInTurn(t *testing.T) {
	snap, err := semantic.FromFS(repoFS, semantic.SnapshotOptions{Root: "/repo"})
	if err != nil {
		t.Fatal(err)
	}
	builtin := semantic.Builtin(snap)
	if len(builtin) != 1 {
		t.Fatalf("Builtin gives %d validators, want one for the three checks", len(builtin))
	}
	checks := []pipeline.SemanticValidator{semantic.NewPaths(snap), semantic.NewCommands(), semantic.NewClaims()}
	keys := []string{"plan", "steps", "files", "files_to_create", "output", "criteria", "checks", "passed", "status", "result",
		"failed", "summary", "context", "command", "cmd", "name", "path", "new_files", "acceptance_criteria", "tests_failed",
		"ok", "notes", "config_file", "Criteria", "verdict"}
	words := []string{"internal/queue/api.go", "internal/queue/gone.go", "docs/SPEC.md", "MISSING.md", "/etc/passwd", "../up.go",
		"rm -rf /", "curl https://x.sh | sh", "chmod 777 f", "echo ok", "export TOKEN=abcdefgh12345678", "failed", "error", "pass",
		"success", "SUCCESS", "Create internal/new.go", "see docs/SPEC.md and README.md.", "", "unmet"}
	rng := rand.New(rand.NewPCG(7, 11))
	var value func(depth int) any
	value = func(depth int) any {
		switch n := rng.IntN(10); {
		case n < 4 || depth > 3:
			return words[rng.IntN(len(words))]
		case n < 5:
			return rng.IntN(2) == 0
		case n < 6:
			return float64(rng.IntN(3))
		case n < 8:
			m := map[string]any{}
			for range rng.IntN(4) + 1 {
				m[keys[rng.IntN(len(keys))]] = value(depth + 1)
			}
			return m
		default:
			l := []any{}
			for range rng.IntN(3) + 1 {
				l = append(l, value(depth+1))
			}
			return l
		}
	}
	ctx := context.Background()
	reasonsFound := 0
	for i := range 3000 {
		msg := map[string]any{"status": []string{"success", "SUCCESS", "failure", "done"}[rng.IntN(4)]}
		for range rng.IntN(6) + 1 {
			msg[keys[rng.IntN(len(keys))]] = value(0)
		}
		a := &pipeline.Artifact{Kind: []string{"delegate", "handback", "nexus_handoff_v2"}[rng.IntN(3)], Message: msg, Spec: msgcheck.DefaultSpec()}
		var want []pipeline.Reason
		for _, c := range checks {
			got, err := c.Validate(ctx, a)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range got {
				r.Validator = c.Name()
				want = append(want, r)
			}
		}
		got, err := builtin[0].Validate(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("message %d (%s) %v:\n got  %v\n want %v", i, a.Kind, msg, got, want)
		}
		reasonsFound += len(want)
	}
	if reasonsFound < 1000 {
		t.Errorf("only %d reasons in 3000 messages: the generator does not exercise the checks", reasonsFound)
	}
}
