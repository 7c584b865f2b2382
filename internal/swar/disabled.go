//go:build protoscan_noswar

package swar

// Enabled: see enabled.go.
const Enabled = false
