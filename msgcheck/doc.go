// Package msgcheck validates protocol messages (DELEGATE, HANDBACK and the
// other kinds a spec defines) against a protocol spec loaded at run time.
//
// A spec is JSON Schema (draft-07, 2019-09 or 2020-12) written in YAML or
// JSON, with per-kind blocks of strict core fields and loose extensions
// (or object schemas whose required properties are the core fields), plus
// protoscan's own keywords (minWords, errorMessage, existsIn, aliases,
// deprecated, signature and x-protoscan-validations CEL rules). The
// keywords of the three drafts are data (keywords.go): a keyword protoscan
// does not enforce is a warning (Spec.Warnings), any other unknown key an
// error. LoadSpecs makes one spec of per-kind schema files. It is parsed once and compiled into
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
