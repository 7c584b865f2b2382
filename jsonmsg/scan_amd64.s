#include "textflag.h"

// func scanString(p *byte, n int) int
//
// 32 bytes a block. A block's stop is its first quote, backslash or
// control byte (32 if none): its bytes before the stop are taken when
// they are valid UTF-8, judged with the block before (Keiser and
// Lemire's three nibble lookups, as in simdjson: "Validating UTF-8 in
// less than one instruction per byte", 2021). A sequence cut off at the
// last byte taken is not judged here; the caller backs off over it.
// Blocks of ASCII after ASCII skip the lookups.
//
// Y0 block, Y1-Y5 scratch, Y6 0x70, Y7 0x60, Y8-Y10 the lookup tables,
// Y11 0x1F, Y12 '\\', Y13 '"', Y14 0x0F, Y15 the last block the lookups
// judged (zeros at first). ASCII blocks skipped since then leave it
// stale, which is harmless: it is then ASCII too, and every ASCII byte
// before a block gives that block the same lookups.
TEXT ·scanString(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	XORQ DX, DX            // taken
	XORQ BX, BX            // the non-ASCII bytes of the block before

	MOVL $0x22, AX
	MOVD AX, X13
	VPBROADCASTB X13, Y13
	MOVL $0x5C, AX
	MOVD AX, X12
	VPBROADCASTB X12, Y12
	MOVL $0x1F, AX
	MOVD AX, X11
	VPBROADCASTB X11, Y11
	MOVL $0x60, AX
	MOVD AX, X7
	VPBROADCASTB X7, Y7
	MOVL $0x70, AX
	MOVD AX, X6
	VPBROADCASTB X6, Y6
	MOVL $0x0F, AX
	MOVD AX, X14
	VPBROADCASTB X14, Y14
	VBROADCASTI128 ·utf8Byte1High<>(SB), Y10
	VBROADCASTI128 ·utf8Byte1Low<>(SB), Y9
	VBROADCASTI128 ·utf8Byte2High<>(SB), Y8
	VPXOR   Y15, Y15, Y15

loop:
	CMPQ CX, $32
	JLT  done
	VMOVDQU (SI)(DX*1), Y0

	// the stop: '"', '\\', or below 0x20 (min(b, 0x1F) == b)
	VPCMPEQB  Y0, Y13, Y1
	VPCMPEQB  Y0, Y12, Y2
	VPOR      Y1, Y2, Y1
	VPMINUB   Y11, Y0, Y2
	VPCMPEQB  Y0, Y2, Y2
	VPOR      Y1, Y2, Y1
	VPMOVMSKB Y1, R8
	TZCNTL    R8, R10      // the stop; 32 without one
	VPMOVMSKB Y0, R9       // the non-ASCII bytes

	MOVL R9, AX
	ORL  BX, AX
	JNZ  utf8
	ADDQ R10, DX           // ASCII after ASCII
	CMPL R10, $32
	JNE  done
	SUBQ $32, CX
	JMP  loop

utf8:
	// prev1..prev3: the block shifted by 1..3 bytes, the block
	// before's last bytes shifted in
	VPERM2I128 $0x21, Y0, Y15, Y1
	VPALIGNR   $15, Y1, Y0, Y2 // prev1
	VPSRLW     $4, Y2, Y3
	VPAND      Y14, Y3, Y3
	VPSHUFB    Y3, Y10, Y3     // by prev1's high nibble
	VPAND      Y14, Y2, Y4
	VPSHUFB    Y4, Y9, Y4      // by prev1's low nibble
	VPAND      Y4, Y3, Y3
	VPSRLW     $4, Y0, Y4
	VPAND      Y14, Y4, Y4
	VPSHUFB    Y4, Y8, Y4      // by the byte's high nibble
	VPAND      Y4, Y3, Y3      // the special cases
	// the third and fourth bytes of a sequence must be continuations
	VPALIGNR   $14, Y1, Y0, Y4 // prev2
	VPSUBUSB   Y7, Y4, Y4      // >= 0x80 only after 111_____
	VPALIGNR   $13, Y1, Y0, Y5 // prev3
	VPSUBUSB   Y6, Y5, Y5      // >= 0x80 only after 1111____
	VPOR       Y5, Y4, Y4
	VPAND      ·x80<>(SB), Y4, Y4
	VPXOR      Y4, Y3, Y3      // nonzero: an error at this byte
	VPXOR      Y5, Y5, Y5
	VPCMPEQB   Y5, Y3, Y3
	VPMOVMSKB  Y3, R11
	NOTL       R11
	BZHIL      R10, R11, R11   // the errors before the stop
	TESTL      R11, R11
	JNZ        done
	ADDQ       R10, DX
	CMPL       R10, $32
	JNE        done
	SUBQ       $32, CX
	VMOVDQU    Y0, Y15
	MOVL       R9, BX
	JMP        loop

done:
	VZEROUPPER
	MOVQ DX, ret+16(FP)
	RET

// The three lookup tables, 16 bytes each, loaded into both lanes
// (VBROADCASTI128). By the high nibble of the byte before: the errors
// it allows; by its low nibble; by the high nibble of the byte itself.
DATA ·utf8Byte1High<>+0(SB)/8, $0x0202020202020202
DATA ·utf8Byte1High<>+8(SB)/8, $0x4915012180808080
GLOBL ·utf8Byte1High<>(SB), RODATA|NOPTR, $16
DATA ·utf8Byte1Low<>+0(SB)/8, $0xcbcbcb8b8383a3e7
DATA ·utf8Byte1Low<>+8(SB)/8, $0xcbcbdbcbcbcbcbcb
GLOBL ·utf8Byte1Low<>(SB), RODATA|NOPTR, $16
DATA ·utf8Byte2High<>+0(SB)/8, $0x0101010101010101
DATA ·utf8Byte2High<>+8(SB)/8, $0x01010101babaaee6
GLOBL ·utf8Byte2High<>(SB), RODATA|NOPTR, $16

// 0x80 in every byte (a memory operand: no register is left for it)
DATA ·x80<>+0(SB)/8, $0x8080808080808080
DATA ·x80<>+8(SB)/8, $0x8080808080808080
DATA ·x80<>+16(SB)/8, $0x8080808080808080
DATA ·x80<>+24(SB)/8, $0x8080808080808080
GLOBL ·x80<>(SB), RODATA|NOPTR, $32
