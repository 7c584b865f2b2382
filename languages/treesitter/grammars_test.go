package treesitter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

const tsSample = `import { z } from "zod";
export type Status = "success" | "failed" | 'partial';
export const enum Kind { Delegate = "DELEGATE", Handback = "HANDBACK" }
const Schema = z.object({ status: z.enum(["success", "failed"]) });
const TERMINAL = ["done", "failed"] as const;
function route(hb: Handback): string {
  switch (hb.status) {
    case "success": return ` + "`ok ${hb.task_id}`" + `;
    default: return hb["status"] === "failed" ? "x" : "y";
  }
}
const x = <T,>(a: T) => a;
const y = ((((( "broken"
`

const jsxSample = `// protoscan:ignore enumdrift/unknown-value -- a prop
export function Badge({ status }) {
  {/* a JSX comment */}
  return <span className={status === "done" ? "ok" : "ko"}>{status}</span>;
}
const re = /"[a-z]+"/g, s = 'it\'s';
`

// grammars are the languages of grammars.go, each with a sample it must
// parse without an error node at the root.
var grammars = []struct {
	name   string
	lang   func() *sitter.Language
	sample string
}{
	{"typescript", TypeScript, tsSample},
	{"tsx", TSX, tsSample[:strings.Index(tsSample, "const x")] + jsxSample},
	{"javascript", JavaScript, jsxSample},
}

func TestGrammars(t *testing.T) {
	for _, g := range grammars {
		t.Run(g.name, func(t *testing.T) {
			if g.lang() != g.lang() {
				t.Error("a grammar is made once")
			}
			if v := g.lang().AbiVersion(); v != 14 {
				t.Errorf("ABI %d, want 14", v)
			}
			pool := NewPool(g.lang(), Options{Parsers: 1})
			defer pool.Close()
			err := pool.Parse(context.Background(), []byte(g.sample), func(tr *Tree) error {
				root := tr.Root()
				if root.Kind() != "program" {
					return fmt.Errorf("root %s", root.Kind())
				}
				flat, slow := tr.Flatten(nil), cursorWalk(tr)
				if len(flat) != len(slow) || len(flat) < 50 {
					return fmt.Errorf("%d nodes, cursor %d", len(flat), len(slow))
				}
				for k := range flat {
					if flat[k] != slow[k] {
						return fmt.Errorf("node %d: %+v, cursor %+v", k, flat[k], slow[k])
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestGrammarLimits: the size cap and the budget of operations hold for
// every grammar as they do for Python's, and a parser stopped over its
// budget parses the next input from scratch.
func TestGrammarLimits(t *testing.T) {
	for _, g := range grammars {
		t.Run(g.name, func(t *testing.T) {
			small := NewPool(g.lang(), Options{Parsers: 1, MaxBytes: 100})
			defer small.Close()
			if err := small.Parse(context.Background(), make([]byte, 101), func(*Tree) error { return nil }); !errors.Is(err, ErrTooLarge) {
				t.Errorf("over the cap: %v", err)
			}
			slow := NewPool(g.lang(), Options{Parsers: 1, OpsPerByte: 1})
			defer slow.Close()
			big := bytes.Repeat([]byte("f({a: [1, (2, 3)], ...b}, c ? d : e);\n"), 20000)
			err := slow.Parse(context.Background(), big, func(*Tree) error { return errors.New("callback ran") })
			if !errors.Is(err, ErrBudget) || errors.Is(err, ErrTimeout) {
				t.Errorf("over budget: %v", err)
			}
			// the default budget takes real code, and the worst nesting
			deep := strings.Repeat("(", 50000) + "x" + strings.Repeat(")", 50000)
			for _, src := range [][]byte{big, []byte(g.sample), []byte(deep)} {
				if err := PoolFor(g.lang()).Parse(context.Background(), src, func(*Tree) error { return nil }); err != nil {
					t.Errorf("within the default budget: %v", err)
				}
			}
			var kind string
			if err := slow.ParseRoot(context.Background(), []byte("x = 1;\n"), func(r *sitter.Node) error {
				kind = r.ToSexp()
				return nil
			}); err != nil || !strings.Contains(kind, "assignment_expression") {
				t.Errorf("after a stopped parse: %q, %v", kind, err)
			}
		})
	}
}

// FuzzParseGrammars parses any input with each grammar through its pool
// and checks Flatten against the binding's cursor: no input crashes a
// parser, leaks its state into the next parse or escapes the limits.
func FuzzParseGrammars(f *testing.F) {
	for _, g := range grammars {
		f.Add([]byte(g.sample))
	}
	f.Add([]byte("enum E { A = `x${"))
	f.Add([]byte("<div>{/* </div> */}"))
	f.Add([]byte("\x00\xff'\"`{[(/"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, g := range grammars {
			err := PoolFor(g.lang()).Parse(context.Background(), src, func(tr *Tree) error {
				flat, slow := tr.Flatten(nil), cursorWalk(tr)
				if len(flat) != len(slow) {
					return fmt.Errorf("%d nodes, cursor %d", len(flat), len(slow))
				}
				for k := range flat {
					if flat[k] != slow[k] {
						return fmt.Errorf("node %d: %+v, cursor %+v", k, flat[k], slow[k])
					}
				}
				return nil
			})
			if err != nil && !errors.Is(err, ErrBudget) {
				t.Fatalf("%s: %v", g.name, err)
			}
		}
	})
}
