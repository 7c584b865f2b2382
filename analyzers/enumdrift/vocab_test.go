package enumdrift

import (
	"testing"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// A repository's spec without aliases still gets the embedded spec's
// legacy spellings, but only those that fit its enum: a spelling that is
// not one of its statuses, for a canonical status that is.
func TestKnownLegacyFitTheEnum(t *testing.T) {
	specOf := func(enum string) *msgcheck.Spec {
		t.Helper()
		sp, err := msgcheck.ParseSpec("spec.yaml", []byte(`$schema: "http://json-schema.org/draft-07/schema#"
version: "1.0"
handback:
  type: object
  required: [task_id, status, output]
  properties:
    task_id: {type: string}
    status: {type: string, enum: `+enum+`}
    output: {type: string}
`))
		if err != nil {
			t.Fatal(err)
		}
		return sp
	}
	for _, c := range []struct {
		enum, word string
		class      class
		want       string
	}{
		{"[success, failure, partial, blocked, escalate]", "complete", legacy, "success"},
		{"[success, failure, partial, blocked, escalate]", "failed", legacy, "failure"},
		{"[success, failure, partial, blocked, escalate]", "done", unknown, ""},
		// complete is one of this repository's statuses: never legacy
		{"[success, complete, failure]", "complete", canonical, "complete"},
		// no success here: complete has nothing to stand for
		{"[ok, failure, partial]", "complete", unknown, ""},
	} {
		v, err := NewVocabulary(specOf(c.enum), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, canon := v.status.classify(c.word); got != c.class || canon != c.want {
			t.Errorf("enum %s, %q: class %v %q, want %v %q", c.enum, c.word, got, canon, c.class, c.want)
		}
	}
}
