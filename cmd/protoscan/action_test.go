package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The GitHub Action (action.yml at the repository root) is run here step by
// step as the runner would: its shell steps run in bash with the runner's
// environment, a fake GITHUB_STEP_SUMMARY and GITHUB_OUTPUT; of the steps
// that use other actions, actions/cache is played by a directory and the
// others (setup-go, upload-sarif) are recorded, not run.

type action struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			Name  string            `yaml:"name"`
			ID    string            `yaml:"id"`
			If    string            `yaml:"if"`
			Uses  string            `yaml:"uses"`
			With  map[string]string `yaml:"with"`
			Env   map[string]string `yaml:"env"`
			Shell string            `yaml:"shell"`
			Run   string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// job is one run of the action: the event, the inputs, and what came out.
type job struct {
	inputs  map[string]string
	github  map[string]string // github.* expressions
	ran     []string          // the names of the steps that ran
	skipped []string          // the names of the steps whose if was false
	outputs map[string]map[string]string
	log     strings.Builder
	failed  string // the step that failed, if any
	summary string
}

var expr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// value is a context value of the expressions action.yml uses; anything
// else fails the test, so the action cannot use what this runner does not
// play.
func (j *job) value(t *testing.T, name, runnerTemp string) string {
	switch {
	case strings.HasPrefix(name, "inputs."):
		return j.inputs[strings.TrimPrefix(name, "inputs.")]
	case strings.HasPrefix(name, "steps."):
		p := strings.Split(name, ".")
		if len(p) != 4 || p[2] != "outputs" {
			t.Fatalf("expression %q: want steps.ID.outputs.NAME", name)
		}
		return j.outputs[p[1]][p[3]]
	case name == "runner.temp":
		return runnerTemp
	case strings.HasPrefix(name, "github."):
		v, ok := j.github[name]
		if !ok && !strings.HasPrefix(name, "github.event.") {
			t.Fatalf("expression %q is not played by this test", name)
		}
		return v
	}
	t.Fatalf("expression %q is not played by this test", name)
	return ""
}

func (j *job) expand(t *testing.T, s, runnerTemp string) string {
	return expr.ReplaceAllStringFunc(s, func(m string) string {
		return j.value(t, expr.FindStringSubmatch(m)[1], runnerTemp)
	})
}

// cond evaluates a step's if: empty, or `A == 'v'` / `A != 'v'`.
func (j *job) cond(t *testing.T, s, runnerTemp string) bool {
	if s == "" {
		return j.failed == ""
	}
	m := regexp.MustCompile(`^([\w.-]+) (==|!=) '([^']*)'$`).FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		t.Fatalf("if: %q is not played by this test", s)
	}
	eq := j.value(t, m[1], runnerTemp) == m[3]
	return j.failed == "" && eq == (m[2] == "==")
}

// runAction runs action.yml in workspace; cache is the directory playing
// actions/cache, kept between jobs.
func runAction(t *testing.T, a *action, j *job, workspace, cache string) {
	t.Helper()
	temp := t.TempDir()
	summary := filepath.Join(temp, "step_summary.md")
	j.outputs = map[string]map[string]string{}
	for _, st := range a.Runs.Steps {
		if !j.cond(t, st.If, temp) {
			j.skipped = append(j.skipped, st.Name)
			continue
		}
		j.ran = append(j.ran, st.Name)
		out := map[string]string{}
		switch {
		case strings.HasPrefix(st.Uses, "actions/cache@"):
			path, key := j.expand(t, st.With["path"], temp), j.expand(t, st.With["key"], temp)
			if key == "" || path == "" {
				t.Fatalf("step %q: actions/cache needs a path and a key", st.Name)
			}
			saved := filepath.Join(cache, key)
			if _, err := os.Stat(saved); err == nil {
				copyDir(t, saved, path)
				out["cache-hit"] = "true"
			} else {
				// the real action saves the path when the job ends
				t.Cleanup(func() { copyDir(t, path, saved) })
			}
		case st.Uses != "":
			// recorded, not run
		default:
			if st.Shell != "bash" {
				t.Fatalf("step %q: shell %q, want bash", st.Name, st.Shell)
			}
			outFile := filepath.Join(temp, "output-"+st.ID)
			if err := os.WriteFile(outFile, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			// the runner's own command for shell: bash
			cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", j.expand(t, st.Run, temp))
			cmd.Dir = workspace
			cmd.Env = append(os.Environ(),
				"GITHUB_OUTPUT="+outFile,
				"GITHUB_STEP_SUMMARY="+summary,
				"GITHUB_WORKSPACE="+workspace,
				"GITHUB_REPOSITORY="+j.github["github.repository"],
				"RUNNER_TEMP="+temp,
				"RUNNER_OS=Linux",
				"RUNNER_ARCH=X64",
			)
			for k, v := range st.Env {
				cmd.Env = append(cmd.Env, k+"="+j.expand(t, v, temp))
			}
			b, err := cmd.CombinedOutput()
			j.log.Write(b)
			if err != nil {
				j.failed = st.Name
			}
			f, err := os.Open(outFile)
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if k, v, ok := strings.Cut(sc.Text(), "="); ok {
					out[k] = v
				}
			}
			f.Close()
		}
		if st.ID != "" {
			j.outputs[st.ID] = out
		}
	}
	if b, err := os.ReadFile(summary); err == nil {
		j.summary = string(b)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if out, err := exec.Command("cp", "-R", from, to).CombinedOutput(); err != nil {
		t.Fatalf("cp %s %s: %v\n%s", from, to, err, out)
	}
}

func TestAction(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is needed to run the action's steps")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using %q, want composite", a.Runs.Using)
	}
	cache := t.TempDir()

	// the scanned tree: a HANDBACK with a drifted status
	drifted := t.TempDir()
	write(t, filepath.Join(drifted, "agents", "worker.py"), `def finish(task_id):
    return {"task_id": task_id, "status": "SUCCESS", "output": None}
`)
	clean := t.TempDir()
	write(t, filepath.Join(clean, "README.md"), "Nothing to see.\n")

	newJob := func(inputs, github map[string]string) *job {
		j := &job{inputs: map[string]string{}, github: map[string]string{
			"github.action_path": root,
			"github.repository":  "acme/agents",
			"github.actor":       "octocat",
		}}
		for k, v := range a.Inputs {
			j.inputs[k] = v.Default
		}
		for k, v := range inputs {
			j.inputs[k] = v
		}
		for k, v := range github {
			j.github[k] = v
		}
		return j
	}
	const upload, build = "Upload SARIF", "Build protoscan"

	t.Run("push with findings", func(t *testing.T) {
		j := newJob(nil, nil)
		runAction(t, &a, j, drifted, cache)
		if j.failed != "Result" {
			t.Fatalf("failed step %q, want Result (findings at error)\n%s", j.failed, j.log.String())
		}
		if !contains(j.ran, build) || !contains(j.ran, upload) {
			t.Errorf("steps run %v: want the build (empty cache) and the upload", j.ran)
		}
		if got := j.outputs["scan"]["exit-code"]; got != "1" {
			t.Errorf("exit-code %q, want 1", got)
		}
		if !strings.Contains(j.summary, "worker.py") || !strings.Contains(j.summary, "enumdrift/status-case") {
			t.Errorf("job summary lacks the finding:\n%s", j.summary)
		}
		if !strings.Contains(j.log.String(), `agents/worker.py:2:`) {
			t.Errorf("log lacks the text report:\n%s", j.log.String())
		}
		var sarif struct {
			Runs []struct {
				Results []struct {
					RuleID string `json:"ruleId"`
				} `json:"results"`
			} `json:"runs"`
		}
		sb, err := os.ReadFile(j.outputs["scan"]["sarif"])
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(sb, &sarif); err != nil || len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) != 1 {
			t.Fatalf("SARIF: %v, want one run with one result:\n%s", err, sb)
		}
	})

	t.Run("fork pull request", func(t *testing.T) {
		j := newJob(nil, map[string]string{"github.event.pull_request.head.repo.full_name": "mallory/agents"})
		runAction(t, &a, j, drifted, cache)
		if contains(j.ran, build) {
			t.Errorf("the binary was built again; the cache should have it")
		}
		if contains(j.ran, upload) || !contains(j.skipped, upload) {
			t.Errorf("steps run %v: the upload must be skipped", j.ran)
		}
		if !strings.Contains(j.log.String(), "::notice title=protoscan::SARIF not uploaded") {
			t.Errorf("no notice for the skipped upload:\n%s", j.log.String())
		}
		if j.failed != "Result" {
			t.Errorf("failed step %q, want Result", j.failed)
		}
	})

	t.Run("same-repository pull request, clean tree", func(t *testing.T) {
		j := newJob(nil, map[string]string{"github.event.pull_request.head.repo.full_name": "acme/agents"})
		runAction(t, &a, j, clean, cache)
		if j.failed != "" {
			t.Fatalf("step %q failed on a clean tree\n%s", j.failed, j.log.String())
		}
		if !contains(j.ran, upload) {
			t.Errorf("steps run %v: a pull request of the repository uploads", j.ran)
		}
		if j.outputs["scan"]["exit-code"] != "0" || strings.Contains(j.log.String(), "::notice") {
			t.Errorf("exit-code %q; log:\n%s", j.outputs["scan"]["exit-code"], j.log.String())
		}
	})

	t.Run("inputs", func(t *testing.T) {
		j := newJob(map[string]string{"fail-on": "never", "upload-sarif": "false", "paths": "agents", "args": "--analyzers msgcheck"}, nil)
		runAction(t, &a, j, drifted, cache)
		if j.failed != "" || contains(j.ran, upload) {
			t.Fatalf("failed %q, ran %v: fail-on never passes and upload-sarif false skips the upload\n%s", j.failed, j.ran, j.log.String())
		}
		if !strings.Contains(j.summary, "protoscan") {
			t.Fatalf("no report in the job summary:\n%s", j.summary)
		}
		if strings.Contains(j.summary, "enumdrift/status-case") {
			t.Errorf("--analyzers msgcheck still ran enumdrift:\n%s", j.summary)
		}
	})

	// Inputs are words, not globs: a directory the pull request names
	// --write-baseline=.. is no flag, whatever args hold; what the scan
	// prints is no workflow command; a PATH linked out of the workspace
	// is refused.
	t.Run("hostile tree", func(t *testing.T) {
		parent := t.TempDir()
		tree := filepath.Join(parent, "ws")
		copyDir(t, drifted, tree)
		write(t, filepath.Join(tree, "--write-baseline=..", "bl.json"), "{}\n")
		write(t, filepath.Join(tree, "::error title=PWNED::x.yaml"), "task_id: t-1\nstatus: FAILED\noutput: {}\n")
		j := newJob(map[string]string{"args": "--exclude vendor/** */*"}, nil)
		runAction(t, &a, j, tree, cache)
		if _, err := os.Stat(filepath.Join(parent, "bl.json")); err == nil {
			t.Errorf("a file name of the tree became --write-baseline: ../bl.json was written\n%s", j.log.String())
		}
		// */* is a word: a PATH that is not there
		if j.outputs["scan"]["exit-code"] != "2" || !strings.Contains(j.log.String(), "*/*: no such file or directory") {
			t.Errorf("exit-code %q, want 2 for the PATH */*\n%s", j.outputs["scan"]["exit-code"], j.log.String())
		}

		j = newJob(nil, nil)
		runAction(t, &a, j, tree, cache)
		if j.outputs["scan"]["exit-code"] != "1" {
			t.Errorf("exit-code %q, want 1 (the finding in ::error title=PWNED::x.yaml)\n%s", j.outputs["scan"]["exit-code"], j.log.String())
		}
		// every line of the scan's output comes after ::stop-commands::
		// and before its token resumes workflow commands
		stopped, resumed := "", false
		for _, line := range strings.Split(j.log.String(), "\n") {
			switch {
			case strings.HasPrefix(line, "::stop-commands::"):
				stopped = strings.TrimPrefix(line, "::stop-commands::")
			case stopped != "" && line == "::"+stopped+"::":
				resumed = true
			case strings.Contains(line, "PWNED") && (stopped == "" || resumed):
				t.Errorf("the scan's line %q is outside ::stop-commands::", line)
			}
		}
		if len(stopped) < 32 || !resumed {
			t.Errorf("stop-commands token %q, resumed %v: want a random token, resumed\n%s", stopped, resumed, j.log.String())
		}

		outside := t.TempDir()
		write(t, filepath.Join(outside, "handback.yaml"), "task_id: t-1\nstatus: FAILED\noutput: {}\n")
		if err := os.Symlink(outside, filepath.Join(tree, "linked")); err != nil {
			t.Skip("no symbolic links here")
		}
		j = newJob(map[string]string{"paths": "agents 'linked'"}, nil)
		runAction(t, &a, j, tree, cache)
		if j.failed != "Scan" || !strings.Contains(j.log.String(), "::error title=protoscan::the path linked leads out of the workspace") {
			t.Errorf("failed step %q: want the Scan step to refuse the link out of the workspace\n%s", j.failed, j.log.String())
		}
	})

	// A pull request that turns every rule off in its own .protoscan.yaml
	// still fails: the Action fetches the base commit the one-commit
	// checkout lacks and takes the config from it (--config-from-rev).
	t.Run("pull request changing its own config", func(t *testing.T) {
		if _, err := exec.LookPath("git"); err != nil {
			t.Skip("git is not installed")
		}
		home := t.TempDir()
		for k, v := range map[string]string{
			"GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1", "HOME": home,
			"GIT_CEILING_DIRECTORIES": filepath.Dir(home),
			"GIT_AUTHOR_NAME":         "t", "GIT_AUTHOR_EMAIL": "t@example.com",
			"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
		} {
			t.Setenv(k, v)
		}
		dir := t.TempDir()
		src := filepath.Join(dir, "src")
		copyDir(t, drifted, src)
		runGit(t, src, "init", "-q", "-b", "main")
		runGit(t, src, "add", "-A")
		runGit(t, src, "commit", "-q", "-m", "base")
		base := strings.TrimSpace(runGit(t, src, "rev-parse", "HEAD"))
		runGit(t, src, "checkout", "-q", "-b", "pr")
		write(t, filepath.Join(src, ".protoscan.yaml"), "rules:\n  \"*/*\": off\n")
		runGit(t, src, "add", "-A")
		runGit(t, src, "commit", "-q", "-m", "switch the gate off")
		runGit(t, dir, "clone", "-q", "--bare", src, "origin.git")
		// actions/checkout: the pull request's commit alone
		ws := filepath.Join(dir, "ws")
		runGit(t, dir, "clone", "-q", "--depth=1", "--branch", "pr", "file://"+filepath.Join(dir, "origin.git"), ws)
		if err := exec.Command("git", "-C", ws, "cat-file", "-e", base+"^{commit}").Run(); err == nil {
			t.Fatal("the checkout has the base commit already")
		}
		event := map[string]string{
			"github.event.pull_request.head.repo.full_name": "acme/agents",
			"github.event.pull_request.base.sha":            base,
		}

		j := newJob(nil, event)
		runAction(t, &a, j, ws, cache)
		if j.failed != "Result" || j.outputs["scan"]["exit-code"] != "1" {
			t.Fatalf("failed step %q, exit-code %q: want the base's config to keep the gate\n%s", j.failed, j.outputs["scan"]["exit-code"], j.log.String())
		}
		if want := "protoscan: config and specs from " + base[:7] + "; the working tree's .protoscan.yaml is not used"; !strings.Contains(j.log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, j.log.String())
		}
		if err := exec.Command("git", "-C", ws, "cat-file", "-e", base+"^{commit}").Run(); err != nil {
			t.Errorf("the base commit was not fetched: %v", err)
		}

		// turned off, or with a config of the args: the pull request's
		// config, or that one, governs
		for _, inputs := range []map[string]string{
			{"config-from-base": "false"},
			{"args": "--config .protoscan.yaml"},
		} {
			j = newJob(inputs, event)
			runAction(t, &a, j, ws, cache)
			if j.failed != "" || j.outputs["scan"]["exit-code"] != "0" || strings.Contains(j.log.String(), "config and specs from") {
				t.Errorf("inputs %v: failed step %q, exit-code %q: want the pull request's config\n%s", inputs, j.failed, j.outputs["scan"]["exit-code"], j.log.String())
			}
		}

		// a base that is not a commit hash is never a word of the command
		bad := map[string]string{
			"github.event.pull_request.head.repo.full_name": "acme/agents",
			"github.event.pull_request.base.sha":            "--upload-pack=touch " + filepath.Join(dir, "pwned"),
		}
		j = newJob(nil, bad)
		runAction(t, &a, j, ws, cache)
		if j.failed != "Scan" || !strings.Contains(j.log.String(), "::error title=protoscan::the pull request's base is not a commit hash") {
			t.Errorf("failed step %q: want the Scan step to refuse the base\n%s", j.failed, j.log.String())
		}
		if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
			t.Errorf("the base became an option of git")
		}
	})

	// The workflow README.md shows runs as it is: its inputs are the
	// action's, and its args exclude what they say.
	t.Run("README workflow", func(t *testing.T) {
		with := readmeWorkflowInputs(t, filepath.Join(root, "README.md"))
		for k := range with {
			if _, ok := a.Inputs[k]; !ok {
				t.Errorf("README's workflow gives the input %q, which action.yml does not declare", k)
			}
		}
		tree := t.TempDir()
		copyDir(t, filepath.Join(drifted, "agents"), filepath.Join(tree, "agents"))
		write(t, filepath.Join(tree, "testdata", "handback.yaml"), "task_id: t-1\nstatus: FAILED\noutput: {}\n")
		j := newJob(with, nil)
		runAction(t, &a, j, tree, cache)
		if j.failed != "Result" || j.outputs["scan"]["exit-code"] != "1" {
			t.Fatalf("failed step %q, exit-code %q: want the findings to fail the Result step\n%s", j.failed, j.outputs["scan"]["exit-code"], j.log.String())
		}
		if !strings.Contains(j.summary, "agents/worker.py") {
			t.Errorf("the job summary lacks agents/worker.py's finding:\n%s", j.summary)
		}
		if strings.Contains(j.summary, "testdata/") {
			t.Errorf("args %q did not exclude testdata/:\n%s", with["args"], j.summary)
		}
	})
}

// readmeWorkflowInputs reads the GitHub workflow README.md shows (its
// first yaml block after "### GitHub Action") and returns the with: of
// its step that uses this action.
func readmeWorkflowInputs(t *testing.T, readme string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "### GitHub Action")
	if !ok {
		t.Fatal("README.md has no GitHub Action section")
	}
	_, block, ok := strings.Cut(after, "```yaml\n")
	if ok {
		block, _, ok = strings.Cut(block, "\n```")
	}
	if !ok {
		t.Fatal("README.md's GitHub Action section has no yaml block")
	}
	var wf struct {
		Jobs map[string]struct {
			Permissions map[string]string `yaml:"permissions"`
			Steps       []struct {
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(block), &wf); err != nil {
		t.Fatalf("README.md's workflow: %v", err)
	}
	for _, job := range wf.Jobs {
		for _, st := range job.Steps {
			if strings.HasPrefix(st.Uses, "protoscan-dev/protoscan@") {
				if job.Permissions["security-events"] != "write" && st.With["upload-sarif"] != "false" {
					t.Errorf("README's workflow uploads SARIF without permissions: security-events: write")
				}
				return st.With
			}
		}
	}
	t.Fatal("README.md's workflow has no step that uses protoscan-dev/protoscan")
	return nil
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
