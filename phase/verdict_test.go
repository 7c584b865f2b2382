package phase

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

const okVerdict = `{"verdict":"pass","phase":3,"campaign":"auth-rewrite","conditions_checked":2,"conditions_met":["file_exists: a.go — listed"],"conditions_failed":[],"warnings":[],"suggestions":[]}`

// with replaces one field of okVerdict (or drops it with value "").
func with(field, value string) string {
	var parts []string
	for _, kv := range strings.Split(strings.Trim(okVerdict, "{}"), `,"`) {
		kv = strings.TrimPrefix(kv, `"`)
		name := kv[:strings.Index(kv, `"`)]
		if name == field {
			if value == "" {
				continue
			}
			kv = name + `":` + value
		}
		parts = append(parts, `"`+kv)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func TestCheckVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name, in  string
		effective string
		errs      []string // "line:col: message [rule]"
		warns     []string
	}{
		{"pass", okVerdict, Pass, nil, nil},
		{"fail", with("verdict", `"fail"`) + "", Fail, []string{"1:146: conditions_failed: empty while verdict is 'fail' (a fail names what failed, or 'no HANDOFF provided') [msgcheck/phase_verdict-fail-empty]"}, nil},
		{"valid fail", strings.Replace(with("verdict", `"fail"`), `"conditions_failed":[]`, `"conditions_failed":["command_passes: x — not run"]`, 1), Fail, nil, nil},
		{"no HANDOFF", `{"verdict":"fail","phase":1,"campaign":"c","conditions_checked":0,"conditions_met":[],"conditions_failed":["no HANDOFF provided"],"warnings":[],"suggestions":["re-run"]}`, Fail, nil, nil},
		{"unknown verdict", with("verdict", `"PASS"`), Fail, []string{"1:12: verdict: invalid verdict 'PASS' (must be one of [pass, fail]) [msgcheck/phase_verdict-verdict-enum]"}, nil},
		{"passed is no verdict", with("verdict", `"passed"`), Fail, []string{"1:12: verdict: invalid verdict 'passed' (must be one of [pass, fail]) [msgcheck/phase_verdict-verdict-enum]"}, nil},
		{"missing field", with("suggestions", ""), Fail, []string{"1:1: suggestions: required field is missing [msgcheck/phase_verdict-suggestions-required]"}, nil},
		{"phase as string", with("phase", `"3"`), Fail, []string{"1:27: phase: must be an integer (got string) [msgcheck/phase_verdict-phase-type]"}, nil},
		{"phase fractional", with("phase", `3.5`), Fail, []string{"1:27: phase: must be an integer (got number) [msgcheck/phase_verdict-phase-type]"}, nil},
		{"negative count", with("conditions_checked", `-1`), Fail, []string{"1:76: conditions_checked: must be >= 0 (got -1) [msgcheck/phase_verdict-conditions-checked-range]", "1:76: conditions_checked: fewer than the conditions listed in conditions_met and conditions_failed [msgcheck/phase_verdict-miscount]"}, nil},
		{"campaign not a slug", with("campaign", `"Auth Rewrite"`), Fail, []string{"1:40: campaign: must be a campaign slug: lowercase letters and digits, words joined by '-', '_' or '.' (got 'Auth Rewrite') [msgcheck/phase_verdict-campaign-format]"}, nil},
		{"list of numbers", with("warnings", `[1]`), Fail, []string{"1:161: warnings[0]: must be a string (got integer) [msgcheck/phase_verdict-warnings-type]"}, nil},
		{"empty note", with("suggestions", `[" "]`), Fail, []string{"1:178: suggestions[0]: each entry must be a non-empty string (got ' ') [msgcheck/phase_verdict-suggestions-words]"}, nil},
		{"list as string", with("warnings", `"none"`), Fail, []string{"1:160: warnings: must be an array (got string) [msgcheck/phase_verdict-warnings-type]"}, nil},
		{"pass with failures", strings.Replace(okVerdict, `"conditions_failed":[]`, `"conditions_failed":["x"]`, 1), Fail, []string{"1:12: verdict: 'pass' while conditions_failed is not empty (a pass has no failed condition) [msgcheck/phase_verdict-pass-failed]"}, nil},
		{"count mismatch", with("conditions_checked", `0`), Fail, []string{"1:76: conditions_checked: fewer than the conditions listed in conditions_met and conditions_failed [msgcheck/phase_verdict-miscount]"}, nil},
		{"unknown field warns", strings.Replace(okVerdict, `{`, `{"reason":"x",`, 1), Pass, nil, []string{"1:2: Unknown field 'reason' in PHASE_VERDICT (will be ignored) [msgcheck/phase_verdict-unknown-field]"}},
		{"not an object", `["pass"]`, Fail, []string{"1:1: message must be a mapping of fields (got array) [msgcheck/not-a-message]"}, nil},
		{"prose before", "Here is the verdict:\n" + okVerdict, Fail, []string{"1:1: verdict does not parse as JSON (invalid character 'H' looking for beginning of value): a verdict is one JSON object and nothing else (no prose, no ``` fence); treated as fail [msgcheck/phase_verdict-unparsable]"}, nil},
		{"fenced", "```json\n" + okVerdict + "\n```\n", Fail, []string{"1:1: verdict is wrapped in a ``` fence: a verdict is one JSON object and nothing else (no prose, no ``` fence); treated as fail [msgcheck/phase_verdict-unparsable]"}, nil},
		{"empty", "  \n", Fail, []string{"0:0: verdict is empty: a verdict is one JSON object and nothing else (no prose, no ``` fence); treated as fail [msgcheck/phase_verdict-unparsable]"}, nil},
		{"truncated", okVerdict[:40], Fail, []string{"1:41: verdict does not parse as JSON (unexpected end of input): a verdict is one JSON object and nothing else (no prose, no ``` fence); treated as fail [msgcheck/phase_verdict-unparsable]"}, nil},
		{"duplicate key", strings.Replace(okVerdict, `{`, `{"verdict":"fail",`, 1), Fail, []string{"1:19: verdict does not parse as JSON (duplicate key \"verdict\"): a verdict is one JSON object and nothing else (no prose, no ``` fence); treated as fail [msgcheck/phase_verdict-unparsable]"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckVerdicts("v.json", []byte(tc.in))
			if len(got) != 1 {
				t.Fatalf("%d results", len(got))
			}
			c := got[0]
			texts := func(fs []msgcheck.Finding) []string {
				var out []string
				for _, f := range fs {
					out = append(out, fmt.Sprintf("%d:%d: %s [%s]", f.Line, f.Column, f.Message, f.Rule))
				}
				return out
			}
			if e, w := texts(c.Result.Errors), texts(c.Result.Warnings); !reflect.DeepEqual(e, tc.errs) || !reflect.DeepEqual(w, tc.warns) {
				t.Errorf("errors\n got %q\nwant %q\nwarnings\n got %q\nwant %q", e, tc.errs, w, tc.warns)
			}
			if c.Effective() != tc.effective || c.Result.Valid != (len(tc.errs) == 0) {
				t.Errorf("effective %s valid %v, want %s", c.Effective(), c.Result.Valid, tc.effective)
			}
		})
	}
}

func TestCheckVerdictsLines(t *testing.T) {
	got := CheckVerdicts("v.jsonl", []byte(okVerdict+"\n"+with("verdict", `"maybe"`)+"\n"))
	if len(got) != 2 || got[0].Line != 1 || got[1].Line != 2 || got[0].Effective() != Pass || got[1].Effective() != Fail {
		t.Errorf("JSON Lines: %+v", got)
	}
	if got := CheckVerdicts("big.json", make([]byte, MaxVerdictBytes+1)); len(got) != 1 || got[0].Result.Errors[0].Rule != RuleUnparsable {
		t.Errorf("oversized: %+v", got)
	}
}
