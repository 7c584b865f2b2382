//go:build cgo

package treesitter

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Errors returned by Parse.
var (
	ErrTooLarge = errors.New("treesitter: input larger than the size cap")
	ErrTimeout  = errors.New("treesitter: parse cancelled")
	ErrBudget   = errors.New("treesitter: parse over its budget of operations")
	ErrClosed   = errors.New("treesitter: pool closed")
)

// Options bound a Pool. Zero fields take the defaults of DefaultOptions.
type Options struct {
	// Parsers is the most parsers the pool creates, and so the most parses
	// that run at once; further callers wait.
	Parsers int
	// MaxBytes is the largest input parsed; larger input gets ErrTooLarge.
	// tree-sitter counts bytes in uint32, so the cap never exceeds 1 GiB.
	MaxBytes int
	// OpsPerByte bounds one parse (not the callback) to this many
	// tree-sitter operations per byte of input, plus a few thousand:
	// counted, not timed, so a file parses or not whatever the machine's
	// load. Real Python takes at most 3 operations a byte (the Python 3.11
	// standard library and its site-packages), the worst input found
	// (50,000 nested parentheses) 6.
	OpsPerByte int
}

// DefaultOptions returns GOMAXPROCS parsers, a 64 MiB cap and a budget
// of 50 operations a byte.
func DefaultOptions() Options {
	return Options{Parsers: runtime.GOMAXPROCS(0), MaxBytes: 64 << 20, OpsPerByte: 50}
}

// opsPerCheck is how many operations tree-sitter runs between two calls
// of the progress callback (OP_COUNT_PER_PARSER_TIMEOUT_CHECK in
// parser.c); baseChecks the checks every parse may take.
const (
	opsPerCheck = 100
	baseChecks  = 64
)

func (o Options) orDefault() Options {
	d := DefaultOptions()
	if o.Parsers <= 0 {
		o.Parsers = d.Parsers
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = d.MaxBytes
	}
	if o.MaxBytes > 1<<30 {
		o.MaxBytes = 1 << 30
	}
	if o.OpsPerByte <= 0 {
		o.OpsPerByte = d.OpsPerByte
	}
	return o
}

// Pool is a bounded set of parsers for one language. It is safe for
// concurrent use. The zero Pool is not usable: call NewPool.
type Pool struct {
	lang *sitter.Language
	opts Options
	// slots holds one token per parser in use; its capacity bounds the
	// number of parsers that exist.
	slots chan struct{}
	// idle holds parsers not in use. It never blocks on send: at most
	// cap(slots) parsers ever exist.
	idle chan *sitter.Parser
	// done is closed by Close, releasing callers waiting for a slot.
	done chan struct{}

	mu     sync.Mutex
	closed bool
}

// NewPool returns a pool of parsers for lang. Parsers are created lazily.
func NewPool(lang *sitter.Language, opts Options) *Pool {
	opts = opts.orDefault()
	return &Pool{
		lang:  lang,
		opts:  opts,
		slots: make(chan struct{}, opts.Parsers),
		idle:  make(chan *sitter.Parser, opts.Parsers),
		done:  make(chan struct{}),
	}
}

// Options returns the pool's effective options.
func (p *Pool) Options() Options { return p.opts }

// get takes a parser, waiting for a free slot.
func (p *Pool) get(ctx context.Context) (*sitter.Parser, error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-p.done:
		return nil, ErrClosed
	}
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		<-p.slots
		return nil, ErrClosed
	}
	select {
	case pr := <-p.idle:
		return pr, nil
	default:
	}
	pr := sitter.NewParser()
	if err := pr.SetLanguage(p.lang); err != nil {
		pr.Close()
		<-p.slots
		return nil, err
	}
	return pr, nil
}

// put returns a parser taken by get.
func (p *Pool) put(pr *sitter.Parser) {
	// A cancelled parse leaves state behind that the next parse would
	// resume from.
	pr.Reset()
	p.idle <- pr
	<-p.slots
}

// Close closes every parser, waiting for parses in progress to finish.
// Parse calls after Close return ErrClosed. Close is idempotent.
func (p *Pool) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	close(p.done)
	p.mu.Unlock()
	// Taking every slot waits for the parsers in use to come back.
	for i := 0; i < cap(p.slots); i++ {
		p.slots <- struct{}{}
	}
	for {
		select {
		case pr := <-p.idle:
			pr.Close()
		default:
			return
		}
	}
}

// Tree is a parsed tree lent to a Parse callback. It and everything taken
// from it (nodes, cursors, flattened trees' source) are valid only until the
// callback returns.
type Tree struct {
	tree    *sitter.Tree
	src     []byte
	cursors []*sitter.TreeCursor
}

// Root returns the root node.
func (t *Tree) Root() *sitter.Node { return t.tree.RootNode() }

// Source returns the parsed bytes.
func (t *Tree) Source() []byte { return t.src }

// Cursor returns a cursor on n that Parse closes after the callback.
func (t *Tree) Cursor(n *sitter.Node) *sitter.TreeCursor {
	c := n.Walk()
	t.cursors = append(t.cursors, c)
	return c
}

func (t *Tree) close() {
	for i, c := range t.cursors {
		c.Close()
		t.cursors[i] = nil
	}
	t.cursors = nil
	t.tree.Close()
	t.tree = nil
}

// Parse parses src and calls fn with the tree, then closes the tree. fn's
// error is returned. A parse that exceeds the pool's budget of operations
// returns ErrBudget; one stopped by ctx returns an error matching both
// ErrTimeout and ctx.Err(); ctx ending while waiting for a parser returns
// ctx.Err().
// Input over the size cap returns ErrTooLarge without parsing.
//
// fn must not keep the tree or its nodes, and must not call Parse on the
// same pool (with one parser, that would wait forever).
//
// Syntax errors are not errors here: tree-sitter recovers and marks them
// with ERROR and MISSING nodes.
func (p *Pool) Parse(ctx context.Context, src []byte, fn func(t *Tree) error) (err error) {
	if len(src) > p.opts.MaxBytes {
		return fmt.Errorf("%w (%d > %d bytes)", ErrTooLarge, len(src), p.opts.MaxBytes)
	}
	pr, err := p.get(ctx)
	if err != nil {
		return err
	}
	defer p.put(pr)

	checks := baseChecks + int64(len(src))*int64(p.opts.OpsPerByte)/opsPerCheck
	done := ctx.Done()
	cancelled, over := false, false
	// Called by tree-sitter every opsPerCheck parse operations: cheap
	// enough, and unlike the deprecated timeout and flag it survives
	// binding 0.26.
	opts := &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool {
		if done != nil {
			select {
			case <-done:
				cancelled = true
				return true
			default:
			}
		}
		if checks--; checks < 0 {
			over = true
			return true
		}
		return false
	}}
	n := len(src)
	tree := pr.ParseWithOptions(func(i int, _ sitter.Point) []byte {
		if i < n {
			return src[i:]
		}
		return nil
	}, nil, opts)
	if tree == nil {
		switch {
		case cancelled:
			return fmt.Errorf("%w: %w", ErrTimeout, ctx.Err())
		case over:
			return fmt.Errorf("%w (%d a byte)", ErrBudget, p.opts.OpsPerByte)
		}
		return errors.New("treesitter: parse failed")
	}
	t := &Tree{tree: tree, src: src}
	defer t.close()
	return fn(t)
}

// ParseRoot is Parse for callers that only need the root node.
func (p *Pool) ParseRoot(ctx context.Context, src []byte, fn func(root *sitter.Node) error) error {
	return p.Parse(ctx, src, func(t *Tree) error { return fn(t.Root()) })
}

// pools holds the default pool of each language, for Parse.
var pools sync.Map // unsafe.Pointer(lang.Inner) -> *Pool

// Parse parses src with lang using a process-wide pool of that language
// with DefaultOptions, calls fn with the root node, and closes the tree.
func Parse(lang *sitter.Language, src []byte, fn func(root *sitter.Node) error) error {
	return PoolFor(lang).ParseRoot(context.Background(), src, fn)
}

// PoolFor returns the process-wide pool of lang, with DefaultOptions.
func PoolFor(lang *sitter.Language) *Pool {
	key := unsafe.Pointer(lang.Inner)
	if p, ok := pools.Load(key); ok {
		return p.(*Pool)
	}
	p, _ := pools.LoadOrStore(key, NewPool(lang, Options{}))
	return p.(*Pool)
}
