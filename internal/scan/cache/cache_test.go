package cache

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

type value struct {
	Names []string
	N     float64
	Any   any
}

func testDir(t testing.TB) *Dir {
	d, err := Open(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

var (
	past   = time.Now().Add(-time.Hour)
	idA    = FileID{Size: 3, MTime: past.UnixNano(), CTime: past.UnixNano(), Ino: 7, Dev: 1, Mode: 0o644}
	recent = FileID{Size: 3, MTime: time.Now().UnixNano(), CTime: time.Now().UnixNano(), Ino: 8, Dev: 1, Mode: 0o644}
)

// fill puts three files: a settled one with a value, one without a value
// and one changed too recently for its identity to be trusted.
func fill(s *Set[value]) {
	now := time.Now()
	s.Put("a.go", SumOf([]byte("aaa")), idA, true, now, &value{Names: []string{"x", "y"}, N: 0.5, Any: "s"})
	s.Put("b.py", SumOf([]byte("bbb")), idA, true, now, nil)
	s.Put("c.yaml", SumOf([]byte("ccc")), recent, true, now, &value{N: -1, Any: 2.5})
}

func TestRoundTrip(t *testing.T) {
	d := testDir(t)
	key := NewKey("k")
	s := Load[value](d, key)
	fill(s)
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	s = Load[value](d, key)
	if s.Len() != 3 {
		t.Fatalf("loaded %d entries, want 3", s.Len())
	}
	v, ok := s.Hash("a.go", SumOf([]byte("aaa")), idA, true, time.Now())
	if !ok || !reflect.DeepEqual(v, &value{Names: []string{"x", "y"}, N: 0.5, Any: "s"}) {
		t.Errorf("a.go by hash: %v %v", v, ok)
	}
	if _, ok := s.Hash("a.go", SumOf([]byte("aab")), idA, true, time.Now()); ok {
		t.Error("a.go found with other content")
	}
	if _, ok := s.Hash("other.go", SumOf([]byte("aaa")), idA, true, time.Now()); ok {
		t.Error("content found under another path")
	}
	if v, ok := s.Stat("b.py", idA); !ok || v != nil {
		t.Errorf("b.py by identity: %v %v, want nil value, found", v, ok)
	}
	changed := idA
	changed.CTime++
	if _, ok := s.Stat("b.py", changed); ok {
		t.Error("b.py found with another ctime")
	}
	if _, ok := s.Stat("c.yaml", recent); ok {
		t.Error("c.yaml found by an identity that was not settled")
	}
	if v, ok := s.Hash("c.yaml", SumOf([]byte("ccc")), recent, true, time.Now()); !ok || v.Any != 2.5 {
		t.Errorf("c.yaml by hash: %v %v", v, ok)
	}
	d.Verify = true
	if _, ok := s.Stat("b.py", idA); ok {
		t.Error("Verify: found by identity")
	}
}

// TestSaveKeepsOnlyThisRun: entries of files not looked up are dropped;
// an unchanged Set is not rewritten.
func TestSaveKeepsOnlyThisRun(t *testing.T) {
	d := testDir(t)
	key := NewKey("k")
	s := Load[value](d, key)
	fill(s)
	s.Save()
	name := filepath.Join(d.Path(), s.name)
	before, _ := os.ReadFile(name)

	s = Load[value](d, key)
	s.Stat("a.go", idA)
	s.Hash("b.py", SumOf([]byte("bbb")), idA, true, time.Now())
	s.Hash("c.yaml", SumOf([]byte("ccc")), recent, true, time.Now())
	s.Save()
	if after, _ := os.ReadFile(name); !bytes.Equal(before, after) {
		t.Error("an unchanged Set was rewritten differently")
	}

	s = Load[value](d, key)
	s.Stat("a.go", idA)
	s.Save()
	if s = Load[value](d, key); s.Len() != 1 {
		t.Errorf("after a run that saw one file: %d entries", s.Len())
	}
}

func TestKeys(t *testing.T) {
	if NewKey("ab", "c") == NewKey("a", "bc") {
		t.Error("parts are not framed")
	}
	if ToolID() == "" {
		t.Fatal("no ToolID")
	}
	if runtime.GOOS == "linux" && !strings.HasPrefix(ToolID(), "go-build-id:") {
		t.Errorf("ToolID = %q, want the Go build ID", ToolID())
	}
	// a Set file copied under another key's name is foreign
	d := testDir(t)
	s := Load[value](d, NewKey("one"))
	fill(s)
	s.Save()
	other := Load[value](d, NewKey("two"))
	data, _ := os.ReadFile(filepath.Join(d.Path(), s.name))
	os.WriteFile(filepath.Join(d.Path(), other.name), data, 0o600)
	if n := Load[value](d, NewKey("two")).Len(); n != 0 {
		t.Errorf("foreign file: %d entries loaded", n)
	}
}

// TestCorrupt: every truncation and every flipped byte of a Set file is
// ignored (an empty Set, never a panic), and Save rewrites the file.
func TestCorrupt(t *testing.T) {
	d := testDir(t)
	key := NewKey("k")
	s := Load[value](d, key)
	fill(s)
	s.Save()
	name := filepath.Join(d.Path(), s.name)
	good, _ := os.ReadFile(name)
	try := func(what string, data []byte) {
		t.Helper()
		if err := os.WriteFile(name, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s := Load[value](d, key)
		if s.Len() != 0 {
			t.Fatalf("%s: %d entries loaded", what, s.Len())
		}
		fill(s)
		if err := s.Save(); err != nil {
			t.Fatal(err)
		}
		if s := Load[value](d, key); s.Len() != 3 {
			t.Fatalf("%s: not rewritten (%d entries)", what, s.Len())
		}
	}
	for n := 0; n < len(good); n += 1 + n/8 {
		try(fmt.Sprintf("truncated to %d bytes", n), good[:n])
	}
	for i := 0; i < len(good); i += 1 + i/8 {
		bad := bytes.Clone(good)
		bad[i] ^= 0x40
		try(fmt.Sprintf("byte %d flipped", i), bad)
	}
	try("empty", nil)
	try("text", []byte("not a cache file\n"))
}

// TestConcurrentWriters: processes saving the same Set at once never
// leave a file that does not load whole (rename is atomic, the last
// writer wins), and leave no temporary files.
func TestConcurrentWriters(t *testing.T) {
	d := testDir(t)
	key := NewKey("k")
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				s := Load[value](d, key)
				if n := s.Len(); n != 0 && n != 50 {
					t.Errorf("loaded %d entries, want 0 or 50", n)
				}
				for f := 0; f < 50; f++ {
					s.Put(fmt.Sprintf("f%d.go", f), SumOf([]byte{byte(w), byte(i)}), idA, true, time.Now(), &value{N: float64(w)})
				}
				if err := s.Save(); err != nil && runtime.GOOS != "windows" {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if n := Load[value](d, key).Len(); n != 50 {
		t.Errorf("loaded %d entries, want 50", n)
	}
	ents, _ := os.ReadDir(d.Path())
	if len(ents) != 1 {
		t.Errorf("%d files in the cache, want 1", len(ents))
	}
}

// TestPrune: the directory keeps the most recently used maxFiles Sets
// and drops temporary files of dead processes.
func TestPrune(t *testing.T) {
	d := testDir(t)
	old := time.Now().Add(-2 * tempAge)
	stale := filepath.Join(d.Path(), "x"+suffix+".tmp123")
	os.WriteFile(stale, nil, 0o600)
	os.Chtimes(stale, old, old)
	live := filepath.Join(d.Path(), "y"+suffix+".tmp456")
	os.WriteFile(live, nil, 0o600)
	var first string
	for i := 0; i < maxFiles+5; i++ {
		s := Load[value](d, NewKey(fmt.Sprint(i)))
		fill(s)
		if err := s.Save(); err != nil {
			t.Fatal(err)
		}
		// make the order of use certain whatever the file system's clock
		at := time.Now().Add(time.Duration(i-1000) * time.Second)
		os.Chtimes(filepath.Join(d.Path(), s.name), at, at)
		if i == 0 {
			first = s.name
		}
	}
	var sets int
	ents, _ := os.ReadDir(d.Path())
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), suffix) {
			sets++
		}
		if e.Name() == first {
			t.Error("the least recently used Set was kept")
		}
	}
	if sets != maxFiles {
		t.Errorf("%d Sets kept, want %d", sets, maxFiles)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a stale temporary file was kept")
	}
	if _, err := os.Stat(live); err != nil {
		t.Error("a recent temporary file was removed")
	}
}

// TestIdentify: an identity changes with every write, even one that
// keeps the size and puts the modification time back.
func TestIdentify(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	os.WriteFile(name, []byte("aaa"), 0o644)
	id := func() FileID {
		fi, err := os.Lstat(name)
		if err != nil {
			t.Fatal(err)
		}
		id, ok := Identify(fi)
		if !ok {
			t.Skip("no identities on", runtime.GOOS)
		}
		return id
	}
	a := id()
	if settled(a, time.Now()) {
		t.Error("a file written just now is settled")
	}
	if !settled(a, time.Now().Add(settle+time.Second)) {
		t.Error("not settled after the settle time")
	}
	mtime := time.Unix(0, a.MTime)
	time.Sleep(10 * time.Millisecond) // past the file system's timestamp tick
	os.WriteFile(name, []byte("bbb"), 0o644)
	os.Chtimes(name, mtime, mtime)
	b := id()
	if b.MTime != a.MTime || b.Size != a.Size {
		t.Fatalf("setup: size or mtime differ: %+v %+v", a, b)
	}
	if a == b {
		t.Error("same identity after a rewrite with the modification time put back")
	}
}

// FuzzDecode: decode accepts any bytes without panicking, checksum or no.
func FuzzDecode(f *testing.F) {
	d, err := Open(filepath.Join(f.TempDir(), "cache"))
	if err != nil {
		f.Fatal(err)
	}
	key := NewKey("k")
	s := Load[value](d, key)
	fill(s)
	s.Save()
	good, _ := os.ReadFile(filepath.Join(d.Path(), s.name))
	f.Add(good[:len(good)-sha256.Size])
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, body []byte) {
		sum := sha256.Sum256(body)
		decode[value](append(bytes.Clone(body), sum[:]...), key)
		decode[value](body, key)
	})
}

// benchSet is a Set the size of the Go standard library's: 7,000 files,
// one in ten with a value.
func benchSet(b *testing.B) (*Dir, Key) {
	d := testDir(b)
	key := NewKey("bench")
	s := Load[value](d, key)
	for i := 0; i < 7000; i++ {
		var v *value
		if i%10 == 0 {
			v = &value{Names: []string{"enumdrift/legacy-status", fmt.Sprint("src/pkg/file", i, ".go")}, N: float64(i), Any: 0.5}
		}
		s.Put(fmt.Sprintf("src/pkg%d/file%d.go", i/20, i), SumOf([]byte(fmt.Sprint(i))), idA, true, time.Now(), v)
	}
	if err := s.Save(); err != nil {
		b.Fatal(err)
	}
	return d, key
}

// BenchmarkLoad reads a Set of 7,000 entries (what a warm scan of the Go
// standard library starts with).
func BenchmarkLoad(b *testing.B) {
	d, key := benchSet(b)
	for b.Loop() {
		if Load[value](d, key).Len() != 7000 {
			b.Fatal("not loaded")
		}
	}
}

// BenchmarkSave writes a Set of 7,000 entries (after a cold scan).
func BenchmarkSave(b *testing.B) {
	d, key := benchSet(b)
	s := Load[value](d, key)
	for b.Loop() {
		for p, e := range s.old {
			s.Put(p, e.sum, e.id, false, time.Now(), e.val) // a change: rewritten
		}
		if err := s.Save(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSaveReplacesLink: a symbolic link at a Set's file (a cache directory
// inside a checkout may hold one) is replaced by the cache's own file,
// mode 0600; its target is neither written nor touched.
func TestSaveReplacesLink(t *testing.T) {
	for _, changed := range []bool{true, false} {
		d := testDir(t)
		victim := filepath.Join(t.TempDir(), "victim")
		if err := os.WriteFile(victim, []byte("precious"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(victim, past, past); err != nil {
			t.Fatal(err)
		}
		key := NewKey("k")
		s := Load[value](d, key)
		name := filepath.Join(d.Path(), s.name)
		if err := os.Symlink(victim, name); err != nil {
			t.Skipf("no symbolic links: %v", err)
		}
		if changed {
			fill(s)
		}
		if err := s.Save(); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(victim); string(got) != "precious" {
			t.Errorf("changed=%v: the link's target now holds %q", changed, got)
		}
		if fi, err := os.Stat(victim); err != nil || !fi.ModTime().Equal(past) {
			t.Errorf("changed=%v: the link's target was touched", changed)
		}
		fi, err := os.Lstat(name)
		if err != nil || !fi.Mode().IsRegular() {
			t.Fatalf("changed=%v: %s is not a regular file: %v", changed, name, err)
		}
		if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
			t.Errorf("changed=%v: mode %v, want 0600", changed, fi.Mode().Perm())
		}
	}
}
