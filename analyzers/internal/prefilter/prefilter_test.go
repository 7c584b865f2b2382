package prefilter

import "testing"

func TestContainsWord(t *testing.T) {
	for _, tc := range []struct {
		text, needle string
		w            Word
		quoted, want bool
	}{
		{"if status == x", "status", Ident, false, true},
		{"status_code = 1", "status", Ident, false, false},
		{"delegate_scope = 1", "scope", Part, false, true},
		{"delegate_scope = 1", "scope", Ident, false, false},
		{"telescope", "scope", Part, false, false},
		{`x = "success"`, "success", Ident, true, true},
		{`x = ' success'`, "success", Ident, true, true},
		{"functools.partial", "partial", Ident, true, false},
		{"successful", "success", Part, false, false},
		{"", "x", Part, false, false},
	} {
		if got := ContainsWord([]byte(tc.text), []byte(tc.needle), tc.w, tc.quoted); got != tc.want {
			t.Errorf("ContainsWord(%q, %q, %d, %v) = %v, want %v", tc.text, tc.needle, tc.w, tc.quoted, got, tc.want)
		}
	}
}

// TestByteOrderMark: a UTF-8 BOM at the start of a file does not glue
// itself to the first word (a YAML HANDBACK whose first key is task_id
// was not prefiltered in); elsewhere bytes >= 0x80 still continue words.
func TestByteOrderMark(t *testing.T) {
	if !ContainsWord([]byte("\xef\xbb\xbftask_id: a-1\n"), []byte("task_id"), Ident, false) {
		t.Error("task_id after a BOM not found")
	}
	if ContainsWord([]byte("x\xef\xbb\xbftask_id: a-1\n"), []byte("task_id"), Ident, false) {
		t.Error("task_id after a BOM inside the text found")
	}
	if ContainsWord([]byte("\xef\xbb\xbf\xc3\xa9task_id"), []byte("task_id"), Ident, false) {
		t.Error("task_id after a BOM and a letter found")
	}
}
