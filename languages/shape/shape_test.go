package shape

import (
	"slices"
	"testing"
)

func TestFingerprintIgnoresNothingButNamesAndValues(t *testing.T) {
	// if q < 0.5 { return true }; return false  (both languages write this)
	a := []Token{Param, If, Lt, Name, Field, Field, Num, Return, Bool, End, Return, Bool}
	b := slices.Clone(a)
	if !slices.Equal(Fingerprint(a), Fingerprint(b)) {
		t.Fatal("equal token sequences must give equal fingerprints")
	}
	if s := Similarity(Fingerprint(a), Fingerprint(b)); s != 1 {
		t.Fatalf("Similarity of twins = %v, want 1", s)
	}
	c := []Token{Param, Loop, Name, Call, Name, Name, End, Assign, Name, Map, End, End}
	if s := Similarity(Fingerprint(a), Fingerprint(c)); s > 0.2 {
		t.Fatalf("Similarity of unrelated bodies = %v, want near 0", s)
	}
}

func TestFingerprintSharedRunIsFound(t *testing.T) {
	run := []Token{If, Lt, Name, Field, Num, Return, Bool, End, If, Ge, Name, Field, Num, Raise, Str}
	a := append([]Token{Assign, Name, Call, Name, End}, run...)
	b := append(slices.Clone(run), Loop, Name, Break, End)
	fa, fb := Fingerprint(a), Fingerprint(b)
	if s := Similarity(fa, fb); s < 0.3 {
		t.Fatalf("Similarity = %v for bodies sharing a run of %d tokens; want >= 0.3", s, len(run))
	}
}

func TestFingerprintShortAndEmpty(t *testing.T) {
	if Fingerprint(nil) != nil {
		t.Fatal("empty body must have no fingerprint")
	}
	short := Fingerprint([]Token{Return, Bool})
	if len(short) != 1 {
		t.Fatalf("short body: %d hashes, want 1", len(short))
	}
	if Similarity(short, Fingerprint([]Token{Return, Nil})) != 0 {
		t.Fatal("different short bodies must not match")
	}
	if Similarity(nil, short) != 0 {
		t.Fatal("Similarity with an empty fingerprint must be 0")
	}
}

func TestFingerprintSortedUnique(t *testing.T) {
	var toks []Token
	for i := 0; i < 200; i++ {
		toks = append(toks, Token(1+i%int(numTokens-1)))
	}
	fp := Fingerprint(toks)
	if !slices.IsSorted(fp) || len(slices.Compact(slices.Clone(fp))) != len(fp) {
		t.Fatalf("fingerprint not sorted and unique: %v", fp)
	}
	// winnowing keeps at least one hash per window
	if len(fp) == 0 || len(fp) > len(toks) {
		t.Fatalf("fingerprint has %d hashes for %d tokens", len(fp), len(toks))
	}
}

func TestFieldName(t *testing.T) {
	for in, want := range map[string]string{
		"retry_count": "retry_count", "RetryCount": "retry_count", "retryCount": "retry_count",
		"TaskID": "task_id", "HTTPStatus": "http_status", "Status": "status", "Metrics": "metrics",
		"DurationSeconds": "duration_seconds", "ID": "id", "Sha256Sum": "sha256_sum", "": "",
	} {
		if got := FieldName(in); got != want {
			t.Errorf("FieldName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTokenNames(t *testing.T) {
	for tok := Func; tok < numTokens; tok++ {
		if tok.String() == "Token?" {
			t.Errorf("token %d has no name", tok)
		}
	}
}
