package audit

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/protoscan-dev/protoscan/jsonmsg"
)

// TestIDsRecord checks that a message's record of ids is the same read
// from a tape or from a decoded map, and reads back to its fields.
func TestIDsRecord(t *testing.T) {
	for _, c := range []struct {
		msg                    string
		taskID, status, parent string
		deps, children         []string
	}{
		{msg: `{}`},
		{msg: `{"task_id":"a","status":"done","parent_task_id":"p"}`, taskID: "a", status: "done", parent: "p"},
		{msg: `{"task_id":"a","status":"x","task_id":"b","status":"y","dependencies":["c"],"dependencies":[]}`, taskID: "b", status: "y"},
		{msg: `{"task_id":"a","dependencies":["b",1,"c",null],"children_created":["d"]}`, taskID: "a", deps: []string{"b", "c"}, children: []string{"d"}},
		{msg: `{"task_id":7,"status":["x"],"dependencies":"b","children_created":[{"id":"x"},"é\u00a0\"q\""]}`, children: []string{"é\u00a0\"q\""}},
		{msg: `{"task_id":"` + strings.Repeat("long", 100) + `","dependencies":[""]}`, taskID: strings.Repeat("long", 100), deps: []string{""}},
	} {
		var tape jsonmsg.Tape
		if err := tape.Parse(c.msg); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(c.msg), &m); err != nil {
			t.Fatal(err)
		}
		fromTape, status := appendIDsTape([]byte("x"), &tape)
		fromMap, mapStatus := appendIDsMap(nil, m)
		fromTape = fromTape[1:]
		if status != c.status || mapStatus != c.status {
			t.Errorf("%s: status %q from the tape, %q from the map, want %q", c.msg, status, mapStatus, c.status)
		}
		if string(fromTape) != string(fromMap) {
			t.Errorf("%s: tape record %q, map record %q", c.msg, fromTape, fromMap)
		}
		var x ids
		x.read(fromTape)
		got := fmt.Sprint(x.taskID, "|", x.status, "|", x.parent, "|", x.refs[:x.nDeps], "|", x.refs[x.nDeps:])
		want := fmt.Sprint(c.taskID, "|", c.status, "|", c.parent, "|", c.deps, "|", c.children)
		if got != want {
			t.Errorf("%s: read back %s, want %s", c.msg, got, want)
		}
	}
}

// TestIndexReferences checks what makes a task known: a message that
// carries its id, before or after the reference, never a reference alone;
// and that the references of a message without a task id are not checked.
func TestIndexReferences(t *testing.T) {
	ix := newIndex()
	msgs := []struct {
		kind uint8
		m    map[string]any
	}{
		{kindDelegate, map[string]any{"task_id": "a", "dependencies": []any{"b", "ghost"}, "parent_task_id": "later"}},
		{kindDelegate, map[string]any{"task_id": "b", "children_created": []any{"ghost", "a"}}},
		{kindOther, map[string]any{"dependencies": []any{"nowhere"}}}, // no task id: not checked
		{kindHandback, map[string]any{"task_id": "later", "status": "success"}},
		{kindHandback, map[string]any{"task_id": "later", "status": "success"}},
	}
	for i, m := range msgs {
		ix.add(m.kind, Location{Path: "q.jsonl", Line: i + 1}, record(m.m))
	}
	var got []string
	for _, p := range ix.integrity(2).All() {
		got = append(got, fmt.Sprintf("%s %d %s", p.Check, p.Line, p.Message))
	}
	want := []string{
		`duplicate 5 task_id "later" has another HANDBACK at q.jsonl:4`,
		`orphan 4 HANDBACK "later" answers no DELEGATE`,
		`orphan 5 HANDBACK "later" answers no DELEGATE`,
		`pending 1 DELEGATE "a" has no HANDBACK yet (in q.jsonl)`,
		`pending 2 DELEGATE "b" has no HANDBACK yet (in q.jsonl)`,
		`unknown-reference 1 dependencies of "a" names unknown task "ghost"`,
		`unknown-reference 2 children_created of "b" names unknown task "ghost"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestIndexCycles checks that a cycle is found once, at its DELEGATE
// that comes first in place order, and that a chain or a reference to an
// unknown task is not a cycle.
func TestIndexCycles(t *testing.T) {
	ix := newIndex()
	deps := map[string][]any{"c": {"a"}, "a": {"b"}, "b": {"c", "x"}, "d": {"a"}, "e": {"e"}, "f": {"nowhere"}}
	for i, id := range []string{"c", "a", "b", "d", "e", "f"} {
		ix.add(kindDelegate, Location{Path: "q.jsonl", Line: i + 1}, record(map[string]any{"task_id": id, "dependencies": deps[id]}))
	}
	var got []string
	for _, p := range ix.cycles() {
		got = append(got, fmt.Sprintf("%d %s", p.Line, p.Message))
	}
	// in place order, each at its first DELEGATE (c, line 1, for the
	// first), from which the cycle is named
	want := []string{"1 dependency cycle: c -> a -> b -> c", "5 dependency cycle: e -> e"}
	if !slices.Equal(got, want) {
		t.Errorf("cycles %q, want %q", got, want)
	}
}

// TestChecksSorted: a report lists the checks in the order of their
// names, which integrity relies on to join its lists without sorting.
func TestChecksSorted(t *testing.T) {
	if !slices.IsSorted(checksSorted[:]) {
		t.Errorf("checksSorted is not sorted: %q", checksSorted)
	}
	for c, check := range map[int]string{cCycle: CheckCycle, cDuplicate: CheckDuplicate, cOrphan: CheckOrphan,
		cPending: CheckPending, cUnfinished: CheckUnfinished, cReference: CheckReference} {
		if checksSorted[c] != check {
			t.Errorf("checksSorted[%d] is %q, want %q", c, checksSorted[c], check)
		}
	}
}

// TestIntegrityOutOfPathOrder checks that problems are sorted by place
// when the inputs were not given in path order.
func TestIntegrityOutOfPathOrder(t *testing.T) {
	ix := newIndex()
	for i, p := range []string{"z/q.jsonl", "a/q.jsonl", "m/q.jsonl"} {
		ix.add(kindDelegate, Location{Path: p, Line: 1}, record(map[string]any{"task_id": fmt.Sprint("t", i)}))
		ix.add(kindHandback, Location{Path: p, Line: 2}, record(map[string]any{"task_id": fmt.Sprint("h", i)}))
		// a cycle of its own, met in input order, reported in place order
		ix.add(kindDelegate, Location{Path: p, Line: 3}, record(map[string]any{"task_id": fmt.Sprint("c", i), "dependencies": []any{fmt.Sprint("c", i)}}))
		ix.add(kindHandback, Location{Path: p, Line: 4}, record(map[string]any{"task_id": fmt.Sprint("c", i), "status": "success"}))
	}
	var got []string
	for _, p := range ix.integrity(2).All() {
		got = append(got, p.Check+" "+p.Location.String())
	}
	want := []string{"cycle a/q.jsonl:3", "cycle m/q.jsonl:3", "cycle z/q.jsonl:3",
		"orphan a/q.jsonl:2", "orphan m/q.jsonl:2", "orphan z/q.jsonl:2",
		"pending a/q.jsonl:1", "pending m/q.jsonl:1", "pending z/q.jsonl:1"}
	if !slices.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
}

// TestIntegrityFileTwice checks that problems are sorted by place when a
// file was given twice, its lines coming round again under one path.
func TestIntegrityFileTwice(t *testing.T) {
	ix := newIndex()
	for range 2 {
		for line := 1; line <= 6; line++ {
			if line%3 == 2 { // a HANDBACK that answers no DELEGATE
				ix.add(kindHandback, Location{Path: "q.jsonl", Line: line}, record(map[string]any{"task_id": fmt.Sprint("h", line)}))
			}
		}
	}
	var got []string
	for _, p := range ix.integrity(1).All() {
		if p.Check == CheckOrphan {
			got = append(got, p.Location.String())
		}
	}
	want := []string{"q.jsonl:2", "q.jsonl:2", "q.jsonl:5", "q.jsonl:5"}
	if !slices.Equal(got, want) {
		t.Errorf("orphans at %q, want %q", got, want)
	}
}

// record is the record of ids of a decoded message.
func record(m map[string]any) []byte {
	b, _ := appendIDsMap(nil, m)
	return b
}

// TestIntegrityPartsAgree checks that the problems do not depend on how
// many parts the index is split into (each part lists its problems'
// positions by check, and the lists are joined), on an index with every
// check firing, across part boundaries and out of path order.
func TestIntegrityPartsAgree(t *testing.T) {
	// the Integrity takes the index over: one index each
	integrity := func(workers int) []Problem {
		ix := newIndex()
		dirs := []string{"q/incoming/b.jsonl", "q/done/a.jsonl", "q/incoming/a.jsonl"} // out of path order
		ix.add(kindDelegate, Location{Path: "q/incoming/c.jsonl", Line: 1}, record(map[string]any{"task_id": "c1", "dependencies": []any{"c2"}}))
		ix.add(kindDelegate, Location{Path: "q/incoming/c.jsonl", Line: 2}, record(map[string]any{"task_id": "c2", "dependencies": []any{"c1"}}))
		n := 0
		for _, p := range dirs {
			for i := range 9000 {
				n++
				id := fmt.Sprint("t", n%7000) // duplicates
				m := map[string]any{"task_id": id}
				switch i % 11 {
				case 3:
					m["parent_task_id"] = fmt.Sprint("unknown", i)
				case 5:
					m["dependencies"] = []any{fmt.Sprint("t", (n+1)%7000), fmt.Sprint("nowhere", i)}
				case 7:
					m["children_created"] = []any{fmt.Sprint("gone", i)}
				}
				kind := kindDelegate
				if i%3 == 1 {
					kind = kindHandback
					m["status"] = []string{"success", "partial"}[i%2]
					if i%13 == 0 {
						m["task_id"] = fmt.Sprint("orphan", i)
					}
				}
				ix.add(kind, Location{Path: p, Line: i + 1}, record(m))
			}
		}
		return ix.integrity(workers).All()
	}
	one := integrity(1)
	checks := map[string]int{}
	for _, p := range one {
		checks[p.Check]++
	}
	for _, c := range checksSorted {
		if checks[c] == 0 {
			t.Errorf("no %s problem: the index does not exercise every check", c)
		}
	}
	for i := 1; i < len(one); i++ {
		a, b := one[i-1], one[i]
		if checkOrder(a.Check) > checkOrder(b.Check) || a.Check == b.Check && (a.Path > b.Path || a.Path == b.Path && a.Line > b.Line) {
			t.Fatalf("problems %d and %d out of order: %v, %v", i-1, i, a, b)
		}
	}
	for _, w := range []int{2, 3, 8} {
		got := integrity(w)
		if len(got) != len(one) {
			t.Errorf("integrity(%d) gives %d problems, integrity(1) %d", w, len(got), len(one))
			continue
		}
		for i := range got {
			if got[i] != one[i] {
				t.Errorf("integrity(%d): problem %d is %v, integrity(1)'s %v", w, i, got[i], one[i])
				break
			}
		}
	}
}

// TestTaskTable checks the table of task ids through its growth: every
// id has a slot of its own, its entry holds the id, and an id never
// indexed has no slot.
func TestTaskTable(t *testing.T) {
	ix := newIndex()
	defer ix.mem.Free()
	const n = 50000
	for i := range n {
		// the DELEGATE names a child that its own message only adds later
		ix.add(kindDelegate, Location{Path: "q.jsonl", Line: i + 1}, record(map[string]any{
			"task_id": fmt.Sprint("task-", i), "children_created": []any{fmt.Sprint("task-", i+1), ""}}))
	}
	if int(ix.nSlot) != n+2 { // and "" and task-n, named only
		t.Fatalf("%d slots, want %d", ix.nSlot, n+2)
	}
	if 2*int(ix.nSlot) > len(ix.tasks) {
		t.Errorf("table of %d entries for %d ids: more than half full", len(ix.tasks), ix.nSlot)
	}
	// every id has a slot of its own, and its entry holds it
	owner := map[int32]string{}
	for i := range n + 2 {
		id := fmt.Sprint("task-", i)
		if i == n+1 {
			id = ""
		}
		s := ix.slotOf(id)
		if s < 0 || s >= ix.nSlot || owner[s] != "" {
			t.Fatalf("slotOf(%q) = %d, also the slot of %q", id, s, owner[s])
		}
		owner[s] = id
		if e := ix.find(id, uint32(maphash.String(ix.seed, id))); ix.key(e) != id {
			t.Fatalf("the entry of %q holds %q", id, ix.key(e))
		}
		if got := ix.task(s).known; got != (i < n) {
			t.Errorf("%q: known = %v", id, got)
		}
	}
	for _, id := range []string{"task-", "task-50001", "task-1 ", "TASK-1"} {
		if s := ix.slotOf(id); s != -1 {
			t.Errorf("slotOf(%q) = %d, want -1", id, s)
		}
	}
}

// TestAppendQuoted checks the fast path against strconv.Quote, for every
// byte alone and amid an id, and for runes that need escapes.
func TestAppendQuoted(t *testing.T) {
	cases := []string{"", "task-1", "a b", "naïve", "\u00a0", "\u2028", "\xff", "tab\there", `q"uote`, `back\slash`, "\x7f", "~"}
	for c := range 256 {
		cases = append(cases, string(rune(c)), "id-"+string([]byte{byte(c)})+"-x")
	}
	for _, s := range cases {
		if got, want := string(appendQuoted([]byte("> "), s)), "> "+strconv.Quote(s); got != want {
			t.Errorf("appendQuoted(%q) = %s, want %s", s, got, want)
		}
	}
}
