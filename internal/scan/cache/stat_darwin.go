//go:build darwin

package cache

import (
	"io/fs"
	"syscall"
)

func identify(fi fs.FileInfo) (FileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return FileID{}, false
	}
	return FileID{Size: fi.Size(), MTime: st.Mtimespec.Nano(), CTime: st.Ctimespec.Nano(),
		Ino: uint64(st.Ino), Dev: uint64(st.Dev), Mode: uint32(fi.Mode())}, true
}
