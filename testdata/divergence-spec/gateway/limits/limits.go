// Package limits holds the gateway's thresholds.
package limits

// MinQuality is the quality below which a HANDBACK is escalated.
const MinQuality = 0.7
