package msgcheck

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRepoKey: the key changes with what New reads from the repository
// (the skills), and only with that.
func TestRepoKey(t *testing.T) {
	root := t.TempDir()
	key := func() string {
		v, err := New(Options{Root: root}, DefaultSpec())
		if err != nil {
			t.Fatal(err)
		}
		return v.RepoKey()
	}
	none := key()
	if err := os.MkdirAll(filepath.Join(root, "skills", "deploy"), 0o777); err != nil {
		t.Fatal(err)
	}
	one := key()
	if one == none {
		t.Error("same key with and without skills/")
	}
	if err := os.WriteFile(filepath.Join(root, "skills", "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if key() != one {
		t.Error("a file that is no skill changed the key")
	}
	if err := os.WriteFile(filepath.Join(root, "skills", "review.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if key() == one {
		t.Error("a new skill left the key as it was")
	}
}
