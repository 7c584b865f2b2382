package typescript

import (
	"strings"
	"testing"
)

type tcase struct {
	name, src, want string
}

func runCases(t *testing.T, cases []tcase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(strings.TrimPrefix(c.src, "\n"))
			path := "t.ts"
			if strings.Contains(c.name, "JSX") {
				path = "t.tsx"
			}
			f, err := Extract(path, src)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, src, f)
			if got, want := render(f), strings.TrimPrefix(c.want, "\n"); got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestVocabularies(t *testing.T) {
	runCases(t, []tcase{
		{"union type", `
export type Status = "success" | 'failed' | null;
type Wide = "a" | string;
`, `
S member "success" key=Status g=0 @1:22-1:31
S member "failed" key=Status g=0 @1:34-1:42
G literal "Status" @1:8 [0 1]
`},
		{"enum", `
export const enum Kind { Delegate = "DELEGATE", Count, N = 2 }
`, `
S member "DELEGATE" key=Delegate scope=Kind g=0 @1:37-1:47
G enum "Kind" @1:8 [0]
`},
		{"zod", `
const H = z.object({ status: z.enum(["SUCCESS", "failed"]), kind: z.literal("HANDBACK"),
  mode: z.union([z.literal("a"), z.literal(` + "`b`" + `)]) });
`, `
S key "status" m=0 @1:22-0:0
S member "SUCCESS" key=status g=0 @1:38-1:47
S member "failed" key=status g=0 @1:49-1:57
S key "kind" m=0 @1:61-0:0
S member "HANDBACK" key=kind g=1 @1:77-1:87
S key "mode" m=0 @2:3-0:0
S member "a" key=mode g=2 @2:28-2:31
S member "b" key=mode g=2 @2:44-2:47
G literal "status" @1:30 [1 2]
G literal "kind" @1:67 [4]
G literal "mode" @2:9 [6 7]
M "" @1:20 status@1:22=?@1:30 kind@1:61=?@1:67 mode@2:3=?@2:9
`},
		{"as const, sets and tests", `
const TERMINAL = ["done", "failed"] as const;
const Status = { Done: "done", Failed: "failed" } as const;
const OPEN = new Set(["queued"]);
function route(hb: Handback) {
  const { status } = hb;
  if (TERMINAL.includes(hb.status) || OPEN.has(status)) return ROUTES[hb["status"]];
  if (["a", "b"].includes(status)) return 1;
}
`, `
S member "done" key=TERMINAL g=0 @1:19-1:25
S member "failed" key=TERMINAL g=0 @1:27-1:35
S member "done" key=Done g=1 @2:24-2:30
S member "failed" key=Failed g=1 @2:40-2:48
S member "queued" key=OPEN g=2 @3:23-3:31
S compare "a" key=status recv=hb scope=route @7:8-7:11
S compare "b" key=status recv=hb scope=route @7:13-7:16
G set "TERMINAL" @1:7 [0 1]
G enum "Status" @2:7 [2 3]
G set "OPEN" @3:14 [4]
T TERMINAL key=status recv=hb scope=route @6:7
T OPEN key=status recv=hb scope=route @6:39
T ROUTES key=status recv=hb scope=route @6:64
`},
		{"switch, compare, assign, return", `
class Router {
  route(hb) {
    switch (hb.status) { case "success": return "ok"; case 'failed': break; }
    if (hb?.status === "partial" || "blocked" !== hb["status"]!) hb.status = "x";
  }
}
const f = (msg, kind = "DELEGATE") => msg.kind == "HANDBACK";
`, `
S case "success" key=status recv=hb scope=Router.route g=0 @3:31-3:40
S return "ok" scope=Router.route @3:49-3:53
S case "failed" key=status recv=hb scope=Router.route g=0 @3:60-3:68
S compare "partial" key=status recv=hb scope=Router.route @4:24-4:33
S compare "blocked" key=status recv=hb scope=Router.route @4:37-4:46
S assign "x" key=status recv=hb scope=Router.route @4:78-4:81
S assign "DELEGATE" key=kind scope=f @7:24-7:34
S compare "HANDBACK" key=kind recv=msg scope=f @7:51-7:61
G cases "hb.status" scope=Router.route @3:5 [0 2]
`},
		{"routing table and JSX", `
const ROUTES = { success: done, "failed": retry };
export const Badge = ({ status }) => <span title="done">{status === "done" ? "ok" : "ko"}</span>;
`, `
S key "success" m=0 @1:18-0:0
S key "failed" m=0 @1:33-1:41
S compare "done" key=status scope=Badge @2:69-2:75
M "" name=ROUTES @1:16 success@1:18=?@1:27 failed@1:33=?@1:43
`},
	})
}

// TestGrammarBySuffix: JSX parses in .tsx and the JavaScript suffixes,
// where TypeScript would read <span> as a type assertion.
func TestGrammarBySuffix(t *testing.T) {
	src := []byte(`const B = ({ status }) => <i>{status === "done" && "x"}</i>;` + "\n")
	for _, p := range []string{"a.tsx", "a.jsx", "a.js", "a.mjs", "a.cjs", "a.TSX"} {
		f, err := Extract(p, src)
		if err != nil || len(f.Strings) != 1 || f.Strings[0].Role.String() != "compare" {
			t.Errorf("%s: %v %s", p, err, render(f))
		}
	}
	if f, _ := Extract("a.js", src); f.Lang != "javascript" {
		t.Errorf("a.js: Lang %q", f.Lang)
	}
	if f, _ := Extract("a.d.ts", []byte(`export type S = "a" | "b";`)); f.Lang != "typescript" || len(f.Groups) != 1 {
		t.Errorf("a.d.ts: %s", render(f))
	}
}

func TestBudgets(t *testing.T) {
	deep := "const m = { a: " + strings.Repeat("[", 100) + `"x"` + strings.Repeat("]", 100) + " };\n"
	f, err := Extract("d.ts", []byte(deep))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, []byte(deep), f)
	v := f.Mappings[0].Entries[0].Value
	for range maxDepth + 1 {
		l, ok := v.([]any)
		if !ok {
			break
		}
		v = l[0]
	}
	if render := renderValue(v); render != "?" {
		t.Errorf("a value %d levels deep: %s, want computed", 100, render)
	}
}
