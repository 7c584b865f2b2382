package phase

import (
	"reflect"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	got := tokenize("Typecheck: 0 errors; 47/47 tests PASS, v2.5 didn’t run ✅ src/x.ts")
	want := []string{"typecheck", "0", "errors", "47/47", "tests", "pass", "v2.5", "didn't", "run", "✅", "src", "x", "ts"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tokenize = %q\nwant       %q", got, want)
	}
	if got := tokenize("coverage 85.5% took 1.5s"); !reflect.DeepEqual(got, []string{"coverage", "85.5", "took", "1.5s"}) {
		t.Errorf("numbers: %q", got)
	}
}

func TestClassify(t *testing.T) {
	name := map[polarity]string{silent: "silent", mention: "mention", vague: "vague", claim: "claim", against: "against"}
	for _, tc := range []struct {
		clause string
		lex    lexicon
		want   polarity
	}{
		// commands: explicit claims
		{"typecheck: 0 errors", commandLex, claim},
		{"all 47 tests pass", commandLex, claim},
		{"Tests: 12 passed, 0 failed", commandLex, claim},
		{"lint clean", commandLex, claim},
		{"47/47 green", commandLex, claim},
		{"npm test exited with code 0", commandLex, claim},
		{"no type errors", commandLex, claim},
		{"build finished without errors", commandLex, claim},
		{"eslint ✅", commandLex, claim},
		{"fixed 2 type errors, typecheck passes", commandLex, claim},
		{"fixed the failing auth test", commandLex, mention},
		{"tsc: 0 errors, 3 warnings", commandLex, claim},
		// commands: contradictions
		{"typecheck not run", commandLex, against},
		{"tests didn't run", commandLex, against},
		{"46 passed, 1 failed", commandLex, against},
		{"46/47 tests", commandLex, against},
		{"build fails on CI", commandLex, against},
		{"tests are not passing", commandLex, against},
		{"typecheck: 3 errors", commandLex, against},
		{"npm test exited with code 1", commandLex, against},
		{"e2e skipped", commandLex, against},
		// commands: vague language is not evidence
		{"tests should pass", commandLex, vague},
		{"it probably passes", commandLex, vague},
		{"I think it's done", commandLex, vague},
		{"typecheck will pass once merged", commandLex, vague},
		{"lint seems fine", commandLex, vague},
		// commands: a mention claims nothing
		{"ran npm test", commandLex, mention},
		{"added tests for the handler", commandLex, mention},
		// files
		{"created src/x.ts", fileLex, claim},
		{"src/x.ts (new)", fileLex, claim},
		{"did not create src/x.ts", fileLex, against},
		{"src/x.ts: TODO", fileLex, against},
		{"failed to create src/x.ts", fileLex, against},
		{"src/x.ts deleted", fileLex, against},
		{"src/x.ts should exist now", fileLex, vague},
		{"see src/x.ts", fileLex, mention},
		{"removed debug logging from src/x.ts", fileFromLex, claim},
		// visual
		{"screenshot of /auth attached", visualLex, claim},
		{"/auth renders the login form", visualLex, claim},
		{"no screenshot of /auth", visualLex, against},
		{"/auth is blank", visualLex, against},
		{"/auth should look right", visualLex, vague},
		{"route /auth added", visualLex, mention},
	} {
		if got := classify(tc.clause, tc.lex); got != tc.want {
			t.Errorf("classify(%q) = %s, want %s", tc.clause, name[got], name[tc.want])
		}
	}
}

func TestContainsPath(t *testing.T) {
	for _, tc := range []struct {
		text, p string
		want    bool
	}{
		{"created src/x.ts", "src/x.ts", true},
		{"created `src/x.ts`.", "src/x.ts", true},
		{"created ./src/x.ts", "src/x.ts", true},
		{"src/x.ts, src/y.ts", "src/y.ts", true},
		{"src/x.ts/", "src/x.ts", true},
		{"created src/x.tsx", "src/x.ts", false},
		{"created lib/src/x.ts", "src/x.ts", false},
		{"created src/x.ts.bak", "src/x.ts", false},
		{"mysrc/x.ts", "src/x.ts", false},
		{"src/x.tsx and src/x.ts", "src/x.ts", true},
		{"http://localhost:3000/auth renders", "/auth", true},
		{"/auth/callback renders", "/auth", false},
		{"/authorize renders", "/auth", false},
		{"anything", "", false},
	} {
		if got := containsPath(tc.text, tc.p); got != tc.want {
			t.Errorf("containsPath(%q, %q) = %v, want %v", tc.text, tc.p, got, tc.want)
		}
	}
}

func TestQuote(t *testing.T) {
	if got := quote("  typecheck:\t0 errors "); got != "'typecheck: 0 errors'" {
		t.Errorf("quote = %s", got)
	}
	long := strings.Repeat("é", 150)
	if got := quote(long); got != "'"+strings.Repeat("é", 100)+"…'" {
		t.Errorf("long quote = %s", got)
	}
}
