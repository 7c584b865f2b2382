// Package msgcheck validates protocol messages (DELEGATE, HANDBACK and the
// other kinds a spec defines) against a protocol spec loaded at run time.
//
// A spec is JSON Schema draft-07 written in YAML, with per-kind blocks of
// strict core fields and loose extensions, plus protoscan's own keywords
// (minWords, errorMessage, existsIn, aliases, deprecated, signature and
// x-protoscan-validations CEL rules). It is parsed once and compiled into
// validators: patterns compiled, enums as sets, $refs resolved to pointers,
// so validating a message walks the message, never the spec.
//
// Detect names a message's kind from the spec's signatures, for what is
// known to be a message (a queue, validate). ShapeOf tells whether a
// record found among a repository's code and data is a message at all:
// its marker, a type or builder named for the kind, or the kind's id field
// and two more core fields, never two keys (see Record).
//
// The package knows nothing about files on disk beyond the spec itself and
// the repository root it is given explicitly, nor about languages or the CLI.
package msgcheck
