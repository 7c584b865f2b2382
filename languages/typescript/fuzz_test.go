package typescript

import "testing"

// FuzzExtract checks that any input extracts without panicking with each
// grammar, that the result satisfies checkInvariants, and that
// extraction is deterministic.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"",
		`type S = "a" | ("b" | 'c') | null; enum E { A = "x", B }`,
		`const H = z.object({ s: z.enum(["a", "b"]), k: z.union([z.literal("x"), z.literal(` + "`y`" + `)]) });`,
		`const T = ["a"] as const; const O = { A: "a" } as const; const S = new Set(["q"]);`,
		"function f(hb, s = 'k') { const { status, kind: k = \"d\" } = hb; switch (hb?.status!) { case \"a\": return `r`; }\n if (T.includes(status) || S.has(k) || k in R || R[hb[\"status\"]] === 'x') hb.status = \"z\"; }",
		`const B = ({ status }) => <i title="x">{status === "done" ? "\u{1F600}\x41\0" : "\u00e9"}</i>;`,
		`const m = { "a": [1, -2, 0x1F, 1_000, 1e3, true, null, { b: "c" }], [c]: 1, ...o, d() {} };`,
		"x = ((((( \"unclosed",
		"\x00\xff\"'`{[(/",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, path := range []string{"f.ts", "f.tsx", "f.js"} {
			a, err := Extract(path, src)
			if err != nil {
				continue // over the budget of operations
			}
			checkInvariants(t, src, a)
			b, err := Extract(path, src)
			if err != nil {
				t.Fatal(err)
			}
			if ra, rb := render(a), render(b); ra != rb {
				t.Fatalf("not deterministic:\n%s\n---\n%s", ra, rb)
			}
		}
	})
}
