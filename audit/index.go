package audit

import (
	"encoding/binary"
	"hash/maphash"
	"unsafe"

	"github.com/protoscan-dev/protoscan/internal/offheap"
	"github.com/protoscan-dev/protoscan/jsonmsg"
)

// The index is what the audit keeps of every message for the
// cross-message checks. It is built for a fresh process's costs, where
// each new page of memory is a fault and every pointer is work for the
// garbage collector:
//
//   - a worker writes a message's ids (task id, status, parent,
//     dependencies, children) as one small record of bytes (appendIDs),
//     and the collector copies it into an arena of large byte chunks;
//   - each message is a pointer-free rec of fixed size, pointing into
//     the arena and into a table of paths;
//   - each task id is looked up once, when its message arrives: the
//     message's own id and every id it references get a task slot, so
//     that the checks at the end are walks over arrays, not map lookups.

// Index kinds: the checks tell only DELEGATEs and HANDBACKs apart.
const (
	kindOther uint8 = iota
	kindDelegate
	kindHandback
)

func kindCode(kind string) uint8 {
	switch kind {
	case "delegate":
		return kindDelegate
	case "handback":
		return kindHandback
	}
	return kindOther
}

// A record of ids is: uvarint count of dependencies, uvarint count of
// children, then 3 + both counts strings, each a uvarint length and its
// bytes: task_id, status, parent_task_id, the dependencies, the children.
// A field that is absent or not a string is an empty string; the items
// of the two lists that are not strings are left out.

// appendIDsTape appends the record of ids of the message on t, and
// returns its status ("" when it has none).
func appendIDsTape(dst []byte, t *jsonmsg.Tape) ([]byte, string) {
	// the members, found in one pass (the last of a name wins, as in
	// Member): task_id, status, parent_task_id, dependencies, children
	var at [5]int
	if len(t.Toks) > 0 && t.Toks[0].Kind == jsonmsg.Object {
		for i, n := 1, 0; n < int(t.Toks[0].Len); n++ {
			slot := -1
			switch t.Toks[i].Str {
			case "task_id":
				slot = 0
			case "status":
				slot = 1
			case "parent_task_id":
				slot = 2
			case "dependencies":
				slot = 3
			case "children_created":
				slot = 4
			}
			if slot >= 0 {
				at[slot] = i + 1
			}
			i = int(t.Toks[i+1].Next)
		}
	}
	str := func(slot int) string {
		if i := at[slot]; i > 0 && t.Toks[i].Kind == jsonmsg.String {
			return t.Toks[i].Str
		}
		return ""
	}
	// each list is walked twice, to count then to copy, rather than
	// gathered into a slice: nothing is allocated
	eachString := func(slot int, fn func(string)) {
		list := at[slot]
		if list == 0 || t.Toks[list].Kind != jsonmsg.Array {
			return
		}
		for j := list + 1; j < int(t.Toks[list].Next); j = int(t.Toks[j].Next) {
			if t.Toks[j].Kind == jsonmsg.String {
				fn(t.Toks[j].Str)
			}
		}
	}
	for _, l := range [...]int{3, 4} {
		n := 0
		eachString(l, func(string) { n++ })
		dst = binary.AppendUvarint(dst, uint64(n))
	}
	for _, slot := range [...]int{0, 1, 2} {
		dst = appendString(dst, str(slot))
	}
	for _, l := range [...]int{3, 4} {
		eachString(l, func(s string) { dst = appendString(dst, s) })
	}
	return dst, str(1)
}

// appendIDsMap appends the record of ids of a decoded message (m may be
// nil: a message that is not a mapping has no ids), and returns its
// status ("" when it has none).
func appendIDsMap(dst []byte, m map[string]any) ([]byte, string) {
	lists := [2][]any{}
	for i, k := range [...]string{"dependencies", "children_created"} {
		lists[i], _ = m[k].([]any)
		n := 0
		for _, x := range lists[i] {
			if _, ok := x.(string); ok {
				n++
			}
		}
		dst = binary.AppendUvarint(dst, uint64(n))
	}
	for _, k := range [...]string{"task_id", "status", "parent_task_id"} {
		s, _ := m[k].(string)
		dst = appendString(dst, s)
	}
	for _, l := range lists {
		for _, x := range l {
			if s, ok := x.(string); ok {
				dst = appendString(dst, s)
			}
		}
	}
	status, _ := m["status"].(string)
	return dst, status
}

func appendString(dst []byte, s string) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(s))), s...)
}

// ids is a record of ids read back. Its strings are views of the
// record's bytes: it is only read from the arena, whose bytes never
// change or move.
type ids struct {
	taskID, status, parent string
	refs                   []string // the dependencies, then the children
	nDeps                  int
}

// read decodes the record at the start of b, reusing x.refs.
func (x *ids) read(b []byte) {
	nDeps, n := binary.Uvarint(b)
	b = b[n:]
	nChildren, n := binary.Uvarint(b)
	b = b[n:]
	str := func() string {
		l, n := binary.Uvarint(b)
		s := unsafe.String(unsafe.SliceData(b[n:]), int(l))
		b = b[n+int(l):]
		return s
	}
	x.taskID, x.status, x.parent = str(), str(), str()
	x.nDeps = int(nDeps)
	x.refs = x.refs[:0]
	for range nDeps + nChildren {
		x.refs = append(x.refs, str())
	}
}

// rec is the index's memory of one message.
type rec struct {
	line int
	// refs is where its references' task slots start in index.refs
	// (see newRefs), -1 for none: the parent's (-1 for none), then one
	// per dependency and child
	refs             int64
	nDeps, nChildren uint32
	chunk, off       uint32 // its record of ids: arena[chunk][off:]
	path             uint32 // index.paths[path]
	slot             int32  // its task id's, -1 for a message without one
	kind             uint8
}

// task is what is known of one task id. The checks look one up per
// message and per reference, all over the slots, so it is kept small
// (12 bytes) and its id is in the table instead.
type task struct {
	// 1 + the index position of the first DELEGATE and the first
	// HANDBACK with the id; 0 is none (4G messages would take an index
	// of 160 GB: positions fit)
	delegate, handback uint32
	// known: a message carries the id (a reference alone does not make
	// a task known)
	known bool
}

const (
	recChunk   = 4096      // recs allocated at once
	arenaChunk = 256 << 10 // bytes of records of ids allocated at once
	slotChunk  = 8192      // task slots allocated at once
	refsChunk  = 16384     // reference slots allocated at once
)

// index is built by the collector, in input order, then read by the
// checks and handed to their Integrity, which frees it. Its bulk (the
// recs, the records of ids, the table of task ids, the task slots and
// the references) is pointer-free and lives in mem, off the Go heap: a
// fresh process gets it in huge pages, a few faults instead of
// thousands, and the garbage collector never scans it. (A Go map of the
// ids cost more in its growth alone, old tables left as garbage in fresh
// pages, than this table in all.)
type index struct {
	mem   offheap.Arena
	recs  [][]rec // in chunks, so that growing never copies
	n     int
	arena [][]byte
	paths []string
	// tasks maps a task id to its slot: open addressing in mem, probed
	// linearly, at most half full. An entry says where its id is.
	tasks []taskEntry
	seed  maphash.Seed
	slots [][]task // by slot, in chunks
	nSlot int32
	// refs holds the task slots each message references, a message's
	// never straddling two chunks (see rec.refs)
	refs [][]int32
	x    ids // scratch for add
}

func newIndex() *index { return &index{seed: maphash.MakeSeed()} }

func (ix *index) at(pos int) *rec { return &ix.recs[pos/recChunk][pos%recChunk] }

func (ix *index) task(slot int32) *task { return &ix.slots[slot/slotChunk][slot%slotChunk] }

func (ix *index) loc(r *rec) Location {
	return Location{Path: ix.paths[r.path], Line: r.line}
}

// read decodes the record of ids of r into x.
func (ix *index) read(r *rec, x *ids) { x.read(ix.arena[r.chunk][r.off:]) }

// parentOf returns the task slot of r's parent, or -1.
func (ix *index) parentOf(r *rec) int32 {
	if r.refs < 0 {
		return -1
	}
	return ix.refs[r.refs>>32][r.refs&(1<<32-1)]
}

// refsOf returns the task slots of r's dependencies, then children.
func (ix *index) refsOf(r *rec) []int32 {
	if r.refs < 0 {
		return nil
	}
	from := int(r.refs&(1<<32-1)) + 1 // after the parent's
	return ix.refs[r.refs>>32][from : from+int(r.nDeps+r.nChildren)]
}

// taskEntry is an entry of the table of task ids: the id's hash, 1 +
// its slot (0 is an empty entry) and where the id is, in the record of
// the message that first named it: arena[keyChunk][keyOff:][:keyLen].
type taskEntry struct {
	hash                     uint32
	slot                     int32
	keyChunk, keyOff, keyLen uint32
}

// key returns the task id of an entry.
func (ix *index) key(e *taskEntry) string {
	if e.keyLen == 0 {
		return ""
	}
	return unsafe.String(&ix.arena[e.keyChunk][e.keyOff], int(e.keyLen))
}

// find returns the entry of id, or the empty entry where it would go.
func (ix *index) find(id string, h uint32) *taskEntry {
	mask := len(ix.tasks) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		e := &ix.tasks[i]
		if e.slot == 0 || e.hash == h && ix.key(e) == id {
			return e
		}
	}
}

// hash is the hash of id that the table of task ids is keyed by.
func (ix *index) hash(id string) uint32 { return uint32(maphash.String(ix.seed, id)) }

// slotOf returns id's task slot, or -1.
func (ix *index) slotOf(id string) int32 {
	if len(ix.tasks) == 0 {
		return -1
	}
	return ix.find(id, ix.hash(id)).slot - 1
}

// slot returns id's task slot, adding one if the id is new. The id is a
// view of the arena chunk chunk (a string of the record just added).
func (ix *index) slot(id string, chunk uint32) int32 {
	h := ix.hash(id)
	if 2*(int(ix.nSlot)+1) > len(ix.tasks) {
		ix.growTasks()
	}
	e := ix.find(id, h)
	if e.slot > 0 {
		return e.slot - 1
	}
	s := ix.nSlot
	if s%slotChunk == 0 {
		ix.slots = append(ix.slots, offheap.Make[task](&ix.mem, slotChunk))
	}
	ix.nSlot++
	*e = taskEntry{hash: h, slot: s + 1, keyChunk: chunk, keyLen: uint32(len(id))}
	if len(id) > 0 {
		e.keyOff = uint32(uintptr(unsafe.Pointer(unsafe.StringData(id))) - uintptr(unsafe.Pointer(&ix.arena[chunk][0])))
	}
	return s
}

// growTasks doubles the table of task ids; the old one is given back to
// mem for the index's next allocations.
func (ix *index) growTasks() {
	old := ix.tasks
	ix.tasks = offheap.Make[taskEntry](&ix.mem, max(4096, 2*len(old)))
	mask := len(ix.tasks) - 1
	for _, e := range old {
		if e.slot == 0 {
			continue
		}
		i := int(e.hash) & mask
		for ix.tasks[i].slot != 0 {
			i = (i + 1) & mask
		}
		ix.tasks[i] = e
	}
	// the old table's pages are touched already: later records, slots
	// and references take them before fresh ones
	offheap.Recycle(&ix.mem, old)
}

// newRefs returns room for n reference slots, and where it starts: the
// chunk's number << 32 | the offset in the chunk.
func (ix *index) newRefs(n int) ([]int32, int64) {
	last := len(ix.refs) - 1
	if last < 0 || cap(ix.refs[last])-len(ix.refs[last]) < n {
		ix.refs = append(ix.refs, offheap.Make[int32](&ix.mem, max(refsChunk, n))[:0])
		last++
	}
	c := &ix.refs[last]
	at := int64(last)<<32 | int64(len(*c))
	*c = (*c)[:len(*c)+n]
	return (*c)[len(*c)-n:], at
}

// add indexes the next message: its kind, location and record of ids
// (copied; record is not kept).
func (ix *index) add(kind uint8, loc Location, record []byte) {
	// the arena: a record never straddles two chunks
	if n := len(ix.arena); n == 0 || cap(ix.arena[n-1])-len(ix.arena[n-1]) < len(record) {
		ix.arena = append(ix.arena, ix.mem.Bytes(max(arenaChunk, len(record)), 1)[:0])
	}
	chunk := &ix.arena[len(ix.arena)-1]
	r := rec{line: loc.Line, refs: -1, chunk: uint32(len(ix.arena) - 1), off: uint32(len(*chunk)), slot: -1, kind: kind}
	*chunk = append(*chunk, record...)
	// the path: messages of one file come one after another
	if n := len(ix.paths); n == 0 || ix.paths[n-1] != loc.Path {
		ix.paths = append(ix.paths, loc.Path)
	}
	r.path = uint32(len(ix.paths) - 1)

	ix.n++ // positions count from 1 in task
	x := &ix.x
	ix.read(&r, x)
	if x.taskID != "" {
		r.slot = ix.slot(x.taskID, r.chunk)
		t := ix.task(r.slot)
		t.known = true
		switch {
		case kind == kindDelegate && t.delegate == 0:
			t.delegate = uint32(ix.n)
		case kind == kindHandback && t.handback == 0:
			t.handback = uint32(ix.n)
		}
		// the references of a message without a task id are not checked
		var refs []int32
		refs, r.refs = ix.newRefs(1 + len(x.refs))
		refs[0] = -1
		if x.parent != "" {
			refs[0] = ix.slot(x.parent, r.chunk)
		}
		r.nDeps, r.nChildren = uint32(x.nDeps), uint32(len(x.refs)-x.nDeps)
		for i, id := range x.refs {
			refs[1+i] = ix.slot(id, r.chunk)
		}
	}
	if n := len(ix.recs); n == 0 || len(ix.recs[n-1]) == recChunk {
		ix.recs = append(ix.recs, offheap.Make[rec](&ix.mem, recChunk)[:0])
	}
	last := &ix.recs[len(ix.recs)-1]
	*last = append(*last, r)
}
