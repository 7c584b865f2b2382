package baseline

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"syscall"

	"github.com/protoscan-dev/protoscan/finding"
)

// FingerprintLines gives findings (an audit's), named relative to the
// repository root in keyed, the fingerprints the scan's have
// (Fingerprint): of the rule, that path and the text of the
// flagged line, read again from the file the audit read (fs names it as
// the audit did), each file once, line by line, up to the last line
// flagged. A finding on no line has the empty text, as the scan's
// notices about whole files; a line that cannot be read again (stdin, a
// line over maxLine bytes, a file gone since) is stood for by the
// finding's message.
func FingerprintLines(fs, keyed []finding.Finding, maxLine int) {
	lines := map[string]map[int][]byte{} // path -> line -> text
	for _, f := range fs {
		if f.Line > 0 && f.Path != "-" {
			if lines[f.Path] == nil {
				lines[f.Path] = map[int][]byte{}
			}
			lines[f.Path][f.Line] = nil
		}
	}
	for p, want := range lines {
		readLines(filepath.FromSlash(p), want, maxLine)
	}
	for i, f := range fs {
		var text []byte
		if f.Line > 0 {
			text = lines[f.Path][f.Line]
			if text == nil {
				text = []byte(f.Message)
			}
		}
		keyed[i].Fingerprint = Fingerprint(f.Rule, keyed[i].Path, text)
	}
}

// readLines sets the text of each line of want (1-based; with its line
// ending) that the file name has, reading it up to the last line wanted;
// a line over maxLine bytes is left nil. name must be a regular file: a
// named pipe is not waited on.
func readLines(name string, want map[int][]byte, maxLine int) {
	last := 0
	for n := range want {
		last = max(last, n)
	}
	fi, err := os.Stat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return
	}
	br := bufio.NewReaderSize(f, 64<<10)
	var text []byte
	long := false
	for line := 1; line <= last; {
		chunk, err := br.ReadSlice('\n')
		_, wanted := want[line]
		if wanted && !long {
			if len(text)+len(chunk) > maxLine {
				long, text = true, nil
			} else {
				text = append(text, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue // the line goes on
		}
		if wanted && !long && (len(text) > 0 || err == nil) {
			want[line] = text
		}
		text, long = nil, false
		line++
		if err != nil {
			return
		}
	}
}
