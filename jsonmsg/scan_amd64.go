package jsonmsg

import "golang.org/x/sys/cpu"

// scanAVX2 is set where the CPU has AVX2, BMI1 and BMI2 (and the OS
// saves the vector registers): str then scans long strings 32 bytes at
// a time (scan_amd64.s).
var scanAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasBMI1 && cpu.X86.HasBMI2

// scanString returns how many of the n bytes at p are string content
// that str may skip: no quote, backslash or control byte, and valid
// UTF-8 except perhaps a sequence cut off at the end, which the caller
// must back off over (see cutRune). It takes whole blocks of 32 bytes
// and the part of a block before its first quote, backslash or control
// byte; it stops before a block with invalid UTF-8 and when fewer than
// 32 bytes are left.
//
//go:noescape
func scanString(p *byte, n int) int
