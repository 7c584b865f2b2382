package jsonmsg

import (
	"math/bits"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/protoscan-dev/protoscan/internal/jsonstr"
	"github.com/protoscan-dev/protoscan/internal/swar"
)

// MaxDepth is the deepest nesting of objects and arrays Decode accepts,
// the same limit as encoding/json's.
const MaxDepth = 10000

// SyntaxError is a malformed input. Offset is the byte offset of the
// offending byte (len(input) for an unexpected end of input).
type SyntaxError struct {
	Offset int
	Msg    string // "invalid character 'x' looking for beginning of object key string"
}

func (e *SyntaxError) Error() string { return "offset " + strconv.Itoa(e.Offset) + ": " + e.Msg }

// Decoder decodes JSON messages, reusing its scratch buffers from one call
// to the next. A Decoder is not safe for concurrent use; give each
// goroutine its own (or use the package-level Decode, which pools them).
// The zero value is ready to use.
type Decoder struct {
	s   string // the input being decoded
	buf []byte // scratch for strings with escapes
	// keepEscaped makes the strings with escapes views of buf, which then
	// grows through one input and is reused by the next (see Tape)
	keepEscaped bool
	kvs         []kv  // pending members of the objects being decoded
	vals        []any // pending elements of the arrays being decoded
	err         *SyntaxError

	// StrictUTF8 rejects a string holding invalid UTF-8 with a
	// *SyntaxError at its first bad byte, instead of decoding it to
	// U+FFFD as encoding/json does: RFC 8259 requires UTF-8 of JSON
	// text exchanged between systems, and a checker must not accept a
	// message it had to alter to read. (Lone surrogate escapes such as
	// "\ud800" are valid JSON and still become U+FFFD.)
	StrictUTF8 bool

	// Reuse recycles the maps and slices of one call in the next: the
	// values a call returns are then valid only until the next call on
	// the Decoder. A caller that validates each message and keeps nothing
	// of it (the audit) saves most of the decoder's allocations.
	Reuse bool
	maps  []map[string]any // the maps handed out, for the next call
	nmaps int              // of those, used in this call
	slab  []any            // backing of the arrays handed out
	nslab int              // of it, used in this call
}

// maxReusedMaps bounds the maps a Decoder keeps for reuse.
const maxReusedMaps = 256

// newMap returns an empty map for n members.
func (d *Decoder) newMap(n int) map[string]any {
	if !d.Reuse {
		return make(map[string]any, n)
	}
	if d.nmaps < len(d.maps) {
		m := d.maps[d.nmaps]
		d.nmaps++
		clear(m)
		return m
	}
	m := make(map[string]any, max(n, 8))
	if len(d.maps) < maxReusedMaps {
		d.maps = append(d.maps, m)
		d.nmaps++
	}
	return m
}

// newSlice returns a slice of n elements.
func (d *Decoder) newSlice(n int) []any {
	if !d.Reuse || n == 0 {
		return make([]any, n) // never nil, as encoding/json; n == 0 allocates nothing
	}
	if len(d.slab)-d.nslab < n {
		// a fresh slab: the slices of this call already handed out keep
		// the old one
		d.slab, d.nslab = make([]any, max(n, 2*len(d.slab), 64)), 0
	}
	out := d.slab[d.nslab : d.nslab+n : d.nslab+n]
	d.nslab += n
	return out
}

type kv struct {
	k string
	v any
}

// maxKeep bounds the scratch a Decoder keeps between calls, so that one
// huge message does not pin its buffers.
const maxKeep = 64 << 10

var pool = sync.Pool{New: func() any { return new(Decoder) }}

// Decode decodes one JSON value with a pooled Decoder. See Decoder.Decode.
func Decode(data []byte) (any, error) {
	d := pool.Get().(*Decoder)
	v, err := d.Decode(data)
	pool.Put(d)
	return v, err
}

// Decode decodes one JSON value (surrounded by optional whitespace) from
// data. It copies data once, into a string that the decoded strings and
// keys without escapes share: retaining any of them retains that copy.
// data itself is not retained and may be reused by the caller.
func (d *Decoder) Decode(data []byte) (any, error) {
	return d.DecodeString(string(data))
}

// DecodeString is Decode for input already held as a string; it copies
// nothing, and the decoded strings share s.
func (d *Decoder) DecodeString(s string) (any, error) {
	d.s, d.err = s, nil
	if d.Reuse {
		clear(d.slab[:d.nslab]) // drop the last message's values
		d.nmaps, d.nslab = 0, 0
	}
	v, i := d.value(skipSpace(s, 0), 0)
	if i >= 0 {
		if i = skipSpace(s, i); i < len(s) {
			d.fail(i, "invalid character "+quoteChar(s[i])+" after top-level value")
		}
	}
	err := d.err
	d.reset()
	if err != nil {
		return nil, err
	}
	return v, nil
}

func (d *Decoder) reset() {
	d.s, d.err = "", nil
	clear(d.kvs) // after an error, the stacks hold partial values
	clear(d.vals)
	d.kvs, d.vals = d.kvs[:0], d.vals[:0]
	if cap(d.buf) > maxKeep {
		d.buf = nil
	}
	if cap(d.kvs) > maxKeep/32 {
		d.kvs = nil
	}
	if cap(d.vals) > maxKeep/16 {
		d.vals = nil
	}
}

// fail records a syntax error at offset i and returns the position -1
// that tells the callers to stop.
func (d *Decoder) fail(i int, msg string) int {
	d.err = &SyntaxError{Offset: i, Msg: msg}
	return -1
}

func (d *Decoder) eof() int { return d.fail(len(d.s), "unexpected end of JSON input") }

func skipSpace(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\n', '\t', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value decodes the value at s[i]; depth is that of the enclosing
// container. It returns the position after the value, or -1 on error.
func (d *Decoder) value(i, depth int) (any, int) {
	s := d.s
	if i >= len(s) {
		return nil, d.eof()
	}
	switch c := s[i]; c {
	case '"':
		str, j := d.str(i)
		if j < 0 {
			return nil, j
		}
		return str, j
	case '{':
		return d.object(i, depth+1)
	case '[':
		return d.array(i, depth+1)
	case 't':
		return true, d.literal(i, "true")
	case 'f':
		return false, d.literal(i, "false")
	case 'n':
		return nil, d.literal(i, "null")
	default:
		if c == '-' || '0' <= c && c <= '9' {
			return d.number(i)
		}
		return nil, d.fail(i, "invalid character "+quoteChar(c)+" looking for beginning of value")
	}
}

func (d *Decoder) literal(i int, lit string) int {
	s := d.s
	for k := 1; k < len(lit); k++ {
		if i+k >= len(s) {
			return d.eof()
		}
		if s[i+k] != lit[k] {
			return d.fail(i+k, "invalid character "+quoteChar(s[i+k])+" in literal "+lit+" (expecting "+quoteChar(lit[k])+")")
		}
	}
	return i + len(lit)
}

func (d *Decoder) object(i, depth int) (any, int) {
	if depth > MaxDepth {
		return nil, d.fail(i, "nesting too deep")
	}
	s := d.s
	if i = skipSpace(s, i+1); i < len(s) && s[i] == '}' {
		return d.newMap(0), i + 1
	}
	mark := len(d.kvs)
	for {
		if i >= len(s) {
			return nil, d.eof()
		}
		if s[i] != '"' {
			return nil, d.fail(i, "invalid character "+quoteChar(s[i])+" looking for beginning of object key string")
		}
		k, j := d.str(i)
		if j < 0 {
			return nil, j
		}
		if i = skipSpace(s, j); i >= len(s) {
			return nil, d.eof()
		}
		if s[i] != ':' {
			return nil, d.fail(i, "invalid character "+quoteChar(s[i])+" after object key")
		}
		v, j := d.value(skipSpace(s, i+1), depth)
		if j < 0 {
			return nil, j
		}
		d.kvs = append(d.kvs, kv{k, v})
		if i = skipSpace(s, j); i >= len(s) {
			return nil, d.eof()
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case '}':
			// the members are known now: one allocation of the right size
			// (duplicate keys: the last wins, as with encoding/json)
			members := d.kvs[mark:]
			m := d.newMap(len(members))
			for _, e := range members {
				m[e.k] = e.v
			}
			clear(members)
			d.kvs = d.kvs[:mark]
			return m, i + 1
		default:
			return nil, d.fail(i, "invalid character "+quoteChar(s[i])+" after object key:value pair")
		}
	}
}

func (d *Decoder) array(i, depth int) (any, int) {
	if depth > MaxDepth {
		return nil, d.fail(i, "nesting too deep")
	}
	s := d.s
	if i = skipSpace(s, i+1); i < len(s) && s[i] == ']' {
		return d.newSlice(0), i + 1
	}
	mark := len(d.vals)
	for {
		v, j := d.value(i, depth)
		if j < 0 {
			return nil, j
		}
		d.vals = append(d.vals, v)
		if i = skipSpace(s, j); i >= len(s) {
			return nil, d.eof()
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case ']':
			elems := d.vals[mark:]
			out := d.newSlice(len(elems))
			copy(out, elems)
			clear(elems)
			d.vals = d.vals[:mark]
			return out, i + 1
		default:
			return nil, d.fail(i, "invalid character "+quoteChar(s[i])+" after array element")
		}
	}
}

// plain marks the string bytes that need no attention: printable ASCII
// other than '"' and '\\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str decodes the string whose opening quote is at s[i].
func (d *Decoder) str(i int) (string, int) {
	s := d.s
	start := i + 1
	j := start
	for j < len(s) {
		if swar.Enabled && j+8 <= len(s) {
			// eight bytes at a time: skip them when all are plain, else
			// go to the first that is not (see swar.NotPlain)
			if f := swar.NotPlain(swar.Load64(s, j)); f == 0 {
				j += 8
				continue
			} else {
				j += bits.TrailingZeros64(f) >> 3
			}
		}
		c := s[j]
		if plain[c] {
			j++
			continue
		}
		if c == '"' {
			return s[start:j], j + 1 // no escapes, valid UTF-8: share the input
		}
		if c == '\\' || c < 0x20 {
			return d.unquote(start, j)
		}
		if c >= 0xC2 && c < 0xE0 && j+1 < len(s) && s[j+1]&0xC0 == 0x80 {
			j += 2 // a valid two-byte rune (é, ü, a no-break space), the most common
			continue
		}
		r, size := utf8.DecodeRuneInString(s[j:])
		if r == utf8.RuneError && size == 1 {
			return d.unquote(start, j)
		}
		j += size
	}
	return "", d.eof()
}

// unquote decodes a string with escapes or invalid UTF-8 from s[start:];
// s[start:j] is plain.
func (d *Decoder) unquote(start, j int) (string, int) {
	s := d.s
	mark := 0 // where this string starts in buf
	if d.keepEscaped {
		mark = len(d.buf)
	}
	b := append(d.buf[:mark], s[start:j]...)
	for j < len(s) {
		// a run of plain bytes is copied at once, found eight bytes at a
		// time as in str (multi-line texts have an escape every few words)
		if run := j; swar.Enabled && j+8 <= len(s) && plain[s[j]] {
			for j+8 <= len(s) {
				f := swar.NotPlain(swar.Load64(s, j))
				if f != 0 {
					j += bits.TrailingZeros64(f) >> 3
					break
				}
				j += 8
			}
			b = append(b, s[run:j]...)
			continue
		}
		c := s[j]
		switch {
		case plain[c]:
			b = append(b, c)
			j++
		case c == '"':
			d.buf = b
			if d.keepEscaped {
				// no copy: buf is only appended to until the next input,
				// and a string that outgrows it keeps the old array alive
				return unsafe.String(unsafe.SliceData(b[mark:]), len(b)-mark), j + 1
			}
			return string(b), j + 1
		case c == '\\':
			var bad int
			var inHex bool
			if b, j, bad, inHex = jsonstr.AppendEscape(b, s, j); bad >= 0 {
				switch {
				case bad >= len(s):
					return "", d.eof()
				case inHex:
					return "", d.fail(bad, "invalid character "+quoteChar(s[bad])+" in \\u hexadecimal character escape")
				}
				return "", d.fail(bad, "invalid character "+quoteChar(s[bad])+" in string escape code")
			}
		case c < 0x20:
			return "", d.fail(j, "invalid character "+quoteChar(c)+" in string literal")
		default:
			r, size := utf8.DecodeRuneInString(s[j:])
			if r == utf8.RuneError && size == 1 {
				if d.StrictUTF8 {
					d.buf = b
					return "", d.fail(j, "invalid UTF-8 in string literal")
				}
				b = utf8.AppendRune(b, unicode.ReplacementChar)
			} else {
				b = append(b, s[j:j+size]...)
			}
			j += size
		}
	}
	d.buf = b
	return "", d.eof()
}

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// number decodes the number at s[i] to what strconv.ParseFloat gives for
// its literal.
func (d *Decoder) number(i int) (any, int) {
	f, j := d.float(i)
	if j < 0 {
		return nil, j
	}
	return f, j
}

// float is number without boxing the result.
func (d *Decoder) float(i int) (float64, int) {
	s := d.s
	start := i
	neg := s[i] == '-'
	if neg {
		i++
	}
	if i >= len(s) {
		return 0, d.eof()
	}
	var mant uint64
	nd, exp := 0, 0 // digits in mant; value = mant * 10^exp
	switch c := s[i]; {
	case c == '0':
		i++
	case '1' <= c && c <= '9':
		for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
			if nd < 19 {
				mant = mant*10 + uint64(s[i]-'0')
			}
			nd++
		}
	default:
		return 0, d.fail(i, "invalid character "+quoteChar(c)+" in numeric literal")
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) {
			return 0, d.eof()
		}
		if c := s[i]; c < '0' || c > '9' {
			return 0, d.fail(i, "invalid character "+quoteChar(c)+" after decimal point in numeric literal")
		}
		for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
			if nd < 19 {
				mant = mant*10 + uint64(s[i]-'0')
			}
			nd++
			exp--
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		if i >= len(s) {
			return 0, d.eof()
		}
		if c := s[i]; c < '0' || c > '9' {
			return 0, d.fail(i, "invalid character "+quoteChar(c)+" in exponent of numeric literal")
		}
		e := 0
		for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
			if e < 100000 {
				e = e*10 + int(s[i]-'0')
			}
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	// Exact fast path (Clinger): a mantissa below 2^53 times or divided by
	// an exact power of ten is one correctly rounded operation.
	if nd <= 15 && -22 <= exp && exp <= 22 {
		f := float64(mant)
		if exp < 0 {
			f /= pow10[-exp]
		} else {
			f *= pow10[exp]
		}
		if neg {
			f = -f
		}
		return f, i
	}
	f, err := strconv.ParseFloat(s[start:i], 64)
	if err != nil { // the syntax is checked: the number is out of range
		return 0, d.fail(start, "number "+s[start:i]+" out of range")
	}
	return f, i
}

// quoteChar formats c as encoding/json's error messages do.
func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	q := strconv.Quote(string(rune(c)))
	return "'" + q[1:len(q)-1] + "'"
}
