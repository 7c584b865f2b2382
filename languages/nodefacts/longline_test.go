package nodefacts

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/protoscan-dev/protoscan/languages/facts"
	"github.com/protoscan-dev/protoscan/languages/jsondoc"
	"github.com/protoscan-dev/protoscan/languages/yamldoc"
)

// slowPos is pos as it was before long lines had stops: rune by rune from
// the start of the line.
func (x *extractor) slowPos(line, col int) facts.Pos {
	p := facts.Pos{Line: line + x.lineOffset, Col: col + x.colOffset}
	if line < 1 || line > len(x.lines) {
		return p
	}
	off := x.lines[line-1]
	if line == 1 {
		off += x.bomLen
	}
	for r := 1; r < col && off < len(x.src) && x.src[off] != '\n'; r++ {
		_, size := utf8.DecodeRune(x.src[off:])
		off += size
	}
	p.Col = off - x.lines[line-1] + 1 + x.colOffset
	p.Offset = off
	return p
}

// TestPosWithStops: the stops give the same byte columns and offsets as a
// walk from the start of the line, on long lines of mixed-width runes,
// at and past their ends, in any order.
func TestPosWithStops(t *testing.T) {
	var b strings.Builder
	runes := []string{"a", "é", "€", "𝄞", "\t", "\xff"}
	for i := range 5000 {
		b.WriteString(runes[i%len(runes)])
		if i%1700 == 1699 {
			b.WriteString("\n")
		}
	}
	b.WriteString(strings.Repeat("x", 64) + "\n" + strings.Repeat("y", 128))
	src := []byte(b.String())
	r := rand.New(rand.NewPCG(1, 2))
	for _, bomLen := range []int{0, 3} {
		if bomLen > 0 {
			src = append([]byte("\ufeff"), src...)
		}
		x := &extractor{lines: lineStarts(src), src: src, colOffset: 3, lineOffset: 2, bomLen: bomLen}
		for range 20000 {
			line, col := r.IntN(len(x.lines)+2), r.IntN(2000)
			if got, want := x.pos(line, col), x.slowPos(line, col); got != want {
				t.Fatalf("pos(%d, %d) = %+v, want %+v", line, col, got, want)
			}
		}
	}
}

// TestLongLine: a JSON document on one line (minified) yields its facts
// in work linear in the line: the line is walked once for its stops, and
// each position at most stopEvery runes from its stop. A rune walk from
// the line's start per position would be quadratic (for 1 MiB, minutes).
func TestLongLine(t *testing.T) {
	src := []byte("[" + strings.Repeat(`{"task_id": "a-1", "status": "FAILED", "é": {}}, `, 2_000) + "1]")
	docs, err := jsondoc.Parse("min.json", src, jsondoc.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	f := &facts.File{}
	stepped := extract(f, src, docs, 0, 0)
	// at most two positions (a start and an end) for each of the 14,002
	// nodes: 0.98 million runes walked, against 1.4 billion from the
	// line's start
	nodes := countNodes(docs[0])
	if most := utf8.RuneCount(src) + 2*stopEvery*nodes; stepped > most {
		t.Errorf("%d runes walked for %d nodes on a line of %d runes, want at most %d", stepped, nodes, utf8.RuneCount(src), most)
	}
	last := f.Strings[len(f.Strings)-1]
	if last.Value != "é" || last.Pos.Col != len(src)-len(`"é": {}}, 1]`)+1 || last.Pos.Offset != last.Pos.Col-1 {
		t.Errorf("last string %q at col %d offset %d", last.Value, last.Pos.Col, last.Pos.Offset)
	}
}

// TestByteOrderMark: yaml.v3 and jsondoc skip a leading BOM, so their
// columns on line 1 start after it; the facts' byte columns and offsets
// count its three bytes, and a value's End is known (a fix can edit it).
func TestByteOrderMark(t *testing.T) {
	for name, src := range map[string]string{
		"bom.yaml": "\ufeffstatus: FAILED\n",
		"bom.json": "\ufeff{\"status\": \"FAILED\"}",
	} {
		var docs []*yaml.Node
		var err error
		if strings.HasSuffix(name, ".json") {
			docs, err = jsondoc.Parse(name, []byte(src), jsondoc.DefaultLimits())
		} else {
			docs, err = yamldoc.Parse(name, []byte(src), yamldoc.DefaultLimits())
		}
		if err != nil {
			t.Fatal(err)
		}
		f := &facts.File{}
		Extract(f, []byte(src), docs, 0, 0)
		for _, s := range f.Strings {
			at := strings.Index(src, s.Value)
			if src[at-1] == '"' {
				at--
			}
			if s.Pos.Offset != at || s.Pos.Col != at+1 || s.Pos.Line != 1 {
				t.Errorf("%s: %q at %+v, want offset %d", name, s.Value, s.Pos, at)
			}
			if s.Value == "FAILED" && s.End.Offset == 0 {
				t.Errorf("%s: %q has no End", name, s.Value)
			}
		}
	}
}

// countNodes counts the nodes of the tree under n.
func countNodes(n *yaml.Node) int {
	c := 1
	for _, m := range n.Content {
		c += countNodes(m)
	}
	return c
}
