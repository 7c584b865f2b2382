// Package archtest holds the tests of the module's own structure: what
// the public packages expose and which way imports run. It has no code.
package archtest
