package enumdrift_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/languages/extract"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// fixture reads a file of testdata/specs: copies of specs as a repository
// ships them.
func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "specs", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// edit replaces old, which must occur in src, with new.
func edit(t *testing.T, src, old, new string) string {
	t.Helper()
	if !strings.Contains(src, old) {
		t.Fatalf("edit: %q not in the source", old)
	}
	return strings.Replace(src, old, new, 1)
}

// check runs Check over the facts of src, as the scan extracts them for a
// file at path, and returns its findings as "line:col rule".
func check(t *testing.T, v *enumdrift.Vocabulary, path, src string) []string {
	t.Helper()
	f, err := extract.File(path, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var got []string
	for _, fd := range enumdrift.Check(f, v) {
		got = append(got, fmt.Sprintf("%d:%d %s", fd.Line, fd.Col, fd.Rule))
	}
	return got
}

func defaultVocabulary(t *testing.T) *enumdrift.Vocabulary {
	t.Helper()
	v, err := enumdrift.NewVocabulary(msgcheck.DefaultSpec(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// nexusDrift is what enumdrift reports on the NEXUS spec's statuses when
// they are taken for HANDBACK statuses: the status enum, and the keys of
// x-nexus-handoff's inferred_confidence.
var nexusDrift = []string{
	"41:12 enumdrift/status-case", "41:21 enumdrift/status-case", "41:30 enumdrift/status-case", "41:39 enumdrift/legacy-status",
	"147:7 enumdrift/status-case", "148:7 enumdrift/status-case", "149:7 enumdrift/status-case", "150:7 enumdrift/legacy-status",
}

// handoffStatus extends the phase-verdict spec as a repository may: the
// verdict names the status of the HANDOFF it judged, a NEXUS status.
const handoffStatus = `    handoff_status:
      description: The status of the HANDOFF judged.
      type: string
      enum: [SUCCESS, PARTIAL, BLOCKED, FAILED]
    phase:
`

// TestSpecDocuments: a protoscan spec in the repository declares the
// statuses of the protocol it names. Those of another protocol (a copy of
// the NEXUS handoff or phase-verdict spec) are not HANDBACK statuses,
// whatever their spelling, and whatever the file is called; a copy of
// protocol-core with a drifted enum is reported. Each fixture has a case
// enumdrift passes and one it reports, told apart by context only.
func TestSpecDocuments(t *testing.T) {
	nexus := fixture(t, "nexus-handoff-v2.yaml")
	verdict := fixture(t, "phase-verdict-v1.yaml")
	verdictExt := edit(t, verdict, "    phase:\n", handoffStatus)
	core := fixture(t, "protocol-core-drifted.yaml")
	cases := []struct {
		name, path, src string
		want            []string
	}{
		// NEXUS: a copy where docs/cli.md says to ship one, or anywhere
		{"nexus copy", "docs/specs/nexus-handoff-v2.yaml", nexus, nil},
		{"nexus copy elsewhere", "handback/specs/nexus.yaml", nexus, nil},
		{"nexus copy relabelled protocol-core", "docs/specs/nexus-handoff-v2.yaml",
			edit(t, nexus, "protocol: nexus-handoff\n", "protocol: protocol-core\n"), nexusDrift},
		{"nexus copy without a version is no spec", "docs/specs/nexus-handoff-v2.yaml",
			edit(t, nexus, `version: "2.0"`, `release: "2.0"`), nexusDrift},

		// phase verdicts: pass/fail share nothing with HANDBACK; a
		// repository's extension with the judged HANDOFF's status
		{"phase-verdict copy", "docs/specs/phase-verdict-v1.yaml", verdict, nil},
		{"phase-verdict copy extended", "docs/specs/phase-verdict-v1.yaml", verdictExt, nil},
		{"phase-verdict copy extended, relabelled protocol-core", "docs/specs/phase-verdict-v1.yaml",
			edit(t, verdictExt, "protocol: phase-verdict\n", "protocol: protocol-core\n"),
			[]string{"36:14 enumdrift/status-case", "36:23 enumdrift/status-case", "36:32 enumdrift/status-case", "36:41 enumdrift/legacy-status"}},

		// protocol-core: its status enum is the HANDBACK's
		{"protocol-core copy drifted", "vendor/protocol-core.yaml", core, []string{"36:12 enumdrift/status-case"}},
		{"protocol-core copy drifted, in docs/specs", "docs/specs/protocol-core-v1.0.yaml", core, []string{"36:12 enumdrift/status-case"}},
		{"protocol-core copy fixed", "vendor/protocol-core.yaml",
			edit(t, core, "enum: [SUCCESS, failure", "enum: [success, failure"), nil},

		// JSON reads the same
		{"nexus spec in JSON", "specs/nexus.json", nexusJSON("nexus-handoff"), nil},
		{"protocol-core spec in JSON", "specs/core.json", nexusJSON("protocol-core"),
			[]string{"5:59 enumdrift/status-case", "5:70 enumdrift/status-case", "5:81 enumdrift/status-case", "5:92 enumdrift/legacy-status",
				"6:49 enumdrift/status-case", "6:65 enumdrift/status-case", "6:81 enumdrift/status-case", "6:97 enumdrift/legacy-status"}},

		// a spec is one document: the HANDBACKs beside it are judged
		{"spec block and a HANDBACK block", "docs/chain.md", chainDoc("SUCCESS"), []string{"22:9 enumdrift/status-case"}},
		{"spec block and a canonical HANDBACK block", "docs/chain.md", chainDoc("success"), nil},
		{"spec document then a HANDBACK document", "examples/both.yaml", specThenHandback, []string{"23:9 enumdrift/status-case"}},
		{"HANDBACK document then a spec document", "examples/both.yaml", handbackThenSpec, []string{"4:9 enumdrift/status-case"}},
	}
	v := defaultVocabulary(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := check(t, v, tc.path, tc.src); !slices.Equal(got, tc.want) {
				t.Errorf("findings:\n got  %q\n want %q", got, tc.want)
			}
		})
	}
}

// TestEmbeddedSpecs: the specs protoscan ships stay silent when a
// repository copies them as they are.
func TestEmbeddedSpecs(t *testing.T) {
	v := defaultVocabulary(t)
	for _, name := range []string{"nexus-handoff-v2.yaml", "phase-verdict-v1.yaml", msgcheck.DefaultSpecName} {
		src, err := msgcheck.EmbeddedSpecSource(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := check(t, v, "docs/specs/"+name, string(src)); len(got) > 0 {
			t.Errorf("%s: %q", name, got)
		}
	}
}

// TestSpecProtocolFromSpec: which protocol is the HANDBACK's comes from the
// spec in effect (--spec), not from a constant.
func TestSpecProtocolFromSpec(t *testing.T) {
	src, err := msgcheck.EmbeddedSpecSource(msgcheck.DefaultSpecName)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := msgcheck.ParseSpec("acme.yaml", []byte(edit(t, string(src), "protocol: protocol-core\n", "protocol: acme-core\n")))
	if err != nil {
		t.Fatal(err)
	}
	v, err := enumdrift.NewVocabulary(sp, nil)
	if err != nil {
		t.Fatal(err)
	}
	core := fixture(t, "protocol-core-drifted.yaml")
	if got := check(t, v, "vendor/core.yaml", core); len(got) > 0 {
		t.Errorf("protocol-core copy under an acme-core spec: %q, want nothing", got)
	}
	acme := edit(t, core, "protocol: protocol-core\n", "protocol: acme-core\n")
	if got, want := check(t, v, "vendor/acme.yaml", acme), []string{"36:12 enumdrift/status-case"}; !slices.Equal(got, want) {
		t.Errorf("acme-core copy: %q, want %q", got, want)
	}
}

func nexusJSON(protocol string) string {
	return `{
  "protocol": "` + protocol + `",
  "version": "2.0",
  "nexus_handoff_v2": {
    "core_fields": {"status": {"type": "string", "enum": ["SUCCESS", "PARTIAL", "BLOCKED", "FAILED"]}},
    "x-nexus-handoff": {"inferred_confidence": {"SUCCESS": 0.8, "PARTIAL": 0.6, "BLOCKED": 0.4, "FAILED": 0.2}}
  }
}
`
}

func chainDoc(status string) string {
	return "# Chain\n\nThe handoff spec we extend:\n\n```yaml\n" + smallSpec + "```\n\nA HANDBACK:\n\n```yaml\n" +
		"task_id: fix-login\nstatus: " + status + "\noutput: {summary: fixed}\nmetrics: {quality: 0.9}\n```\n"
}

// smallSpec is a NEXUS spec with what makes the subtree of a document
// hard to tell: an anchored mapping and its alias, a list of mappings, a
// key given twice.
const smallSpec = `protocol: nexus-handoff
version: "2.1"
nexus_handoff_v2:
  core_fields:
    status: &status {type: string, enum: [SUCCESS, PARTIAL, BLOCKED, FAILED]}
    previous_status: *status
    history: [{status: FAILED}, {status: SUCCESS}]
  x-nexus-handoff:
    inferred_confidence: {SUCCESS: 0.8, PARTIAL: 0.6, BLOCKED: 0.4, FAILED: 0.2}
    inferred_confidence: {SUCCESS: 0.9, PARTIAL: 0.6, BLOCKED: 0.4, FAILED: 0.2}
`

var specThenHandback = "# a spec, then an example HANDBACK\n" + smallSpec + "---\n" + strings.Repeat("# padding\n", 9) +
	"task_id: fix-login\nstatus: SUCCESS\noutput: {summary: fixed}\nmetrics: {quality: 0.9}\n"

var handbackThenSpec = "# an example HANDBACK, then a spec\n---\ntask_id: fix-login\nstatus: SUCCESS\noutput: {summary: fixed}\nmetrics: {quality: 0.9}\n---\n" + smallSpec
