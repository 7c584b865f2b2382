#include "textflag.h"

// LEADS sets Y1's bytes where Y0 holds C2, E1, E2, E3 or EF (Y11-Y15).
#define LEADS \
	VPCMPEQB Y0, Y11, Y1 \
	VPCMPEQB Y0, Y12, Y2 \
	VPOR     Y1, Y2, Y1  \
	VPCMPEQB Y0, Y13, Y2 \
	VPOR     Y1, Y2, Y1  \
	VPCMPEQB Y0, Y14, Y2 \
	VPOR     Y1, Y2, Y1  \
	VPCMPEQB Y0, Y15, Y2 \
	VPOR     Y1, Y2, Y1

// SEPARATORS sets Y1's bytes where Y0 holds ' ' (Y8) or '\t' to '\r':
// b-9 (Y9 holds 9) unsigned at most 4 (Y10), i.e. min(b-9, 4) == b-9.
#define SEPARATORS \
	VPCMPEQB Y0, Y8, Y1 \
	VPSUBB   Y9, Y0, Y2 \
	VPMINUB  Y10, Y2, Y3 \
	VPCMPEQB Y2, Y3, Y3 \
	VPOR     Y1, Y3, Y1

// func wordBlocks(p *byte, n int, prevSep uint64, limit int) (words int, consumed int, lastSep uint64)
//
// Per 32-byte block: sep = (b == ' ') | (b - 9 <u 5) as a bit mask S;
// a word starts at each bit of ^S & (S<<1 | carry), carry the block's
// last bit of S. A block with a byte C2, E1, E2, E3 or EF is left to
// the caller. The last n%32 bytes are the top of the 32-byte block
// that ends at p+n (n is at least 32), its other bytes shifted out.
TEXT ·wordBlocks(SB), NOSPLIT, $0-56
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ prevSep+16(FP), R8
	MOVQ limit+24(FP), R9
	XORQ AX, AX            // words
	XORQ DX, DX            // consumed

	MOVL $0x20, BX
	MOVD BX, X8
	VPBROADCASTB X8, Y8    // ' '
	MOVL $0x09, BX
	MOVD BX, X9
	VPBROADCASTB X9, Y9    // 9
	MOVL $0x04, BX
	MOVD BX, X10
	VPBROADCASTB X10, Y10  // 4
	MOVL $0xC2, BX
	MOVD BX, X11
	VPBROADCASTB X11, Y11
	MOVL $0xE1, BX
	MOVD BX, X12
	VPBROADCASTB X12, Y12
	MOVL $0xE2, BX
	MOVD BX, X13
	VPBROADCASTB X13, Y13
	MOVL $0xE3, BX
	MOVD BX, X14
	VPBROADCASTB X14, Y14
	MOVL $0xEF, BX
	MOVD BX, X15
	VPBROADCASTB X15, Y15

loop:
	CMPQ CX, $32
	JLT  tail
	VMOVDQU (SI)(DX*1), Y0

	// a byte that may start a non-ASCII separator: the caller's
	LEADS
	VPTEST   Y1, Y1
	JNZ      done

	SEPARATORS
	VPMOVMSKB Y1, BX       // S

	// starts = ^S & (S<<1 | carry)
	MOVL BX, R10
	SHLL $1, R10
	ORL  R8, R10
	ANDNL R10, BX, R11     // R11 = ^BX & R10
	POPCNTL R11, R11
	ADDQ R11, AX
	MOVL BX, R8
	SHRL $31, R8           // carry: the block's last byte is a separator

	ADDQ $32, DX
	SUBQ $32, CX
	TESTQ R9, R9
	JLE  loop
	CMPQ AX, R9
	JLT  loop
	JMP  done              // the limit is reached

	// the tail: the last 32 bytes, of which the first 32-CX are done
tail:
	TESTQ CX, CX
	JZ    done
	LEAQ  -32(SI)(DX*1), R12
	VMOVDQU (R12)(CX*1), Y0
	MOVL  $32, R14
	SUBL  CX, R14              // the bytes done already, shifted out

	LEADS
	VPMOVMSKB Y1, BX
	SHRXL R14, BX, BX
	TESTL BX, BX
	JNZ   done

	SEPARATORS
	VPMOVMSKB Y1, BX
	SHRXL R14, BX, BX          // S of the tail's CX bytes

	MOVL BX, R10
	SHLL $1, R10
	ORL  R8, R10
	ANDNL R10, BX, R11
	BZHIL CX, R11, R11         // only the tail's bits
	POPCNTL R11, R11
	ADDQ R11, AX
	LEAL -1(CX), R14
	SHRXL R14, BX, R8
	ANDL $1, R8
	ADDQ CX, DX

done:
	VZEROUPPER
	MOVQ AX, words+32(FP)
	MOVQ DX, consumed+40(FP)
	MOVQ R8, lastSep+48(FP)
	RET
