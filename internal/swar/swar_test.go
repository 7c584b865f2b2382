package swar

import (
	"math/bits"
	"testing"
)

// TestNotPlain: the lowest byte NotPlain flags is the first byte that is
// not plain, for every byte value at every place of a word, after plain
// bytes and before any bytes at all.
func TestNotPlain(t *testing.T) {
	plain := func(c byte) bool { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' }
	firstNotPlain := func(b [8]byte) int {
		for i, c := range b {
			if !plain(c) {
				return i
			}
		}
		return 8
	}
	for _, fill := range []byte{'a', ' ', '~', 0x21, '"' + 1, '\\' + 1} {
		for at := 0; at < 8; at++ {
			for c := 0; c < 256; c++ {
				for _, after := range []byte{fill, 0x00, 0xff, '"', '\\', 0x1f, 0x80} {
					var b [8]byte
					for i := range b {
						b[i] = fill
						if i > at {
							b[i] = after
						}
					}
					b[at] = byte(c)
					w := Load64(string(b[:]), 0)
					got := 8
					if f := NotPlain(w); f != 0 {
						got = bits.TrailingZeros64(f) >> 3
					}
					if want := firstNotPlain(b); got != want {
						t.Fatalf("% x: NotPlain says byte %d, want %d", b, got, want)
					}
				}
			}
		}
	}
}
