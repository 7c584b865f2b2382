package msgcheck

import "github.com/protoscan-dev/protoscan/jsonmsg"

// A JSON Schema document is never a message, whatever its file is named
// (schemas/handback.schema.json) and whatever fields its properties name:
// it names its $schema, or it describes an object's properties. The scan,
// the audit and validate all ask these.

// IsSchemaDocument reports a record that is a JSON Schema document.
func IsSchemaDocument(r Record) bool {
	props, typ := false, ""
	for i, k := range r.Keys {
		switch k {
		case "$schema":
			return true
		case "properties":
			props = true
		case "type":
			typ, _ = r.value(i).(string)
		}
	}
	return schemaDocument(props, typ)
}

// IsSchemaMap reports a decoded document that is a JSON Schema document.
func IsSchemaMap(m map[string]any) bool {
	if _, ok := m["$schema"]; ok {
		return true
	}
	_, props := m["properties"]
	typ, _ := m["type"].(string)
	return schemaDocument(props, typ)
}

// IsSchemaTape reports a document on a tape that is a JSON Schema
// document.
func IsSchemaTape(t *jsonmsg.Tape) bool {
	if len(t.Toks) == 0 || t.Toks[0].Kind != jsonmsg.Object {
		return false
	}
	if t.Member(0, "$schema") >= 0 {
		return true
	}
	typ := ""
	if i := t.Member(0, "type"); i >= 0 && t.Toks[i].Kind == jsonmsg.String {
		typ = t.Toks[i].Str
	}
	return schemaDocument(t.Member(0, "properties") >= 0, typ)
}

func schemaDocument(properties bool, typ string) bool { return properties && typ == "object" }
