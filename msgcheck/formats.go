package msgcheck

// Format is what the spec requires of the text of a string field of a
// kind: its pattern and its length bounds. Analyzers that compare formats
// written in code with the spec's read these: a `re.fullmatch` of a
// task_id with another pattern disagrees on some id.
type Format struct {
	Path string // "task_id", "metrics.source"
	// Pattern is the spec's pattern as written (JSON Schema's: it matches
	// anywhere in the string unless it anchors itself); "" when the field
	// has none.
	Pattern string
	// MinLength and MaxLength bound the length in characters; -1 when
	// unset.
	MinLength, MaxLength int
	// File and Line are where the spec writes the pattern, or else its
	// first length bound (File as Spec.Sources names it).
	File string
	Line int
}

// Formats returns the formats of a kind's fields and of their nested
// properties that have a pattern or a length bound, in spec order, or nil
// for an unknown kind. A field defined by a $ref has its definition's
// format; keywords beside the $ref add to it.
func (s *Spec) Formats(kindName string) []Format {
	k := s.kind(kindName)
	if k == nil {
		return nil
	}
	var out []Format
	for _, f := range k.order {
		out = appendFormats(out, f.name, f.schema, 0)
	}
	return out
}

func appendFormats(out []Format, path string, sc *schema, depth int) []Format {
	if sc == nil || depth > maxLimitDepth {
		return out
	}
	fm := Format{Path: path, MinLength: -1, MaxLength: -1}
	var props *schema
	// the schema and the chain of its references, each at most once
	for hop := 0; sc != nil && hop < maxLimitDepth; hop, sc = hop+1, sc.ref {
		if sc.pattern != nil && fm.Pattern == "" {
			fm.Pattern, fm.File, fm.Line = sc.pattern.String(), sc.file, int(sc.patternLine)
		}
		if sc.minLength >= 0 && sc.minLength > fm.MinLength {
			fm.MinLength = sc.minLength
			if fm.File == "" {
				fm.File, fm.Line = sc.file, int(sc.kwLine[1])
			}
		}
		if sc.maxLength >= 0 && (fm.MaxLength < 0 || sc.maxLength < fm.MaxLength) {
			fm.MaxLength = sc.maxLength
			if fm.File == "" {
				fm.File, fm.Line = sc.file, int(sc.kwLine[2])
			}
		}
		if props == nil && sc.propOrder != nil {
			props = sc
		}
	}
	if fm.Pattern != "" || fm.MinLength >= 0 || fm.MaxLength >= 0 {
		out = append(out, fm)
	}
	if props != nil {
		for _, name := range props.propOrder {
			out = appendFormats(out, path+"."+name, props.properties[name], depth+1)
		}
	}
	return out
}
