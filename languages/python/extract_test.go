package python

import (
	"os"
	"strings"
	"testing"
)

// update prints the actual rendering of failing cases, to review by eye.
var update = os.Getenv("PROTOSCAN_SHOW") != ""

type tcase struct {
	name, src, want string
}

func runCases(t *testing.T, cases []tcase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(strings.TrimPrefix(c.src, "\n"))
			f, err := Extract("t.py", src)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, src, f)
			got := render(f)
			want := strings.TrimPrefix(c.want, "\n")
			if got != want {
				if update {
					t.Errorf("got:\n%s", got)
				} else {
					t.Errorf("got:\n%s\nwant:\n%s", got, want)
				}
			}
		})
	}
}

func TestDicts(t *testing.T) {
	runCases(t, []tcase{
		{"literal", `
h = {"task_id": tid, "status": "done", "output": None}
`, `
S key "task_id" m=0 @1:6-1:15
S key "status" m=0 @1:22-1:30
S value "done" key=status m=0 @1:32-1:38
S key "output" m=0 @1:40-1:48
M "" name=h @1:5 task_id@1:6=?@1:17 status@1:22="done"@1:32 output@1:40=nil@1:50
`},
		{"values", `
m = {"i": 1, "h": 0x1F, "n": -2, "f": 1.5, "e": -1e3, "t": True, "fa": False, "l": ["a", 2], "tu": ("x",),
     "d": {"k": "v"}, "s": {"a"}, "c": f(), "fs": f"{x}", "b": b"x", "j": 1j, "sp": {**o}, "big": 99999999999999999999}
`, `
S key "i" m=0 @1:6-1:9
S key "h" m=0 @1:14-1:17
S key "n" m=0 @1:25-1:28
S key "f" m=0 @1:34-1:37
S key "e" m=0 @1:44-1:47
S key "t" m=0 @1:55-1:58
S key "fa" m=0 @1:66-1:70
S key "l" m=0 @1:79-1:82
S value "a" key=l m=0 @1:85-1:88
S key "tu" m=0 @1:94-1:98
S value "x" key=tu m=0 @1:101-1:104
S key "d" m=0 @2:6-2:9
S key "k" m=1 @2:12-2:15
S value "v" key=k m=1 @2:17-2:20
S key "s" m=0 @2:23-2:26
S value "a" key=s m=0 @2:29-2:32
S key "c" m=0 @2:35-2:38
S key "fs" m=0 @2:45-2:49
S key "b" m=0 @2:59-2:62
S key "j" m=0 @2:70-2:73
S key "sp" m=0 @2:79-2:83
S key "big" m=0 @2:92-2:97
M "" name=m @1:5 i@1:6=1@1:11 h@1:14=31@1:19 n@1:25=-2@1:30 f@1:34=1.5f@1:39 e@1:44=-1000f@1:49 t@1:55=true@1:60 fa@1:66=false@1:72 l@1:79=["a",2]@1:84 tu@1:94=["x"]@1:100 d@2:6={k:"v"}@2:11 s@2:23=["a"]@2:28 c@2:35=?@2:40 fs@2:45=?@2:51 b@2:59=?@2:64 j@2:70=?@2:75 sp@2:79=?@2:85 big@2:92=1e+20f@2:99
M "" @2:11 k@2:12="v"@2:17
`},
		{"non-string keys are left out", `
d = {1: "one", K: "k", "a": "b", **rest}
e = {1: "x"}
{}
`, `
S key "a" m=0 @1:24-1:27
S value "b" key=a m=0 @1:29-1:32
M "" name=d @1:5 a@1:24="b"@1:29
`},
		{"routing table", `
ROUTES = {"success": handle, "failed": retry}
`, `
S key "success" m=0 @1:11-1:20
S key "failed" m=0 @1:30-1:38
M "" name=ROUTES @1:10 success@1:11=?@1:22 failed@1:30=?@1:40
`},
		{"health check is faithful", `
def health():
    return {"status": "ok"}
`, `
S key "status" scope=health m=0 @2:13-2:21
S value "ok" key=status scope=health m=0 @2:23-2:27
M "" @2:12 status@2:13="ok"@2:23
`},
		{"parenthesized and concatenated", `
d = {("k"): ("a" "b")}
`, `
S key "k" m=0 @1:7-1:10
S value "ab" key=k m=0 @1:14-1:21
M "" name=d @1:5 k@1:7="ab"@1:14
`},
	})
}

func TestCalls(t *testing.T) {
	runCases(t, []tcase{
		{"constructors", `
r = dict(task_id=tid, status="failed")
h = Handback(task_id="t-1", status=f"fail")
models.Handback(status='partial', **extra)
send(h, status='escalate')
print("positional only")
f()
`, `
S value "failed" key=status m=0 @1:30-1:38
S value "t-1" key=task_id m=1 @2:22-2:27
S value "fail" key=status m=1 @2:36-2:43
S value "partial" key=status m=2 @3:24-3:33
S value "escalate" key=status m=3 @4:16-4:26
M "dict" name=r @1:5 task_id@1:10=?@1:18 status@1:23="failed"@1:30
M "Handback" @2:5 task_id@2:14="t-1"@2:22 status@2:29="fail"@2:36
M "Handback" @3:1 status@3:17="partial"@3:24
M "send" @4:1 status@4:9="escalate"@4:16
`},
		{"get default", `
s = msg.get("status", "pending")
t = getattr(msg, "status", "unknown")
u = os.environ.get("HOME")
d.setdefault("status", "new")
`, `
S value "pending" key=status recv=msg @1:23-1:32
S value "unknown" key=status recv=msg @2:28-2:37
S value "new" key=status recv=d @4:24-4:29
`},
		{"kwarg containers", `
configure(allowed=["success", "failure"], mode="a" if x else "b")
`, `
S value "success" key=allowed m=0 @1:20-1:29
S value "failure" key=allowed m=0 @1:31-1:40
S value "a" key=mode m=0 @1:48-1:51
S value "b" key=mode m=0 @1:62-1:65
M "configure" @1:1 allowed@1:11=["success","failure"]@1:19 mode@1:43=?@1:48
`},
	})
}

func TestAssignments(t *testing.T) {
	runCases(t, []tcase{
		{"module level", `
status = "done"
x.status = "partial"
x["status"] = "done"
y: str = "typed"
a = b = "chained"
p, q = "first", "second"
r = s.get("k") or "fallback"
self.h.status = "nested"
x[0] = "index"
x["a", "b"] = "multi"
`, `
S assign "done" key=status @1:10-1:16
S assign "partial" key=status recv=x @2:12-2:21
S assign "done" key=status recv=x @3:15-3:21
S assign "typed" key=y @4:10-4:17
S assign "chained" key=b @5:9-5:18
S assign "first" key=p @6:8-6:15
S assign "second" key=q @6:17-6:25
S assign "fallback" key=r @7:19-7:29
S assign "nested" key=status recv=self.h @8:17-8:25
`},
		{"dead stores", `
def f(x):
    msg = "status"
    used = "live"
    status = "done"
    other = ["a", "b"]
    x.status = "attr"
    call(used)
    return {"status": status}
`, `
S assign "live" key=used scope=f @3:12-3:18
S assign "done" key=status scope=f @4:14-4:20
S assign "attr" key=status recv=x scope=f @6:16-6:22
S key "status" scope=f m=0 @8:13-8:21
M "" @8:12 status@8:13=?@8:23
`},
		{"parameter defaults", `
def f(status="pending", *, mode: str = "fast", n=1):
    pass
g = lambda kind="k": kind
`, `
S assign "pending" key=status scope=f @1:14-1:23
S assign "fast" key=mode scope=f @1:40-1:46
S assign "k" key=kind @3:17-3:20
`},
		{"augmented is not an assignment", `
x.status += "k"
`, ``},
	})
}

func TestComparisons(t *testing.T) {
	runCases(t, []tcase{
		{"subjects", `
def check(x, status):
    if x.status == "completed": pass
    if x["status"] != "success": pass
    if "SUCCESS" == x.status: pass
    if x.get("status") in ("blocked", "escalated"): pass
    if x.get("status", "") not in ["a", "b"]: pass
    if getattr(x, "status") is "c": pass
    if status in {"d", "e"}: pass
    if x.status.lower() == "done": pass
    if x.status is not "f": pass
    if foo() == "g": pass
    if "h" in x.tags: pass
    if "i" == "j": pass
    if x.status < "k": pass
`, `
S compare "completed" key=status recv=x scope=check @2:20-2:31
S compare "success" key=status recv=x scope=check @3:23-3:32
S compare "SUCCESS" key=status recv=x scope=check @4:8-4:17
S compare "blocked" key=status recv=x scope=check @5:28-5:37
S compare "escalated" key=status recv=x scope=check @5:39-5:50
S value "" key=status recv=x scope=check @6:24-6:26
S compare "a" key=status recv=x scope=check @6:36-6:39
S compare "b" key=status recv=x scope=check @6:41-6:44
S compare "c" key=status recv=x scope=check @7:32-7:35
S compare "d" key=status scope=check @8:19-8:22
S compare "e" key=status scope=check @8:24-8:27
S compare "done" key=status recv=x scope=check @9:28-9:34
S compare "f" key=status recv=x scope=check @10:24-10:27
S compare "g" scope=check @11:17-11:20
S compare "h" key=tags recv=x scope=check @12:8-12:11
`},
		{"bound locals", `
def route(msg):
    s = msg.get("status")
    if s == "done": pass
    t = msg["status"].strip()
    if t in ("a", "b"): pass
    s = compute()
    if s == "unbound": pass
    if (w := msg.status) == "walrus": pass
`, `
S compare "done" key=status recv=msg scope=route @3:13-3:19
S compare "a" key=status recv=msg scope=route @5:14-5:17
S compare "b" key=status recv=msg scope=route @5:19-5:22
S compare "unbound" key=s scope=route @7:13-7:22
S compare "walrus" key=status recv=msg scope=route @8:29-8:37
`},
		{"chained", `
ok = "a" == x.status != "b"
ok = x._type == "polygon" == y._type
`, `
S compare "a" key=status recv=x @1:6-1:9
S compare "b" key=status recv=x @1:25-1:28
S compare "polygon" key=_type recv=x @2:17-2:26
`},
	})
}

func TestGroups(t *testing.T) {
	runCases(t, []tcase{
		{"enums", `
class Status(str, Enum):
    """Doc."""
    SUCCESS = "success"
    FAILURE = 'failure'
    _ignore_ = "x"
    def label(self):
        return "label"

class S2(StrEnum):
    A = "a"

class S3(enum.Enum):
    B = "b"

class Code(IntEnum):
    OK = 0

class Plain:
    C = "c"
`, `
S member "success" key=SUCCESS scope=Status g=0 @3:15-3:24
S member "failure" key=FAILURE scope=Status g=0 @4:15-4:24
S assign "x" key=_ignore_ scope=Status @5:16-5:19
S return "label" scope=Status.label @7:16-7:23
S member "a" key=A scope=S2 g=1 @10:9-10:12
S member "b" key=B scope=S3 g=2 @13:9-13:12
S assign "c" key=C scope=Plain @19:9-19:12
G enum "Status" @1:7 [0 1]
G enum "S2" @9:7 [4]
G enum "S3" @12:7 [5]
`},
		{"sets", `
TERMINAL = {"success", "failure"}
VALID: frozenset[str] = frozenset({"a", "b"})
L = ["c", "d"]
T = ("e",)
F = frozenset(["f"])
MIXED = {"g", 1}
class K:
    KINDS = ("h", "i")
def f():
    local = ("j", "k")
    return local
`, `
S member "success" key=TERMINAL g=0 @1:13-1:22
S member "failure" key=TERMINAL g=0 @1:24-1:33
S member "a" key=VALID g=1 @2:36-2:39
S member "b" key=VALID g=1 @2:41-2:44
S member "c" key=L g=2 @3:6-3:9
S member "d" key=L g=2 @3:11-3:14
S member "e" key=T g=3 @4:6-4:9
S member "f" key=F g=4 @5:16-5:19
S assign "g" key=MIXED @6:10-6:13
S member "h" key=KINDS scope=K g=5 @8:14-8:17
S member "i" key=KINDS scope=K g=5 @8:19-8:22
S member "j" key=local scope=f g=6 @10:14-10:17
S member "k" key=local scope=f g=6 @10:19-10:22
G set "TERMINAL" @1:1 [0 1]
G set "VALID" @2:1 [2 3]
G set "L" @3:1 [4 5]
G set "T" @4:1 [6]
G set "F" @5:1 [7]
G set "KINDS" scope=K @8:5 [9 10]
G set "local" scope=f @10:5 [11 12]
`},
		{"literals", `
Status = Literal["success", 'failure']
x: Literal["a"] = "a"
z: Optional[Literal["b", "c"]] = None
w: typing.Literal["d"]
def f(s: Literal["k"], t: Literal["m"] = "m") -> Literal["y", "z"]:
    pass
class Handback(TypedDict):
    status: Literal["success", "partial"]
type T = Literal["q"]
v = cast(Literal["r"], v)
`, `
S member "success" key=Status g=0 @1:18-1:27
S member "failure" key=Status g=0 @1:29-1:38
S member "a" key=x g=1 @2:12-2:15
S assign "a" key=x @2:19-2:22
S member "b" key=z g=2 @3:21-3:24
S member "c" key=z g=2 @3:26-3:29
S member "d" key=w g=3 @4:19-4:22
S member "k" key=s scope=f g=4 @5:18-5:21
S member "m" key=t scope=f g=5 @5:35-5:38
S assign "m" key=t scope=f @5:42-5:45
S member "y" scope=f g=6 @5:58-5:61
S member "z" scope=f g=6 @5:63-5:66
S member "success" key=status scope=Handback g=7 @8:21-8:30
S member "partial" key=status scope=Handback g=7 @8:32-8:41
S member "q" key=T g=8 @9:18-9:21
S member "r" g=9 @10:18-10:21
G literal "Status" @1:10 [0 1]
G literal "x" @2:4 [2]
G literal "z" @3:13 [4 5]
G literal "w" @4:4 [6]
G literal "s" scope=f @5:10 [7]
G literal "t" scope=f @5:27 [8]
G literal "f" scope=f @5:50 [10 11]
G literal "status" scope=Handback @8:13 [12 13]
G literal "T" @9:10 [14]
G literal "" @10:10 [15]
`},
	})
}

func TestMatch(t *testing.T) {
	runCases(t, []tcase{
		{"cases", `
def f(msg, status):
    match msg.status:
        case "a" | "b":
            pass
        case ("c" | "d") as e:
            pass
        case "x", "y":
            pass
        case "g" if cond:
            pass
        case _:
            return "other"
    match status:
        case "q":
            pass
    match msg:
        case {"status": "done", **rest}:
            pass
        case Handback(status="failed" | "blocked"):
            pass
    match msg["status"]:
        case 1:
            pass
`, `
S case "a" key=status recv=msg scope=f g=0 @3:14-3:17
S case "b" key=status recv=msg scope=f g=0 @3:20-3:23
S case "c" key=status recv=msg scope=f g=0 @5:15-5:18
S case "d" key=status recv=msg scope=f g=0 @5:21-5:24
S case "g" key=status recv=msg scope=f g=0 @9:14-9:17
S return "other" scope=f @12:20-12:27
S case "q" key=status scope=f g=1 @14:14-14:17
S case "done" key=status recv=msg scope=f @17:25-17:31
S case "failed" key=status recv=msg scope=f @19:30-19:38
S case "blocked" key=status recv=msg scope=f @19:41-19:50
G cases "msg.status" scope=f @2:5 [0 1 2 3 4]
G cases "status" scope=f @13:5 [6]
`},
	})
}

func TestReturnsAndSkips(t *testing.T) {
	runCases(t, []tcase{
		{"returns", `
def f():
    return "done"
def g(ok):
    return "a" if ok else "b"
def h():
    return "failed", err
def i():
    return ["x", "y"]
return "module"
`, `
S return "done" scope=f @2:12-2:18
S return "a" scope=g @4:12-4:15
S return "b" scope=g @4:27-4:30
S return "failed" scope=h @6:12-6:20
S return "x" scope=i @8:13-8:16
S return "y" scope=i @8:18-8:21
S return "module" @9:8-9:16
`},
		{"skipped", `
"""Module docstring."""
def f():
    """Docstring."""
    "bare"
    print("positional")
    x = f"{a}b"
    y = b"bytes"
    z = rb"raw bytes"
    return x, y, z
`, ``},
	})
}

func TestStringValues(t *testing.T) {
	runCases(t, []tcase{
		{"decoding", `
a = "tab\there"
b = r"raw\n"
c = 'q\'q'
d = "\x41\101\u00e9\U0001F600"
e = f"plain{{}}"
f = u"unicode"
g = """triple
quoted"""
h = "a" "b" 'c'
i = "\N{BULLET}"
j = "cont\
inued"
k = "bad\q"
l = Rf"{{raw}}\n"
m = "é"
`, `
S assign "tab\there" key=a @1:5-1:16
S assign "raw\\n" key=b @2:5-2:13
S assign "q'q" key=c @3:5-3:11
S assign "AAé😀" key=d @4:5-4:31
S assign "plain{}" key=e @5:5-5:17
S assign "unicode" key=f @6:5-6:15
S assign "triple\nquoted" key=g @7:5-8:10
S assign "abc" key=h @9:5-9:16
S assign "\\N{BULLET}" key=i @10:5-10:17
S assign "continued" key=j @11:5-12:7
S assign "bad\\q" key=k @13:5-13:12
S assign "{raw}\\n" key=l @14:5-14:18
S assign "é" key=m @15:5-15:9
`},
	})
}

func TestScopes(t *testing.T) {
	runCases(t, []tcase{
		{"nested", `
class A:
    X = "class level"
    def m(self):
        def inner():
            return "inner"
        return "method"
    class B:
        def n(self):
            return "nested class"
@decorator(kind="deco")
def top():
    return "top"
`, `
S assign "class level" key=X scope=A @2:9-2:22
S return "inner" scope=A.m.inner @5:20-5:27
S return "method" scope=A.m @6:16-6:24
S return "nested class" scope=A.B.n @9:20-9:34
S value "deco" key=kind m=0 @10:17-10:23
S return "top" scope=top @12:12-12:17
M "decorator" @10:2 kind@10:12="deco"@10:17
`},
	})
}

func TestSyntaxErrors(t *testing.T) {
	runCases(t, []tcase{
		{"recovers inside a function", `
ok = {"status": "done"}
def f(h):
    h.status = "partial"
    x = )
    return "failed"
good = "after"
`, `
S key "status" m=0 @1:7-1:15
S value "done" key=status m=0 @1:17-1:23
S assign "partial" key=status recv=h scope=f @3:16-3:25
S assign "after" key=good @6:8-6:15
M "" name=ok @1:6 status@1:7="done"@1:17
`},
		{"error swallows what follows", `
ok = {"status": "done"}
def broken(:
    x = = "lost"
good = "after"
def fine():
    return {"status": "failed"}
`, `
S key "status" m=0 @1:7-1:15
S value "done" key=status m=0 @1:17-1:23
S key "status" m=1 @6:13-6:21
S value "failed" key=status m=1 @6:23-6:31
M "" name=ok @1:6 status@1:7="done"@1:17
M "" @6:12 status@6:13="failed"@6:23
`},
		{"unterminated string", `
a = "ok"
b = "unterminated
c = "later"
`, `
S assign "ok" key=a @1:5-1:9
S assign "later" key=c @3:5-3:12
`},
	})
}

func TestLookups(t *testing.T) {
	runCases(t, []tcase{
		{"membership tests and lookups of a field", `
def route(h, status):
    if status in TERMINAL: pass
    if h["status"] not in done_states: pass
    if h.status in STATES.keys(): pass
    fn = ROUTES[h.status]
    fn = ROUTES.get(h.status)
    fn = ROUTES.get(h["status"], default)
    if h.status in states.TERMINAL: pass
    s = h.get("status").lower()
    if s in self.ALLOWED: pass
    if getattr(h, "status") in (VALID): pass
`, `
T TERMINAL key=status scope=route @2:8
T done_states key=status recv=h scope=route @3:8
T STATES key=status recv=h scope=route @4:8
T ROUTES key=status recv=h scope=route @5:10
T ROUTES key=status recv=h scope=route @6:10
T ROUTES key=status recv=h scope=route @7:10
T TERMINAL key=status recv=h scope=route @8:8
T ALLOWED key=status recv=h scope=route @10:8
T VALID key=status recv=h scope=route @11:8
`},
		{"a bare name is a subject, as in a comparison", `
for x in items:
    if x == "a" or x in LIST: pass
`, `
S compare "a" key=x @2:13-2:16
T LIST key=x @2:20
`},
		{"not lookups of a field", `
def f(h, xs):
    if f(x) in LIST: pass
    if "done" in LIST: pass
    if len(h.status) in SIZES: pass
    if h.status in STATES.values(): pass
    if h.status in STATES.keys(1): pass
    if h.status in make_states(): pass
    ROUTES[h.status] = fn
    ROUTES[h.status] += 1
    del ROUTES[h.status]
    v = ROUTES["status"]
    w = xs[0] + xs[1:2] + grid[h.x, h.y]
    ROUTES.get("status")
    table()[h.status]
    ROUTES.get(h.status, d, e)
    ROUTES.get(key=h.status)
    return v, w
`, `
S compare "done" key=LIST scope=f @3:8-3:14
M "get" @16:5 key@16:16=?@16:20
`},
	})
}

// TestTestBranches: what the code does when a field's value is in the
// collection it is tested against, read from the test's if, assert or
// returned verdict.
func TestTestBranches(t *testing.T) {
	runCases(t, []tcase{
		{"validations that gate acceptance", `
def check(h, errors):
    if h["status"] not in VALID:
        raise ValueError(h["status"])
    if h.agent not in AGENTS:
        return False
    if not (h.effort in EFFORTS):
        errors.append("effort")
    assert h.phase in PHASES, "bad phase"
    if h.kind in KINDS:
        return True
    if h.x in BLOCKED or h.y:
        raise ValueError("blocked")
    if h.z not in ZS:
        pass
    else:
        return True

def is_valid_status(status):
    return status in STATUSES
`, `
T VALID key=status recv=h scope=check accept @2:8
T AGENTS key=agent recv=h scope=check accept @4:8
T EFFORTS key=effort recv=h scope=check accept @6:13
T PHASES key=phase recv=h scope=check accept @8:12
T KINDS key=kind recv=h scope=check accept @9:8
T BLOCKED key=x recv=h scope=check reject @11:8
T ZS key=z recv=h scope=check accept @13:8
T STATUSES key=status scope=is_valid_status accept @19:12
`},
		{"tests that route or look up", `
def route(h):
    if h.agent in ENGINEERS:
        assign(h)
    elif h.agent in REVIEWERS:
        review(h)
    if h.status in TERMINAL:
        finish(h)
    fn = ROUTES[h.status]
    done = h.status in TERMINAL
    assert h.phase, h.phase in PHASES
    return h.status in TERMINAL

def is_done(h):
    if h.status in TERMINAL:
        return True
    if h.agent not in AGENTS:
        return False
    return False
`, `
T ENGINEERS key=agent recv=h scope=route @2:8
T REVIEWERS key=agent recv=h scope=route @4:10
T TERMINAL key=status recv=h scope=route @6:8
T ROUTES key=status recv=h scope=route @8:10
T TERMINAL key=status recv=h scope=route @9:12
T PHASES key=phase recv=h scope=route @10:21
T TERMINAL key=status recv=h scope=route @11:12
T TERMINAL key=status recv=h scope=is_done @14:8
T AGENTS key=agent recv=h scope=is_done @16:8
`},
	})
}

func TestBindings(t *testing.T) {
	runCases(t, []tcase{
		{"sets at every level, wrapped and annotated", `
TERMINAL: set[str] = {"success", "failure"}
DONE: Final = frozenset({"a", "b"})
DONE2: Final[frozenset[str]] = frozenset(["c"])
S = set(["d", "e"])
T = tuple(("f",))
class Router:
    ALLOWED = ("g", "h")
    def route(self, h):
        done = ["j", "k"]
        single = "l"
        unused = ["n"]
        s = h.status
        s = ["o"]
        if h.status in done and s == "p": pass
        return single
`, `
S member "success" key=TERMINAL g=0 @1:23-1:32
S member "failure" key=TERMINAL g=0 @1:34-1:43
S member "a" key=DONE g=1 @2:26-2:29
S member "b" key=DONE g=1 @2:31-2:34
S member "c" key=DONE2 g=2 @3:43-3:46
S member "d" key=S g=3 @4:10-4:13
S member "e" key=S g=3 @4:15-4:18
S member "f" key=T g=4 @5:12-5:15
S member "g" key=ALLOWED scope=Router g=5 @7:16-7:19
S member "h" key=ALLOWED scope=Router g=5 @7:21-7:24
S member "j" key=done scope=Router.route g=6 @9:17-9:20
S member "k" key=done scope=Router.route g=6 @9:22-9:25
S assign "l" key=single scope=Router.route @10:18-10:21
S member "o" key=s scope=Router.route g=7 @13:14-13:17
S compare "p" key=s scope=Router.route @14:38-14:41
G set "TERMINAL" @1:1 [0 1]
G set "DONE" @2:1 [2 3]
G set "DONE2" @3:1 [4]
G set "S" @4:1 [5 6]
G set "T" @5:1 [7]
G set "ALLOWED" scope=Router @7:5 [8 9]
G set "done" scope=Router.route @9:9 [10 11]
G set "s" scope=Router.route @13:9 [13]
T done key=status recv=h scope=Router.route @14:12
`},
		{"enum groups are defined where their class is", `
def f():
    class Local(Enum):
        A = "a"
    return Local
`, `
S member "a" key=A scope=f.Local g=0 @3:13-3:16
G enum "Local" scope=f @2:11 [0]
`},
		{"named mappings", `
ALIASES: dict[str, str] = {"ok": "success"}
LEGACY = dict(ok="success")
class Router:
    TABLE = {"i": 1}
    def route(self, h):
        table = {"m": h}
        local = dict(o="p")
        return table[h.status], local
def f():
    x = y = {"q": 1}
    z = ({"r": 2})
    w = [{"s": 3}]
    send({"t": 4})
    h.data = {"u": 5}
    return x, y, z, w
`, `
S key "ok" m=0 @1:28-1:32
S value "success" key=ok m=0 @1:34-1:43
S value "success" key=ok m=1 @2:18-2:27
S key "i" scope=Router m=2 @4:14-4:17
S key "m" scope=Router.route m=3 @6:18-6:21
S value "p" key=o scope=Router.route m=4 @7:24-7:27
S key "q" scope=f m=5 @10:14-10:17
S key "r" scope=f m=6 @11:11-11:14
S key "s" scope=f m=7 @12:11-12:14
S key "t" scope=f m=8 @13:11-13:14
S key "u" scope=f m=9 @14:15-14:18
M "" name=ALIASES @1:27 ok@1:28="success"@1:34
M "dict" name=LEGACY @2:10 ok@2:15="success"@2:18
M "" name=TABLE scope=Router @4:13 i@4:14=1@4:19
M "" name=table scope=Router.route @6:17 m@6:18=?@6:23
M "dict" name=local scope=Router.route @7:17 o@7:22="p"@7:24
M "" name=y scope=f @10:13 q@10:14=1@10:19
M "" name=z scope=f @11:10 r@11:11=2@11:16
M "" @12:10 s@12:11=3@12:16
M "" @13:10 t@13:11=4@13:16
M "" @14:14 u@14:15=5@14:20
T table key=status recv=h scope=Router.route @8:16
`},
	})
}
