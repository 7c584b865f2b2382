// Command validate measures msgcheck on one core the way bench/audit/ajv.mjs
// measures ajv, on the same JSON Lines corpus, so the two compare directly:
//
//	go run ./bench/validate -root ROOT [-reps 3] CORPUS.jsonl
//
// parse+validate reads every line onto a jsonmsg.Tape and validates it
// there, as the audit does (and, for comparison, decodes it into maps and
// validates those);
// validate only validates messages decoded beforehand (with
// encoding/json's types). Both run on one goroutine, best of -reps, and
// pick the kind as ajv.mjs does (handoff_type HANDBACK, else DELEGATE).
// ROOT is a repository root whose skills/ the DELEGATEs name (see
// bench/audit.sh).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/protoscan-dev/protoscan/jsonmsg"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

func main() {
	root := flag.String("root", ".", "repository root `DIR` (for skills/)")
	reps := flag.Int("reps", 3, "runs; the best is reported")
	flag.Parse()
	if flag.NArg() != 1 || *reps < 1 {
		fmt.Fprintln(os.Stderr, "usage: validate -root DIR [-reps N] CORPUS.jsonl")
		os.Exit(2)
	}
	lines, err := readLines(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "validate:", err)
		os.Exit(1)
	}
	v, err := msgcheck.New(msgcheck.Options{Root: *root}, msgcheck.DefaultSpec())
	if err != nil {
		fmt.Fprintln(os.Stderr, "validate:", err)
		os.Exit(1)
	}
	kindOf := func(m any) string {
		if mm, ok := m.(map[string]any); ok && mm["handoff_type"] == "HANDBACK" {
			return "handback"
		}
		return "delegate"
	}
	var dec jsonmsg.Decoder
	dec.Reuse = true
	valid := 0
	parseAndValidate := func() {
		valid = 0
		for _, l := range lines {
			m, err := dec.DecodeString(l)
			if err == nil && v.Validate(kindOf(m), m).Valid {
				valid++
			}
		}
	}
	var tape jsonmsg.Tape
	tapeValidate := func() {
		valid = 0
		for _, l := range lines {
			if tape.Parse(l) != nil {
				continue
			}
			res, ok := v.ValidateTape(kindOfTape(&tape), &tape)
			if !ok {
				m, _ := dec.DecodeString(l)
				res = v.Validate(kindOf(m), m)
			}
			if res.Valid {
				valid++
			}
		}
	}
	parsed := make([]any, len(lines))
	for i, l := range lines {
		parsed[i], _ = jsonmsg.Decode([]byte(l))
	}
	validateOnly := func() {
		valid = 0
		for _, m := range parsed {
			if v.Validate(kindOf(m), m).Valid {
				valid++
			}
		}
	}
	best := func(f func()) time.Duration {
		var b time.Duration
		for i := 0; i < *reps; i++ {
			t := time.Now()
			f()
			if d := time.Since(t); i == 0 || d < b {
				b = d
			}
		}
		return b
	}
	pv, tv, vo := best(parseAndValidate), best(tapeValidate), best(validateOnly)
	n := float64(len(lines))
	fmt.Printf("msgcheck (Go), %d messages, %d valid (%.1f%%), best of %d, 1 thread\n", len(lines), valid, 100*float64(valid)/n, *reps)
	fmt.Printf("  parse+validate: %.3f s, %.0fk msg/s (jsonmsg.Tape, as the audit; %.0fk msg/s decoding into maps)\n",
		tv.Seconds(), n/tv.Seconds()/1000, n/pv.Seconds()/1000)
	fmt.Printf("  validate only:  %.3f s, %.0fk msg/s\n", vo.Seconds(), n/vo.Seconds()/1000)
}

func kindOfTape(t *jsonmsg.Tape) string {
	if i := t.Member(0, "handoff_type"); i >= 0 && t.Toks[i].Str == "HANDBACK" {
		return "handback"
	}
	return "delegate"
}

func readLines(name string) ([]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if len(sc.Bytes()) > 0 {
			lines = append(lines, sc.Text())
		}
	}
	return lines, sc.Err()
}
