package msgcheck

import "golang.org/x/sys/cpu"

// wordBlocksAVX2 is set where the CPU has AVX2 (and the OS saves its
// registers): countWords then takes all-ASCII-or-harmless stretches 32
// bytes at a time (words_amd64.s).
var wordBlocksAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasBMI1 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT

// wordBlocks counts the words that start in p[:n] (n at least 32), 32
// bytes at a time, given whether the byte before p is a separator
// (prevSep 1) or not (0). It stops after the block in which the count
// reaches limit (when positive), and before a block holding a byte that
// may start a non-ASCII separator (C2, E1, E2, E3, EF), which the caller
// decodes. It returns the words counted, the bytes consumed (all n, or
// a multiple of 32 where it stopped) and whether the last byte consumed
// is a separator (1).
//
//go:noescape
func wordBlocks(p *byte, n int, prevSep uint64, limit int) (words int, consumed int, lastSep uint64)
