package enumdrift_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// embeddedVocabulary is the vocabulary a scan without a spec of its own
// judges by: the embedded protocol-core spec (the DELEGATE agent:
// orchestrator, engineer, senior-engineer, lead-engineer...; the HANDBACK
// status) and the NEXUS and phase-verdict specs.
func embeddedVocabulary(t testing.TB) *enumdrift.Vocabulary {
	t.Helper()
	var more []*msgcheck.Spec
	for _, n := range []string{"nexus-handoff-v2.yaml", "phase-verdict-v1.yaml"} {
		o, err := msgcheck.EmbeddedSpec(n)
		if err != nil {
			t.Fatal(err)
		}
		more = append(more, o)
	}
	v, err := enumdrift.NewVocabulary(msgcheck.DefaultSpec(), nil, more...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestHolders: an enum's values in another spelling (Title Case, snake
// case, upper case) are its drift wherever code holds them for the
// field: sets, lists and tuples tested with it or read through an index,
// the keys of a table looked up with it, class attributes, enum classes
// and const blocks, a variable that holds the field, a parameter named
// for it in code that handles the kind. The same words held for anything
// else stay silent.
func TestHolders(t *testing.T) {
	v := embeddedVocabulary(t)
	pre := enumdrift.NewPrefilter(v)
	for _, c := range []struct {
		name, path, src string
		want            []string
	}{
		// ---- Python: collections
		{"py set tested with the field", "dispatch.py", `
VALID_AGENTS = {"orchestrator", "Senior Engineer", "lead_engineer"}

def check(d):
    if d["agent"] not in VALID_AGENTS:
        raise ValueError(d["agent"])
`, []string{"2:33 enumdrift/value-case Senior Engineer->senior-engineer", "2:52 enumdrift/value-case lead_engineer->lead-engineer"}},
		{"py list in a delegate check", "dispatch.py", `
ALLOWED = ["Orchestrator", "Senior Engineer", "QA Engineer"]

def check(delegate):
    assert delegate.get("agent") in ALLOWED
`, []string{"2:12 enumdrift/value-case Orchestrator->orchestrator", "2:28 enumdrift/value-case Senior Engineer->senior-engineer"}},
		{"py tuple read through an index", "dispatch.py", `
AGENTS = ("ORCHESTRATOR", "SENIOR_ENGINEER")

def route(delegate):
    if delegate["agent"] == AGENTS[1]:
        return 1
    delegate["agent"] = AGENTS[0]
`, []string{"2:11 enumdrift/value-case ORCHESTRATOR->orchestrator", "2:27 enumdrift/value-case SENIOR_ENGINEER->senior-engineer"}},
		{"py keys of a table looked up with the field", "dispatch.py", `
HANDLERS = {"Senior Engineer": senior, "Orchestrator": orchestrate, "engineer": build}

def dispatch(delegate):
    return HANDLERS[delegate["agent"]](delegate)

def fallback(d):
    return HANDLERS.get(d["agent"], build)
`, []string{"2:13 enumdrift/value-case Senior Engineer->senior-engineer", "2:40 enumdrift/value-case Orchestrator->orchestrator"}},
		{"py instance attribute set in __init__", "validator.py", `
class DelegateValidator:
    def __init__(self):
        self.valid_roles = {"Senior Engineer", "QA Engineer", "orchestrator"}

    def validate(self, delegate):
        if delegate["agent"] not in self.valid_roles:
            return False
        return True
`, []string{"4:29 enumdrift/value-case Senior Engineer->senior-engineer"}},
		{"py class attribute read through self and cls", "validator.py", `
class Router:
    VALID = ("Orchestrator", "senior_engineer")

    def accepts(self, delegate):
        return delegate["agent"] in self.VALID

    @classmethod
    def also(cls, delegate):
        return delegate["agent"] in cls.VALID
`, []string{"3:14 enumdrift/value-case Orchestrator->orchestrator", "3:30 enumdrift/value-case senior_engineer->senior-engineer"}},
		{"py enum class compared with the field", "agents.py", `
from enum import Enum

class Agent(str, Enum):
    ORCHESTRATOR = "Orchestrator"
    SENIOR_ENGINEER = "Senior Engineer"
    LEAD_ENGINEER = "Lead Engineer"

def route(delegate):
    if delegate["agent"] == Agent.SENIOR_ENGINEER:
        return 1
`, []string{"5:20 enumdrift/value-case Orchestrator->orchestrator", "6:23 enumdrift/value-case Senior Engineer->senior-engineer", "7:21 enumdrift/value-case Lead Engineer->lead-engineer"}},
		{"py enum class in a file that handles DELEGATEs", "delegate_agents.py", `
from enum import Enum

class Agent(str, Enum):
    ORCHESTRATOR = "Orchestrator"
    SENIOR_ENGINEER = "Senior Engineer"
    LEAD_ENGINEER = "Lead Engineer"

KIND = "DELEGATE"
`, []string{"4:7 enumdrift/missing-value ->", "5:20 enumdrift/value-case Orchestrator->orchestrator", "6:23 enumdrift/value-case Senior Engineer->senior-engineer", "7:21 enumdrift/value-case Lead Engineer->lead-engineer"}},
		// ---- Python: a variable holding the field, a parameter named for it
		{"py local bound from a subscript", "worker.py", `
def on_result(hb):
    agent_status = hb["status"]
    if agent_status == "success":
        archive(hb)
    elif agent_status == "failure":
        retry(hb)
    elif agent_status == "ESCALATE":
        page(hb)
`, []string{"8:26 enumdrift/status-case ESCALATE->escalate"}},
		{"py locals bound from get, getattr and a walrus", "worker.py", `
def on_result(hb):
    s1 = hb.get("status")
    s2 = getattr(hb, "status")
    if s1 == "success" or s2 == "failure":
        return 1
    if s2 == "Partial":
        return 2
    if (s3 := hb["status"]) == "BLOCKED":
        return 3
    return s1 == "escalate"
`, []string{"7:14 enumdrift/status-case Partial->partial", "9:32 enumdrift/status-case BLOCKED->blocked"}},
		{"py parameter named for the field in a module of DELEGATEs", "delegate_router.py", `
def route(agent: str):
    if agent == "Senior Engineer":
        return "senior"
    return "default"

def accepts(msg):
    return msg.get("handoff_type") == "DELEGATE"
`, []string{"3:17 enumdrift/value-case Senior Engineer->senior-engineer"}},
		{"py parameter named for the field in a function named for the kind", "router.py", `
def route_delegate(agent: str):
    if agent == "Senior Engineer":
        return "senior"
    return "default"
`, []string{"3:17 enumdrift/value-case Senior Engineer->senior-engineer"}},

		// ---- Python negatives
		{"py job titles in an HR app", "hr/staff.py", `
TITLES = ["Engineer", "Senior Engineer", "Lead Engineer", "Principal Engineer"]

def promote(person):
    if person.title == "Senior Engineer":
        person.title = "Lead Engineer"
`, nil},
		{"py job title enum in an HR app", "hr/levels.py", `
from enum import Enum

class Level(str, Enum):
    ENGINEER = "Engineer"
    SENIOR = "Senior Engineer"
    LEAD = "Lead Engineer"
    PRINCIPAL = "Principal Engineer"
`, nil},
		{"py agent parameter without evidence", "hr/people.py", `
def assign(agent: str):
    if agent == "Senior Engineer":
        return 1
`, nil},
		{"py class attribute set of HTTP statuses", "api.py", `
class Client:
    def __init__(self):
        self.retry_statuses = {"Service Unavailable", "Bad Gateway", "Gateway Timeout"}

    def retry(self, resp):
        return resp.status in self.retry_statuses
`, nil},
		{"py display labels are values of a table, not keys", "labels.py", `
LABELS = {"success": "Success", "failure": "Failure", "partial": "Partial", "blocked": "Blocked", "escalate": "Escalate"}

def label(hb):
    return LABELS[hb["status"]]
`, nil},
		{"py UI enum", "ui.py", `
from enum import Enum

class Color(Enum):
    RED = "Red"
    GREEN = "Green"
    BLUE = "Blue"

def paint(widget):
    if widget.color == Color.RED:
        return 1
`, nil},
		{"py status parameter without evidence", "ops.py", `
def notify(status):
    if status == "ESCALATE":
        page()
`, nil},

		// ---- Go
		{"go package slice tested with the field", "router.go", `package router

import "slices"

var validAgents = []string{"orchestrator", "Senior Engineer", "lead_engineer"}

func ok(d Delegate) bool { return slices.Contains(validAgents, d.Agent) }
`, []string{"5:44 enumdrift/value-case Senior Engineer->senior-engineer", "5:63 enumdrift/value-case lead_engineer->lead-engineer"}},
		{"go struct field slice set in a constructor", "router.go", `package router

import "slices"

type Router struct{ validAgents []string }

func NewRouter() *Router {
	return &Router{validAgents: []string{"Senior Engineer", "QA Engineer", "orchestrator"}}
}

func (r *Router) ok(delegate Delegate) bool { return slices.Contains(r.validAgents, delegate.Agent) }
`, []string{"8:39 enumdrift/value-case Senior Engineer->senior-engineer"}},
		{"go struct field slice assigned in a method", "router.go", `package router

import "slices"

type Router struct{ validAgents []string }

func (r *Router) init() { r.validAgents = []string{"Senior Engineer", "QA Engineer", "orchestrator"} }

func (r *Router) ok(delegate Delegate) bool { return slices.Contains(r.validAgents, delegate.Agent) }
`, []string{"7:52 enumdrift/value-case Senior Engineer->senior-engineer"}},
		{"go map keyed by agents", "router.go", `package router

var handlers = map[string]func(Delegate){"Senior Engineer": senior, "orchestrator": orchestrate}

func dispatch(d Delegate) { handlers[d.Agent](d) }
`, []string{"3:42 enumdrift/value-case Senior Engineer->senior-engineer"}},
		{"go array read through an index", "router.go", `package router

var agents = [...]string{"ORCHESTRATOR", "SENIOR_ENGINEER"}

func route(delegate Delegate) int {
	if delegate.Agent == agents[1] {
		return 1
	}
	return 0
}
`, []string{"3:26 enumdrift/value-case ORCHESTRATOR->orchestrator", "3:42 enumdrift/value-case SENIOR_ENGINEER->senior-engineer"}},
		{"go local holding the field", "worker.go", `package worker

func route(d Delegate, hb Handback) int {
	a := d.Agent
	switch a {
	case "orchestrator", "engineer":
		return 1
	case "Senior Engineer":
		return 2
	}
	st := hb.Status
	if st == "success" || st == "failure" {
		return 3
	}
	if st == "ESCALATE" {
		return 4
	}
	return 0
}
`, []string{"8:7 enumdrift/value-case Senior Engineer->senior-engineer", "15:11 enumdrift/status-case ESCALATE->escalate"}},
		{"go const block of a type named for the field in a file of DELEGATEs", "delegate.go", `package proto

type Agent string

const (
	AgentOrchestrator Agent = "Orchestrator"
	AgentSenior       Agent = "Senior Engineer"
	AgentLead         Agent = "Lead Engineer"
)

const Kind = "DELEGATE"
`, []string{"5:1 enumdrift/missing-value ->", "6:28 enumdrift/value-case Orchestrator->orchestrator", "7:28 enumdrift/value-case Senior Engineer->senior-engineer", "8:28 enumdrift/value-case Lead Engineer->lead-engineer"}},
		{"go job titles", "hr.go", `package hr

type Title string

const (
	Engineer       Title = "Engineer"
	SeniorEngineer Title = "Senior Engineer"
	LeadEngineer   Title = "Lead Engineer"
)
`, nil},
		{"go status parameter without evidence", "ops.go", `package ops

func notify(status string) {
	if status == "ESCALATE" {
		page()
	}
}
`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := analyze(t, v, c.path, c.src)
			if !slices.Equal(got, c.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
			// the scan reads a file only when the prefilter lets it through
			if len(c.want) > 0 {
				if ok, _ := pre.Match(c.path, true, []byte(c.src), nil); !ok {
					t.Errorf("the prefilter skips %s", c.path)
				}
			}
		})
	}
}
