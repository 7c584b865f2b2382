package audit

import (
	"strconv"
	"unicode/utf8"
)

// A task id comes from the queue: a problem's message names it in at
// most this many bytes (quotes and escapes included), then "...", so a
// megabyte id costs a report no more than a short one.
const (
	problemIDBytes = 80 // in the problems of the integrity checks
	cycleIDBytes   = 40 // in a cycle's problem, which names several
)

// appendID appends id to b in at most max bytes, and "..." when it had
// to be cut: bare when bare is set and id is printable ASCII without
// spaces, quotes or backslashes, else quoted as strconv.Quote does.
func appendID(b []byte, id string, max int, bare bool) []byte {
	cut := false
	if len(id) > max {
		// no form of the id is shorter than it: cut it first (at a rune,
		// unless it is not UTF-8 there)
		end := max
		for end > max-utf8.UTFMax && !utf8.RuneStart(id[end]) {
			end--
		}
		id, cut = id[:end], true
	}
	plain := id != ""
	for i := 0; i < len(id) && plain; i++ {
		plain = id[i] > ' ' && id[i] < 0x7f && id[i] != '"' && id[i] != '\\'
	}
	switch {
	case plain && bare:
		b = append(b, id...)
	case plain && len(id)+2 <= max:
		b = append(append(append(b, '"'), id...), '"')
	default:
		// quotes and escapes make it longer: drop runes until it fits
		q := strconv.Quote(id)
		for len(q) > max && id != "" {
			_, size := utf8.DecodeLastRuneInString(id)
			id, cut = id[:len(id)-size], true
			q = strconv.Quote(id)
		}
		b = append(b, q...)
	}
	if cut {
		b = append(b, "..."...)
	}
	return b
}

// appendQuoted appends a task id or status of the queue as an integrity
// problem names it: quoted, in at most problemIDBytes bytes.
func appendQuoted(b []byte, s string) []byte { return appendID(b, s, problemIDBytes, false) }

// appendCycleID appends a task id as a cycle's message names it: bare
// when it can be, in at most cycleIDBytes bytes.
func appendCycleID(b []byte, id string) []byte { return appendID(b, id, cycleIDBytes, true) }
