// Package baseline records the findings a repository already has, so that a
// later run reports only the new ones (--write-baseline F, --baseline F).
//
// A finding is identified by its rule, its path (relative to the
// repository root, wherever the scan started) and a fingerprint of the
// flagged line's text with blanks normalized (see Fingerprint), not by its
// line number: code that moves up or down keeps its fingerprint, and a
// change to the flagged line makes the finding new. Matching counts: a
// baseline with one entry absorbs one finding, however many identical
// findings there are.
//
// The file is JSON, versioned, with entries sorted so that the same
// findings always give the same bytes:
//
//	{
//	  "version": 1,
//	  "entries": [
//	    {
//	      "rule": "enumdrift/legacy-status",
//	      "path": "router/router.go",
//	      "fingerprint": "4f0c2a1b9d8e7f60",
//	      "message": "legacy status \"escalated\": ..."
//	    }
//	  ]
//	}
//
// The message is there for the humans reading the file; it is matched only
// for findings without a fingerprint, whose entries have none.
package baseline

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/internal/safefile"
)

// Version is the version of the file format Write writes and Load reads.
const Version = 1

// Fingerprint returns a short stable hash (16 hex digits, the first 8 bytes
// of a SHA-256) of rule, path and line, the text of the flagged line: line
// is trimmed and every run of blanks (space, tab, CR, LF, VT, FF) in it
// counts as one space, so that re-indented or moved code keeps its
// fingerprint.
func Fingerprint(rule, path string, line []byte) string {
	buf := make([]byte, 0, len(rule)+len(path)+len(line)+2)
	buf = append(buf, rule...)
	buf = append(buf, 0)
	buf = append(buf, path...)
	buf = append(buf, 0)
	buf = appendNormalized(buf, line)
	sum := sha256.Sum256(buf)
	return hex.EncodeToString(sum[:8])
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// appendNormalized appends line trimmed, with blank runs made one space.
func appendNormalized(dst, line []byte) []byte {
	space := false
	start := len(dst)
	for _, c := range line {
		if isBlank(c) {
			space = true
			continue
		}
		if space && len(dst) > start {
			dst = append(dst, ' ')
		}
		space = false
		dst = append(dst, c)
	}
	return dst
}

// LineText returns the text of the 1-based line of src without its line
// ending ("\n" or "\r\n"), or nil when src has no such line (line 0 among
// them: a finding on no line fingerprints the empty text). For the lines
// of many findings in one source, use Lines.
func LineText(src []byte, line int) []byte {
	return NewLines(src).Text(line)
}

// Lines is a source with the offset of each of its lines, so that the
// text of many findings' lines costs one pass over it, not one each.
type Lines struct {
	src    []byte
	starts []int // starts[i] is the offset of line i+1
}

// NewLines indexes the lines of src.
func NewLines(src []byte) *Lines {
	starts := make([]int, 1, 1+bytes.Count(src, []byte{'\n'}))
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		starts = append(starts, off)
	}
	return &Lines{src: src, starts: starts}
}

// Text is LineText of the source's line.
func (l *Lines) Text(line int) []byte {
	if line < 1 || line > len(l.starts) {
		return nil
	}
	text := l.src[l.starts[line-1]:]
	if line < len(l.starts) {
		text = text[:l.starts[line]-l.starts[line-1]-1]
	}
	return bytes.TrimSuffix(text, []byte("\r"))
}

// Entry is one recorded finding.
type Entry struct {
	Rule        string `json:"rule"`
	Path        string `json:"path"`
	Fingerprint string `json:"fingerprint,omitempty"`
	Message     string `json:"message"`
}

// Baseline is a loaded baseline file.
type Baseline struct {
	Version int     `json:"version"`
	Entries []Entry `json:"entries"`
}

// key is what matching compares: the fingerprint, or the message when
// there is no fingerprint.
type key struct{ rule, path, fingerprint, message string }

func keyOf(rule, path, fingerprint, message string) key {
	if fingerprint != "" {
		message = ""
	}
	return key{rule, path, fingerprint, message}
}

func compareEntries(a, b Entry) int {
	return cmp.Or(
		cmp.Compare(a.Path, b.Path),
		cmp.Compare(a.Rule, b.Rule),
		cmp.Compare(a.Fingerprint, b.Fingerprint),
		cmp.Compare(a.Message, b.Message),
	)
}

// Write writes a baseline of findings to w: one entry per finding (two
// identical findings give two entries), sorted by path, rule, fingerprint
// and message, so that the output depends only on the set of findings.
func Write(w io.Writer, findings []finding.Finding) error {
	b := Baseline{Version: Version, Entries: make([]Entry, 0, len(findings))}
	for _, f := range findings {
		b.Entries = append(b.Entries, Entry{Rule: f.Rule, Path: f.Path, Fingerprint: f.Fingerprint, Message: f.Message})
	}
	slices.SortFunc(b.Entries, compareEntries)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&b); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// Read reads a baseline written by Write. Errors do not name the input;
// Load's do.
func Read(r io.Reader) (*Baseline, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return parse(data)
}

// MaxSize is the largest baseline file read: 64 MiB, some 400,000
// entries.
const MaxSize = 64 << 20

// Load reads the baseline file at path, of at most MaxSize bytes. A path
// that lies in one of trees (the directories the command reads, which a
// pull request writes) is the tree's, read as the tree's spec is: a
// regular file that resolves inside that tree, never through a link out
// of it (a committed link to /dev/zero is refused unopened). A path
// outside them is the user's and read as named. Every error names the
// file: a missing, unreadable or refused file, JSON that is not well
// formed (with the line and column), a file of another version, an entry
// without rule or path.
func Load(path string, trees ...string) (*Baseline, error) {
	opt := safefile.ReadOptions{Max: MaxSize, Explicit: true}
	for _, t := range trees {
		if lexicallyIn(t, path) {
			opt = safefile.ReadOptions{Root: t, Max: MaxSize}
			break
		}
	}
	data, err := safefile.ReadFile(path, opt)
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	b, err := parse(data)
	if err != nil {
		var se *syntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("baseline %s:%d:%d: %v", path, se.line, se.col, se.err)
		}
		return nil, fmt.Errorf("baseline %s: %w", path, err)
	}
	return b, nil
}

// lexicallyIn reports whether path, as written, names something in the
// directory root (links not followed: that is what is checked next).
func lexicallyIn(root, path string) bool {
	r, err1 := filepath.Abs(root)
	p, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(r, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// syntaxError is malformed JSON at a line and column.
type syntaxError struct {
	line, col int
	err       error
}

func (e *syntaxError) Error() string { return fmt.Sprintf("%d:%d: %v", e.line, e.col, e.err) }
func (e *syntaxError) Unwrap() error { return e.err }

func parse(data []byte) (*Baseline, error) {
	var raw struct {
		Version *int     `json:"version"`
		Entries *[]Entry `json:"entries"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			at := se.Offset - 1 // the offending byte
			if se.Offset >= int64(len(data)) && strings.HasPrefix(se.Error(), "unexpected end") {
				at = int64(len(data)) // just after the input
			}
			line, col := position(data, at)
			return nil, &syntaxError{line, col, err}
		case errors.As(err, &te):
			return nil, fmt.Errorf("not a protoscan baseline: %v", err)
		}
		return nil, err
	}
	switch {
	case raw.Version == nil:
		return nil, errors.New(`not a protoscan baseline: no "version"`)
	case *raw.Version > Version:
		return nil, fmt.Errorf("version %d is newer than this protoscan reads (%d): upgrade protoscan or rewrite the baseline with --write-baseline", *raw.Version, Version)
	case *raw.Version != Version:
		return nil, fmt.Errorf("unknown version %d (this protoscan reads %d)", *raw.Version, Version)
	case raw.Entries == nil:
		return nil, errors.New(`not a protoscan baseline: no "entries"`)
	}
	for i, e := range *raw.Entries {
		if e.Rule == "" || e.Path == "" {
			return nil, fmt.Errorf("entries[%d]: rule and path are required", i)
		}
	}
	return &Baseline{Version: *raw.Version, Entries: *raw.Entries}, nil
}

// position turns the byte offset at (0-based, at most len(data)) into a
// 1-based line and column.
func position(data []byte, at int64) (line, col int) {
	at = min(max(at, 0), int64(len(data)))
	prefix := data[:at]
	line = bytes.Count(prefix, []byte("\n")) + 1
	col = int(at) - bytes.LastIndexByte(prefix, '\n')
	return line, col
}

// Filter drops the findings the baseline records. A finding matches an
// entry with the same rule, path and fingerprint, or, when the finding has
// no fingerprint, the same rule, path and message (and no fingerprint).
// Each entry absorbs one finding: of two identical findings and one entry,
// the first in findings' order is matched and the second is kept, as new.
//
// kept holds the unmatched findings in their order; matched counts the
// dropped ones; stale counts the entries that matched no finding (fixed
// since the baseline was written). A nil Baseline keeps every finding.
func (b *Baseline) Filter(findings []finding.Finding) (kept []finding.Finding, matched, stale int) {
	in, left := b.Match(findings, nil)
	stale = len(left)
	kept = make([]finding.Finding, 0, len(findings))
	for i, f := range findings {
		if in[i] {
			matched++
			continue
		}
		kept = append(kept, f)
	}
	return kept, matched, stale
}

// Legacy tells the fingerprint finding i would have had under path, a
// tail of its own path (see Match).
type Legacy func(i int, path string) string

// Match tells which findings the baseline holds (see Filter) and returns
// the entries that matched none, in the baseline's order. Paths are
// relative to the repository root, as Write records them.
//
// A baseline written by an earlier protoscan named files relative to the
// scanned PATH, and hashed those paths into the fingerprints: an entry
// "hb/hb.go" of a scan of go/ stands for the repository's go/hb/hb.go.
// With legacy set, a finding no entry matches as it is is also matched
// against the entries of a tail of its path (its path with leading
// directories removed, at a "/"), with the fingerprint legacy gives for
// that tail; the fullest tail is tried first.
func (b *Baseline) Match(findings []finding.Finding, legacy Legacy) (in []bool, stale []Entry) {
	in = make([]bool, len(findings))
	if b == nil {
		return in, nil
	}
	left := make(map[key]int, len(b.Entries))
	byTail := map[[2]string]bool{} // rule, path of the entries
	for _, e := range b.Entries {
		left[keyOf(e.Rule, e.Path, e.Fingerprint, e.Message)]++
		byTail[[2]string{e.Rule, e.Path}] = true
	}
	take := func(k key) bool {
		if left[k] > 0 {
			left[k]--
			return true
		}
		return false
	}
	for i, f := range findings {
		in[i] = take(keyOf(f.Rule, f.Path, f.Fingerprint, f.Message))
	}
	if legacy != nil {
		for i, f := range findings {
			for p := f.Path; !in[i]; {
				slash := strings.IndexByte(p, '/')
				if slash < 0 {
					break
				}
				p = p[slash+1:]
				if !byTail[[2]string{f.Rule, p}] {
					continue
				}
				fp := ""
				if f.Fingerprint != "" {
					fp = legacy(i, p)
				}
				in[i] = take(keyOf(f.Rule, p, fp, f.Message))
			}
		}
	}
	for _, e := range b.Entries {
		if k := keyOf(e.Rule, e.Path, e.Fingerprint, e.Message); left[k] > 0 {
			left[k]--
			stale = append(stale, e)
		}
	}
	return in, stale
}
