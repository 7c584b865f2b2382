package divergence

import (
	"strings"
	"testing"
)

// TestCanonicalFormats: where the spec gives a field no pattern, the
// canonical validation's format is the reference for the others of its
// kind; without a canonical one, or with the same format, nothing.
func TestCanonicalFormats(t *testing.T) {
	const canonical = `import re

SKILL_RE = re.compile(r"^[a-z][a-z0-9-]*$")


def validate_delegate(d):
    if not SKILL_RE.fullmatch(d["skill"]):
        raise ValueError("bad skill")
    if len(d["scope"].split()) < 15:
        raise ValueError("scope too short")
`
	copyWith := func(pattern string) string {
		return `import re


def check_delegate(d):
    if not re.fullmatch(r"` + pattern + `", d["skill"]):
        raise ValueError("bad skill")
    if not d.get("scope"):
        raise ValueError("no scope")
`
	}
	opts := Options{Canonical: []string{"skills/protocol_validator/**"}}
	for _, c := range []struct {
		name, pattern string
		opts          Options
		want          string
	}{
		{"stricter than the canonical", `[a-z]+`, opts, "check_delegate rejects the skill `a0`, which the canonical validate_delegate accepts (skills/protocol_validator/delegate.py:7: SKILL_RE `^[a-z][a-z0-9-]*$` (fullmatch)); check_delegate matches skill with `[a-z]+` (fullmatch)"},
		{"laxer than the canonical", `[a-z0-9_-]+`, opts, "check_delegate accepts the skill `0`, which the canonical validate_delegate rejects"},
		{"the canonical's format", `[a-z][a-z0-9-]*`, opts, ""},
		{"no canonical", `[a-z]+`, Options{Canonical: []string{"nowhere/**"}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := scanWith(t, testModel(c.opts), map[string]string{
				"skills/protocol_validator/delegate.py": canonical,
				"api/checks.py":                         copyWith(c.pattern),
			})
			got := ""
			for _, f := range fs {
				if f.Rule == RuleFormat {
					got = f.Message
				}
			}
			if c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Errorf("format finding %q, want one containing %q", got, c.want)
			}
		})
	}
}
