package msgcheck_test

import (
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

func TestFormats(t *testing.T) {
	spec := msgcheck.DefaultSpec()
	text, err := msgcheck.EmbeddedSpecSource("protocol-core-v1.0.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	for _, kind := range []string{"delegate", "handback"} {
		var got *msgcheck.Format
		for _, f := range spec.Formats(kind) {
			if f.Path == "task_id" {
				got = &f
			}
		}
		// task_id is a $ref to the definition, which holds the pattern
		if got == nil || got.Pattern != `^[a-z0-9][a-z0-9\-]{1,48}[a-z0-9]$` || got.MinLength != -1 || got.MaxLength != -1 {
			t.Fatalf("%s: task_id's format is %+v", kind, got)
		}
		if got.File != "embedded:protocol-core-v1.0.yaml" || got.Line < 1 || got.Line > len(lines) ||
			!strings.HasPrefix(strings.TrimSpace(lines[got.Line-1]), "pattern:") {
			t.Errorf("%s: task_id's pattern is said to be at %s:%d", kind, got.File, got.Line)
		}
	}
	if spec.Formats("nosuchkind") != nil {
		t.Error("an unknown kind has formats")
	}
}

func TestFormatsLengthBesideRef(t *testing.T) {
	spec, err := msgcheck.ParseSpec("spec.yaml", []byte(`protocol: p
version: "1"
definitions:
  id: {type: string, pattern: "^[a-z]+$", maxLength: 80}
delegate:
  core_fields:
    task_id: {$ref: "#/definitions/id", maxLength: 40, minLength: 3}
    scope: {type: string}
`))
	if err != nil {
		t.Fatal(err)
	}
	fs := spec.Formats("delegate")
	if len(fs) != 1 || fs[0].Path != "task_id" || fs[0].Pattern != "^[a-z]+$" || fs[0].MinLength != 3 || fs[0].MaxLength != 40 {
		t.Fatalf("formats: %+v", fs)
	}
}
