package golang

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// The snippets are whole files; positions in want are line:col in them.
var extractTests = []struct {
	name string
	src  string
	want []string
}{
	{
		name: "typed const blocks grouped by type over the file",
		src: `package p

type Status string

const (
	StatusSuccess Status = "success"
	StatusFailed  Status = "failed"
	Other                = Status("other")
	N                    = 3
)

const StatusDone Status = "done"
`,
		want: []string{
			`s0 6:25 member "success" key=StatusSuccess g0`,
			`s1 7:25 member "failed" key=StatusFailed g0`,
			`s2 8:32 member "other" key=Other g0`,
			`s3 12:27 member "done" key=StatusDone g0`,
			`g0 const "Status" 5:1 [0 1 2 3]`,
		},
	},
	{
		name: "untyped const blocks named by their common word prefix",
		src: `package p

const (
	StatusOK      = "ok"
	StatusPending = "pending"
)

const (
	STATUS_OK   = "OK"
	STATUS_FAIL = "FAIL"
)

const (
	HTTPServer = "a"
	HTTPClient = "b"
	n          = len("abc")
	x          = ("paren")
)

const lone = "lone"
`,
		want: []string{
			`s0 4:18 member "ok" key=StatusOK g0`,
			`s1 5:18 member "pending" key=StatusPending g0`,
			`s2 9:16 member "OK" key=STATUS_OK g1`,
			`s3 10:16 member "FAIL" key=STATUS_FAIL g1`,
			`s4 14:15 member "a" key=HTTPServer g2`,
			`s5 15:15 member "b" key=HTTPClient g2`,
			`s6 17:16 member "paren" key=x g2`,
			`s7 20:14 member "lone" key=lone g3`,
			`g0 const "Status" 3:1 [0 1]`,
			`g1 const "STATUS" 8:1 [2 3]`,
			`g2 const "" 13:1 [4 5 6]`,
			`g3 const "" 20:1 [7]`,
		},
	},
	{
		name: "struct literals",
		src: `package p

func build(id string) *Handback {
	_ = Handback{TaskID: id, Status: "ok"}
	_ = pkg.Handback{Status: "p"}
	_ = []Handback{{Status: "a"}, {TaskID: "t"}}
	_ = map[string]*Handback{"k": {Status: "b"}}
	_ = Handback{"positional", "unknown"}
	return &Handback{Status: ` + "`partial`" + `}
}
`,
		want: []string{
			`s0 4:35 value "ok" key=Status scope=build m0`,
			`s1 5:27 value "p" key=Status scope=build m1`,
			`s2 6:26 value "a" key=Status scope=build m2`,
			`s3 6:41 value "t" key=TaskID scope=build m3`,
			`s4 7:27 key "k" scope=build m4`,
			`s5 7:41 value "b" key=Status scope=build m5`,
			`s6 9:27 value "partial" key=Status scope=build m6`,
			`m0 "Handback" 4:6 {TaskID@4:15=? Status@4:27="ok"}`,
			`m1 "Handback" 5:6 {Status@5:19="p"}`,
			`m2 "Handback" 6:17 {Status@6:18="a"}`,
			`m3 "Handback" 6:32 {TaskID@6:33="t"}`,
			`m4 "" 7:6 {k@7:27={Status:"b"}}`,
			`m5 "Handback" 7:32 {Status@7:33="b"}`,
			`m6 "Handback" 9:10 {Status@9:19="partial"}`,
		},
	},
	{
		name: "map literals and their values",
		src: `package p

var m = map[string]any{
	"task_id": "t-1",
	"plan":    []string{"step one", "step two"},
	"n":       3, "f": -0.5, "ok": true, "none": nil, "r": 'a', "big": 1e400,
	"nested":  map[string]any{"status": "inner"},
	"tags":    [][]string{{"x"}},
	id:        f(),
}
`,
		want: []string{
			`s0 4:2 key "task_id" m0`,
			`s1 4:13 value "t-1" key=task_id m0`,
			`s2 5:2 key "plan" m0`,
			`s3 5:22 value "step one" key=plan m0`,
			`s4 5:34 value "step two" key=plan m0`,
			`s5 6:2 key "n" m0`,
			`s6 6:16 key "f" m0`,
			`s7 6:27 key "ok" m0`,
			`s8 6:39 key "none" m0`,
			`s9 6:52 key "r" m0`,
			`s10 6:62 key "big" m0`,
			`s11 7:2 key "nested" m0`,
			`s12 7:28 key "status" m1`,
			`s13 7:38 value "inner" key=status m1`,
			`s14 8:2 key "tags" m0`,
			`s15 8:25 value "x" key=tags m0`,
			`m0 "" name=m 3:9 {task_id@4:2="t-1" plan@5:2=["step one" "step two"] n@6:2=int64(3) f@6:16=float64(-0.5) ok@6:27=bool(true) none@6:39=nil r@6:52=int64(97) big@6:62=? nested@7:2={status:"inner"} tags@8:2=[["x"]] id@9:2=?}`,
			`m1 "" 7:13 {status@7:28="inner"}`,
		},
	},
	{
		name: "routing tables",
		src: `package p

var routes = map[string]func(){"success": ok, "failed": retry}

var names = map[Status]string{StatusOK: "ok", "failed": "Failed"}
`,
		want: []string{
			`s0 3:32 key "success" m0`,
			`s1 3:47 key "failed" m0`,
			`s2 5:41 value "ok" key=StatusOK m1`,
			`s3 5:47 key "failed" m1`,
			`s4 5:57 value "Failed" key=failed m1`,
			`m0 "" name=routes 3:14 {success@3:32=? failed@3:47=?}`,
			`m1 "" name=names 5:13 {StatusOK@5:31="ok" failed@5:47="Failed"}`,
		},
	},
	{
		name: "rows of a table assigned to a name are no set",
		src: `package p

type want struct{ value, key string }

var status = []want{{"done", "status"}, {"failed", "status"}}
`,
		want: nil,
	}, {
		name: "sets of strings assigned to a name",
		src: `package p

var valid = []string{"success", "failure"}

func f() {
	terminal := [...]string{"done", "failed"}
	cfg.states = [][]string{{"a"}, {"b"}}
	_ = []string{"not", "named"}
}
`,
		want: []string{
			`s0 3:22 member "success" g0`,
			`s1 3:33 member "failure" g0`,
			`s2 6:26 member "done" scope=f g1`,
			`s3 6:34 member "failed" scope=f g1`,
			`s4 7:27 member "a" scope=f g2`,
			`s5 7:34 member "b" scope=f g2`,
			`g0 set "valid" 3:13 [0 1]`,
			`g1 set "terminal" scope=f 6:14 [2 3]`,
			`g2 set "cfg.states" scope=f 7:15 [4 5]`,
		},
	},
	{
		name: "comparisons",
		src: `package p

import agent "example.com/agent/v2"

func check(h *Handback, m map[string]any, status string, r Req, a A, xs []Handback, i int) {
	_ = h.Status == "FAILED" || "blocked" != status && m["status"] == "x"
	_ = h.GetStatus() == "g" || r.Get("status") == "y" || agent.Status == "z"
	_ = a.b.Status != "w" || xs[i].Status == "v" || (h.Status) == ("paren")
	_ = f(status) == "call" || "a" == "b"
	_ = status < "m" || status >= "n"
}
`,
		want: []string{
			`s0 6:18 compare "FAILED" key=Status recv=h scope=check`,
			`s1 6:30 compare "blocked" key=status scope=check`,
			`s2 6:68 compare "x" key=status recv=m scope=check`,
			`s3 7:23 compare "g" key=GetStatus recv=h scope=check`,
			`s4 7:49 compare "y" key=status recv=r scope=check`,
			`s5 7:72 compare "z" key=Status scope=check`,
			`s6 8:20 compare "w" key=Status recv=a.b scope=check`,
			`s7 8:43 compare "v" key=Status recv=xs[i] scope=check`,
			`s8 8:65 compare "paren" key=Status recv=h scope=check`,
			`s9 9:19 compare "call" scope=check`,
			`s10 9:29 compare "a" scope=check`,
			`s11 9:36 compare "b" scope=check`,
			`t0 8:27 xs key=i scope=check`,
		},
	},
	{
		name: "case folding, EqualFold and slices.Contains",
		src: `package p

import (
	"slices"
	"strings"
)

type Status string

func check(h *Handback, status string) {
	_ = strings.ToLower(string(h.Status)) == "done"
	_ = strings.TrimSpace(status) != Status("conv")
	_ = strings.EqualFold(status, "Done")
	_ = slices.Contains([]string{"a", "b"}, string(h.Status))
	_ = other.ToLower(status) == "not folded"
}
`,
		want: []string{
			`s0 11:43 compare "done" key=Status recv=h scope=check`,
			`s1 12:42 compare "conv" key=status scope=check`,
			`s2 13:32 compare "Done" key=status scope=check`,
			`s3 14:31 compare "a" key=Status recv=h scope=check`,
			`s4 14:36 compare "b" key=Status recv=h scope=check`,
			`s5 15:31 compare "not folded" scope=check`,
		},
	},
	{
		name: "switches",
		src: `package p

func (s *Server) handle(h Handback) {
	switch h.Status {
	case "success", "failure":
	case StatusBlocked:
	case "":
	default:
	}
	switch {
	case h.Status == "tagless":
	}
	switch n := len(x); n {
	case 1:
	}
}
`,
		want: []string{
			`s0 5:7 case "success" key=Status recv=h scope=Server.handle g0`,
			`s1 5:18 case "failure" key=Status recv=h scope=Server.handle g0`,
			`s2 7:7 case "" key=Status recv=h scope=Server.handle g0`,
			`s3 11:19 compare "tagless" key=Status recv=h scope=Server.handle`,
			`g0 cases "h.Status" scope=Server.handle 4:2 [0 1 2]`,
			`t0 4:9 StatusBlocked key=Status recv=h scope=Server.handle equal`,
		},
	},
	{
		name: "assignments",
		src: `package p

var pkgLevel = "pkg"

func f(h *Handback, m map[string]string) {
	h.Status = "retry"
	status := "done"
	m["status"] = "mapped"
	var s2 string = "var"
	a, b := "1", "2"
	*p = "deref"
	_ = "blank"
	status += "concat"
	c, d := g()
}
`,
		want: []string{
			`s0 3:16 assign "pkg" key=pkgLevel`,
			`s1 6:13 assign "retry" key=Status recv=h scope=f`,
			`s2 7:12 assign "done" key=status scope=f`,
			`s3 8:16 assign "mapped" key=status recv=m scope=f`,
			`s4 9:18 assign "var" key=s2 scope=f`,
			`s5 10:10 assign "1" key=a scope=f`,
			`s6 10:15 assign "2" key=b scope=f`,
			`s7 11:7 assign "deref" key=p scope=f`,
		},
	},
	{
		name: "variables bound from a field",
		src: `package p

import "strings"

func f(h *Handback, m map[string]any) {
	st := h.Status
	if st == "x" {
	}
	v, ok := m["status"]
	if ok && v == "y" {
	}
	if w, ok := m["status"].(string); ok && w == "z" {
	}
	switch s := strings.ToUpper(h.Status); s {
	case "SUCCESS":
	}
	st = "local"
	_ = st == "after"
	plain := name
	_ = plain == "unbound"
}

func g(st string) {
	_ = st == "other function"
}
`,
		want: []string{
			`s0 7:11 compare "x" key=Status recv=h scope=f`,
			`s1 10:16 compare "y" key=status recv=m scope=f`,
			`s2 12:47 compare "z" key=status recv=m scope=f`,
			`s3 15:7 case "SUCCESS" key=Status recv=h scope=f g0`,
			`s4 17:7 assign "local" key=st scope=f`,
			`s5 18:12 compare "after" key=st scope=f`,
			`s6 20:15 compare "unbound" key=plain scope=f`,
			`s7 24:12 compare "other function" key=st scope=g`,
			`g0 cases "s" scope=f 14:2 [3]`,
		},
	},
	{
		name: "returns and scopes",
		src: `package p

func plain() string { return "done" }

func named() (status string, err error) {
	return "ok", nil
}

func (r *Router[T]) route() (_ string, code string) {
	fn := func() string { return "closure" }
	return fn(), "code"
}

func (Status) String() string { return Status("conv") }

var handler = func() string { return "file" }
`,
		want: []string{
			`s0 3:30 return "done" scope=plain`,
			`s1 6:9 return "ok" key=status scope=named`,
			`s2 10:31 return "closure" scope=Router.route`,
			`s3 11:15 return "code" key=code scope=Router.route`,
			`s4 14:47 return "conv" scope=Status.String`,
			`s5 16:38 return "file"`,
		},
	},
	{
		name: "not facts",
		src: `package p

import "fmt"

type Handback struct {
	Status string ` + "`json:\"status\" yaml:\"status\"`" + `
}

func f(m map[string]string) {
	fmt.Println("argument", m["status"])
	delete(m, "status")
	h.SetStatus("setter")
	go run("go")
	defer run("defer")
}
`,
		want: nil,
	},
	{
		name: "facts in source order",
		src: `package p

func f() {
	m[K{Name: "a"}] = V{S: "b"}
	_ = g(func() string { return "r" }) == "x"
}
`,
		want: []string{
			`s0 4:12 value "a" key=Name scope=f m0`,
			`s1 4:25 value "b" key=S scope=f m1`,
			`s2 5:31 return "r" scope=f`,
			`s3 5:41 compare "x" scope=f`,
			`m0 "K" 4:4 {Name@4:6="a"}`,
			`m1 "V" 4:20 {S@4:22="b"}`,
		},
	},
	{
		name: "lookups of a field in a named collection",
		src: `package p

import (
	"slices"

	"strings"

	"example.com/states"
	"github.com/samber/lo"
)

var terminal = []string{"done", "failed"}

func route(h *Handback, m map[string]string) {
	_ = slices.Contains(terminal, h.Status)
	_ = slices.Index(states.Terminal, string(h.Status))
	_ = lo.Contains(terminal, m["status"])
	_ = isTerminal[h.Status]
	if fn, ok := routes[h.Status]; ok {
		fn()
	}
	v, ok := table[h.GetStatus()]
	st := h.Status
	if local[st] || local[strings.ToLower(st)] {
	}
	_ = slices.Index([]string{"b", "c"}, h.Status)
	_ = lo.Contains([]string{"d"}, h.Status)
}
`,
		want: []string{
			`s0 12:25 member "done" g0`,
			`s1 12:33 member "failed" g0`,
			`s2 26:28 compare "b" key=Status recv=h scope=route`,
			`s3 26:33 compare "c" key=Status recv=h scope=route`,
			`s4 27:27 compare "d" key=Status recv=h scope=route`,
			`g0 set "terminal" 12:16 [0 1]`,
			`t0 15:6 terminal key=Status recv=h scope=route`,
			`t1 16:6 Terminal key=Status recv=h scope=route`,
			`t2 17:6 terminal key=status recv=m scope=route`,
			`t3 18:6 isTerminal key=Status recv=h scope=route`,
			`t4 19:15 routes key=Status recv=h scope=route`,
			`t5 22:11 table key=GetStatus recv=h scope=route`,
			`t6 24:5 local key=Status recv=h scope=route`,
			`t7 24:18 local key=Status recv=h scope=route`,
		},
	},
	{
		name: "not lookups of a field",
		src: `package p

import (
	"slices"
	"strings"
)

func f(h *Handback, m map[string]string, s string) {
	routes[h.Status] = nil
	routes[h.Status]++
	routes[h.Status] += "x"
	(routes[h.Status]) = nil
	delete(routes, h.Status)
	_ = m["status"]
	_ = slices.Contains(terminal, g(s))
	_ = slices.Contains(g(), h.Status)
	_ = strings.Contains(s, h.Status)
	_ = other.Contains(terminal, h.Status)
	_ = slices.Contains(terminal)
	_ = xs[0] + xs[1:2]
	_ = g()[h.Status]
	_ = lo.Index(terminal, h.Status)
	_ = Map[string](xs)
	_ = Map[Status](xs)
}

type Status string
`,
		want: nil,
	},
	{
		name: "map literals bound to a name",
		src: `package p

var routes = map[string]func(){"done": nil}

var a, b = map[string]int{"k": 1}, 2

func f() {
	local := map[Status]bool{"x": true}
	var typed map[string]int = map[string]int{"y": 1}
	named := Routes{"z": nil}
	h := Handback{Status: "s"}
	p := &map[string]int{"q": 1}
	cfg.m = map[string]int{"c": 1}
	nested := []map[string]int{{"n": 1}}
	empty := map[string]int{}
}
`,
		want: []string{
			`s0 3:32 key "done" m0`,
			`s1 5:27 key "k" m1`,
			`s2 8:27 key "x" scope=f m2`,
			`s3 9:44 key "y" scope=f m3`,
			`s4 10:18 key "z" scope=f m4`,
			`s5 11:24 value "s" key=Status scope=f m5`,
			`s6 12:23 key "q" scope=f m6`,
			`s7 13:25 key "c" scope=f m7`,
			`s8 14:30 key "n" scope=f m8`,
			`m0 "" name=routes 3:14 {done@3:32=nil}`,
			`m1 "" name=a 5:12 {k@5:27=int64(1)}`,
			`m2 "" name=local scope=f 8:11 {x@8:27=bool(true)}`,
			`m3 "" name=typed scope=f 9:29 {y@9:44=int64(1)}`,
			`m4 "Routes" name=named scope=f 10:11 {z@10:18=nil}`,
			`m5 "Handback" 11:7 {Status@11:16="s"}`,
			`m6 "" 12:8 {q@12:23=int64(1)}`,
			`m7 "" 13:10 {c@13:25=int64(1)}`,
			`m8 "" 14:29 {n@14:30=int64(1)}`,
		},
	},
	{
		name: "raw and escaped strings",
		src:  "package p\n\nfunc f() {\n\ts := \"a\\tb\\u00e9\"\n\tr := `multi\nline`\n\t_ = s == \"\\x41\"\n}\n",
		want: []string{
			`s0 4:7 assign "a\tbé" key=s scope=f`,
			`s1 5:7 assign "multi\nline" key=r scope=f`,
			`s2 7:11 compare "A" key=s scope=f`,
		},
	},
}

func TestExtract(t *testing.T) {
	update := os.Getenv("UPDATE") != ""
	for _, tt := range extractTests {
		t.Run(tt.name, func(t *testing.T) {
			ff, err := Extract("x.go", []byte(tt.src))
			if err != nil && !strings.Contains(tt.name, "error") {
				t.Fatal(err)
			}
			checkInvariants(t, []byte(tt.src), ff)
			got := dump(ff)
			if update {
				fmt.Printf("\t\t\twant: []string{\n")
				for _, l := range got {
					fmt.Printf("\t\t\t\t%q,\n", l)
				}
				fmt.Printf("\t\t\t},\n")
				return
			}
			if d := diffLines(tt.want, got); d != "" {
				t.Errorf("facts differ (-want +got):\n%s", d)
			}
		})
	}
}

func diffLines(want, got []string) string {
	var b strings.Builder
	n := max(len(want), len(got))
	for i := 0; i < n; i++ {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			fmt.Fprintf(&b, "-%s\n+%s\n", w, g)
		}
	}
	return b.String()
}
