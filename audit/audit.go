// Package audit checks a message queue the way a consistency checker
// does: every DELEGATE and HANDBACK of a directory tree (one YAML or JSON
// file per message), of JSON Lines logs or of a stream is validated with
// msgcheck on every core, and the messages are checked against each other
// (orphan HANDBACKs, pending DELEGATEs, duplicate task ids, references to
// unknown tasks, dependency cycles, unfinished work in a done folder).
//
// It streams: a message is read, decoded, validated and reduced to a few
// counters and one small index entry (its task id and references), so
// memory grows with the index only, never with the messages themselves.
// A malformed line or file is an error at its location, and the audit
// goes on.
package audit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/internal/offheap"
	"github.com/protoscan-dev/protoscan/internal/yamlnode"
	"github.com/protoscan-dev/protoscan/jsonmsg"
	"github.com/protoscan-dev/protoscan/languages/jsondoc"
	"github.com/protoscan-dev/protoscan/languages/yamldoc"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// Options configure an audit.
type Options struct {
	Validator *msgcheck.Validator
	Spec      *msgcheck.Spec // the default spec, for kind detection
	// Workers validate at once; 0 means one per CPU.
	Workers int
	// MaxLine is the longest JSON Lines line, and the largest message
	// file, read (default 16 MiB); a longer one is an error and the
	// audit goes on after it.
	MaxLine int
	// Verdicts, when set, receives one line per message in input order:
	// "1" valid, "0" invalid or malformed.
	Verdicts io.Writer
}

// Input is one source of messages: a path (file or directory) or "-".
type Input = string

// Run audits the inputs and returns the summary. Errors reading an input
// are part of the summary (Problems); err is only for a cancelled
// context or a failed Verdicts writer.
func Run(ctx context.Context, inputs []Input, stdin io.Reader, opts Options) (*Summary, error) {
	if opts.MaxLine <= 0 {
		opts.MaxLine = 16 << 20
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	a := newAggregator(opts.Spec)
	bufs := &chunkBufs{}
	rec := &recycler{}
	defer bufs.close() // after the collector is done with every batch
	jobs := make(chan *batch, 2*workers)
	done := make(chan *batch, 2*workers)
	var wg sync.WaitGroup
	tallies := make([]*tally, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		tallies[w] = newTally()
		go func(t *tally) {
			defer wg.Done()
			c := newChecker(opts)
			for b := range jobs {
				b.ids = rec.getIDs()
				if b.chunk != "" {
					b.items = splitLines(rec.getItems(), b.chunk, b.name, b.firstLine, b.newlines, opts.MaxLine)
					b.chunk = ""
				}
				for i := range b.items {
					it := &b.items[i]
					if it.load {
						if docs := loadFile(it, opts.MaxLine); docs != nil {
							for j := range docs {
								c.checkAndCount(&docs[j], &b.ids, t)
							}
							if b.docs == nil {
								b.docs = map[int][]item{}
							}
							b.docs[i] = docs
							continue
						}
					}
					c.checkAndCount(it, &b.ids, t)
				}
				done <- b
			}
		}(tallies[w])
	}
	// the collector puts batches back in input order, so the summary and
	// the verdicts do not depend on scheduling
	var collectErr error
	collected := make(chan struct{})
	go func() {
		defer close(collected)
		pending := map[int]*batch{}
		next := 0
		for b := range done {
			pending[b.seq] = b
			for {
				nb, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				next++
				collect := func(it *item) {
					a.add(nb, it)
					if it.unread != "" || it.schema || opts.Verdicts == nil || collectErr != nil {
						return
					}
					v := verdictInvalid
					if it.valid {
						v = verdictValid
					}
					_, collectErr = opts.Verdicts.Write(v)
				}
				for i := range nb.items {
					it := &nb.items[i]
					docs, file := []item(nil), false
					if nb.docs != nil { // no map lookup per JSON Lines message
						docs, file = nb.docs[i]
					}
					if !file {
						collect(it)
						continue
					}
					// a file of several messages (or none), malformed
					// documents among them, in their order
					for j := range docs {
						collect(&docs[j])
					}
				}
				rec.putItems(nb.items)
				rec.putIDs(nb.ids)
				nb.items, nb.ids = nil, nil
				if nb.buf != nil {
					bufs.release(nb.buf) // nothing of its messages is left
					nb.buf = nil
				}
			}
		}
	}()
	r := &reader{ctx: ctx, jobs: jobs, maxLine: opts.MaxLine, bufs: bufs, spec: opts.Spec}
	for _, in := range inputs {
		if ctx.Err() != nil {
			break
		}
		if in == "-" {
			r.jsonl("-", stdin)
			continue
		}
		r.path(in)
	}
	r.flush()
	close(jobs)
	wg.Wait()
	close(done)
	<-collected
	s := a.finish(tallies)
	if err := ctx.Err(); err != nil {
		return s, err
	}
	return s, collectErr
}

var verdictValid, verdictInvalid = []byte("1\n"), []byte("0\n")

// item is one message on its way through the pipeline.
type item struct {
	// input
	data  string // a JSON message, or "" when value is set
	value any    // a YAML document already converted
	loc   Location
	kind  string // from the file name, when the layout says it
	// output
	// decodeErr is set for a message that was read but cannot be
	// decoded: it counts as a malformed message (CheckMalformed)
	decodeErr error
	// unread is set for an input that could not be read (a file, a line
	// over the limit): the collector records it as a problem, in order
	unread string
	// schema is set for a JSON Schema document, which is no message: it
	// is counted apart (Summary.Schemas) and gets no verdict
	schema bool
	valid  bool
	// load says the worker reads the file at loc.Path (one message per
	// file, or several YAML documents: see loadFile)
	load   bool
	status string // a HANDBACK's, for the tally only (see the worker loop)
	// an invalid message's first error and how many it has, for
	// Summary.InvalidMessages (copies: the Result's lists are reused)
	errKind, errRule, errMsg string
	errN                     int
	// what the index keeps: the kind and the record of ids, at
	// batch.ids[idsFrom:idsTo] (see appendIDsTape)
	indexKind      uint8
	idsFrom, idsTo int
}

// batch groups items so that the channels are not the bottleneck.
type batch struct {
	seq   int
	items []item
	// a chunk of JSON Lines, split into items by the worker that takes
	// the batch: the reader only cuts the stream at line ends
	chunk     string
	name      string
	firstLine int
	newlines  int // in chunk, counted by the reader
	// buf holds chunk's bytes (see reader.jsonl): recycled by the
	// collector once the batch is counted
	buf *[]byte
	// ids holds the items' records of ids, for the index
	ids []byte
	// docs holds the messages of the items that are files of several
	// YAML documents (or none), by item
	docs map[int][]item
}

const batchSize = 256

// Location is where a message is: a file, and a line for JSON Lines and
// multi-document YAML.
type Location struct {
	Path string
	Line int
}

func (l Location) String() string {
	if l.Line > 0 {
		return string(l.appendTo(nil))
	}
	return l.Path
}

// appendTo appends l as String writes it.
func (l Location) appendTo(b []byte) []byte {
	b = append(b, l.Path...)
	if l.Line > 0 {
		b = strconv.AppendInt(append(b, ':'), int64(l.Line), 10)
	}
	return b
}

// newChecker returns a worker's checker. Its decoders reject invalid
// UTF-8 rather than decode it to U+FFFD: a message that had to be altered
// to be read is malformed, as `protoscan validate` and a YAML file say.
func newChecker(opts Options) *checker {
	c := &checker{opts: opts, dec: jsonmsg.Decoder{Reuse: true, StrictUTF8: true}}
	// a key given twice is malformed too, as `protoscan validate` and a
	// YAML file say, rather than the last one winning; the tape parses
	// every JSON message first, so the decoder never sees one
	c.tape.StrictUTF8, c.tape.UniqueKeys = true, true
	return c
}

// checker checks the messages of one worker. Decoding is the hot path,
// so its decoder and tape are recycled from message to message: nothing
// of a message is kept past check and count but its record of ids,
// copied by the index (see item, tally).
type checker struct {
	opts Options
	dec  jsonmsg.Decoder
	tape jsonmsg.Tape
	// res holds the findings of the message checked last: they are
	// counted (tally.count) before the next is checked, so one Result's
	// lists serve them all
	res msgcheck.Result
	// copies of the first error of each invalid message (see item.keep)
	texts textArena
}

// textArena keeps copies of strings past the Result they came from,
// which reuses its memory for the next message. Most first errors of
// invalid messages repeat ("plan: required field is missing"), so a copy
// is shared by all who spell it the same, up to maxShared spellings; the
// rest are copied into chunks of textChunk bytes that are only ever
// appended to. Either way an audit of many invalid messages does not
// touch fresh memory for each, which costs more than the copying.
type textArena struct {
	shared map[string]string
	buf    []byte
}

const (
	maxShared = 4096
	textChunk = 64 << 10
)

func (a *textArena) keep(s string) string {
	if c, ok := a.shared[s]; ok {
		return c
	}
	if len(s) == 0 {
		return ""
	}
	var c string
	if len(s) > textChunk/8 {
		c = strings.Clone(s)
	} else {
		if cap(a.buf)-len(a.buf) < len(s) {
			a.buf = make([]byte, 0, textChunk)
		}
		n := len(a.buf)
		a.buf = append(a.buf, s...)
		c = unsafe.String(&a.buf[n], len(s))
	}
	if a.shared == nil {
		a.shared = map[string]string{}
	}
	if len(a.shared) < maxShared {
		a.shared[c] = c
	}
	return c
}

// check validates one message into c.res, unless it cannot be decoded
// (it.decodeErr), and appends its record of ids to *ids. A message
// validated on the tape gets its findings in c.res's reused lists: they
// must be counted before the next call. The item keeps only the verdict.
func (c *checker) check(it *item, ids *[]byte) {
	v := it.value
	if it.data != "" {
		// validating on the tape skips the maps and boxed values of a
		// decoded message; Validate takes what the tape walk declines
		if err := c.tape.Parse(it.data); err != nil {
			it.decodeErr = docError("JSON", err)
			return
		}
		kind, named := c.opts.Spec.MessageKindTape(&c.tape, it.kind)
		if !named && msgcheck.IsSchemaTape(&c.tape) {
			it.schema, it.data = true, ""
			return
		}
		if c.opts.Validator.ValidateTapeInto(kind, &c.tape, &c.res) {
			from := len(*ids)
			var status string
			*ids, status = appendIDsTape(*ids, &c.tape)
			it.keep(&c.res, &c.texts, from, len(*ids), status)
			it.data = ""
			return
		}
		var err error
		if v, err = c.dec.DecodeString(it.data); err != nil {
			it.decodeErr = docError("JSON", err)
			return
		}
		it.data = "" // the text is not kept past validation
	}
	m, _ := v.(map[string]any)
	kind, named := c.opts.Spec.MessageKind(m, it.kind)
	if !named && m != nil && msgcheck.IsSchemaMap(m) {
		it.schema = true
		return
	}
	c.res = c.opts.Validator.Validate(kind, v)
	from := len(*ids)
	var status string
	*ids, status = appendIDsMap(*ids, m)
	it.keep(&c.res, &c.texts, from, len(*ids), status)
}

// keep records what is kept of a checked message: its verdict, its kind
// and record of ids (at ids[from:to]) for the index, and its status for
// the tally. An invalid message's first error is copied into texts: res's
// strings are reused by the next message.
func (it *item) keep(res *msgcheck.Result, texts *textArena, from, to int, status string) {
	it.valid, it.indexKind, it.idsFrom, it.idsTo, it.status = res.Valid, kindCode(res.Kind), from, to, status
	it.errKind, it.errRule, it.errMsg, it.errN = "", "", "", 0
	if !res.Valid && len(res.Errors) > 0 {
		e := &res.Errors[0]
		it.errKind, it.errRule, it.errMsg, it.errN = res.Kind, texts.keep(e.Rule), texts.keep(e.Message), len(res.Errors)
	}
}

// reader walks the inputs and feeds batches.
type reader struct {
	ctx     context.Context
	jobs    chan<- *batch
	cur     *batch
	seq     int
	maxLine int
	bufs    *chunkBufs
	spec    *msgcheck.Spec // for the kind a file's name gives
}

// problem sends an unreadable input down the pipeline, so that it is
// recorded in input order by the collector (the one goroutine that
// writes the summary).
func (r *reader) problem(l Location, msg string) {
	r.push(item{unread: msg, loc: l})
}

func (r *reader) push(it item) {
	if r.cur == nil {
		r.cur = &batch{seq: r.seq, items: make([]item, 0, batchSize)}
		r.seq++
	}
	r.cur.items = append(r.cur.items, it)
	if len(r.cur.items) == batchSize {
		r.flush()
	}
}

func (r *reader) flush() {
	if r.cur != nil && len(r.cur.items) > 0 {
		select {
		case r.jobs <- r.cur:
		case <-r.ctx.Done():
		}
	}
	r.cur = nil
}

func (r *reader) path(p string) {
	fi, err := os.Stat(p)
	if err != nil {
		r.problem(Location{Path: p}, err.Error())
		return
	}
	if !fi.IsDir() {
		r.file(p)
		return
	}
	var files []string
	resolved, err := filepath.EvalSymlinks(p) // for the links under p
	if err != nil {
		resolved = p
	}
	walkRoot := p
	if lfi, err := os.Lstat(p); err == nil && lfi.Mode()&fs.ModeSymlink != 0 {
		// a PATH that is a link to a directory is what the user asked
		// for: a trailing separator makes WalkDir follow it (only it)
		walkRoot = p + string(filepath.Separator)
	}
	err = filepath.WalkDir(walkRoot, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			r.problem(Location{Path: q}, err.Error())
			return nil
		}
		if d.IsDir() {
			if q != walkRoot && skippedDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if r.link(q, d.Name(), resolved) {
				files = append(files, q)
			}
			return nil
		}
		if d.Type().IsRegular() && messageFile(q) {
			files = append(files, q)
		}
		return nil
	})
	if err != nil {
		r.problem(Location{Path: p}, err.Error())
	}
	// the files in the order of their paths, a contract of the report;
	// WalkDir's is close but not the same ("q/a/x.json" before
	// "q/a.json": it sorts a folder's names, not whole paths)
	slices.Sort(files)
	for _, f := range files {
		if r.ctx.Err() != nil {
			return
		}
		r.file(f)
	}
}

func skippedDir(name string) bool { return strings.HasPrefix(name, ".") || name == "node_modules" }

// link judges a symbolic link met in a tree whose root resolves to root,
// and says whether to audit it as a message file. Links are never
// followed into directories, so a loop cannot hang the walk. A link to a
// file or directory under the root is passed over: its target is
// audited at its own path (following it would count its messages twice,
// as duplicates). A link to a message file elsewhere is audited at the
// link's path; a link to a directory elsewhere, or one that cannot be
// resolved (broken, a loop), is a problem: the audit is incomplete.
func (r *reader) link(q, name, root string) bool {
	if skippedDir(name) {
		return false
	}
	target, err := filepath.EvalSymlinks(q)
	if err != nil {
		if messageFile(q) || !errors.Is(err, fs.ErrNotExist) {
			r.problem(Location{Path: filepath.ToSlash(q)}, "symbolic link that cannot be followed: "+err.Error())
		}
		return false
	}
	if rel, err := filepath.Rel(root, target); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	fi, err := os.Stat(target)
	switch {
	case err != nil:
		r.problem(Location{Path: filepath.ToSlash(q)}, err.Error())
	case fi.IsDir():
		if abs, err := filepath.Abs(target); err == nil {
			target = abs
		}
		r.problem(Location{Path: filepath.ToSlash(q)}, "symbolic link to a directory outside the audited tree ("+target+"); not followed: audit it as a PATH of its own")
	case fi.Mode().IsRegular() && messageFile(q):
		return true
	}
	return false
}

func messageFile(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".json", ".jsonl", ".ndjson", ".yaml", ".yml":
		return true
	}
	return false
}

func (r *reader) file(p string) {
	slash := filepath.ToSlash(p)
	switch strings.ToLower(path.Ext(p)) {
	case ".jsonl", ".ndjson":
		f, err := os.Open(p)
		if err != nil {
			r.problem(Location{Path: slash}, err.Error())
			return
		}
		defer f.Close()
		r.jsonl(slash, f)
		return
	}
	// a file of its own is read and decoded by a worker (loadFile):
	// a queue tree is thousands of small files, whose reading and YAML
	// decoding would keep the reader busy while the workers waited
	r.push(item{load: true, loc: Location{Path: slash}, kind: r.spec.KindOfName(slash)})
}

// loadFile reads the file of it, of at most max bytes, and decodes it:
// a JSON object into it.data, for check; YAML, or a JSON array, into
// it.value when it holds one message, else into the items it returns,
// one per message (none for an empty file), each with its line. A
// document that is a list of mappings holds one message per item, as
// `protoscan validate` reads it (the rule of yamlnode.SplitLists). A file that
// cannot be read sets it.unread. A YAML document that does not parse is
// a malformed item (decodeErr) at its line, in its place among the
// others: the documents after it are read all the same. A JSON array
// that does not parse sets it.decodeErr: JSON cannot be read on past an
// error.
func loadFile(it *item, max int) []item {
	p := it.loc.Path
	data, err := readFile(filepath.FromSlash(p), max)
	if err != nil {
		it.unread = err.Error()
		return nil
	}
	var docs []yamldoc.Doc
	format := "YAML"
	if strings.EqualFold(path.Ext(p), ".json") {
		data = bytes.TrimPrefix(data, bom) // RFC 8259 lets a parser skip a BOM
		if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '[' {
			it.data = string(data) // an object (or not JSON): validated on the tape
			return nil
		}
		format = "JSON"
		nodes, err := jsondoc.Parse(p, data, jsondoc.Limits{MaxBytes: int64(max)})
		if err != nil {
			it.decodeErr, it.loc.Line = docError(format, err), errorLine(err, 0)
			return nil
		}
		docs = make([]yamldoc.Doc, len(nodes))
		for i, n := range nodes {
			docs[i] = yamldoc.Doc{Node: n, Line: n.Line}
		}
	} else if docs, err = yamldoc.ParseDocs(p, data, yamldoc.Limits{MaxBytes: int64(max)}); err != nil {
		it.decodeErr = docError(format, err) // over the limit, which readFile has seen to
		return nil
	}
	if len(docs) == 1 {
		// the usual file of one message: no items of its own
		switch d := docs[0]; {
		case d.Err != nil:
			it.decodeErr, it.loc.Line = docError(format, d.Err), errorLine(d.Err, d.Line)
			return nil
		case !yamlnode.IsListOfMappings(d.Node):
			if it.value, err = yamlnode.ToValue(d.Node, yamlnode.Limits{}); err != nil {
				it.decodeErr = docError(format, err)
			}
			return nil
		}
	}
	out := make([]item, 0, len(docs))
	for _, d := range docs {
		if d.Err != nil {
			out = append(out, item{loc: Location{Path: p, Line: errorLine(d.Err, d.Line)}, kind: it.kind, decodeErr: docError(format, d.Err)})
			continue
		}
		messages := []*yaml.Node{d.Node}
		if yamlnode.IsListOfMappings(d.Node) {
			messages = d.Node.Content
		}
		for _, m := range messages {
			msg := item{loc: Location{Path: p, Line: m.Line}, kind: it.kind}
			if v, err := yamlnode.ToValue(m, yamlnode.Limits{}); err != nil {
				msg.decodeErr = docError(format, err)
			} else {
				msg.value = v
			}
			out = append(out, msg)
		}
	}
	return out
}

// bom is a UTF-8 byte order mark, which a file may start with.
var bom = []byte("\xef\xbb\xbf")

// errorLine is the line of a yamldoc or jsondoc error, else line (where
// the malformed document starts).
func errorLine(err error, line int) int {
	var de *yamldoc.Error
	if errors.As(err, &de) && de.Line > 0 {
		return de.Line
	}
	return line
}

// readFile reads the file at p, or says it is larger than max bytes
// without reading it all. Like os.ReadFile it reads into one buffer sized
// from the file's size (a queue tree is many small files), which is only
// a hint: a file may grow, or be a device or a pipe.
func readFile(p string, max int) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	if size > int64(max) {
		return nil, fmt.Errorf("file is %d bytes, more than the limit of %d; skipped", size, max)
	}
	data := make([]byte, 0, size+1) // +1: the read that sees the end
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if len(data) > max {
			return nil, fmt.Errorf("file is more than the limit of %d bytes; skipped", max)
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// docError words why a YAML or JSON message (format) cannot be decoded
// (yamldoc, jsondoc, yamlnode and jsonmsg errors alike),
// without the file name its location already gives.
func docError(format string, err error) error {
	var pe *yamldoc.Error
	var ce *yamlnode.Error
	switch {
	case errors.As(err, &pe) && pe.Column > 0:
		return fmt.Errorf("not a %s message: column %d: %s", format, pe.Column, pe.Msg)
	case errors.As(err, &pe):
		return fmt.Errorf("not a %s message: %s", format, pe.Msg)
	case errors.As(err, &ce):
		return fmt.Errorf("not a %s message: line %d, column %d: %s", format, ce.Line, ce.Column, ce.Msg)
	}
	return fmt.Errorf("not a %s message: %v", format, err)
}

// checkAndCount checks a message that was read, and counts it in t.
func (c *checker) checkAndCount(it *item, ids *[]byte, t *tally) {
	if it.unread != "" || it.decodeErr != nil {
		return
	}
	c.check(it, ids)
	if it.decodeErr == nil && !it.schema {
		t.count(it, &c.res)
		it.status = "" // a view of the tape, good until the next message
	}
}

// chunkSize is how much of a JSON Lines stream one batch carries. Small
// enough that the batches in flight (chunks and their items) stay in the
// caches and need few fresh pages: 1 MiB chunks made a fresh process
// fault in 60 % more pages and take a quarter longer on the 100k corpus.
const chunkSize = 128 << 10

// jsonl cuts JSON Lines into chunks that end at a line end, for the
// workers to split and decode. A line longer than the limit is skipped
// with a problem, and reading goes on after it.
//
// A chunk is read into a pooled buffer and handed over as a string over
// that buffer (unsafe.String), not copied: in a fresh process, copying
// every chunk into new memory cost a fifth of the audit's CPU, most of it
// page faults. This is safe because the buffer is never written while its
// batch is in flight, and is recycled only after the collector has
// counted the batch; nothing of a message outlives its batch (the index
// and the tallies copy the strings they keep), which TestChunkReuse
// enforces by poisoning every recycled buffer.
func (r *reader) jsonl(name string, in io.Reader) {
	var carry []byte // the cut line carried over to the next read
	line := 1        // the number of the first line of carry
	skipping := false
	for first := true; r.ctx.Err() == nil; first = false {
		// a line longer than a chunk doubles the read, so that carrying
		// it over costs time in its length, not its square
		size := max(chunkSize, len(carry))
		bp := r.bufs.get(len(carry) + size)
		b := append((*bp)[:0], carry...)
		n, err := io.ReadFull(in, b[len(b):len(b)+size])
		all := b[:len(b)+n]
		if first {
			all = bytes.TrimPrefix(all, bom) // as JSON files may start
		}
		eof := err != nil
		if skipping { // carry is empty: all is what was just read
			i := bytes.IndexByte(all, '\n')
			if i < 0 {
				r.bufs.release(bp)
				if eof {
					return
				}
				continue
			}
			all = all[i+1:]
			skipping = false
			line++
		}
		cut := len(all)
		if !eof {
			cut = bytes.LastIndexByte(all, '\n') + 1
		}
		// the carry is copied out before the chunk is handed over: after
		// that, the buffer belongs to the batch
		carry = append(carry[:0], all[cut:]...)
		if cut > 0 {
			lines := bytes.Count(all[:cut], newline)
			r.pushChunk(name, unsafe.String(&all[0], cut), line, lines, bp)
			line += lines
		} else {
			r.bufs.release(bp)
		}
		if len(carry) > r.maxLine {
			r.problem(Location{Path: name, Line: line}, fmt.Sprintf("line longer than %d bytes; skipped", r.maxLine))
			carry, skipping = nil, true
		}
		if eof {
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				r.problem(Location{Path: name, Line: line}, err.Error())
			}
			return
		}
	}
}

// chunkBufs hands out the buffers JSON Lines are read into, for one
// Run. Buffers of the usual size come from an offheap arena and are
// recycled through a free list: in a fresh process they are huge pages,
// not hundreds of faults, and all of them go with the Run (free). A
// buffer grown for a long line is from the Go heap and is not kept.
type chunkBufs struct {
	mu   sync.Mutex // guards mem
	mem  offheap.Arena
	free freeList[*[]byte]
}

// stdChunk is the capacity of a buffer from the arena: a chunk and the
// carry of a line cut at its end.
const stdChunk = 2 * chunkSize

// poisonChunks makes release overwrite each buffer, so that a string
// kept past its batch shows as garbage in a test rather than as a silent
// change of the report.
var poisonChunks bool

// get returns a buffer with room for n bytes.
func (c *chunkBufs) get(n int) *[]byte {
	if n > stdChunk {
		b := make([]byte, 0, n)
		return &b
	}
	if bp, ok := c.free.pop(); ok {
		return bp
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.mem.Bytes(stdChunk, 64)[:0]
	return &b
}

func (c *chunkBufs) release(bp *[]byte) {
	if poisonChunks {
		b := (*bp)[:cap(*bp)]
		for i := range b {
			b[i] = 0xff
		}
	}
	if cap(*bp) != stdChunk {
		return // grown for a long line: do not pin it
	}
	c.free.push(bp)
}

// close unmaps the buffers: no batch may be in flight.
func (c *chunkBufs) close() { c.mem.Free() }

var newline = []byte("\n")

// pushChunk sends a chunk as a batch of its own, after the items before it.
func (r *reader) pushChunk(name, chunk string, firstLine, newlines int, buf *[]byte) {
	r.flush()
	select {
	case r.jobs <- &batch{seq: r.seq, chunk: chunk, name: name, firstLine: firstLine, newlines: newlines, buf: buf}:
		r.seq++
	case <-r.ctx.Done():
		r.bufs.release(buf)
	}
}

// recycler hands out the batches' items and buffers of records of ids,
// for one Run, and takes them back once the collector is done with a
// batch: a chunk carries hundreds of items, and allocating them afresh
// for every chunk made the collector and the garbage collector the
// bottleneck. A Run needs as many of each as it has batches in flight.
// (A sync.Pool, before, lost them at every garbage collection: a fresh
// process then took a thousand page faults growing new ones.)
type recycler struct {
	items freeList[[]item]
	ids   freeList[[]byte]
}

// getItems returns an item slice given back by an earlier batch, or nil:
// splitLines then makes one of its chunk's size.
func (r *recycler) getItems() []item {
	items, _ := r.items.pop()
	return items
}

func (r *recycler) putItems(items []item) {
	if cap(items) > 64*batchSize {
		return // from a chunk of tiny lines: do not pin it
	}
	clear(items) // drop the references to the chunk and the index strings
	r.items.push(items[:0])
}

func (r *recycler) getIDs() []byte {
	if b, ok := r.ids.pop(); ok {
		return b
	}
	return make([]byte, 0, 16<<10)
}

func (r *recycler) putIDs(b []byte) {
	if cap(b) > 1<<20 {
		return // grown for huge messages: do not pin it
	}
	r.ids.push(b[:0])
}

// freeList keeps things for reuse, last in first out (the most recently
// used is the likeliest in the caches); safe for concurrent use.
type freeList[E any] struct {
	mu   sync.Mutex
	free []E
}

func (f *freeList[E]) pop() (e E, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n := len(f.free); n > 0 {
		e, f.free = f.free[n-1], f.free[:n-1]
		return e, true
	}
	return e, false
}

func (f *freeList[E]) push(e E) {
	f.mu.Lock()
	f.free = append(f.free, e)
	f.mu.Unlock()
}

// splitLines appends to items one item per non-blank line of a chunk, a
// line over maxLine marked unread. The items' text is a slice of the chunk.
// newlines, the chunk's count of them (the reader has it), sizes items
// once: growing them line by line cost a copy and a larger array, in
// fresh pages, per batch in flight.
func splitLines(items []item, chunk, name string, first, newlines, maxLine int) []item {
	if cap(items) <= newlines {
		// room for the next chunks too, whose counts differ by a few
		items = make([]item, 0, newlines+newlines/4+1)
	}
	items = items[:0]
	line := first
	for len(chunk) > 0 {
		text, rest, _ := strings.Cut(chunk, "\n")
		chunk = rest
		if len(text) > maxLine {
			items = append(items, item{unread: fmt.Sprintf("line longer than %d bytes; skipped", maxLine), loc: Location{Path: name, Line: line}})
		} else if t := strings.TrimRight(text, "\r"); strings.TrimSpace(t) != "" {
			items = append(items, item{data: t, loc: Location{Path: name, Line: line}})
		}
		line++
	}
	return items
}
