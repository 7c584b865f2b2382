// Package handoff evaluates a NEXUS_HANDOFF (the confidence-scored
// handoff an agent writes at the end of a step of a Nexus chain, seed 002)
// with msgcheck, into the seed's validation event and a routing decision.
//
// The handoff is validated against the nexus_handoff_v2 kind of a spec
// (the embedded nexus-handoff-v2.yaml, or a repository's own copy): the
// required fields and their enums are JSON Schema, the consistency checks
// are the spec's CEL rules, both compiled once when the spec is loaded.
// What validation alone does not say comes from the kind's x-nexus-handoff
// block, so it is data of the spec too: the confidence a handoff of
// compliance level 1 or 2 (a V1 handoff, without confidence or without
// the breakdown) gets from its status, the breakdown weights, how far a
// confidence may be from the weighted average to be auto-corrected rather
// than sent back, and the routing bands.
//
// Confidence never repairs a missing invariant: a handoff with any error
// fails whatever its confidence, and is sent back (request_resubmit)
// rather than routed.
package handoff
