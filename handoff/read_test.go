package handoff

import (
	"strings"
	"testing"
)

const v2Body = `step: 2/5
agent: Builder
status: SUCCESS
confidence: 0.85
confidence_breakdown: {task_completion: 0.9, output_quality: 0.8, next_step_clarity: 0.85}
summary: Built it.
next_agent: Radar
next_action: CONTINUE
`

func indent(s, prefix string) string {
	lines := strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n")
	return prefix + strings.Join(lines, prefix) + "\n"
}

func TestRead(t *testing.T) {
	type got struct {
		key  string
		line int
	}
	tests := []struct {
		name, file, src string
		want            []got
	}{
		{"bare YAML", "h.yaml", v2Body, []got{{"", 1}}},
		{"V2 key", "h.yaml", "NEXUS_HANDOFF_V2:\n" + indent(v2Body, "  "), []got{{KeyV2, 1}}},
		{"V1 key", "h.yml", "# log\nNEXUS_HANDOFF:\n" + indent(v2Body, "  "), []got{{KeyV1, 2}}},
		{"YAML stream", "h.yaml", v2Body + "---\n" + v2Body, []got{{"", 1}, {"", 10}}},
		{"YAML list", "h.yaml", "- " + strings.ReplaceAll(strings.TrimSuffix(v2Body, "\n"), "\n", "\n  ") + "\n", []got{{"", 1}}},
		{"JSON", "h.json", `{"NEXUS_HANDOFF_V2": {"step": "1/2"}}`, []got{{KeyV2, 1}}},
		{"JSON sniffed", "handoff.txt", "\n  {\"step\": \"1/2\"}", []got{{"", 2}}},
		{"YAML flow mapping sniffed", "handoff", "{step: 1/2}", []got{{"", 1}}},
		{"Markdown labelled and header blocks", "log.md",
			"# Log\n\n```nexus_handoff_v2\n" + v2Body + "```\n\n> ```yaml\n> ## NEXUS_HANDOFF\n" + indent(v2Body, "> ") + "> ```\n\n```yaml\nstatus: ok # NEXUS_HANDOFF is mentioned, not written\n```\n",
			[]got{{KeyV2, 4}, {KeyV1, 16}}},
		{"Markdown keyed block", "log.md", "```json\n{\"NEXUS_HANDOFF\": {\"step\": \"1/2\"}}\n```\n", []got{{KeyV1, 2}}},
		{"Markdown sniffed", "log", "Text\n```nexus_handoff\n" + v2Body + "```\n", []got{{KeyV1, 3}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hs, err := Read(tc.file, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var g []got
			for _, h := range hs {
				g = append(g, got{h.Key, h.Line})
			}
			if len(g) != len(tc.want) {
				t.Fatalf("got %v, want %v", g, tc.want)
			}
			for i := range g {
				if g[i] != tc.want[i] {
					t.Errorf("handoff %d: got %v, want %v", i, g[i], tc.want[i])
				}
			}
		})
	}
}

// Findings of a handoff in a Markdown block point into the Markdown file,
// container prefixes included.
func TestReadMarkdownPositions(t *testing.T) {
	src := "Intro\n\n> ```nexus_handoff_v2\n> step: 9/5\n> agent: Builder\n> ```\n"
	hs, err := Read("log.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := evaluator(t).Evaluate(hs[0])
	if err != nil {
		t.Fatal(err)
	}
	var at []string
	for _, f := range ev.Findings {
		if f.Field == "step" {
			at = append(at, f.Rule)
			if f.Line != 4 || f.Column != 9 {
				t.Errorf("%s at %d:%d, want 4:9", f.Rule, f.Line, f.Column)
			}
		}
	}
	if len(at) != 1 {
		t.Errorf("step findings %v", at)
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct{ name, file, src, want string }{
		{"empty YAML", "h.yaml", "", "h.yaml: no handoff in it"},
		{"bad YAML", "h.yaml", "a: [", "h.yaml:1"},
		{"bad JSON", "h.json", "{", "h.json:1:2"},
		{"no block", "log.md", "# nothing\n\n```yaml\na: 1\n```\n", "log.md: no NEXUS_HANDOFF block in it"},
		{"broken block", "log.md", "# x\n\n```nexus_handoff\nstep: [\n```\n", "log.md:4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(tc.file, []byte(tc.src))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("got %v, want prefix %q", err, tc.want)
			}
		})
	}
}
