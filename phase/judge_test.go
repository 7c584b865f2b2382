package phase

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// judgeText judges a HANDOFF against conditions given as YAML text.
func judgeText(t testing.TB, conds, handoff string, opts Options) Verdict {
	t.Helper()
	exit, err := ParseConditions("c.yaml", []byte(conds))
	if err != nil {
		t.Fatal(err)
	}
	h, err := ParseHandoff([]byte(handoff))
	if err != nil {
		t.Fatal(err)
	}
	return Judge(exit, h, opts)
}

// named avoids the campaign and phase warnings in tests about evidence.
var named = Options{Campaign: "demo", Phase: 1, PhaseSet: true}

type judgeCase struct {
	name, cond, handoff string
	met, failed, warn   []string // texts after "condition — "
}

func runJudgeCases(t *testing.T, cases []judgeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := judgeText(t, "- "+tc.cond+"\n", tc.handoff, named)
			prefix := func(l []string) []string {
				var out []string
				for _, s := range l {
					out = append(out, tc.cond+" — "+s)
				}
				return out
			}
			want := Verdict{Verdict: Pass, Phase: 1, Campaign: "demo", ConditionsChecked: 1,
				ConditionsMet: prefix(tc.met), ConditionsFailed: prefix(tc.failed), Warnings: prefix(tc.warn)}
			if len(tc.failed) > 0 {
				want.Verdict = Fail
			}
			v.Suggestions = nil
			if !reflect.DeepEqual(v, want) {
				t.Errorf("got\n%s\nwant\n%s", v.JSON(), want.JSON())
			}
		})
	}
}

func TestJudgeFileExists(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"Files changed section", "file_exists: src/auth/handler.ts", "## Files changed\n- src/auth/handler.ts (new)\n",
			[]string{"HANDOFF lists it in the 'Files changed' section"}, nil, nil},
		{"Built section inline", "file_exists: src/auth/handler.ts", "Built: src/auth/handler.ts, src/auth/index.ts\n",
			[]string{"HANDOFF lists it in the 'Built' section"}, nil, nil},
		{"explicit statement", "file_exists: src/x.ts", "I created `src/x.ts` with the parser.\n",
			[]string{"HANDOFF states 'I created `src/x.ts` with the parser.'"}, nil, nil},
		{"condition written with ./", "file_exists: ./src/x.ts", "Wrote src/x.ts.\n",
			[]string{"HANDOFF states 'Wrote src/x.ts.'"}, nil, nil},
		{"hedged section item", "file_exists: src/x.ts", "Files changed:\n- src/x.ts (probably complete)\n",
			[]string{"HANDOFF lists it in the 'Files changed' section"}, nil, []string{"listed, but in hedged words: 'src/x.ts (probably complete)'"}},
		{"base name only", "file_exists: src/auth/handler.ts", "Created handler.ts for the login flow.\n",
			[]string{"HANDOFF states 'Created handler.ts for the login flow.'"}, nil, []string{"weak evidence: the HANDOFF names 'handler.ts' but not the full path"}},
		{"contradiction", "file_exists: src/x.ts", "Files changed:\n- src/x.ts\nI did not create src/x.ts after all.\n",
			nil, []string{"HANDOFF contradicts it: 'I did not create src/x.ts after all.'"}, nil},
		{"deleted in the list", "file_exists: src/x.ts", "Files changed:\n- src/x.ts (deleted)\n",
			nil, []string{"HANDOFF contradicts it: 'src/x.ts (deleted)'"}, nil},
		{"vague", "file_exists: src/x.ts", "src/x.ts should be there, I think it's done.\n",
			nil, []string{"only vague language: 'src/x.ts should be there, I think it's done.' is not evidence"}, nil},
		{"mention only", "file_exists: src/x.ts", "See src/x.ts for the design.\n",
			nil, []string{"HANDOFF names it but does not claim it was created or changed: 'See src/x.ts for the design.'"}, nil},
		{"silent", "file_exists: src/x.ts", "Did some work on the parser.\n",
			nil, []string{"HANDOFF does not mention this file"}, nil},
		{"similar path is not the path", "file_exists: src/x.ts", "Created src/x.tsx.\n",
			nil, []string{"HANDOFF does not mention this file"}, nil},
	})
}

func TestJudgeCommandPasses(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"kind of check named", "command_passes: npx tsc --noEmit", "Verification: typecheck: 0 errors\n",
			[]string{"HANDOFF states 'Verification: typecheck: 0 errors'"}, nil, nil},
		{"command named", "command_passes: npm run lint", "`npm run lint` passed with no warnings.\n",
			[]string{"HANDOFF states '`npm run lint` passed with no warnings.'"}, nil, nil},
		{"test count", "command_passes: npm test", "All 47 tests pass.\n",
			[]string{"HANDOFF states 'All 47 tests pass.'"}, nil, nil},
		{"program named", "command_passes: cargo clippy -- -D warnings", "clippy: clean\n",
			[]string{"HANDOFF states 'clippy: clean'"}, nil, nil},
		{"general claim only", "command_passes: npm run e2e", "All checks pass.\n",
			[]string{"HANDOFF states 'All checks pass.'"}, nil, []string{"weak evidence: only a general claim; the HANDOFF does not name this command or its kind of check"}},
		{"not run", "command_passes: npx tsc --noEmit", "Typecheck not run (out of time).\n",
			nil, []string{"HANDOFF contradicts it: 'Typecheck not run (out of time).'"}, nil},
		{"failures counted", "command_passes: npm test", "Tests: 46 passed, 1 failed\n",
			nil, []string{"HANDOFF contradicts it: 'Tests: 46 passed, 1 failed'"}, nil},
		{"claim and contradiction", "command_passes: npm test", "tests pass\nlater: tests fail on CI\n",
			nil, []string{"HANDOFF contradicts it: 'later: tests fail on CI'"}, nil},
		{"general contradiction", "command_passes: npm run e2e", "CI is red.\n",
			nil, []string{"HANDOFF contradicts it: 'CI is red.'"}, nil},
		{"vague", "command_passes: npm test", "Tests should work now.\n",
			nil, []string{"only vague language: 'Tests should work now.' is not evidence"}, nil},
		{"probably passes", "command_passes: npx tsc --noEmit", "tsc probably passes\n",
			nil, []string{"only vague language: 'tsc probably passes' is not evidence"}, nil},
		{"mention only", "command_passes: npm test", "Ran npm test.\n",
			nil, []string{"HANDOFF mentions it but does not claim it ran and passed: 'Ran npm test.'"}, nil},
		{"silent", "command_passes: npm test", "Implemented the handler.\n",
			nil, []string{"HANDOFF does not claim this command was run and passed"}, nil},
		{"file list claims nothing", "command_passes: npm test", "Files changed:\n- test/ok.test.ts (passes)\n",
			nil, []string{"HANDOFF does not claim this command was run and passed"}, nil},
	})
}

func TestJudgeMetricThreshold(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{">= met", "metric_threshold: coverage >= 80%", "Coverage: 85%\n",
			[]string{"HANDOFF reports 'Coverage: 85%' (85 >= 80)"}, nil, nil},
		{"value before the name", "metric_threshold: coverage >= 80", "Reached 85% coverage.\n",
			[]string{"HANDOFF reports 'Reached 85% coverage.' (85 >= 80)"}, nil, nil},
		{"from ... to", "metric_threshold: coverage >= 80", "coverage went from 70% to 85%\n",
			[]string{"HANDOFF reports 'coverage went from 70% to 85%' (85 >= 80)"}, nil, nil},
		{"arrow", "metric_threshold: coverage >= 80", "coverage 70% → 85%\n",
			[]string{"HANDOFF reports 'coverage 70% → 85%' (85 >= 80)"}, nil, nil},
		{"<= with unit and words", "metric_threshold: p95_latency <= 200ms", "p95 latency: 180ms\n",
			[]string{"HANDOFF reports 'p95 latency: 180ms' (180 <= 200)"}, nil, nil},
		{"< not met", "metric_threshold: bundle_kb < 250", "bundle kb: 250\n",
			nil, []string{"HANDOFF reports 'bundle kb: 250' (250 is not < 250)"}, nil},
		{"> met", "metric_threshold: score > 0.9", "Score: 0.93\n",
			[]string{"HANDOFF reports 'Score: 0.93' (0.93 > 0.9)"}, nil, nil},
		{"== met", "metric_threshold: errors == 0", "errors: 0\n",
			[]string{"HANDOFF reports 'errors: 0' (0 == 0)"}, nil, nil},
		{"!= not met", "metric_threshold: flaky != 0", "flaky: 0\n",
			nil, []string{"HANDOFF reports 'flaky: 0' (0 is not != 0)"}, nil},
		{"below threshold", "metric_threshold: coverage >= 80%", "Coverage: 72%\n",
			nil, []string{"HANDOFF reports 'Coverage: 72%' (72 is not >= 80)"}, nil},
		{"two reports disagree", "metric_threshold: coverage >= 80", "coverage: 85\ncoverage on CI: 75\n",
			nil, []string{"HANDOFF reports 'coverage on CI: 75' (75 is not >= 80)"}, nil},
		{"approximate", "metric_threshold: coverage >= 80", "Coverage is around 85%\n",
			nil, []string{"only vague language: 'Coverage is around 85%' is not evidence"}, nil},
		{"tilde", "metric_threshold: coverage >= 80", "Coverage ~85%\n",
			nil, []string{"only vague language: 'Coverage ~85%' is not evidence"}, nil},
		{"hedged", "metric_threshold: coverage >= 80", "Coverage should be 85%\n",
			nil, []string{"only vague language: 'Coverage should be 85%' is not evidence"}, nil},
		{"no value", "metric_threshold: coverage >= 80", "Coverage improved a lot.\n",
			nil, []string{"HANDOFF mentions coverage but reports no value: 'Coverage improved a lot.'"}, nil},
		{"silent", "metric_threshold: coverage >= 80", "Tests pass.\n",
			nil, []string{"HANDOFF does not report coverage"}, nil},
	})
}

func TestJudgeVisualVerify(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"screenshot attached", "visual_verify: /auth", "Screenshot of /auth: screenshots/auth.png\n",
			[]string{"HANDOFF references a screenshot: 'Screenshot of /auth: screenshots/auth.png'"}, nil, nil},
		{"markdown image", "visual_verify: /auth", "/auth renders the form ![login](https://example.test/a)\n",
			[]string{"HANDOFF references a screenshot: '/auth renders the form ![login](https://example.test/a)'"}, nil, nil},
		{"Screenshots section", "visual_verify: /auth", "## Screenshots\n- /auth: shots/auth.jpg\n",
			[]string{"HANDOFF references a screenshot: '/auth: shots/auth.jpg'"}, nil, nil},
		{"claimed, not attached", "visual_verify: /auth", "Took a screenshot of /auth.\n",
			[]string{"HANDOFF states 'Took a screenshot of /auth.'"}, nil, []string{"visual check claimed, but no screenshot file or link attached"}},
		{"contradiction", "visual_verify: /auth", "No screenshot of /auth yet.\n",
			nil, []string{"HANDOFF contradicts it: 'No screenshot of /auth yet.'"}, nil},
		{"vague", "visual_verify: /auth", "/auth should look fine.\n",
			nil, []string{"only vague language: '/auth should look fine.' is not evidence"}, nil},
		{"mention only", "visual_verify: /auth", "Added the /auth route.\n",
			nil, []string{"HANDOFF names the route but shows no screenshot or visual confirmation of it: 'Added the /auth route.'"}, nil},
		{"other route", "visual_verify: /auth", "Screenshot of /authorize: a.png\n",
			nil, []string{"HANDOFF has no screenshot or visual confirmation of this route"}, nil},
	})
}

func TestJudgeManualAndEmpty(t *testing.T) {
	v := judgeText(t, "- manual: PM signs off\n- file_exists: a.go\n", "", named)
	want := Verdict{Verdict: Fail, Phase: 1, Campaign: "demo", ConditionsChecked: 2,
		ConditionsFailed: []string{"no HANDOFF provided"},
		Suggestions:      []string{"Re-run the phase: the agent must end with a ---HANDOFF--- block that reports the work done"}}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("empty HANDOFF:\n%s", v.JSON())
	}
	v = judgeText(t, "- manual: PM signs off\n", "---HANDOFF---\n\n---\n", named)
	if v.Verdict != Fail || !reflect.DeepEqual(v.ConditionsFailed, []string{NoHandoff}) {
		t.Errorf("empty HANDOFF block:\n%s", v.JSON())
	}
	v = judgeText(t, "- manual: PM signs off\n", "Nothing to say.\n", named)
	want = Verdict{Verdict: Pass, Phase: 1, Campaign: "demo", ConditionsChecked: 1,
		ConditionsMet: []string{"manual: PM signs off (manual — logged, not validated)"},
		Warnings:      []string{"no non-manual exit conditions: nothing was validated against the HANDOFF"}}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("manual only:\n%s", v.JSON())
	}
}

func TestJudgeCampaignPhase(t *testing.T) {
	v := judgeText(t, "- manual: x\n", "text\n", Options{})
	if v.Campaign != "unknown" || v.Phase != 0 || !reflect.DeepEqual(v.Warnings, []string{
		"campaign not given (--campaign, or a 'Campaign:' line in the conditions): recorded as 'unknown'",
		"phase not given (--phase, or a 'Phase:' line in the conditions): recorded as 0",
		"no non-manual exit conditions: nothing was validated against the HANDOFF"}) {
		t.Errorf("defaults:\n%s", v.JSON())
	}
	hdr := "Campaign: auth\nPhase: 4\nExit conditions:\n- manual: x\n"
	if v := judgeText(t, hdr, "text\n", Options{}); v.Campaign != "auth" || v.Phase != 4 || len(v.Warnings) != 1 {
		t.Errorf("from the conditions:\n%s", v.JSON())
	}
	if v := judgeText(t, hdr, "text\n", Options{Campaign: "other", Phase: 0, PhaseSet: true}); v.Campaign != "other" || v.Phase != 0 {
		t.Errorf("options win:\n%s", v.JSON())
	}
	v = judgeText(t, "- manual: x\n", "---HANDOFF---\na\n---\n---HANDOFF---\nb\n---\n", named)
	if !reflect.DeepEqual(v.Warnings[0], "the input holds 2 ---HANDOFF--- blocks: only the first was judged") {
		t.Errorf("two blocks:\n%s", v.JSON())
	}
}

func TestJudgeSuggestionsOnce(t *testing.T) {
	v := judgeText(t, "- file_exists: a.go\n- file_exists: b.go\n- command_passes: npm test\n", "nothing\n", named)
	want := []string{
		"List every file created or changed in a 'Files changed' section of the HANDOFF",
		"Add a 'Verification:' field to the HANDOFF with each command run and its observed result (e.g. 'npm test: 47 passed')",
	}
	if !reflect.DeepEqual(v.Suggestions, want) {
		t.Errorf("suggestions = %q", v.Suggestions)
	}
}

func TestJudgeRepo(t *testing.T) {
	repo := t.TempDir()
	outside := t.TempDir()
	for _, f := range []string{"src/x.ts", "docs/readme.md"} {
		p := filepath.Join(repo, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(repo, "escape")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	opts := named
	opts.Repo = repo
	for _, tc := range []struct {
		name, cond, handoff string
		met, failed, warn   []string
	}{
		{"claimed and there", "file_exists: src/x.ts", "Files changed:\n- src/x.ts\n",
			[]string{"HANDOFF lists it in the 'Files changed' section; the file exists in the repository (checked with --repo)"}, nil, nil},
		{"there, HANDOFF silent", "file_exists: docs/readme.md", "Did things.\n",
			[]string{"the file exists in the repository (checked with --repo), but HANDOFF does not mention this file"}, nil,
			[]string{"only the repository check supports it; the HANDOFF does not report it"}},
		{"claimed, not there", "file_exists: src/y.ts", "Created src/y.ts.\n",
			nil, []string{"not in the repository (checked with --repo), though HANDOFF states 'Created src/y.ts.'"}, nil},
		{"silent, not there", "file_exists: src/y.ts", "Did things.\n",
			nil, []string{"not in the repository (checked with --repo); HANDOFF does not mention this file"}, nil},
		{"symlink out of the repository", "file_exists: escape", "Created escape.\n",
			[]string{"HANDOFF states 'Created escape.'"}, nil, []string{"not checked in the repository: the path leaves the repository or cannot be read"}},
		{"dot-dot", "file_exists: ../x", "Created ../x.\n",
			[]string{"HANDOFF states 'Created ../x.'"}, nil, []string{"not checked in the repository: the path leaves the repository or cannot be read"}},
		{"absolute", "file_exists: /etc/passwd", "Created /etc/passwd.\n",
			[]string{"HANDOFF states 'Created /etc/passwd.'"}, nil, []string{"not checked in the repository: the path is absolute"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := judgeText(t, "- "+tc.cond+"\n", tc.handoff, opts)
			add := func(l []string) []string {
				var out []string
				for _, s := range l {
					out = append(out, tc.cond+" — "+s)
				}
				return out
			}
			if !reflect.DeepEqual(v.ConditionsMet, add(tc.met)) || !reflect.DeepEqual(v.ConditionsFailed, add(tc.failed)) || !reflect.DeepEqual(v.Warnings, add(tc.warn)) {
				t.Errorf("got\n%s", v.JSON())
			}
		})
	}
	opts.Repo = filepath.Join(repo, "nope")
	v := judgeText(t, "- file_exists: src/x.ts\n", "Created src/x.ts.\n", opts)
	if !reflect.DeepEqual(v.Warnings, []string{"file_exists: src/x.ts — not checked in the repository: the repository directory cannot be opened"}) {
		t.Errorf("missing repository:\n%s", v.JSON())
	}
}

// TestJudgeOutputFitsContract: whatever the judge writes, the fail-closed
// checker accepts, with the same verdict.
func TestJudgeOutputFitsContract(t *testing.T) {
	for _, h := range []string{"", "Files changed:\n- a.go\ntests pass\n", "nothing\n"} {
		v := judgeText(t, "- file_exists: a.go\n- command_passes: go test ./...\n- manual: m\n", h, Options{})
		checked := CheckVerdicts("v.json", v.JSON())
		if len(checked) != 1 || !checked[0].Result.Valid || checked[0].Effective() != v.Verdict {
			t.Errorf("verdict does not fit the contract: %+v\n%s", checked, v.JSON())
		}
	}
}

func TestVerdictJSONBytes(t *testing.T) {
	got := string(Verdict{Verdict: Pass, Campaign: "a<b>"}.JSON())
	want := `{
  "verdict": "pass",
  "phase": 0,
  "campaign": "a<b>",
  "conditions_checked": 0,
  "conditions_met": [],
  "conditions_failed": [],
  "warnings": [],
  "suggestions": []
}
`
	if got != want {
		t.Errorf("JSON =\n%s", got)
	}
	if !strings.HasSuffix(got, "}\n") {
		t.Error("no final newline")
	}
}
