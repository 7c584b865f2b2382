// Package cache keeps a scan's per-file results on disk between runs, so
// that a re-scan of an unchanged tree looks its results up instead of
// parsing every file again. It stores values; it does not know what they
// mean (package scan decides what a file's result is).
//
// # Keys
//
// A Set is one file in the cache directory, named by a Key: the SHA-256
// of the build of protoscan (ToolID: the Go build ID of the running
// executable), and of what the caller says the results depend on besides
// each file (the spec, the config, the analyzers, the scan root...). In a
// Set, an entry is keyed by the file's path and the SHA-256 of its bytes;
// a lookup by content hash is always correct.
//
// # The stat shortcut
//
// Reading and hashing every file is most of what a warm scan would cost,
// so an entry also records the file's identity when it was hashed: size,
// modification and change times (nanoseconds), inode, device and mode. A
// file whose identity is unchanged is taken as unchanged without being
// read, but only if the identity was settled when recorded: stat'ed
// before the file was read, with both times at least two seconds older
// than a clock reading taken before that stat (the scan's start).
//
// Why that is safe: every write to a file, every utimes and chmod, sets
// its change time (ctime) to the current time, and no system call sets
// ctime to anything else. A file rewritten with its size kept and its
// modification time put back (touch -r, cp -p, rsync -t) has a new ctime;
// a file replaced by another (editors write a new file and rename it)
// has another inode or ctime, even if the inode number is reused. A
// change after the recorded stat is stamped at or after the scan's start,
// so it cannot leave a ctime two seconds older than that start; the two
// seconds cover file systems whose timestamps are coarser than the clock
// (a second write in the tick of the first would keep the times), as
// git's "racily clean" entries and go test's cached file inputs do. The
// argument assumes a clock that does not jump back over a change and a
// file system that keeps ctime (local ones do; some FUSE and network file
// systems may not): Dir.Verify (PROTOSCAN_CACHE_VERIFY=1 in the CLI)
// turns the shortcut off, and where the platform gives no ctime or inode
// it is off.
//
// # Format, size and concurrency
//
// A Set file is a magic string, the key, the entries (path, hash,
// identity) in a small binary framing, the values as one encoding/gob
// stream, and the SHA-256 of all that: a truncated, corrupt or foreign
// file is ignored (the scan runs cold) and rewritten by Save. Save writes
// a temporary file and renames it over the old one (package safefile), so
// concurrent processes never read a partial file (the last writer wins)
// and a symbolic link in the directory is replaced, never written
// through; the files are the user's alone (mode 0600); a Set holds
// only the files of the last scan, and the directory keeps at most
// maxFiles Sets and maxBytes bytes, the least recently used removed first.
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/protoscan-dev/protoscan/internal/safefile"
)

const (
	magic = "protoscan-cache\x00"
	// format is the version of the file layout; a change makes old files
	// foreign (and the ToolID changes with every build anyway).
	format = 1
	// settle is how much older than the clock a file's times must be for
	// its identity to be trusted (see the package doc).
	settle = 2 * time.Second
	// maxFiles and maxBytes bound the directory: Save removes the least
	// recently used Sets beyond them.
	maxFiles = 64
	maxBytes = 512 << 20
	// tempAge is the age beyond which a temporary file is taken to be left
	// by a process that died, and removed.
	tempAge = time.Hour
	suffix  = ".psc"
)

// Sum is the SHA-256 of a file's bytes.
type Sum [sha256.Size]byte

// SumOf returns the content hash of data.
func SumOf(data []byte) Sum { return sha256.Sum256(data) }

// Key names a Set: everything the cached values depend on besides each
// file's path and bytes.
type Key [sha256.Size]byte

// NewKey returns the key of the given parts, under this build of
// protoscan (ToolID). The parts are framed, so ("ab", "c") and ("a",
// "bc") differ.
func NewKey(parts ...string) Key {
	h := sha256.New()
	var n [8]byte
	for _, p := range append([]string{magic, ToolID()}, parts...) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write([]byte(p))
	}
	var k Key
	h.Sum(k[:0])
	return k
}

// FileID is what the system says of a file without reading it.
type FileID struct {
	Size         int64
	MTime, CTime int64 // nanoseconds since 1970
	Ino, Dev     uint64
	Mode         uint32
}

// Identify returns the identity of a file from its Lstat, and false where
// the system gives no change time or inode (the stat shortcut is then off
// for the file).
func Identify(fi fs.FileInfo) (FileID, bool) { return identify(fi) }

// settled reports whether id, stat'ed at now, may be trusted later: both
// of its times are at least settle older than now.
func settled(id FileID, now time.Time) bool {
	limit := now.Add(-settle).UnixNano()
	return id.MTime < limit && id.CTime < limit
}

// DefaultDir is the cache directory under the user's cache directory
// (os.UserCacheDir): $XDG_CACHE_HOME/protoscan or ~/.cache/protoscan on
// Linux, ~/Library/Caches/protoscan on macOS, %LocalAppData%\protoscan
// on Windows.
func DefaultDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "protoscan"), nil
}

// Dir is a cache directory.
type Dir struct {
	path string
	// Verify turns the stat shortcut off: every file is read and hashed.
	Verify bool
}

// Open returns the cache directory at path, creating it. It fails when
// the directory cannot be made or this build of protoscan cannot be
// identified (see ToolID).
func Open(path string) (*Dir, error) {
	if ToolID() == "" {
		return nil, errors.New("cache: cannot identify this build of protoscan")
	}
	if err := os.MkdirAll(path, 0o777); err != nil {
		return nil, err
	}
	return &Dir{path: path}, nil
}

// Path is the directory's path.
func (d *Dir) Path() string { return d.path }

type entry[T any] struct {
	sum     Sum
	id      FileID
	settled bool // id may be trusted (see the package doc)
	val     *T   // nil: the file has no result worth a value
}

// Set is the cached values of one Key: those loaded from the cache, and
// those of the files looked up or put since. Its methods are safe for
// concurrent use. Values are shared: callers must not modify them.
type Set[T any] struct {
	dir  *Dir
	key  Key
	name string

	mu      sync.Mutex
	old     map[string]*entry[T] // as loaded; read-only
	next    map[string]*entry[T] // this run's files
	changed bool                 // next differs from old beyond dropped paths
}

// Load returns the Set of key in d; a missing, unreadable, truncated or
// corrupt file gives an empty Set (Save then rewrites it).
func Load[T any](d *Dir, key Key) *Set[T] {
	s := &Set[T]{dir: d, key: key, name: hex.EncodeToString(key[:]) + suffix, next: map[string]*entry[T]{}}
	s.old, _ = s.read()
	if s.old == nil {
		s.old = map[string]*entry[T]{}
	}
	return s
}

// Len is the number of entries loaded.
func (s *Set[T]) Len() int { return len(s.old) }

// Stat looks path up by its identity alone, without its bytes: it finds
// the value only when the entry's identity was settled when recorded and
// id equals it. ok is false when the file must be read and hashed.
func (s *Set[T]) Stat(path string, id FileID) (val *T, ok bool) {
	if s.dir.Verify {
		return nil, false
	}
	e := s.old[path]
	if e == nil || !e.settled || e.id != id {
		return nil, false
	}
	s.mu.Lock()
	s.next[path] = e
	s.mu.Unlock()
	return e.val, true
}

// Hash looks path up by its content hash; id is the file's identity as
// stat'ed before it was read, hasID false when there is none, and now a
// clock reading taken before that stat. On a hit the entry takes the new
// identity.
func (s *Set[T]) Hash(path string, sum Sum, id FileID, hasID bool, now time.Time) (val *T, ok bool) {
	e := s.old[path]
	if e == nil || e.sum != sum {
		return nil, false
	}
	s.put(path, sum, id, hasID, now, e.val, e)
	return e.val, true
}

// Put records the value of path with content hash sum; see Hash for id,
// hasID and now. A nil val is a file with no result worth storing.
func (s *Set[T]) Put(path string, sum Sum, id FileID, hasID bool, now time.Time, val *T) {
	s.put(path, sum, id, hasID, now, val, nil)
}

func (s *Set[T]) put(path string, sum Sum, id FileID, hasID bool, now time.Time, val *T, old *entry[T]) {
	e := &entry[T]{sum: sum, id: id, settled: hasID && settled(id, now), val: val}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old != nil && old.id == e.id && old.settled == e.settled {
		e = old
	} else {
		s.changed = true
	}
	s.next[path] = e
}

// Save writes the entries of the files looked up or put since Load, and
// only those, when they differ from what was loaded; else it marks the
// Set used. The file is replaced atomically, so a failure leaves it as it
// was; callers may ignore the error (the next run is just slower).
func (s *Set[T]) Save() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	final := filepath.Join(s.dir.path, s.name)
	if !s.changed && len(s.next) == len(s.old) {
		// Chtimes follows a link: only a regular file is touched, and
		// anything else is replaced below
		if fi, err := os.Lstat(final); err == nil && fi.Mode().IsRegular() {
			now := time.Now()
			return os.Chtimes(final, now, now) // marked used, kept longest by prune
		} else if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	}
	data, err := s.encode()
	if err != nil {
		return err
	}
	// the directory is the environment's to name; a link in it is
	// replaced, never written through
	if err := safefile.WriteFile(final, data, 0o600); err != nil {
		return err
	}
	s.old, s.next, s.changed = s.next, map[string]*entry[T]{}, false
	prune(s.dir.path, s.name)
	return nil
}

// encode lays the entries of next out as the package doc says.
func (s *Set[T]) encode() ([]byte, error) {
	paths := make([]string, 0, len(s.next))
	for p := range s.next {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var b []byte
	b = append(b, magic...)
	b = binary.AppendUvarint(b, format)
	b = append(b, s.key[:]...)
	b = binary.AppendUvarint(b, uint64(len(paths)))
	var vals []*T
	for _, p := range paths {
		e := s.next[p]
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
		b = append(b, e.sum[:]...)
		b = binary.AppendVarint(b, e.id.Size)
		b = binary.AppendVarint(b, e.id.MTime)
		b = binary.AppendVarint(b, e.id.CTime)
		b = binary.AppendUvarint(b, e.id.Ino)
		b = binary.AppendUvarint(b, e.id.Dev)
		b = binary.AppendUvarint(b, uint64(e.id.Mode))
		var flags byte
		if e.settled {
			flags |= flagSettled
		}
		if e.val != nil {
			flags |= flagValue
			vals = append(vals, e.val)
		}
		b = append(b, flags)
	}
	var g bytes.Buffer
	if len(vals) > 0 {
		if err := gob.NewEncoder(&g).Encode(vals); err != nil {
			return nil, fmt.Errorf("cache: %w", err)
		}
	}
	b = binary.AppendUvarint(b, uint64(g.Len()))
	b = append(b, g.Bytes()...)
	sum := sha256.Sum256(b)
	return append(b, sum[:]...), nil
}

const (
	flagSettled = 1 << iota
	flagValue
)

// minEntry is the fewest bytes an entry takes: an empty path, the hash,
// six one-byte varints and the flags.
const minEntry = 1 + sha256.Size + 6 + 1

var errCorrupt = errors.New("cache: corrupt file")

// read loads the Set's file; any flaw gives an error and no entries.
func (s *Set[T]) read() (map[string]*entry[T], error) {
	name := filepath.Join(s.dir.path, s.name)
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxBytes {
		return nil, errCorrupt
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return decode[T](data, s.key)
}

// decode reads a Set file of key; it accepts any bytes and never panics.
func decode[T any](data []byte, key Key) (map[string]*entry[T], error) {
	if len(data) < len(magic)+sha256.Size {
		return nil, errCorrupt
	}
	body, trailer := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], trailer) {
		return nil, errCorrupt
	}
	r := reader{b: body}
	if string(r.bytes(len(magic))) != magic || r.uvarint() != format || !bytes.Equal(r.bytes(len(key)), key[:]) {
		return nil, errCorrupt
	}
	n := r.uvarint()
	if r.err || n > uint64(len(body)/minEntry) {
		return nil, errCorrupt
	}
	m := make(map[string]*entry[T], n)
	var withValue []*entry[T]
	for i := uint64(0); i < n && !r.err; i++ {
		p := string(r.bytes(int(min(r.uvarint(), uint64(len(body))))))
		e := &entry[T]{}
		copy(e.sum[:], r.bytes(len(e.sum)))
		e.id.Size = r.varint()
		e.id.MTime = r.varint()
		e.id.CTime = r.varint()
		e.id.Ino = r.uvarint()
		e.id.Dev = r.uvarint()
		e.id.Mode = uint32(r.uvarint())
		flags := r.byte()
		e.settled = flags&flagSettled != 0
		if flags&flagValue != 0 {
			withValue = append(withValue, e)
		}
		m[p] = e
	}
	glen := r.uvarint()
	g := r.bytes(int(min(glen, uint64(len(body)))))
	if r.err || len(r.b) != 0 || uint64(len(m)) != n {
		return nil, errCorrupt
	}
	if len(withValue) > 0 {
		var vals []*T
		if err := gob.NewDecoder(bytes.NewReader(g)).Decode(&vals); err != nil || len(vals) != len(withValue) {
			return nil, errCorrupt
		}
		for i, e := range withValue {
			if vals[i] == nil {
				return nil, errCorrupt
			}
			e.val = vals[i]
		}
	} else if len(g) != 0 {
		return nil, errCorrupt
	}
	return m, nil
}

// reader reads the framing; a read past the end sets err and returns
// zeros.
type reader struct {
	b   []byte
	err bool
}

func (r *reader) bytes(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.err, r.b = true, nil
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) byte() byte {
	if b := r.bytes(1); len(b) == 1 {
		return b[0]
	}
	return 0
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

// prune removes the temporary files of dead processes and the least
// recently used Sets beyond maxFiles and maxBytes; keep (just written)
// stays. Errors are ignored: another process may be pruning too.
func prune(dir, keep string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type set struct {
		name string
		size int64
		used time.Time
	}
	var sets []set
	for _, de := range ents {
		name := de.Name()
		fi, err := de.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		switch {
		case strings.Contains(name, suffix+".tmp"):
			if time.Since(fi.ModTime()) > tempAge {
				os.Remove(filepath.Join(dir, name))
			}
		case strings.HasSuffix(name, suffix) && name != keep:
			sets = append(sets, set{name, fi.Size(), fi.ModTime()})
		}
	}
	sort.Slice(sets, func(i, j int) bool { return sets[i].used.After(sets[j].used) })
	var total int64
	if fi, err := os.Stat(filepath.Join(dir, keep)); err == nil {
		total = fi.Size()
	}
	for i, s := range sets {
		total += s.size
		if i+1 >= maxFiles || total > maxBytes {
			os.Remove(filepath.Join(dir, s.name))
		}
	}
}
