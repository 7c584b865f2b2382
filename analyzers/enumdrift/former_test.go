package enumdrift_test

import (
	"slices"
	"testing"

	"github.com/protoscan-dev/protoscan/analyzers/enumdrift"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// TestFormerNames: role, the former name of a DELEGATE's agent (the
// embedded spec's formerly), is read as agent where the file handles
// DELEGATEs, and as nothing elsewhere: a chat message's role is user,
// assistant or system.
func TestFormerNames(t *testing.T) {
	v, err := enumdrift.NewVocabulary(msgcheck.DefaultSpec(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path, src string
		want            []string
	}{
		{"py DELEGATE dict with role", "tasks.py", `
def make(task):
    return {
        "task_id": task.id,
        "role": "Senior Engineer",
        "skill": "debugging",
        "scope": task.scope,
    }
`, []string{"5:17 enumdrift/value-case Senior Engineer->senior-engineer"}},
		{"py comparison of a DELEGATE's role", "router.py", `
def route(delegate):
    if delegate["role"] == "senior_engineer":
        return "review"
    if delegate["role"] == "engineer":
        return "build"
    if delegate["role"] == "orchestrator":
        return "plan"

def accepts(msg):
    return msg["handoff_type"] == "DELEGATE"
`, []string{"3:28 enumdrift/value-case senior_engineer->senior-engineer"}},
		{"py set tested against role ties to agent", "delegate_router.py", `
SENIOR = {"senior_engineer", "lead-engineer"}

def senior(delegate):
    return delegate["role"] in SENIOR

KIND = "DELEGATE"
`, []string{"2:11 enumdrift/value-case senior_engineer->senior-engineer"}},
		{"go DELEGATE map with role", "tasks.go", `package tasks

func make(id, scope string) map[string]any {
	return map[string]any{"task_id": id, "role": "Senior_Engineer", "skill": "debugging", "scope": scope}
}
`, []string{"4:47 enumdrift/value-case Senior_Engineer->senior-engineer"}},

		// role is everyone's word: silent without DELEGATE evidence
		{"py chat message", "chat.py", `
def ask(client, question):
    message = {"role": "user", "content": question}
    reply = client.send(message)
    if reply["role"] == "assistant":
        return reply["content"]
    if reply["role"] == "system":
        return None
`, nil},
		{"py OpenAI messages list", "llm.py", `
ROLES = {"system", "user", "assistant", "tool"}

def complete(client, prompt):
    messages = [
        {"role": "system", "content": "You are a senior engineer."},
        {"role": "user", "content": prompt},
        {"role": "assistant", "content": "engineer"},
    ]
    for m in messages:
        assert m["role"] in ROLES
    return client.chat.completions.create(model="gpt-4o", messages=messages)
`, nil},
		{"go chat message", "chat.go", `package chat

type Message struct {
	Role    string ` + "`json:\"role\"`" + `
	Content string ` + "`json:\"content\"`" + `
}

func ask(q string) []Message {
	msgs := []Message{{Role: "system", Content: "be brief"}, {Role: "user", Content: q}}
	if msgs[0].Role == "assistant" {
		return nil
	}
	return msgs
}
`, nil},
		{"py crew config compared with agent-like roles, no DELEGATE in sight", "crew.py", `
ENGINEERS = {"engineer", "senior_engineer"}

def pick_model(agent_config):
    if agent_config["role"] in ENGINEERS:
        return "small"
    if agent_config["role"] == "Senior Engineer":
        return "large"
    if agent_config["role"] == "orchestrator":
        return "large"
    return "default"
`, nil},
		{"py user roles of an app", "auth.py", `
def can_edit(user):
    if user["role"] == "admin":
        return True
    if user["role"] == "Engineer":
        return True
    return user["role"] == "editor"
`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := analyze(t, v, c.path, c.src); !slices.Equal(got, c.want) {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
