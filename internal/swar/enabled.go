//go:build !protoscan_noswar

package swar

// Enabled says whether the callers' loops take eight bytes at a time;
// false with the tag protoscan_noswar (see the package comment).
const Enabled = true
