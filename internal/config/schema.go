package config

import _ "embed"

//go:embed protoscan.schema.json
var schema []byte

// Schema returns the JSON Schema (draft-07) of the configuration file, for
// editors (yaml-language-server) and other tools. Load checks everything
// it says and more: duplicate keys and the syntax of globs.
func Schema() []byte { return append([]byte(nil), schema...) }

//go:embed starter.yaml
var starter []byte

// Starter returns the commented .protoscan.yaml `protoscan init` writes:
// the main keys, each with a line saying what it does, set as the
// defaults are (it changes no scan) and with an example beside it.
func Starter() []byte { return append([]byte(nil), starter...) }
