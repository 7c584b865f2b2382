//go:build cgo

package treesitter

/*
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// Mirrors of the tree-sitter API types (tree_sitter/api.h, ABI of binding
// v0.25), declared here because the binding's headers are not on our
// include path. TestFlattenMatchesCursor checks the result against the
// binding's own cursor, so a layout change cannot go unnoticed.
typedef struct { uint32_t context[4]; const void *id; const void *tree; } ps_node;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } ps_cursor;

ps_cursor ts_tree_cursor_new(ps_node);
void ts_tree_cursor_delete(ps_cursor *);
ps_node ts_tree_cursor_current_node(const ps_cursor *);
uint16_t ts_tree_cursor_current_field_id(const ps_cursor *);
bool ts_tree_cursor_goto_first_child(ps_cursor *);
bool ts_tree_cursor_goto_next_sibling(ps_cursor *);
bool ts_tree_cursor_goto_parent(ps_cursor *);
uint16_t ts_node_symbol(ps_node);
uint32_t ts_node_start_byte(ps_node);
uint32_t ts_node_end_byte(ps_node);
bool ts_node_is_named(ps_node);
bool ts_node_is_missing(ps_node);
bool ts_node_is_extra(ps_node);
bool ts_node_is_error(ps_node);
bool ts_node_has_error(ps_node);
uint32_t ts_node_descendant_count(ps_node);

// Must match Node in flat.go.
typedef struct {
	uint32_t start_byte, end_byte;
	int32_t end;
	uint16_t kind, field;
	uint8_t flags;
	uint8_t pad[3];
} ps_flat;

enum { ps_off_end = offsetof(ps_flat, end), ps_off_flags = offsetof(ps_flat, flags) };

static uint32_t ps_count(const ps_node *root) {
	return ts_node_descendant_count(*root);
}

// ps_flatten writes the subtree of root in preorder into out (cap entries)
// and returns the number written. It iterates with a cursor, so depth costs
// no C stack; the Go caller sizes out from ps_count, and cap is a guard.
static int32_t ps_flatten(const ps_node *root, ps_flat *out, int32_t cap) {
	ps_cursor c = ts_tree_cursor_new(*root);
	int32_t n = 0, parent = -1;
	for (;;) {
		if (n >= cap) break;
		ps_node nd = ts_tree_cursor_current_node(&c);
		ps_flat *f = &out[n];
		f->start_byte = ts_node_start_byte(nd);
		f->end_byte = ts_node_end_byte(nd);
		f->kind = ts_node_symbol(nd);
		f->field = ts_tree_cursor_current_field_id(&c);
		f->flags = (ts_node_is_named(nd) ? 1 : 0) | (ts_node_is_missing(nd) ? 2 : 0) |
		           (ts_node_is_extra(nd) ? 4 : 0) | (ts_node_is_error(nd) ? 8 : 0) |
		           (ts_node_has_error(nd) ? 16 : 0);
		f->pad[0] = f->pad[1] = f->pad[2] = 0;
		// Until the node is closed, end links to its parent.
		f->end = parent;
		parent = n;
		n++;
		if (ts_tree_cursor_goto_first_child(&c)) continue;
		// Close the leaf, then every ancestor that has no next sibling.
		for (;;) {
			int32_t up = out[parent].end;
			out[parent].end = n;
			parent = up;
			if (ts_tree_cursor_goto_next_sibling(&c)) break;
			if (parent < 0 || !ts_tree_cursor_goto_parent(&c)) goto done;
		}
	}
done:
	// On a short buffer, close whatever is still open.
	while (parent >= 0) {
		int32_t up = out[parent].end;
		out[parent].end = n;
		parent = up;
	}
	ts_tree_cursor_delete(&c);
	return n;
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Node is one node of a flattened tree. Nodes are stored in preorder: the
// first child of node i, if it has any, is i+1, and its subtree ends just
// before End. The children of i are therefore i+1, nodes[i+1].End, ... up
// to nodes[i].End.
//
// Rows and columns are left out: they double the size, and a line table
// over the source (see Lines) gives them for the few nodes that need them.
type Node struct {
	StartByte, EndByte uint32
	// End is the index just past this node's subtree.
	End int32
	// Kind is the node's symbol (Language.IdForNodeKind); Field is the field
	// id it has in its parent (Language.FieldIdForName), 0 for none.
	Kind, Field uint16
	Flags       Flags
	_           [3]byte
}

// Flags describe a Node.
type Flags uint8

const (
	Named    Flags = 1 << iota // a named node, not an anonymous token
	Missing                    // inserted by error recovery; zero width
	Extra                      // a comment or other extra node
	Error                      // an ERROR node
	HasError                   // the subtree contains an ERROR or MISSING node
)

// IsNamed reports whether n is a named node.
func (n *Node) IsNamed() bool { return n.Flags&Named != 0 }

// IsError reports whether n is an ERROR node.
func (n *Node) IsError() bool { return n.Flags&Error != 0 }

// HasError reports whether n's subtree contains a syntax error.
func (n *Node) HasError() bool { return n.Flags&HasError != 0 }

// IsMissing reports whether n was inserted by error recovery.
func (n *Node) IsMissing() bool { return n.Flags&Missing != 0 }

func init() {
	// A layout mismatch would corrupt memory: refuse to start instead.
	if unsafe.Sizeof(Node{}) != C.sizeof_ps_flat || unsafe.Offsetof(Node{}.End) != C.ps_off_end ||
		unsafe.Offsetof(Node{}.Flags) != C.ps_off_flags {
		panic("treesitter: Node layout differs from ps_flat")
	}
	if unsafe.Sizeof(sitter.Node{}) != C.sizeof_ps_node {
		panic("treesitter: sitter.Node layout differs from TSNode")
	}
}

// Flatten copies the subtree of n into buf (reusing its storage) in
// preorder, with a single cgo call, and returns it. The binding's Node is a
// C TSNode by its own documentation, which is what lets us pass it on.
func Flatten(n *sitter.Node, buf []Node) []Node {
	// sitter.Node is a C-compatible struct of C fields: no Go pointers.
	cn := (*C.ps_node)(unsafe.Pointer(n))
	count := int(C.ps_count(cn))
	if cap(buf) < count {
		buf = make([]Node, count)
	}
	buf = buf[:count]
	if count == 0 {
		return buf
	}
	got := C.ps_flatten(cn, (*C.ps_flat)(unsafe.Pointer(&buf[0])), C.int32_t(count))
	return buf[:int(got)]
}

// Flatten flattens the whole tree; see the package function.
func (t *Tree) Flatten(buf []Node) []Node {
	return Flatten(t.tree.RootNode(), buf)
}
