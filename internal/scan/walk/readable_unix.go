//go:build unix

package walk

import (
	"io/fs"
	"os"
	"syscall"
)

var euid = os.Geteuid()

// maybeUnreadable reports whether the permission bits leave doubt that this
// process can read the file. The cheap cases (world-readable, or ours and
// owner-readable) cover nearly every file, so the walk opens only the
// doubtful ones to find out.
func maybeUnreadable(info fs.FileInfo) bool {
	perm := info.Mode().Perm()
	if perm&0o004 != 0 {
		return false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return true
	}
	return !(int(st.Uid) == euid && perm&0o400 != 0)
}
