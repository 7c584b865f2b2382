package yamlnode

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// CheckAliases tells, without expanding anything, whether the aliases of
// the tree under n would make a consumer that follows them (one that
// shares an anchor's value at every alias, then walks the values) do
// unbounded work: aliases that would add more than lim.MaxNodes nodes to
// the tree's own (a "billion laughs" alias bomb), or an alias inside the
// node it names (a cycle, which never ends). Its time is linear in the
// size of the tree: the expanded size of each node is counted once. A
// tree without aliases costs one walk.
func CheckAliases(n *yaml.Node, lim Limits) error {
	_, err := checkAliases(n, lim)
	return err
}

// checkAliases is CheckAliases, and also returns the steps of its walks:
// each node of the tree taken from the stack of the first walk, each
// child the second walk takes, and each collection it finishes (tests
// bound them).
func checkAliases(n *yaml.Node, lim Limits) (steps int, err error) {
	lim = lim.OrDefault()
	own, aliases := 0, false
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		m := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		own++
		steps++
		if m.Kind == yaml.AliasNode {
			aliases = true
			continue
		}
		stack = append(stack, m.Content...)
	}
	if !aliases {
		return steps, nil
	}
	limit := own + lim.MaxNodes
	// A depth-first walk that follows aliases, with each collection's
	// expanded size kept once known; open holds the collections on the
	// walk's path, which an alias must not name.
	type frame struct {
		n          *yaml.Node
		next, size int
	}
	size := map[*yaml.Node]int{}
	open := map[*yaml.Node]bool{n: true}
	walk := []frame{{n: n, size: 1}}
	var last *yaml.Node // the latest alias met, where a bomb is reported
	tooMany := func() error {
		at := n
		if last != nil {
			at = last
		}
		return &Error{at.Line, at.Column, fmt.Sprintf("aliases expand the document by more than %d nodes (alias bomb?)", lim.MaxNodes)}
	}
	for len(walk) > 0 {
		steps++
		f := &walk[len(walk)-1]
		if f.next == len(f.n.Content) {
			done := *f
			size[done.n] = done.size
			delete(open, done.n)
			walk = walk[:len(walk)-1]
			if len(walk) > 0 {
				p := &walk[len(walk)-1]
				if p.size += done.size; p.size > limit {
					return steps, tooMany()
				}
			}
			continue
		}
		c := f.n.Content[f.next]
		f.next++
		if c.Kind == yaml.AliasNode {
			if c.Alias == nil {
				f.size++
				continue
			}
			last = c
			target := c.Alias
			if open[target] {
				return steps, &Error{c.Line, c.Column, fmt.Sprintf("alias *%s is inside the node it names (a cycle)", c.Value)}
			}
			c = target
		}
		if len(c.Content) == 0 {
			f.size++
		} else if s, ok := size[c]; ok {
			f.size += s
		} else {
			open[c] = true
			walk = append(walk, frame{n: c, size: 1})
			continue
		}
		if f.size > limit {
			return steps, tooMany()
		}
	}
	return steps, nil
}
