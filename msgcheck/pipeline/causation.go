package pipeline

import (
	"math"
	"strconv"

	"github.com/protoscan-dev/protoscan/msgcheck"
)

// CausationOf derives an artifact's causation id from what decides its
// validation: the kind named for it, the stage it moves on from, and its
// content. Equal content gives the same id whatever the order of its
// mapping keys, and 1 and 1.0 are the same number, as in JSON. The id is
// "art-" and 16 hex digits of a 64-bit structural hash (FNV-1a over
// words, and splitmix64 to combine the entries of a mapping): it
// names an artifact in an event log, it is not a cryptographic digest.
func CausationOf(kind, from string, msg any) string {
	h := uint64(fnvOffset)
	h = hashString(h, kind)
	h = hashString(h, from)
	h = hashValue(h, msg, 0)
	var b [20]byte
	copy(b[:], "art-")
	for i := 0; i < 16; i++ {
		b[4+i] = hexDigits[(h>>(60-4*i))&0xf]
	}
	return string(b[:])
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
	// maxHashDepth stops hashing absurdly deep values; decoders bound
	// depth long before this.
	maxHashDepth = 256
	hexDigits    = "0123456789abcdef"
)

func hashByte(h uint64, c byte) uint64 { return (h ^ uint64(c)) * fnvPrime }

func hashUint64(h, x uint64) uint64 {
	h = (h ^ x) * fnvPrime
	return h ^ h>>29
}

// hashString hashes s with its length, so that ("ab","c") and ("a","bc")
// differ.
func hashString(h uint64, s string) uint64 {
	h = hashUint64(h, uint64(len(s)))
	for len(s) >= 8 { // eight bytes a step: FNV-1a on words, mixed
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		h = (h ^ w) * fnvPrime
		h ^= h >> 29
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		h = hashByte(h, s[i])
	}
	return h
}

// mix is splitmix64's finalizer: it spreads an entry's hash before the
// entries of a mapping are summed.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

func hashValue(h uint64, v any, depth int) uint64 {
	if depth > maxHashDepth {
		return hashByte(h, '!')
	}
	switch x := v.(type) {
	case nil:
		return hashByte(h, 'z')
	case bool:
		if x {
			return hashByte(h, 't')
		}
		return hashByte(h, 'f')
	case string:
		return hashString(hashByte(h, 's'), x)
	case map[string]any:
		// summing the mixed entry hashes makes the key order irrelevant
		var sum uint64
		for k, e := range x {
			sum += mix(hashValue(hashString(fnvOffset, k), e, depth+1))
		}
		h = hashUint64(hashByte(h, 'm'), uint64(len(x)))
		return hashUint64(h, sum)
	case []any:
		h = hashUint64(hashByte(h, 'a'), uint64(len(x)))
		for _, e := range x {
			h = hashValue(h, e, depth+1)
		}
		return h
	}
	if f, ok := msgcheck.Number(v); ok {
		if f == 0 {
			f = 0 // -0 is 0
		}
		return hashUint64(hashByte(h, 'n'), math.Float64bits(f))
	}
	// a type no decoder produces: hash its printed form
	return hashString(hashByte(h, '?'), strconv.Quote(typeName(v)))
}

func typeName(v any) string {
	type stringer interface{ String() string }
	if s, ok := v.(stringer); ok {
		return s.String()
	}
	return "unknown"
}
