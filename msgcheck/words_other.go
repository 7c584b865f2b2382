//go:build !amd64

package msgcheck

// wordBlocksAVX2 is false off amd64: countWords counts eight bytes at a
// time.
const wordBlocksAVX2 = false

func wordBlocks(p *byte, n int, prevSep uint64, limit int) (words int, consumed int, lastSep uint64) {
	panic("unreachable")
}
