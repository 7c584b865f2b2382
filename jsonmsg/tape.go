package jsonmsg

import "strconv"

// A Tape is one JSON value as a flat list of tokens, in document order:
// what a validator that walks the value once needs, without the maps,
// slices and boxed values Decode builds. Strings and numbers are decoded
// exactly as Decode decodes them (the same scanner), and the input is
// accepted or rejected with the same errors (and, with UniqueKeys, a key
// given twice rejected as well).
//
// A container token is followed by its contents: an array's elements, an
// object's members as a Key token then the member's value. Tok.Next is the
// index after a token's whole value, so a reader skips a value in one step.
//
// A Tape is reused from message to message: its tokens and its strings
// are valid until the next Parse (strings without escapes share the
// input, as with DecodeString; the others share a buffer the next Parse
// writes over). It is not safe for concurrent use.
type Tape struct {
	Toks []Tok
	// StrictUTF8 rejects invalid UTF-8 in strings (see Decoder.StrictUTF8).
	StrictUTF8 bool
	// UniqueKeys rejects an object that names a key twice (after
	// unescaping), with the error `duplicate key "k"` at the second,
	// as protoscan rejects it in YAML and in `validate`; without it the
	// last wins, as with Decode.
	UniqueKeys bool
	d          Decoder
	// compared counts the keys UniqueKeys compared one by one, all
	// parses together (tests bound it)
	compared int
}

// Kind is the type of a token.
type Kind uint8

// The token kinds. Key is an object member's name, followed by its value.
const (
	Null Kind = iota
	False
	True
	Number
	String
	Array
	Object
	Key
)

// Tok is one token of a Tape.
type Tok struct {
	Kind Kind
	// Len is the number of elements of an Array or members of an Object.
	Len int32
	// Next is the index of the token after this one's value.
	Next int32
	Str  string  // the String's value, or the Key's name
	Num  float64 // the Number's value
}

// maxTapeTokens bounds a Tape (Next is an int32).
const maxTapeTokens = 1 << 30

// maxKeptTokens bounds the tokens a Tape keeps from one message to the next.
const maxKeptTokens = 4096

// Parse reads one JSON value (surrounded by optional whitespace) from s
// into the tape.
func (t *Tape) Parse(s string) error {
	if cap(t.Toks) > maxKeptTokens {
		t.Toks = nil // a huge message before this one must not pin its tokens
	}
	t.Toks = t.Toks[:0]
	d := &t.d
	d.s, d.err, d.StrictUTF8 = s, nil, t.StrictUTF8
	d.keepEscaped, d.buf = true, d.buf[:0] // the last input's strings are done with
	i := t.value(skipSpace(s, 0), 0)
	if i >= 0 {
		if i = skipSpace(s, i); i < len(s) {
			d.fail(i, "invalid character "+quoteChar(s[i])+" after top-level value")
		}
	}
	err := d.err
	d.reset()
	if err != nil {
		clear(t.Toks) // drop the strings of the input
		t.Toks = t.Toks[:0]
		return err
	}
	return nil
}

// Member returns the index of the value of the object member named key,
// or -1; obj is the index of an Object token. With duplicate names the
// last wins, as with Decode.
func (t *Tape) Member(obj int, key string) int {
	found := -1
	for i, n := obj+1, 0; n < int(t.Toks[obj].Len); n++ {
		if t.Toks[i].Str == key {
			found = i + 1
		}
		i = int(t.Toks[i+1].Next)
	}
	return found
}

func (t *Tape) push(k Kind) int {
	t.Toks = append(t.Toks, Tok{Kind: k})
	return len(t.Toks) - 1
}

// value records the value at s[i]; depth is that of the enclosing
// container. It returns the position after the value, or -1 on error.
func (t *Tape) value(i, depth int) int {
	d := &t.d
	s := d.s
	if i >= len(s) {
		return d.eof()
	}
	if len(t.Toks) >= maxTapeTokens {
		return d.fail(i, "too many values")
	}
	var j int
	switch c := s[i]; c {
	case '"':
		var str string
		str, j = d.str(i)
		if j >= 0 {
			t.Toks = append(t.Toks, Tok{Kind: String, Str: str, Next: int32(len(t.Toks) + 1)})
		}
		return j
	case '{':
		return t.object(i, depth+1)
	case '[':
		return t.array(i, depth+1)
	case 't':
		j = d.literal(i, "true")
		t.push(True)
	case 'f':
		j = d.literal(i, "false")
		t.push(False)
	case 'n':
		j = d.literal(i, "null")
		t.push(Null)
	default:
		if c != '-' && (c < '0' || c > '9') {
			return d.fail(i, "invalid character "+quoteChar(c)+" looking for beginning of value")
		}
		var f float64
		f, j = d.float(i)
		t.Toks = append(t.Toks, Tok{Kind: Number, Num: f})
	}
	t.Toks[len(t.Toks)-1].Next = int32(len(t.Toks))
	return j
}

func (t *Tape) object(i, depth int) int {
	d := &t.d
	if depth > MaxDepth {
		return d.fail(i, "nesting too deep")
	}
	s := d.s
	at := t.push(Object)
	n := int32(0)
	if i = skipSpace(s, i+1); i < len(s) && s[i] == '}' {
		t.Toks[at].Next = int32(len(t.Toks))
		return i + 1
	}
	var keys keySet
	unique := t.UniqueKeys
	for {
		if i >= len(s) {
			return d.eof()
		}
		if s[i] != '"' {
			return d.fail(i, "invalid character "+quoteChar(s[i])+" looking for beginning of object key string")
		}
		k, j := d.str(i)
		if j < 0 {
			return j
		}
		if unique {
			// the mask test inline: a call per key showed in the audit
			bit := keyBit(k)
			if (keys.mask&bit != 0 || n >= manyKeys) && keys.seen(t, at, int(n), k) {
				return d.fail(i, "duplicate key "+strconv.Quote(k))
			}
			keys.mask |= bit
		}
		t.Toks = append(t.Toks, Tok{Kind: Key, Str: k})
		if i = skipSpace(s, j); i >= len(s) {
			return d.eof()
		}
		if s[i] != ':' {
			return d.fail(i, "invalid character "+quoteChar(s[i])+" after object key")
		}
		if j = t.value(skipSpace(s, i+1), depth); j < 0 {
			return j
		}
		n++
		if i = skipSpace(s, j); i >= len(s) {
			return d.eof()
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case '}':
			t.Toks[at].Len, t.Toks[at].Next = n, int32(len(t.Toks))
			return i + 1
		default:
			return d.fail(i, "invalid character "+quoteChar(s[i])+" after object key:value pair")
		}
	}
}

func (t *Tape) array(i, depth int) int {
	d := &t.d
	if depth > MaxDepth {
		return d.fail(i, "nesting too deep")
	}
	s := d.s
	at := t.push(Array)
	n := int32(0)
	if i = skipSpace(s, i+1); i < len(s) && s[i] == ']' {
		t.Toks[at].Next = int32(len(t.Toks))
		return i + 1
	}
	for {
		j := t.value(i, depth)
		if j < 0 {
			return j
		}
		n++
		if i = skipSpace(s, j); i >= len(s) {
			return d.eof()
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case ']':
			t.Toks[at].Len, t.Toks[at].Next = n, int32(len(t.Toks))
			return i + 1
		default:
			return d.fail(i, "invalid character "+quoteChar(s[i])+" after array element")
		}
	}
}

// Value builds the plain value of the token at i, as Decode would have
// returned it (for a caller that needs a map after all, such as CEL).
func (t *Tape) Value(i int) any {
	tok := &t.Toks[i]
	switch tok.Kind {
	case False:
		return false
	case True:
		return true
	case Number:
		return tok.Num
	case String:
		return tok.Str
	case Array:
		out := make([]any, 0, tok.Len)
		for j := i + 1; j < int(tok.Next); j = int(t.Toks[j].Next) {
			out = append(out, t.Value(j))
		}
		return out
	case Object:
		m := make(map[string]any, tok.Len)
		for j := i + 1; j < int(tok.Next); j = int(t.Toks[j+1].Next) {
			m[t.Toks[j].Str] = t.Value(j + 1)
		}
		return m
	}
	return nil
}

// keySet finds a key named twice in one object of a tape, in time linear
// in the object's members.
type keySet struct {
	// mask has a bit per keyBit of the keys so far: a key whose bit is
	// clear is new without a look at the others, which is the usual case
	// for the few keys of a message
	mask uint64
	all  map[string]struct{} // the keys, once there are many
}

// manyKeys is the number of members past which an object's keys are
// kept in a map rather than compared one by one.
const manyKeys = 16

// keyBit hashes a key's length and first and last bytes to one of 64 bits:
// the keys of one message rarely share one.
func keyBit(k string) uint64 {
	h := uint(len(k))
	if len(k) > 0 {
		h += uint(k[0])*7 + uint(k[len(k)-1])*3
	}
	return 1 << (h & 63)
}

// seen says whether k is among the first n keys of the object at
// t.Toks[at]; once there are manyKeys, it also adds k to the map it then
// keeps. The caller tests and sets mask.
func (ks *keySet) seen(t *Tape, at, n int, k string) bool {
	if ks.all != nil {
		if _, ok := ks.all[k]; ok {
			return true
		}
		ks.all[k] = struct{}{}
		return false
	}
	i := at + 1
	for m := 0; m < n; m++ {
		t.compared++
		if t.Toks[i].Str == k {
			return true
		}
		i = int(t.Toks[i+1].Next)
	}
	if n >= manyKeys {
		ks.all = make(map[string]struct{}, 2*n)
		for i, m := at+1, 0; m < n; m++ {
			ks.all[t.Toks[i].Str] = struct{}{}
			i = int(t.Toks[i+1].Next)
		}
		ks.all[k] = struct{}{}
	}
	return false
}
