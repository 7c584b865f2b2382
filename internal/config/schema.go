package config

import _ "embed"

//go:embed protoscan.schema.json
var schema []byte

// Schema returns the JSON Schema (draft-07) of the configuration file, for
// editors (yaml-language-server) and other tools. Load checks everything
// it says and more: duplicate keys and the syntax of globs.
func Schema() []byte { return append([]byte(nil), schema...) }
