package rules

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/protoscan-dev/protoscan/finding"
)

// The catalogue: one Doc per rule id protoscan can emit, and one per family
// of generated msgcheck ids (msgcheck/<kind>-<field path>-<constraint>,
// msgcheck/<kind>-unknown-field, the spec's own CEL rules). Family ids are
// written with "*" where the generated id has a kind or a field path.
var catalogue = []Doc{
	// ---------------------------------------------------------------- enumdrift
	{
		ID: "enumdrift/status-case", Name: "StatusCase", Severity: finding.Error,
		Title:   "A HANDBACK status spelled in the wrong case",
		What:    "A literal that is a HANDBACK status by its context (the status of a HANDBACK mapping; a member of a const block, enum, Literal, set or list of statuses, or of one a status field is tested against with in, slices.Contains or a lookup; a schema's enum for status; a key of a routing table over statuses, or a status in a list of route mappings; a comparison with a status field) differs from a canonical status of the spec only in letter case or separators.",
		Why:     "Status values are compared as exact strings: a consumer that checks status == \"success\" never sees \"SUCCESS\", so the task is silently treated as neither succeeded nor failed.",
		Example: "fixtures/handback-001.yaml:\n  status: SUCCESS\ngives: status \"SUCCESS\" differs from the canonical \"success\" only in case (in a HANDBACK)",
		Fix:     "Write the canonical spelling (the finding carries the fix: replace \"SUCCESS\" with \"success\"). If the value comes from outside, normalise it once at the boundary.",
	},
	{
		ID: "enumdrift/legacy-status", Name: "LegacyStatus", Severity: finding.Error,
		Title:   "A legacy alias of a HANDBACK status",
		What:    "A HANDBACK status (judged by its context, as for enumdrift/status-case) is a legacy spelling: one the spec lists under `aliases` (failed for failure, escalated for escalate, complete for success; a spec without aliases gets these where they fit its enum), or one an alias table of the repository maps to a canonical status (a dict, Go map, YAML or JSON mapping from old words to statuses), which the finding names as a related location.",
		Why:     "The protocol spells each status one way. A producer writing the legacy alias and a consumer matching the canonical value disagree without any error; the validator also rejects the alias in a message.",
		Example: "router/router.go:\n  const StatusEscalated Status = \"escalated\"\ngives: legacy status \"escalated\": the protocol spells it \"escalate\" (in const Status)",
		Fix:     "Replace the alias with the canonical status the finding names (the fix is offered). Keep legacy spellings only in a normalisation table that maps them to canonical values; such tables are not reported.",
	},
	{
		ID: "enumdrift/unknown-status", Name: "UnknownStatus", Severity: finding.Error,
		Title:   "A value that is not a HANDBACK status where one is expected",
		What:    "A literal whose context makes it a HANDBACK status with certainty is neither a canonical status nor a known alias (\"done\", \"ok\", \"error\"). Values in uncertain contexts (a health check's {\"status\": \"ok\"}, HTTP or Kubernetes statuses) are not reported.",
		Why:     "A status outside the enum is rejected by the protocol validator and falls through every routing decision: the task is neither retried, escalated nor completed.",
		Example: "workers/worker.py:\n  return {\"task_id\": tid, \"status\": \"done\", \"output\": out, \"metrics\": m}\ngives: \"done\" is not a HANDBACK status (in a HANDBACK; the statuses are success, failure, partial, blocked, escalate)",
		Fix:     "Use the canonical status that means what the code intends (\"done\" is usually \"success\"). If the spelling is a real synonym, declare it under the status enum's `aliases` in the spec, or add it as a canonical synonym in .protoscan.yaml.",
	},
	{
		ID: "enumdrift/missing-status", Name: "MissingStatus", Severity: finding.Warning,
		Title:   "A definition or validator of the HANDBACK statuses that lacks some of them",
		What:    "A const block, enum or Literal type that defines HANDBACK statuses (it covers at least three canonical values) does not cover every canonical status of the spec (a warning). A set, list or tuple (or a map or dict keyed by statuses), named or written in the test itself (if status not in (\"success\", \"failure\", \"partial\"): raise), that gates the acceptance of the status, and lacks canonical statuses, is reported as an error: code lets only its values through (if status not in VALID: raise, return an error or append to a list of errors, or return False in a function named for validity; assert status in ALLOWED; if !slices.Contains(valid, h.Status) { return err }; if !known[h.Status] { return err }; return status in VALID in a function named for validity; Status(hb[\"status\"]), which refuses a value that is no member of the enum), or it is the enum of the status property of a JSON schema written in code; two of its values are exact canonical statuses (or, in a file that handles HANDBACKs, three or more values all spellings of statuses, whose legacy spellings let no canonical status through), at least half of them are statuses, and all of them are unless three are exact or the tested receiver names the kind (a task board's pending, in_progress, success, failure is its own vocabulary). A set that only routes (if status in TERMINAL: finish()), a set named or commented for legacy, deprecated or alias spellings or united with the canonical set, and the tables of test code are not reported, nor are switch statements.",
		Why:     "Code built on an incomplete status type cannot represent, parse or route the missing statuses: a HANDBACK with status \"blocked\" fails to decode or is handled by a default branch. A validator that lacks a status rejects every valid HANDBACK that carries it.",
		Example: "class Status(str, Enum):\n    SUCCESS = \"success\"\n    FAILURE = \"failure\"\n    PARTIAL = \"partial\"\ngives: enum Status defines HANDBACK statuses but lacks blocked, escalate (the statuses are success, failure, partial, blocked, escalate)\n\nVALID_STATUSES = {\"success\", \"failure\", \"partial\", \"blocked\"}\nif handback[\"status\"] not in VALID_STATUSES:\n    raise ValueError(handback[\"status\"])\ngives (error): set VALID_STATUSES rejects the valid HANDBACK status escalate (tested against handback.status; the statuses are success, failure, partial, blocked, escalate)",
		Fix:     "Add the missing statuses, spelled as the spec spells them. If the type deliberately models a subset (terminal statuses), name it so, or suppress the finding with a reason. A validator should accept every status of the spec, or validate with the spec itself (protoscan validate, msgcheck).",
	},

	{
		ID: "enumdrift/value-case", Name: "ValueCase", Severity: finding.Error,
		Title:   "A value of a protocol enum spelled in the wrong case or with other separators",
		What:    "A literal bound to an enum-valued field of the specs other than the HANDBACK status (a DELEGATE's agent, NEXUS_HANDOFF_V2 status or next_action, a verdict, any enum a custom spec adds) by its context — the field of a message mapping; a set, list or tuple tested against the field or read at an index for it (AGENTS[1]), also as an attribute of a class (self.valid_roles = {...}); the keys of a table looked up with it; an enum class or const block compared with it, or all of whose values are the enum's in a file that handles the kind; a schema's enum for it; a comparison with the field, with a variable that holds it, or with a parameter named for it in code that handles the kind — differs from a canonical value only in case or in its separators (senior_engineer, Senior Engineer or SENIOR_ENGINEER for senior-engineer).",
		Why:     "Enum values are compared as exact strings: a router that checks agent == \"senior-engineer\" never sees \"senior_engineer\", and the task goes to no one.",
		Example: "if delegate.get(\"agent\") == \"senior_engineer\":\ngives: DELEGATE agent value \"senior_engineer\" differs from the canonical \"senior-engineer\" only in case and separators (compared with delegate.agent)",
		Fix:     "Write the canonical spelling (the finding carries the fix).",
	},
	{
		ID: "enumdrift/legacy-value", Name: "LegacyValue", Severity: finding.Error,
		Title:   "A legacy alias of a protocol enum's value",
		What:    "A value of an enum-valued field (judged by its context, as for enumdrift/value-case) is a legacy spelling: one the spec lists under the enum's `aliases`, or one an alias table of the repository maps to a canonical value (a dict, Go map, YAML or JSON mapping whose keys are not values of the enum and whose values are). The finding names the table as a related location.",
		Why:     "The repository's own code says what the old word means; writing it anyway keeps two spellings alive, and every consumer must know the table.",
		Example: "LEGACY = {\"finished\": \"success\", \"errored\": \"failure\"}   # lib/legacy.py\nif handback[\"status\"] == \"finished\":\ngives: legacy status \"finished\": the protocol spells it \"success\", as the alias table at lib/legacy.py:1 says (compared with handback.status)",
		Fix:     "Replace the alias with the canonical value the finding names (the fix is offered); keep the table only where input from outside is normalised.",
	},
	{
		ID: "enumdrift/unknown-value", Name: "UnknownValue", Severity: finding.Error,
		Title:   "A value outside a protocol enum where one is expected",
		What:    "A literal whose context binds it with certainty to an enum-valued field other than the HANDBACK status is neither a canonical value nor a known alias. No nearest value is guessed by spelling (completed is not complete): a canonical value is offered, with its fix, only where the spec's aliases, an alias table of the repository, the config's synonyms or case and separators say which one is meant (those are enumdrift/value-case and enumdrift/legacy-value). A comparison binds a value to the field when its subject is compared with two distinct canonical values, or in a file that handles the kind. Words bound to no protocol field are never judged; in a message file, msgcheck's enum finding reports the value instead.",
		Why:     "A value outside the enum is rejected by the validator and matches no routing branch.",
		Example: "EFFORT_LEVELS = [\"low\", \"med\", \"high\"]   # tested with delegate[\"effort\"] in EFFORT_LEVELS\ngives: \"med\" is not a DELEGATE effort (in set EFFORT_LEVELS, tested against delegate.effort; the values are low, medium, high)",
		Fix:     "Use the canonical value; if the spelling is a real synonym, add it to the enum's `aliases` in the spec.",
	},
	{
		ID: "enumdrift/missing-value", Name: "MissingValue", Severity: finding.Warning,
		Title:   "A definition or validator of a protocol enum that lacks some of its values",
		What:    "A const block, enum or Literal type that defines an enum-valued field other than the HANDBACK status (it covers at least three values, two of them exactly) does not cover every value of the spec's enum (a warning). A set, list, tuple, map or dict that gates the acceptance of the field (as for enumdrift/missing-status: if agent not in VALID_AGENTS: raise, assert, slices.Contains under a rejecting if, a JSON schema's enum in code) and lacks values of the enum is reported as an error. Sets that only route (if agent in ENGINEERS: assign(...)), sets named for legacy or alias spellings and the tables of test code are not reported.",
		Why:     "Code built on an incomplete type cannot represent the missing values: a message carrying one fails to decode or falls to a default branch. A validator that lacks a value rejects every valid message that carries it: a DELEGATE to the orchestrator is refused by a set of agents without orchestrator.",
		Example: "class NextAction(str, Enum): CONTINUE = \"CONTINUE\"; MERGE = \"MERGE\"; ABORT = \"ABORT\"\ngives: enum NextAction defines NEXUS_HANDOFF_V2 next_action values but lacks VERIFY, ESCALATE\n\nif delegate[\"agent\"] not in VALID_AGENTS:   # without orchestrator\n    raise ValueError(\"unknown agent\")\ngives (error): set VALID_AGENTS rejects the valid DELEGATE agent orchestrator (tested against delegate.agent; the values are ...)",
		Fix:     "Add the missing values as the spec spells them, or name the type for the subset it models. A validator should accept every value of the spec's enum.",
	},

	// --------------------------------------------------------------- divergence
	{
		ID: "divergence/duplicate-escalation", Name: "DuplicateEscalation", Severity: finding.Warning,
		Title:   "The escalation decision is implemented more than once",
		What:    "Two or more functions (in Python, Go or fenced code blocks of Markdown, possibly in different languages) decide whether a HANDBACK escalates: they are named after escalation or call escalate*/return \"escalate\" and read the protocol's fields (metrics.quality, retry_count...), or they decide to escalate (return or set an escalate outcome, call escalate*, route to a human or principal reviewer) on a score of the work (quality_score, confidence, a score or rating where the function or file shows protocol evidence), or are named after escalation, show protocol evidence and compare such a score; and they share at least 45% of their structural fingerprint or compare the same field or score with constants. Scores of other things (test coverage, similarity, retrieval relevance), HTTP statuses and vendored code (third_party/, vendor/) make no candidate. Every copy is a related location; the canonical one is named when known.",
		Why:     "Copies of one decision drift apart: a threshold changed in one copy is not changed in the others, and the same HANDBACK escalates or not depending on which code path sees it.",
		Example: "should_escalate (legacy/helpers.py), ShouldEscalate (router/escalate.go) and escalate_handback (skills/protocol_validator/escalation.py) all test metrics.quality and retry_count\ngives: escalation decision implemented 3 times (...) in 2 languages; escalate_handback (...) is the canonical one",
		Fix:     "Keep one implementation (the canonical one: pass --canonical GLOB[:NAME] to name it) and call it from the other places; across languages, expose it as a service or generate the constants from the spec.",
	},
	{
		ID: "divergence/duplicate-validation", Name: "DuplicateValidation", Severity: finding.Warning,
		Title:   "A DELEGATE or HANDBACK validation is implemented more than once",
		What:    "Two or more functions validate the same message kind: their names say validate/check and DELEGATE or HANDBACK, they read at least two of the kind's own fields, and they share their structure or the fields they compare with constants. A member whose bounds are the spec's (scope >= 15 words) is taken as the reference when none is named canonical.",
		Why:     "Hand-written validations diverge from the spec and from each other: a message accepted by the API layer is rejected by the worker, or the other way round.",
		Example: "validate_delegate in skills/protocol_validator/validator.py and check_delegate in api/handlers.py both count the words of scope\ngives: DELEGATE validation implemented 2 times (...); validate_delegate (...) agrees with the spec",
		Fix:     "Validate with one implementation, ideally the spec itself (protoscan validate, or msgcheck as a library), and call it from every entry point instead of re-checking fields by hand.",
	},
	{
		ID: "divergence/duplicate-normalization", Name: "DuplicateNormalization", Severity: finding.Warning,
		Title:   "Status normalisation is implemented more than once",
		What:    "Two or more functions map status spellings to canonical HANDBACK statuses (\"done\" to \"success\", \"failed\" to \"failure\"): they are named after normalising statuses and share their structure.",
		Why:     "Each copy knows a different set of spellings, so the same input normalises differently depending on where it enters.",
		Example: "normalize_status in workers/util.py and NormalizeStatus in router/status.go both map legacy spellings to canonical statuses\ngives: status normalisation implemented 2 times (normalize_status and NormalizeStatus) in 2 languages; keep one and call it from the others",
		Fix:     "Keep one normalisation, fed by the `aliases` of the spec's status enum, and call it everywhere a status enters the system.",
	},
	{
		ID: "divergence/conflicting-threshold", Name: "ConflictingThreshold", Severity: finding.Error,
		Title:   "Copies of one protocol decision compare a field with different values",
		What:    "Members of one divergence cluster compare the same protocol field (or its length or word count) with different constants. Scores are compared on one scale: a score whose name says percent (quality_score, confidence_pct) compared with 10-100 is the same quantity on 0-1 (metrics.quality), written both ways (70 (0.70)); a 1-5 rating and a bare score on 0-100 keep their own scales. The finding is placed at the first member that differs from the canonical one and lists every value and where it is; when the spec bounds the field, the spec's value is named too.",
		Why:     "This is a live behavioural difference, not just duplication: the same message passes in one copy and fails in another (a HANDBACK with quality 0.6 escalates in one service and not in the next). Escalation bands in a document of the repository (a YAML file, a Markdown table: `| < 60 | Escalate to a senior engineer |`) count too: a doc that says 60 where the code says 70 tells reviewers one thing while the code does another.",
		Example: "legacy/helpers.py:  if metrics[\"quality\"] < 0.6:\nrouter/escalate.go: if h.Metrics.Quality < 0.7 {\ngives: metrics.quality is compared with different values in copies of one escalation decision: 0.6 in should_escalate (...); 0.7 in ShouldEscalate (...); 0.5 in escalate_handback (..., canonical)",
		Fix:     "Decide on the right value (the canonical member's, or the spec's), change the copies to it, and better still remove the copies (see the duplicate-* finding of the same cluster) so there is one value to keep.",
	},
	{
		ID: "divergence/spec-threshold", Name: "SpecThreshold", Severity: finding.Error,
		Title:   "Code holds a protocol field to a bound the spec contradicts",
		What:    "An implementation of a protocol decision compares a message field with a threshold (a literal, a named constant of the module or package or imported from another one, or a parameter's default value) that disagrees with the spec's bound on that field: a word floor for `scope` other than its `minWords`, a plan length other than its `minItems`, a `maxLength`/`maxItems` other than the spec's, or a value outside the field's `minimum`/`maximum`. Counts are judged in validations, after normalising the operator and the branch (`< 15` then reject, `>= 15` then accept and `<= 14` then reject all mean at least 15); values are judged wherever they are compared by order. The message names both numbers and the spec's file:line.",
		Why:     "The spec is the contract between agents: a validator that accepts a 10-word scope lets through DELEGATEs every other agent rejects, one that wants 20 words rejects valid ones, and a quality compared with 70 on a 0-1 scale never (or always) triggers.",
		Example: "MIN_SCOPE_WORDS = 10\ndef validate_delegate(d):\n    if len(d[\"scope\"].split()) < MIN_SCOPE_WORDS:\n        raise ValueError(\"scope too short\")\ngives: validate_delegate holds the word count of scope to at least 10 (< MIN_SCOPE_WORDS = 10); the spec says minWords 15 (docs/specs/protocol-core-v1.0.yaml:64)",
		Fix:     "Use the spec's bound (15 here), or change the spec if the code is right; a threshold that is the code's own policy (escalate below quality 0.5) lies within the spec's range and is never reported.",
	},
	{
		ID: "divergence/required-fields", Name: "RequiredFields", Severity: finding.Error,
		Title:   "A DELEGATE or HANDBACK validation requires other fields than the spec",
		What:    "A validation of a DELEGATE or HANDBACK (named validate/check/verify, with protocol evidence of the kind: its word, or what it requires and reads has the kind's shape, its id field and two core fields) refuses a message without certain fields, and they are not the spec's `required` fields. The required fields are read from tests of absence under a rejecting branch (`if \"x\" not in msg: raise`, `msg.get(\"x\") is None`, `if not msg.get(\"x\")`, `assert \"x\" in msg`; Go `if h.TaskID == \"\" { return err }`, `if _, ok := m[\"x\"]; !ok`), loops, comprehensions, `all`/`any` and set differences over a list of fields (`for f in REQUIRED: if f not in msg`, `not all(f in msg for f in REQUIRED)`, `REQUIRED - set(msg)`; the list a literal, a module constant or a class attribute; a list of the missing fields counts when the function rejects on it or returns it), the fields without a default of a dataclass or pydantic model the message is built into (`Handback(**msg)`, `Handback.model_validate(msg)`), the fields of a Go struct tagged `validate:\"required\"` that a validator checks (`v.Struct(h)`), and a JSON schema's `required` written in code and validated against. A field tested only when present (`if \"x\" in msg and not ...`) is optional. A set is judged only when it holds a required field of the kind and the kind's own fields are not outnumbered by fields the kind does not define (a handback of another protocol that requires task_id among a dozen fields of its own is no HANDBACK), and not in a function that requires the fields of both kinds. Requiring a field the spec does not require (one it does not define, an optional extension, or a field's former name from the spec's `formerly`, such as `role` for `agent`) is an error: a spec-valid message fails the check. Leaving out a field the spec requires is a warning, judged only for a validation that requires two or more of the spec's fields itself, is not named for one field (validate_plan), reads the field nowhere else in the function and hands the message to no other check. Members of one duplicate-validation cluster that require different fields get one more warning, at the first copy that differs from the canonical one (Options.Canonical), else from the copy that requires what the spec requires.",
		Why:     "The spec's required fields are the contract: a worker that insists on `deliverables` refuses every HANDBACK written to the protocol, one that still insists on `role` refuses every DELEGATE since the field became `agent`, and one that forgets `task_id` passes messages no one can route. Copies that require different fields accept a message in one service and refuse it in the next.",
		Example: "REQUIRED_FIELDS = [\"task_id\", \"status\", \"output\", \"deliverables\"]\ndef validate_handback(msg):\n    for f in REQUIRED_FIELDS:\n        if f not in msg:\n            raise ValueError(f)\ngives (error): validate_handback requires deliverables, which the protocol does not define: a spec-valid HANDBACK fails this check (it requires task_id, status, output, deliverables; the spec requires task_id, status, output, metrics)\nand (warning): validate_handback does not require metrics, which the spec requires: a HANDBACK without metrics passes this check",
		Fix:     "Require exactly the spec's required fields, spelled as the spec spells them (agent, not role), and check optional fields only when present; better, validate with the spec itself (protoscan validate, msgcheck) and call one validation from every entry point. If the repository's messages really carry more, add the field to the spec.",
	},
	{
		ID: "divergence/format", Name: "Format", Severity: finding.Error,
		Title:   "Code checks a protocol field's text against a format the spec's disagrees with",
		What:    "A validation matches a string field that the spec gives a pattern (a DELEGATE's or HANDBACK's task_id) with a regular expression of its own, and the two formats disagree: some value is accepted by one and rejected by the other. The check is a match whose failure rejects the value (if not ID_RE.fullmatch(d[\"task_id\"]): raise; if !taskIDRe.MatchString(d.TaskID) { return err }; an assert), in Python (re.match, re.fullmatch, re.search, a pattern compiled with re.compile, with its flags) or Go (regexp.MustCompile or regexp.Compile, MatchString), in a function or file with protocol evidence of the kind; or the `pattern` of the field's property under `properties` in a JSON schema written in code (a Python dict, a Go map), with its `minLength` and `maxLength`. The length bounds the same function holds the field to (len(task_id) > 64 then reject) are part of its format, as the spec's minLength and maxLength are of the spec's. Each side is read as its call matches it: fullmatch at both ends, re.match at the start only, re.search, MatchString and JSON Schema's pattern anywhere unless the pattern anchors itself; Python's dialect is translated where it differs from RE2 (\\d and \\w are Unicode, \\Z, {,n}). The finding names the shortest printable value one accepts and the other rejects, found by a bounded search over the two patterns' automata. A pattern matched against another record's field, an email or URL pattern, and a match that only routes are not reported. Where the spec gives the field no pattern, the canonical validation of the kind (`--canonical`, the config's `canonical`, else a module named after the protocol validator) is the reference: another validation that matches the field with a format of its own is reported with a value one accepts and the canonical one rejects, or the reverse.",
		Why:     "The spec is the contract between agents: a check stricter than the spec rejects valid messages another agent sends (a task id without a date prefix), one laxer lets through ids every other agent refuses.",
		Example: "TASK_ID_RE = re.compile(r\"^\\d{4}-\\d{2}-\\d{2}-[a-z0-9-]+$\")\ndef validate_delegate(d):\n    if not TASK_ID_RE.fullmatch(d[\"task_id\"]):\n        raise ValueError(\"bad task_id\")\ngives: `aaa` is a valid task_id that validate_delegate rejects: it matches task_id with TASK_ID_RE `^\\d{4}-\\d{2}-\\d{2}-[a-z0-9-]+$` (fullmatch); the spec's format is `^[a-z0-9][a-z0-9\\-]{1,48}[a-z0-9]$` (docs/specs/protocol-core-v1.0.yaml:17)",
		Fix:     "Use the spec's pattern and bounds (or validate with the spec itself: protoscan validate, msgcheck), or change the spec if the code's format is the protocol's.",
	},
	{
		ID: "divergence/format-unchecked", Name: "FormatUnchecked", Severity: finding.Note,
		Title:   "A check of a protocol field's format that cannot be compared with the spec's",
		What:    "A validation matches a field the spec gives a pattern with a regular expression that protoscan cannot read as RE2 reads it: lookaround, backreferences, possessive or atomic groups, verbose or computed flags, a Unicode word boundary in Python. The note names what stands in the way; the format is not compared.",
		Why:     "divergence/format is silent about such a check, which may disagree with the spec all the same: the note says that it was not judged.",
		Example: "if not re.fullmatch(r\"(?!-)[a-z0-9-]{3,50}(?<!-)\", d[\"task_id\"]):\ngives: validate_delegate's pattern for task_id is not compared with the spec's: RE2 has no Perl syntax: `(?!`",
		Fix:     "Write the pattern without lookaround (^[a-z0-9][a-z0-9-]{1,48}[a-z0-9]$ says the same), or suppress the note with a reason.",
	},

	// -------------------------------------------------------------------- audit
	// The checks of `protoscan audit`: what its report lists under each
	// check's name. Integrity problems do not set the exit code, invalid
	// messages do (malformed ones among them), and unreadable inputs
	// make it 2.
	{
		ID: "audit/cycle", Name: "AuditCycle", Severity: finding.Error,
		Title:   "DELEGATEs whose dependencies form a cycle",
		What:    "Following the `dependencies` of the queue's DELEGATEs from task to task comes back to where it started. DELEGATEs that depend on each other, through however many cycles, are one problem, placed at the one of them that comes first in the report (by path, then line); it names a cycle through that DELEGATE, every task of it up to five, else the first five and how many more.",
		Why:     "No task of a cycle can start before the others are done: a scheduler that honours dependencies leaves them all pending forever, one that does not runs them in an order the plan says is wrong.",
		Example: "queue/incoming/DELEGATE-a.yaml: cycle: dependency cycle: task-a-001 -> task-b-001 -> task-a-001",
		Fix:     "Remove the dependency that closes the cycle, or split the work so that one task can finish first. While any cycle is left among those DELEGATEs, the problem stays, naming one that is.",
	},
	{
		ID: "audit/duplicate", Name: "AuditDuplicate", Severity: finding.Error,
		Title:   "A task id used by two DELEGATEs or two HANDBACKs",
		What:    "Two DELEGATEs, or two HANDBACKs, carry the same `task_id`. Each later one is listed with the place of the first.",
		Why:     "A task id names one task: a second DELEGATE hands out the work twice or overwrites the first, a second HANDBACK reports a result twice, and which one a consumer sees depends on order.",
		Example: "queue/done/000147-HANDBACK.yaml: duplicate: task_id \"review-2c-19\" has another HANDBACK at queue/done/000048-HANDBACK.yaml",
		Fix:     "Give each task its own id (derive it from the parent id and a counter), and make a retry update the task instead of sending a second message.",
	},
	{
		ID: "audit/malformed", Name: "AuditMalformed", Severity: finding.Error,
		Title:   "A message that cannot be decoded",
		What:    "A JSON Lines line or a message file is not valid JSON or YAML: a syntax error, a truncated file, nesting too deep, an alias bomb, or invalid UTF-8 (which the audit does not replace with U+FFFD). It counts as a malformed message (neither valid nor invalid: the audit's totals add up to valid + invalid + malformed), at its line; in a file of several YAML documents it is the one document, and the documents after it are audited. A JSON object with a key given twice is malformed too, as `protoscan validate` says.",
		Why:     "A consumer cannot read the message either: the task it carries is lost, or read differently by decoders that repair bytes.",
		Example: "log.jsonl:4: malformed: not a JSON message: offset 42: invalid UTF-8 in string literal",
		Fix:     "Fix the producer that wrote it (encode as UTF-8, write whole messages, one per line), then repair or requeue the message.",
	},
	{
		ID: "audit/orphan", Name: "AuditOrphan", Severity: finding.Warning,
		Title:   "A HANDBACK that answers no DELEGATE",
		What:    "A HANDBACK's `task_id` matches no DELEGATE of the audited inputs.",
		Why:     "Nobody asked for this result, or the DELEGATE that did was lost or carries another id: the result is never picked up.",
		Example: "queue/done/000066-HANDBACK.yaml: orphan: HANDBACK \"migrate-wi4-1g\" answers no DELEGATE",
		Fix:     "Audit the DELEGATEs together with their HANDBACKs (both folders, or both logs); if they are all there, find why the ids differ (a renamed task, a typo).",
	},
	{
		ID: "audit/pending", Name: "AuditPending", Severity: finding.Note,
		Title:   "A DELEGATE with no HANDBACK yet",
		What:    "A DELEGATE has no HANDBACK with its `task_id` among the audited inputs. The queue folder it sits in is named when the layout shows one.",
		Why:     "Work in flight is normal in a live queue; a DELEGATE pending for long, or in a folder of finished work, is a task that was dropped.",
		Example: "queue/incoming/DELEGATE-b.yaml: pending: DELEGATE \"task-b-001\" has no HANDBACK yet (in queue/incoming)",
		Fix:     "Nothing, if the task is in progress; else requeue it or hand back a failure, so that its parent can go on.",
	},
	{
		ID: "audit/unfinished-in-done", Name: "AuditUnfinishedInDone", Severity: finding.Warning,
		Title:   "A HANDBACK in a done folder whose status does not finish the task",
		What:    "A HANDBACK sits under a folder named done, but its status is not one that ends a task: partial, blocked, or a value that is not a status of the spec (a drifted spelling such as done or SUCCESS).",
		Why:     "Whatever moves messages to done treats the task as finished, while its HANDBACK says it is not: the rest of the work is silently dropped.",
		Example: "queue/done/a-HANDBACK.json: unfinished-in-done: HANDBACK \"task-a-001\" is in a done folder with status \"partial\"",
		Fix:     "Move the message back to the queue it came from, or fix the status if the task did finish; check the code that files HANDBACKs under done.",
	},
	{
		ID: "audit/unknown-reference", Name: "AuditUnknownReference", Severity: finding.Warning,
		Title:   "A reference to a task the queue does not hold",
		What:    "A message's `parent_task_id`, one of its `dependencies` or one of its `children_created` names a task id that no message of the audited inputs carries (a reference alone does not make a task known).",
		Why:     "A task that waits for an unknown dependency never starts; a child or parent that does not exist breaks the task tree that escalation and reporting walk.",
		Example: "queue/incoming/DELEGATE-b.yaml: unknown-reference: parent_task_id of \"task-b-001\" names unknown task \"task-nope-001\"",
		Fix:     "Audit the whole queue (all its folders and logs), or correct the id; a reference to a task of another system is better kept in an extension field.",
	},
	{
		ID: "audit/unreadable", Name: "AuditUnreadable", Severity: finding.Error,
		Title:   "An input of the audit could not be read",
		What:    "A path given to `protoscan audit`, or a file under it, could not be read: it does not exist, permission is denied, it is over the size limit (16 MiB for a message file or a JSON Lines line), or it is a symbolic link that cannot be followed (broken, a loop) or that points to a directory outside the audited tree (links are not followed into directories; a link to a file or directory inside the tree is passed over, as its target is audited at its own path). The audit goes on without it and exits 2.",
		Why:     "The audit is incomplete: its totals and integrity checks leave out whatever the input held.",
		Example: "missing-path: unreadable: stat missing-path: no such file or directory",
		Fix:     "Fix the path or the permissions; split a message over the limit, or move large payloads out of the message.",
	},

	// ---------------------------------------------------------------- protoscan
	{
		ID: "protoscan/too-large", Name: "TooLarge", Severity: finding.Warning,
		Title:   "A file over the size limit was not scanned",
		What:    "A file of a language protoscan reads is larger than --max-file-size (default 2 MiB) and was skipped. Large files of other types are not reported.",
		Why:     "Nothing in the file was checked; a generated fixture or a vendored module may hide findings. The notice makes the gap visible instead of silently dropping the file.",
		Example: "data/fixtures.json: file is 3.1 MiB, over the 2 MiB limit; raise --max-file-size to scan it",
		Fix:     "Raise --max-file-size if the file should be scanned, or exclude it (--exclude GLOB, or exclude in .protoscan.yaml) if it should not.",
	},
	{
		ID: "protoscan/unreadable", Name: "Unreadable", Severity: finding.Warning,
		Title:   "A file or directory could not be read",
		What:    "A file, a directory, a symbolic link or an ignore file (.gitignore, .git/info/exclude) could not be read: permission denied, an I/O error, a file that vanished during the scan. The rest of the scan goes on.",
		Why:     "What could not be read was not checked (for an ignore file: its patterns were not applied, so more files may have been scanned than intended).",
		Example: "secrets/handback.yaml: cannot open file: permission denied",
		Fix:     "Fix the permissions or the file, or exclude the path if it should not be scanned.",
	},
	{
		ID: "protoscan/parse-error", Name: "ParseError", Severity: finding.Warning,
		Title:   "A part of a file could not be parsed",
		What:    "A source file has a syntax error, or a part over a parser's limits (nesting deeper than 1000, aliases that expand a YAML document by more than 1,000,000 nodes). Each YAML document, JSON value, JSON Lines line and YAML or JSON block of a Markdown file is read on its own: a broken one is reported once, at its line (and column when the parser gives one), and the file's other parts are checked as usual. A broken part whose text looks like a protocol message (it holds handoff_type, a wrapper key such as NEXUS_HANDOFF_V2, a kind's name in capitals such as HANDBACK, or the fields that make a message of a kind) is an error; any other broken part is a warning. A YAML or JSON block of a Markdown file that does not parse is an example in prose, and is reported only when it looks like a message by its marker, its kind's name, or a kind's fields written as the block's own top-level keys (the task_id and status of records nested in a checklist do not count); a block without a language never is. A Go or Python file that does not parse is one warning for the whole file. A YAML file with a line that starts with a template action (Helm's {{- include ... }}, Jinja's {% if %}) is YAML only once rendered, and is not reported.",
		Why:     "The scan cannot vouch for a part it could not parse. A message that cannot be read cannot be valid: if it only warned, a malformed message, or one nested past the depth limit, would pass the gate that its well-formed but wrong version fails.",
		Example: "queue/handbacks.jsonl:2:47: error: cannot parse this JSON Lines line, which looks like a protocol message, so it was not checked: invalid character ',' looking for beginning of object key string\nci/workflow.yaml:9: warning: cannot parse this YAML document, findings in it may be missing: did not find expected ',' or ']'",
		Fix:     "Fix the syntax error at the place given, or exclude the file if it is a deliberately broken fixture (or suppress the finding with a reason).",
	},
	{
		ID: "protoscan/spec-error", Name: "SpecError", Severity: finding.Error,
		Title:   "A spec of the scanned tree could not be loaded",
		What:    "A spec protoscan found in the scanned tree (docs/specs/protocol-core-v*.yaml, docs/specs/nexus-handoff-v2*.yaml, or the spec that the tree's own .protoscan.yaml names) cannot be loaded: it is not YAML, has an unknown key or a bad schema, is over 4 MiB, or is a link out of the tree or to something other than a regular file. The scan says so on stderr, uses the embedded spec of that protocol instead, and runs every analyzer. A protocol-core spec of the tree that loads but has no HANDBACK status enum (a spec of DELEGATE alone) is reported too: msgcheck uses it, enumdrift judges statuses by the embedded spec's. A spec named with --spec, or by a config given with --config, is the user's choice: that one failing ends the run with exit 2, as it does for validate and audit.",
		Why:     "The repository's own protocol was not the one its code and messages were checked against: findings follow the embedded spec, which may differ from the repository's (other agents, statuses, thresholds). An error, so that CI does not pass on a spec nobody can load, while the rest of the report still arrives.",
		Example: "docs/specs/protocol-core-v1.1.yaml:11:7: error: cannot load the spec: unknown keyword \"minWrods\" [protoscan/spec-error]",
		Fix:     "Fix the spec at the place given (`protoscan spec --root DIR` loads it and prints every problem), or remove it to use the embedded spec.",
	},
	{
		ID: "protoscan/spec-warning", Name: "SpecWarning", Severity: finding.Warning,
		Title:   "A spec of the scanned tree uses a JSON Schema keyword protoscan does not enforce",
		What:    "A spec in the scanned tree loaded, but it uses a keyword of JSON Schema (draft-07, 2019-09 or 2020-12) that protoscan does not check, such as if/then/else, multipleOf or dependentRequired. Messages are validated without it. validate, audit and spec print the same warning on stderr.",
		Why:     "The spec's author expects the keyword to hold; protoscan passing a message does not say it does.",
		Example: "docs/specs/protocol-core-v1.0.yaml:40:9: warning: JSON Schema keyword \"if\" on message kind \"delegate\" is not enforced by protoscan (ignored) [protoscan/spec-warning]",
		Fix:     "Express the constraint with what protoscan enforces (required, enum, pattern, minimum, minWords, x-protoscan-validations CEL rules), or accept that it is documentation only.",
	},
	{
		ID: "protoscan/binary", Name: "Binary", Severity: finding.Note,
		Title:   "A binary file with a source file name was not scanned",
		What:    "A file named like a source file (.py, .go, .yaml, .json, .md...) holds binary data (NUL bytes in its head) and was skipped.",
		Why:     "It is probably a mis-named or corrupt file; either way nothing in it was checked.",
		Example: "fixtures/handback.json: binary file with a source file name; not scanned",
		Fix:     "Rename or remove the file, or exclude it.",
	},
	{
		ID: "protoscan/minified", Name: "Minified", Severity: finding.Note,
		Title:   "A minified or bundled file was not scanned",
		What:    "A TypeScript or JavaScript file is minified or bundled: it is named *.min.js (.min.mjs, .min.cjs), or has a line longer than 1,000 bytes. It was skipped. Only a file that the scan would have read (its text has the words of a protocol) is reported; dist/ and build/ directories are scanned as any other unless excluded.",
		Why:     "A bundle repeats the code it was built from, so its findings would be the source's again, at places nobody edits; minified code cannot be fixed where it stands. The notice says the file was left out rather than dropping it silently.",
		Example: "dist/agent.js: minified or bundled file; not scanned",
		Fix:     "Nothing to do when the file is built from sources the scan reads; exclude it (--exclude GLOB, or exclude in .protoscan.yaml) to silence the note.",
	},
	{
		ID: "protoscan/symlink-outside-root", Name: "SymlinkOutsideRoot", Severity: finding.Warning,
		Title:   "A symbolic link points outside the scan root",
		What:    "A symbolic link under the scan root points to a file or directory outside it. protoscan never follows links, so the target was not scanned.",
		Why:     "Following links out of the root is how scans wander into the whole file system; not following them means the target's content is not checked here.",
		Example: "specs: symbolic link to \"../shared/specs\" points outside the scan root; not followed",
		Fix:     "Scan the target directory itself (protoscan PATH accepts several paths), or replace the link with a copy or a submodule.",
	},
	{
		ID: "protoscan/symlink-loop", Name: "SymlinkLoop", Severity: finding.Warning,
		Title:   "A symbolic link forms a loop",
		What:    "A symbolic link points to a directory that contains it, or is part of a cycle of links. It was not followed.",
		Why:     "Following it would walk the same files forever; such links are usually mistakes.",
		Example: "docs/self: symbolic link to \"..\" points to a directory that contains it; following it would loop",
		Fix:     "Remove the link, or exclude it if it is deliberate.",
	},
	{
		ID: "protoscan/symlink-broken", Name: "SymlinkBroken", Severity: finding.Warning,
		Title:   "A symbolic link points to nothing",
		What:    "A symbolic link's target does not exist or cannot be resolved.",
		Why:     "Whatever the link was meant to provide (a shared spec, fixtures) is missing, for protoscan and for the project.",
		Example: "docs/specs/current.yaml: symbolic link to \"protocol-core-v2.0.yaml\" points to nothing",
		Fix:     "Point the link at an existing file, or remove it.",
	},
	{
		ID: "protoscan/symlink-skipped", Name: "SymlinkSkipped", Severity: finding.Note,
		Title:   "A symbolic link to a path inside the root was not followed",
		What:    "A symbolic link points inside the scan root. It is not followed; its target is scanned at its own path instead.",
		Why:     "Informational: the content is scanned once, under its real path, so findings are not duplicated.",
		Example: "latest: symbolic link to \"v2\" not followed: its target \"v2\" is walked at its own path",
		Fix:     "Nothing to do. Exclude the link to silence the note.",
	},
	{
		ID: "protoscan/unused-suppression", Name: "UnusedSuppression", Severity: finding.Warning,
		Title:   "A suppression comment that suppresses nothing",
		What:    "A `protoscan:ignore RULE -- reason` comment matched no finding of its rules (ids or globs such as enumdrift/*) on the line it applies to: its own line when it trails code, else the next line of code. For `protoscan:file-ignore`, no finding of its rules anywhere in the file.",
		Why:     "A stale suppression hides the next finding of its rule at that place without anyone deciding to; a misspelled rule id suppresses nothing at all and misleads the reader.",
		Example: "# protoscan:ignore enumdrift/legacy-status -- kept for v0 clients\nSTATUS_FAILURE = \"failure\"   # already canonical: nothing to suppress",
		Fix:     "Remove the comment, or correct its rule id (protoscan rules lists them) or its place: at the end of the flagged line, or on a line of its own above it.",
	},
	{
		ID: "protoscan/suppression-without-reason", Name: "SuppressionWithoutReason", Severity: finding.Warning,
		Title:   "A suppression comment without a reason",
		What:    "A `protoscan:ignore RULE` or `protoscan:file-ignore RULE` comment lacks the required ` -- reason` after its rules. Such a comment suppresses nothing.",
		Why:     "A suppression is a decision someone will have to revisit; without the reason nobody can tell whether it still holds, so protoscan does not honour it.",
		Example: "status: failed  # protoscan:ignore enumdrift/legacy-status",
		Fix:     "Say why after two dashes: `# protoscan:ignore enumdrift/legacy-status -- v0 clients still send it`.",
	},
	{
		ID: "protoscan/suppression-bad-glob", Name: "SuppressionBadGlob", Severity: finding.Warning,
		Title:   "A suppression comment with a rule glob over the caps",
		What:    "A rule glob of a `protoscan:ignore` or `protoscan:file-ignore` comment is longer than 256 bytes, or its braces expand to more than 64 patterns ({a,b}{c,d} is 4). That glob suppresses nothing; the comment's other rules still apply.",
		Why:     "Globs come with the tree under review, and braces multiply: a few hundred bytes of {*,*} groups would cost a glob matcher hours. Every glob protoscan takes from the tree is held to the same caps, so matching stays linear in the glob and the rule id.",
		Example: "# protoscan:file-ignore enumdrift/{*,*}{*,*}{*,*}{*,*}{*,*}{*,*}{*,*}x -- legacy",
		Fix:     "Name the rules, or write a shorter glob: enumdrift/* covers every enumdrift rule.",
	},
	{
		ID: "protoscan/gate-changed", Name: "GateChanged", Severity: finding.Note,
		Title:   "The change under review edits what governs the gate",
		What:    "With --new-from-rev, the change since the merge base edits the scanned tree's .protoscan.yaml (or the config --config names inside the tree), a protocol spec (docs/specs/protocol-core-v*.yaml, docs/specs/nexus-handoff-v2*.yaml, one the config names, or one the scan used), or adds or changes a protoscan:ignore or protoscan:file-ignore comment with a reason. The note is at the first changed line of the file, or at the comment, and says how many findings the comment hides.",
		Why:     "A pull request can turn a failing gate green without touching a finding: turn rules off, lower severities or fail-on, add synonyms, ship a spec that accepts what the old one refused, or hide findings with a comment. Each of those is a change a reviewer should see. No suppression comment hides this note, and a config of the tree under review cannot turn it off; a config given with --config or read with --config-from-rev can change its severity (error makes such a change fail the gate).",
		Example: ".protoscan.yaml:3: note: this change edits .protoscan.yaml, the config that governs the gate (lines 3-4) [protoscan/gate-changed]\nqueue/h.yaml:1:3: note: new suppression comment: protoscan:ignore enumdrift/legacy-status hides 1 finding here [protoscan/gate-changed]",
		Fix:     "Review the change to the gate as carefully as code. In CI, scan with --config-from-rev set to the pull request's base (the Action does), so that the change does not govern its own gate.",
	},

	// ------------------------------------------------------- msgcheck, fixed ids
	{
		ID: "msgcheck/not-a-message", Name: "NotAMessage", Severity: finding.Error,
		Title:   "A message that is not a mapping of fields",
		What:    "A document given to msgcheck as a message is a list, a string, a number or null instead of a mapping of field names to values.",
		Why:     "No protocol message can be anything but a mapping; the input is probably not a message or is malformed.",
		Example: "- 1\n- 2\ngives: message must be a mapping of fields (got array)",
		Fix:     "Write the message as a mapping (a YAML mapping or a JSON object), or do not pass the file as a message.",
	},
	{
		ID: "msgcheck/schema-budget", Name: "SchemaBudget", Severity: finding.Warning,
		Title:   "The spec's schemas take too many checks on a message",
		What:    "Checking the message took more than 2,097,152 schema checks, and stopped there: the rest of the message is not checked. A spec can do this with a schema that applies two schemas to a value and, under a property, refers back to itself: each level of a nested message doubles the work.",
		Why:     "A spec in the tree under review must not make one message cost minutes; a real message takes a few hundred checks.",
		Example: "definitions:\n  node:\n    allOf:\n      - {properties: {p: {$ref: '#/definitions/node'}}}\n      - {properties: {p: {$ref: '#/definitions/node'}}}\nand a message nested 40 levels under p\ngives: the spec's schemas take more than 2097152 checks on this message; the rest of it is not checked",
		Fix:     "Write the spec so that one schema applies to each value (merge the allOf branches, or refer back from one of them only).",
	},
	{
		ID: "msgcheck/unknown-kind", Name: "UnknownKind", Severity: finding.Error,
		Title:   "The message kind cannot be determined",
		What:    "Either the kind named for a message (--delegate, --handback, or by a library caller) is not defined by the spec, or no kind was named and the message has the signature fields of no kind (a DELEGATE has task_id and scope, a HANDBACK task_id and status).",
		Why:     "Without a kind there are no field rules to check the message against, so it cannot be judged valid.",
		Example: "foo: 1\ngives: cannot tell the message kind: a DELEGATE has task_id, scope; a HANDBACK has task_id, status; name the kind to validate it anyway",
		Fix:     "Add the signature fields the message lacks, name the kind explicitly (protoscan validate --delegate F), or use a spec that defines the kind.",
	},
	{
		ID: "msgcheck/unknown-spec-version", Name: "UnknownSpecVersion", Severity: finding.Warning,
		Title:   "A message names a spec version that is not loaded",
		What:    "The message's protocol_version (or spec_version) names a version of the spec that is not among the loaded specs; the message is checked against the default spec instead.",
		Why:     "The message may follow rules the default spec does not have, or lack rules it does: its findings may be wrong.",
		Example: "protocol_version: \"9.9\"\ngives: protocol_version: spec version '9.9' is not loaded (checked against 1.0)",
		Fix:     "Fix the version in the message, or make that spec version available (docs/specs/protocol-core-v<version>.yaml under the repository root, or --spec).",
	},
	// the phase verdict contract (phase/, spec phase-verdict-v1.yaml): fail-closed
	{
		ID: "msgcheck/phase_verdict-unparsable", Name: "PhaseVerdictUnparsable", Severity: finding.Error,
		Title:   "Phase verdict text that is not a JSON verdict and nothing else",
		What:    "A phase verdict (protoscan validate --verdict F) is empty, is not JSON, has text before or after the JSON object, is wrapped in a ``` fence, or repeats a key. The verdict contract is read fail-closed: such a verdict counts as a fail.",
		Why:     "An orchestrator that cannot parse a judge's verdict must not guess: treating an unreadable verdict as a pass would advance a phase nobody judged.",
		Example: "```json\n{\"verdict\": \"pass\", ...}\n```\ngives: verdict is wrapped in a ``` fence: a verdict is one JSON object and nothing else (no prose, no ``` fence); treated as fail",
		Fix:     "Have the judge answer with the JSON object only (or pass the verdict schema to a runner that enforces structured output); `protoscan phase` writes such verdicts.",
	},
	{
		ID: "msgcheck/phase_verdict-pass-failed", Name: "PhaseVerdictPassFailed", Severity: finding.Error,
		Title:   "A phase verdict that passes while listing failed conditions",
		What:    "A phase verdict says verdict: pass but its conditions_failed list is not empty. A rule of the embedded phase-verdict spec.",
		Why:     "A pass means every non-manual exit condition had evidence; a failed condition beside it makes the verdict contradict itself, and a reader cannot tell which half to believe.",
		Example: "{\"verdict\": \"pass\", \"conditions_failed\": [\"command_passes: npm test — not run\"], ...}\ngives: verdict: 'pass' while conditions_failed is not empty (a pass has no failed condition)",
		Fix:     "Make the verdict fail, or move conditions with weak evidence to warnings instead of conditions_failed.",
	},
	{
		ID: "msgcheck/phase_verdict-fail-empty", Name: "PhaseVerdictFailEmpty", Severity: finding.Error,
		Title:   "A phase verdict that fails without naming what failed",
		What:    "A phase verdict says verdict: fail but its conditions_failed list is empty. A rule of the embedded phase-verdict spec.",
		Why:     "A fail without reasons cannot be acted on: the next attempt of the phase does not know what to fix.",
		Example: "{\"verdict\": \"fail\", \"conditions_failed\": [], ...}\ngives: conditions_failed: empty while verdict is 'fail' (a fail names what failed, or 'no HANDOFF provided')",
		Fix:     "List each failed condition with what is missing, or [\"no HANDOFF provided\"] when there was no HANDOFF.",
	},
	{
		ID: "msgcheck/phase_verdict-miscount", Name: "PhaseVerdictMiscount", Severity: finding.Error,
		Title:   "A phase verdict that lists more conditions than it checked",
		What:    "conditions_met and conditions_failed of a phase verdict together hold more entries than conditions_checked counts (the one exception: conditions_failed is exactly [\"no HANDOFF provided\"]). A rule of the embedded phase-verdict spec.",
		Why:     "The count is how a reader sees that every exit condition was judged; entries beyond it mean the verdict was assembled wrongly or edited by hand.",
		Example: "{\"conditions_checked\": 1, \"conditions_met\": [\"a\", \"b\"], ...}\ngives: conditions_checked: fewer than the conditions listed in conditions_met and conditions_failed",
		Fix:     "Set conditions_checked to the number of exit conditions judged, each listed once in conditions_met or conditions_failed.",
	},

	// the layered pipeline (msgcheck/pipeline; protoscan validate --events):
	// the reasons of a rejection, as its events name them
	{
		ID: "msgcheck/pipeline-transition", Name: "PipelineTransition", Severity: finding.Error,
		Title:   "A message kind the pipeline does not allow at this point",
		What:    "The routing stage of the layered pipeline rejects a message whose kind may not follow the previous stage: the spec's pipeline.transitions lists, for each stage, the kinds that may come next (protocol-core: a DELEGATE starts, a HANDBACK follows a DELEGATE).",
		Why:     "A HANDBACK nobody delegated, or a handoff out of order, is work the orchestrator did not ask for: accepting it corrupts the task graph.",
		Example: "a HANDBACK validated from the start stage\ngives: transition start -> handback is not allowed (from start the spec allows delegate)",
		Fix:     "Send the messages in the order the spec's pipeline section allows, or add the transition to the repository's spec if it is legitimate.",
	},
	{
		ID: "msgcheck/pipeline-unknown-stage", Name: "PipelineUnknownStage", Severity: finding.Error,
		Title:   "A message that moves on from a stage the pipeline does not have",
		What:    "The routing stage rejects a message said to follow a stage that is neither start nor a kind of the spec's pipeline section.",
		Why:     "Without a known previous stage no transition rule can be checked; guessing would let any message through.",
		Example: "--events with a previous stage 'review'\ngives: unknown stage \"review\" to move on from (the pipeline has start, delegate, handback)",
		Fix:     "Name a stage the spec's pipeline.transitions defines.",
	},
	{
		ID: "msgcheck/pipeline-denied", Name: "PipelineDenied", Severity: finding.Error,
		Title:   "A message an approval rule of the spec denies",
		What:    "The approval stage matched an approval rule of tier deny (the spec's pipeline.approval): the message is rejected, whatever its validity.",
		Why:     "Some actions are never to be taken automatically nor approved case by case; the spec says which.",
		Example: "approval: [{name: no-prod, tier: deny, kind: delegate, when: {environment: production}, message: production changes go through change control}]\ngives: denied by approval rule \"no-prod\": production changes go through change control",
		Fix:     "Route the work the way the rule's message says, or change the approval rule in the repository's spec.",
	},
	{
		ID: "msgcheck/pipeline-system-error", Name: "PipelineSystemError", Severity: finding.Error,
		Title:   "A validator failed or panicked: the message is rejected",
		What:    "A stage of the layered pipeline could not finish: a semantic validator returned an error or panicked, or the run was cancelled. The message is rejected with a system error; nothing is ever partially accepted.",
		Why:     "A check that did not run has not passed: failing closed keeps a broken validator from waving messages through.",
		Example: "a semantic validator that panics\ngives: system error: validator \"custom\" panicked: index out of range",
		Fix:     "Fix the validator (the event log names it), then validate the message again.",
	},
	{
		ID: "msgcheck/semantic-hallucinated-path", Name: "SemanticHallucinatedPath", Severity: finding.Error,
		Title:   "A message claims a file that does not exist in the repository",
		What:    "A path the message names (in a path-like field, or a file name in its prose: artifacts, files changed, output) does not exist in the frozen snapshot of the repository the pipeline was given.",
		Why:     "Agents hallucinate: a HANDBACK that claims src/parser.py when no such file exists did not do the work it reports.",
		Example: "artifacts: [src/parsr.py]\ngives: artifacts[0]: file 'src/parsr.py' does not exist in the repository",
		Fix:     "Check what the agent actually wrote; correct the path or redo the work.",
	},
	{
		ID: "msgcheck/semantic-path-outside-root", Name: "SemanticPathOutsideRoot", Severity: finding.Error,
		Title:   "A message names a path outside the repository",
		What:    "A path the message names is absolute outside the repository, climbs out of it with .., or leads out through a symlink.",
		Why:     "Work reported outside the repository cannot be checked and is often a sign of an agent touching what it should not.",
		Example: "artifacts: [../../etc/passwd]\ngives: artifacts[0]: path '../../etc/passwd' is outside the repository",
		Fix:     "Keep the work, and the paths reported, inside the repository.",
	},
	{
		ID: "msgcheck/semantic-unsafe-command", Name: "SemanticUnsafeCommand", Severity: finding.Error,
		Title:   "A plan holds an unsafe shell command",
		What:    "A string under plan, steps, commands, command, cmd, script, scripts, run or shell is a recursive rm of /, ~ or $HOME, a download piped or substituted into a shell (curl ... | sh), or chmod 777.",
		Why:     "An agent that executes its plan executes these too: one line destroys a machine or runs code nobody reviewed.",
		Example: "plan: [\"Clean up with sudo rm -rf / --no-preserve-root\"]\ngives: plan[0]: unsafe command 'Clean up with sudo rm -rf / --no-preserve-root': deletes the whole file system or the home directory",
		Fix:     "Name the exact directory to remove, download then review scripts before running them, and grant only the permissions needed.",
	},
	{
		ID: "msgcheck/semantic-credential-in-command", Name: "SemanticCredentialInCommand", Severity: finding.Error,
		Title:   "A plan writes a credential into a command",
		What:    "A command in the plan carries a secret: PASSWORD=..., --token ..., a URL with user:password@, an Authorization header, or a GitHub, OpenAI, AWS or Slack token. The finding never repeats the value.",
		Why:     "Messages are logged, queued and shown to people: a secret in one is leaked.",
		Example: "plan: [\"curl -H 'Authorization: Bearer sk-...' https://api\"]\ngives: plan[0]: credential in command (an Authorization header): pass secrets through the environment or a secret store",
		Fix:     "Read secrets from the environment or a secret store at run time, and rotate the leaked one.",
	},
	{
		ID: "msgcheck/semantic-contradictory-claim", Name: "SemanticContradictoryClaim", Severity: finding.Error,
		Title:   "A message claims success beside failing evidence",
		What:    "The status says success (SUCCESS, success, complete...) while the message's own criteria, checks or tests report a failure.",
		Why:     "A contradictory HANDBACK routes failed work as done; the failure it admits is then never fixed.",
		Example: "status: success, success_criteria_met: {tests: false}\ngives: criterion 'tests' is not met, yet status is 'success'",
		Fix:     "Report the status the evidence supports (partial or failure), or fix what failed.",
	},

	// ---------------------------------------------- msgcheck, generated families
	{
		ID: "msgcheck/*-required", Name: "FieldRequired", Severity: finding.Error,
		Title:   "A required field is missing",
		What:    "A field the spec lists as required for the message kind (or a required property of a nested object) is absent. The id names the kind and the field path: msgcheck/delegate-scope-required, msgcheck/handback-metrics-quality-required.",
		Why:     "Consumers rely on required fields being present; a message without them is rejected or crashes the agent that reads it.",
		Example: "a HANDBACK whose metrics lack quality\ngives: metrics.quality: required field is missing [msgcheck/handback-metrics-quality-required]",
		Fix:     "Add the field with a valid value (protoscan spec shows what the spec expects).",
	},
	{
		ID: "msgcheck/*-type", Name: "FieldType", Severity: finding.Error,
		Title:   "A field has the wrong type",
		What:    "A field's value is not of the JSON type the spec requires (string, number, integer, boolean, array, object, null), or of none of the types of its alternatives (oneOf/anyOf). A violation of a core field is an error, of an extension field a warning.",
		Why:     "Typed consumers fail to decode the message, or silently read zero values.",
		Example: "metrics: {tokens: \"10\"}\ngives: metrics.tokens: must be an integer (got string) [msgcheck/handback-metrics-tokens-type]",
		Fix:     "Write the value with the type the message shows (unquote numbers, wrap single items in a list...).",
	},
	{
		ID: "msgcheck/*-format", Name: "FieldFormat", Severity: finding.Error,
		Title:   "A string does not match the field's pattern",
		What:    "A string field does not match the regular expression (`pattern`) the spec gives it; the message is the spec's errorMessage when it has one.",
		Why:     "Identifiers that break their format (task ids that are not kebab-case) break file names, routing keys and lookups that assume it.",
		Example: "task_id: TaskID001\ngives: task_id: must be kebab-case, 3-50 chars (got 'TaskID001') [msgcheck/delegate-task-id-format]",
		Fix:     "Rewrite the value to the format the message describes.",
	},
	{
		ID: "msgcheck/*-length", Name: "FieldLength", Severity: finding.Error,
		Title:   "A string is too short or too long",
		What:    "A string field has fewer characters than the spec's minLength or more than its maxLength.",
		Why:     "Empty or truncated values carry no information; oversized ones overflow prompts and storage.",
		Example: "skill: \"\"\ngives: skill: must be at least 1 character (got '') [msgcheck/delegate-skill-length]",
		Fix:     "Give the field a value within the length bounds.",
	},
	{
		ID: "msgcheck/*-words", Name: "FieldWords", Severity: finding.Error,
		Title:   "A text has fewer words than the spec requires",
		What:    "A string field (or each item of a list of strings) has fewer words than the spec's minWords; every Unicode space separates words.",
		Why:     "A scope or plan step of a few words is too vague for the receiving agent to act on; the minimum forces a task description it can carry out and be judged against.",
		Example: "scope: fix it\ngives: scope: must be >=15 words (2 provided) [msgcheck/delegate-scope-words]",
		Fix:     "Describe what will be done to what, in at least the number of words the message names.",
	},
	{
		ID: "msgcheck/*-range", Name: "FieldRange", Severity: finding.Error,
		Title:   "A number is out of range",
		What:    "A numeric field is below the spec's minimum (or exclusiveMinimum) or above its maximum (or exclusiveMaximum).",
		Why:     "Out-of-range figures (a quality of 1.5, negative tokens) corrupt the decisions and the statistics built on them.",
		Example: "metrics: {quality: 1.5}\ngives: metrics.quality: must be 0.0-1.0 (got 1.5) [msgcheck/handback-metrics-quality-range]",
		Fix:     "Report the value on the scale the spec defines (quality is 0.0-1.0, not a percentage).",
	},
	{
		ID: "msgcheck/*-items", Name: "FieldItems", Severity: finding.Error,
		Title:   "A list has too few or too many items",
		What:    "An array field has fewer items than the spec's minItems or more than its maxItems.",
		Why:     "An empty success_criteria or a one-step plan leaves the receiving agent without a definition of done or a plan.",
		Example: "success_criteria: []\ngives: success_criteria: must have >=1 items (0 provided) [msgcheck/delegate-success-criteria-items]",
		Fix:     "Give the list the number of items the message names.",
	},
	{
		ID: "msgcheck/*-unique", Name: "FieldUnique", Severity: finding.Error,
		Title:   "A list repeats an item",
		What:    "An array field whose items the spec requires to be unique (uniqueItems) holds the same item twice.",
		Why:     "Duplicates in lists of ids (dependencies, children) double-count work or create self-loops.",
		Example: "dependencies: [setup-db, setup-db]\ngives: dependencies[1]: repeats item 0 ('setup-db') [msgcheck/delegate-dependencies-unique]",
		Fix:     "Remove the repeated item.",
	},
	{
		ID: "msgcheck/*-enum", Name: "FieldEnum", Severity: finding.Error,
		Title:   "A value is not one of the allowed values",
		What:    "A field's value is not in the enum the spec gives it. When the value is a legacy alias listed under the spec's `aliases`, the message says which canonical value it stands for. In a scan that also runs enumdrift, a value enumdrift judges (a drifted or unknown HANDBACK status, a legacy spelling of another enum) is one problem reported once, under the enumdrift rule, which offers the fix; the summary counts it under that rule, and this id stays an alias of it: the configuration's `rules` and protoscan:ignore comments that name this id apply to that finding too.",
		Why:     "Consumers match enumerated values exactly: an unknown agent is never dispatched, an unknown status never routed.",
		Example: "status: failed\ngives: status: invalid status 'failed' (legacy alias of 'failure'; must be one of [success, failure, partial, blocked, escalate]) [msgcheck/handback-status-enum]",
		Fix:     "Use one of the values the message lists (the canonical one for a legacy alias).",
	},
	{
		ID: "msgcheck/*-const", Name: "FieldConst", Severity: finding.Error,
		Title:   "A value differs from the one value allowed",
		What:    "A field the spec fixes to a single value (`const`) holds another value.",
		Why:     "Constant fields (a protocol name, a message type tag) identify the message; a different value means it is not the message it claims to be.",
		Example: "protocol: core\ngives: protocol: must be 'protocol-core' [msgcheck/delegate-protocol-const]",
		Fix:     "Write the value the message names.",
	},
	{
		ID: "msgcheck/*-one-of", Name: "FieldOneOf", Severity: finding.Error,
		Title:   "A value matches none, or more than one, of its alternatives",
		What:    "A field whose schema is a oneOf matches several alternatives, or fits the types of several but matches none. (When exactly one alternative fits the value's type, its own finding is reported instead.)",
		Why:     "oneOf fields are read by picking the one alternative that applies; with none or several, a consumer cannot tell how to read the value.",
		Example: "context: a oneOf of a string of 20 words or a list of strings\ngives: context: matches 2 alternatives, must match exactly one [msgcheck/delegate-context-one-of]",
		Fix:     "Rewrite the value so that it is exactly one of the alternatives the spec describes (protoscan spec shows them).",
	},
	{
		ID: "msgcheck/*-any-of", Name: "FieldAnyOf", Severity: finding.Error,
		Title:   "A value matches none of its alternatives",
		What:    "A field whose schema is an anyOf fits the types of several alternatives but matches none of them.",
		Why:     "The value is of none of the forms consumers accept.",
		Example: "budget: a string or an object of one form or another\ngives: budget: must match one of the 2 alternatives (matches none) [msgcheck/delegate-budget-any-of]",
		Fix:     "Rewrite the value in one of the forms the spec describes (protoscan spec shows them).",
	},
	{
		ID: "msgcheck/*-not", Name: "FieldNot", Severity: finding.Error,
		Title:   "A value has a form the spec excludes",
		What:    "A field matches the schema given under `not` in the spec, a form explicitly ruled out.",
		Why:     "The spec's authors excluded this form on purpose (a placeholder value, a forbidden combination).",
		Example: "owner: TODO  (with not: {const: TODO})\ngives: owner: must not match the excluded form [msgcheck/delegate-owner-not]",
		Fix:     "Replace the value with a real one; the spec's `not` schema says what is excluded.",
	},
	{
		ID: "msgcheck/*-not-allowed", Name: "FieldNotAllowed", Severity: finding.Error,
		Title:   "A field the spec forbids is present",
		What:    "A field whose schema is `false` (no value allowed) is present in the message.",
		Why:     "The spec forbids the field outright, typically a field removed from the protocol whose presence means the producer is out of date.",
		Example: "legacy_id: 12  (with legacy_id: false in the spec)\ngives: legacy_id: no value is allowed here [msgcheck/delegate-legacy-id-not-allowed]",
		Fix:     "Remove the field.",
	},
	{
		ID: "msgcheck/*-additional", Name: "FieldAdditional", Severity: finding.Error,
		Title:   "An object holds a property its schema does not allow",
		What:    "An object field whose schema sets additionalProperties: false holds a property not listed in its properties. The id names the object (msgcheck/handback-metrics-additional), the finding points at the extra key.",
		Why:     "Closed objects are closed so that misspelled or invented keys are caught instead of silently ignored.",
		Example: "metrics: {quality: 0.9, qualty: 0.9}  (with additionalProperties: false)\ngives: metrics.qualty: field is not allowed here [msgcheck/handback-metrics-additional]",
		Fix:     "Remove the property, or correct its spelling to a property the schema lists.",
	},
	{
		ID: "msgcheck/*-exists", Name: "FieldExists", Severity: finding.Error,
		Title:   "A value names something the repository does not have",
		What:    "A field with `existsIn` (the DELEGATE's skill) names no directory and no <name>.md under the listed directories (skills/, src/skills/) of the repository root, or is a path rather than a name: a value with /, \\ or .. is invalid whether or not the directories exist.",
		Why:     "A DELEGATE for a skill that does not exist cannot be carried out; the receiving agent has no instructions to load.",
		Example: "skill: nope\ngives: skill: unknown skill 'nope' (not found in skills/) [msgcheck/delegate-skill-exists]",
		Fix:     "Name an existing skill, or add skills/<name>/ (or skills/<name>.md). Check --root if the repository root is not what protoscan found.",
	},
	{
		ID: "msgcheck/*-unchecked", Name: "FieldUnchecked", Severity: finding.Warning,
		Title:   "A repository check could not be made",
		What:    "A field with `existsIn` could not be checked because none of the directories it names (skills/, src/skills/) exists under the repository root. The check is skipped, never passed silently.",
		Why:     "The value may name something that does not exist; protoscan cannot tell.",
		Example: "skill: queue-management, validated with --root /srv/other (no skills/ there)\ngives: skill: not checked: no skills/ or src/skills/ directory in the repository /srv/other [msgcheck/delegate-skill-unchecked]",
		Fix:     "Validate with --root pointing at the repository that holds skills/, or add the directory.",
	},
	{
		ID: "msgcheck/*-deprecated", Name: "FieldDeprecated", Severity: finding.Warning,
		Title:   "A deprecated field is used",
		What:    "The message uses a field the spec marks `deprecated`; the finding carries the spec's migration hint.",
		Why:     "Deprecated fields are on their way out of the protocol: consumers may already ignore them.",
		Example: "effort: high  (with deprecated: \"use budget\")\ngives: Extension field 'effort' is no longer recommended (use budget) [msgcheck/delegate-effort-deprecated]",
		Fix:     "Move the information to the field the hint names and drop the deprecated one.",
	},
	{
		ID: "msgcheck/*-renamed", Name: "FieldRenamed", Severity: finding.Error,
		Title:   "A field under the name older agents gave it",
		What:    "The message holds a field under a former name: one the spec lists under the field's `formerly` keyword (the embedded protocol-core spec: role for a DELEGATE's agent) or the config's `renamed` adds. The value is checked as the field's, so a role of senior_engineer is also the agent enum's error, and neither an unknown field nor a missing field is reported. It is an error when the field is required (a validator of the current protocol rejects the message), a warning for an optional one, and a warning when the message holds the field under its own name too (the former name is then ignored). The id names the kind and the field: msgcheck/delegate-agent-renamed.",
		Why:     "Consumers of the current protocol read the field by its current name: a DELEGATE with role and no agent is rejected, or its agent silently lost.",
		Example: "role: senior-engineer  (in a DELEGATE without agent)\ngives: role: the protocol calls this field agent [msgcheck/delegate-agent-renamed]",
		Fix:     "Rename the key to the field's current name (the scan's finding carries the fix where the key is written as the name itself); where both names are present, drop the former one. Producers that must serve older consumers too should write both for a release, then the current name alone.",
	},
	{
		ID: "msgcheck/*-unknown-field", Name: "UnknownField", Severity: finding.Warning,
		Title:   "A field the spec does not define",
		What:    "A top-level field of the message is neither a core field nor an extension of its kind. It is a warning, never an error, for forward compatibility. The id names the kind: msgcheck/delegate-unknown-field.",
		Why:     "Unknown fields are ignored by consumers; they are often misspellings of real fields, whose value is then lost.",
		Example: "foo_bar: 1\ngives: Unknown field 'foo_bar' in DELEGATE (will be ignored) [msgcheck/delegate-unknown-field]",
		Fix:     "Correct the spelling to a field the spec defines, remove the field, or add it to the kind's extensions in your spec.",
	},
	{
		ID: "msgcheck/*-rule-*", Name: "SpecRule", Severity: finding.Error,
		Title:   "A cross-field rule of the spec is not met",
		What:    "A CEL rule of the kind's x-protoscan-validations evaluated to false (or, as a warning, could not be evaluated, or went over its cost budget or the budget the kind's rules share on a message). Its id is msgcheck/<kind>-rule-<n> for the n-th rule of the list, or msgcheck/<kind>-<reason> when the rule has a `reason`; its severity is the rule's `severity` (error by default) and its message is the rule's `message`.",
		Why:     "Cross-field rules state what single fields cannot: a successful task needs a minimum confidence, a task with a deadline needs a priority.",
		Example: "x-protoscan-validations:\n  - rule: \"!has(self.deadline) || has(self.priority)\"\n    message: \"a task with a deadline needs a priority\"\n    reason: deadline-priority\ngives: a task with a deadline needs a priority [msgcheck/delegate-deadline-priority]",
		Fix:     "Change the message so the rule holds; the rule's expression is in the spec (protoscan spec prints it).",
	},
	{
		ID: "msgcheck/handoff-v1-migration", Name: "HandoffV1Migration", Severity: finding.Warning,
		Title:   "A NEXUS handoff without confidence scoring was migrated to V2",
		What:    "A NEXUS handoff has no confidence (compliance level 1, a V1 handoff) or no confidence_breakdown (level 2). `protoscan validate --handoff` migrates it as the spec's x-nexus-handoff block says: the confidence is inferred from the status (SUCCESS 0.80, PARTIAL 0.60, BLOCKED 0.40, FAILED 0.20 in the embedded spec) and set on every axis of the breakdown. The handoff is accepted (WARN) and the finding names the agent that should move to NEXUS_HANDOFF_V2.",
		Why:     "Routing runs on the confidence: an inferred one is a guess from the status, not the agent's own judgement, and every axis of the breakdown is the same number.",
		Example: "NEXUS_HANDOFF:\n  step: 3/5\n  agent: Radar\n  status: PARTIAL\n  ...\ngives: V1 handoff from Radar: confidence 0.60 inferred from status PARTIAL and set on every confidence_breakdown axis; Radar should move to NEXUS_HANDOFF_V2",
		Fix:     "Have the agent write NEXUS_HANDOFF_V2 with confidence and confidence_breakdown (task_completion, output_quality, next_step_clarity).",
	},
	{
		ID: "msgcheck/handoff-auto-correct", Name: "HandoffAutoCorrect", Severity: finding.Warning,
		Title:   "A handoff's confidence was auto-corrected to its breakdown",
		What:    "The confidence of a NEXUS_HANDOFF_V2 was more than 0.05 from the weighted average of its confidence_breakdown (0.40, 0.35, 0.25), but within the spec's max_discrepancy (0.10): a minor discrepancy. `protoscan validate --handoff` sets the confidence to the average (action_taken auto_correct) when the handoff is then valid; a larger discrepancy fails the handoff (request_resubmit).",
		Why:     "The confidence is defined as the weighted average of the breakdown; routing on a confidence the breakdown does not support routes on a number the agent did not justify.",
		Example: "confidence: 0.80 with breakdown 0.75 / 0.7 / 0.8\ngives: confidence 0.80 auto-corrected to 0.75, the weighted average of confidence_breakdown (a minor discrepancy of 0.055, at most 0.10)",
		Fix:     "Have the agent compute the confidence from its breakdown, or score the breakdown to match its confidence.",
	},
}

// familySuffix maps the suffix of a generated msgcheck id to its family
// Doc's id. The constraints are msgcheck's (spec.go, `constraints`).
var familySuffix = func() map[string]string {
	m := map[string]string{"unknown-field": "msgcheck/*-unknown-field"}
	for _, con := range []string{"required", "type", "format", "length", "words", "range", "items", "unique",
		"enum", "const", "one-of", "any-of", "not", "not-allowed", "additional", "exists", "unchecked", "deprecated", "renamed"} {
		m[con] = "msgcheck/*-" + con
	}
	return m
}()

// specRuleFamily documents the ids of the spec's own CEL rules.
const specRuleFamily = "msgcheck/*-rule-*"

var (
	sorted = func() []Doc {
		s := slices.Clone(catalogue)
		slices.SortFunc(s, func(a, b Doc) int { return strings.Compare(a.ID, b.ID) })
		return s
	}()
	byID = func() map[string]int {
		m := make(map[string]int, len(sorted))
		for i, d := range sorted {
			m[d.ID] = i
		}
		return m
	}()
	// generatedID is the shape of a generated msgcheck id: a kind and at
	// least one more word (kinds may contain '_': nexus_handoff_v2).
	generatedID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^msgcheck/[a-z0-9_]+(-[a-z0-9_]+)+$`) })
)

// All returns every Doc, sorted by ID. The slice is the caller's.
func All() []Doc { return slices.Clone(sorted) }

// ScanRules returns the Docs of the rules a scan can report: all but the
// checks of `protoscan audit` (IsAuditCheck), which a scan's SARIF and
// .protoscan.yaml know nothing of. The slice is the caller's.
func ScanRules() []Doc {
	return slices.DeleteFunc(All(), func(d Doc) bool { return IsAuditCheck(d.ID) })
}

// IsAuditCheck reports whether id is a check of `protoscan audit`
// ("audit/orphan"), documented here but reported only by an audit.
func IsAuditCheck(id string) bool { return strings.HasPrefix(id, "audit/") }

// Lookup returns the Doc of a rule id. A concrete generated msgcheck id
// (msgcheck/delegate-scope-words, msgcheck/handback-metrics-quality-range,
// msgcheck/delegate-unknown-field, msgcheck/delegate-rule-2) resolves to
// its family's Doc, returned with ID set to the concrete id. Any other
// well-formed msgcheck/<kind>-<words> id is taken for a CEL rule of the
// spec named by its `reason`, which only the spec knows.
func Lookup(id string) (Doc, bool) {
	if i, ok := byID[id]; ok {
		return sorted[i], true
	}
	if !generatedID().MatchString(id) {
		return Doc{}, false
	}
	family := specRuleFamily
	for suffix, fam := range familySuffix {
		// the kind comes before the suffix: "msgcheck/x-words", never "msgcheck/words"
		if strings.HasSuffix(id, "-"+suffix) && len(id) > len("msgcheck/-")+len(suffix) {
			family = fam
			break
		}
	}
	d := sorted[byID[family]]
	d.ID = id
	return d, true
}

// Family returns the id of the Doc that d was made from: for a Doc that
// Lookup resolved from a generated msgcheck id, its family
// ("msgcheck/*-words"); for any other Doc, its own ID.
func Family(d Doc) string {
	for _, s := range sorted {
		if s.Name == d.Name {
			return s.ID
		}
	}
	return d.ID
}

// Severity returns the default severity of a rule id, Error when the id
// is unknown.
func Severity(id string) finding.Severity {
	if d, ok := Lookup(id); ok {
		return d.Severity
	}
	return finding.Error
}
