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
	"bufio"
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
	"strings"
	"sync"

	"github.com/protoscan/protoscan/jsonmsg"
	"github.com/protoscan/protoscan/languages/yamldoc"
	"github.com/protoscan/protoscan/msgcheck"
	"github.com/protoscan/protoscan/yamlnode"
)

// Options configure an audit.
type Options struct {
	Validator *msgcheck.Validator
	Spec      *msgcheck.Spec // the default spec, for kind detection
	// Workers validate at once; 0 means one per CPU.
	Workers int
	// MaxLine is the longest JSON Lines line read (default 16 MiB); a
	// longer one is an error and the audit goes on after it.
	MaxLine int
	// Verdicts, when set, receives one line per message in input order:
	// "1" valid, "0" invalid (a message that cannot be decoded is "0").
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
	jobs := make(chan *batch, 2*workers)
	done := make(chan *batch, 2*workers)
	var wg sync.WaitGroup
	tallies := make([]*tally, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		tallies[w] = newTally()
		go func(t *tally) {
			defer wg.Done()
			var dec jsonmsg.Decoder // decoding is the hot path: one reusable decoder per worker
			for b := range jobs {
				for i := range b.items {
					it := &b.items[i]
					check(it, opts, &dec)
					if it.decodeErr == nil {
						t.count(it)
					}
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
				for i := range nb.items {
					a.add(&nb.items[i])
					if opts.Verdicts != nil && collectErr == nil {
						v := verdictInvalid
						if nb.items[i].valid {
							v = verdictValid
						}
						_, collectErr = opts.Verdicts.Write(v)
					}
				}
			}
		}
	}()
	r := &reader{ctx: ctx, jobs: jobs, maxLine: opts.MaxLine, problem: a.problem}
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
	decodeErr error
	result    msgcheck.Result
	valid     bool
	entry     entry
}

// batch groups items so that the channels are not the bottleneck.
type batch struct {
	seq   int
	items []item
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
		return fmt.Sprintf("%s:%d", l.Path, l.Line)
	}
	return l.Path
}

func check(it *item, opts Options, dec *jsonmsg.Decoder) {
	v := it.value
	if it.data != "" {
		var err error
		if v, err = dec.DecodeString(it.data); err != nil {
			it.decodeErr = err
			return
		}
		it.data = "" // the text is not kept past validation
	}
	m, _ := v.(map[string]any)
	kind := kindOf(m, opts.Spec, it.kind)
	it.result = opts.Validator.Validate(kind, v)
	it.valid = it.result.Valid
	it.entry = indexEntry(m, it.result.Kind, it.loc)
}

// kindOf names the kind from handoff_type, else leaves it to the spec's
// signatures, else uses the file name's hint.
func kindOf(m map[string]any, spec *msgcheck.Spec, hint string) string {
	if s, ok := m["handoff_type"].(string); ok {
		k := strings.ToLower(strings.TrimSpace(s))
		if slices.Contains(spec.Kinds(), k) {
			return k
		}
	}
	if m != nil && spec.Detect(m) != "" {
		return ""
	}
	return hint
}

// reader walks the inputs and feeds batches.
type reader struct {
	ctx     context.Context
	jobs    chan<- *batch
	cur     *batch
	seq     int
	maxLine int
	problem func(Location, string)
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
	err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			r.problem(Location{Path: q}, err.Error())
			return nil
		}
		if d.IsDir() {
			if q != p && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
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
	slices.Sort(files) // WalkDir is sorted already; keep the order a contract
	for _, f := range files {
		if r.ctx.Err() != nil {
			return
		}
		r.file(f)
	}
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
	data, err := os.ReadFile(p)
	if err != nil {
		r.problem(Location{Path: slash}, err.Error())
		return
	}
	hint := kindHint(slash)
	if strings.EqualFold(path.Ext(p), ".json") {
		r.push(item{data: string(data), loc: Location{Path: slash}, kind: hint})
		return
	}
	docs, err := yamldoc.Parse(slash, data, yamldoc.DefaultLimits())
	if err != nil {
		r.problem(Location{Path: slash}, err.Error())
	}
	for _, d := range docs {
		v, err := yamlnode.ToValue(d, yamlnode.Limits{})
		loc := Location{Path: slash}
		if len(docs) > 1 {
			loc.Line = d.Line
		}
		if err != nil {
			r.problem(loc, err.Error())
			continue
		}
		r.push(item{value: v, loc: loc, kind: hint})
	}
}

// kindHint reads the kind from a queue's naming: DELEGATE-*.yaml,
// *-HANDBACK.yaml.
func kindHint(p string) string {
	base := strings.ToLower(path.Base(p))
	switch {
	case strings.Contains(base, "delegate"):
		return "delegate"
	case strings.Contains(base, "handback"):
		return "handback"
	}
	return ""
}

// jsonl reads JSON Lines; blank lines are skipped, a line over the limit
// is a problem and reading goes on after it.
func (r *reader) jsonl(name string, in io.Reader) {
	br := bufio.NewReaderSize(in, 1<<20)
	line := 0
	for r.ctx.Err() == nil {
		data, tooLong, err := readLine(br, r.maxLine)
		if len(data) > 0 || tooLong || err == nil {
			line++
		}
		switch {
		case tooLong:
			r.problem(Location{Path: name, Line: line}, fmt.Sprintf("line longer than %d bytes; skipped", r.maxLine))
		case len(bytes.TrimSpace(data)) > 0:
			r.push(item{data: string(data), loc: Location{Path: name, Line: line}})
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				r.problem(Location{Path: name, Line: line}, err.Error())
			}
			return
		}
	}
}

// readLine returns the next line without its ending. A line longer than
// limit is consumed and reported with tooLong.
func readLine(br *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		frag, err := br.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(frag) > limit+2 {
				tooLong, buf = true, nil
			} else {
				buf = append(buf, frag...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		buf = bytes.TrimRight(buf, "\r\n")
		return buf, tooLong, err
	}
}
