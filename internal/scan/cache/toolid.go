package cache

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"io"
	"os"
	"runtime/debug"
	"sync"
)

// ToolID identifies this build of protoscan, for NewKey: cached results
// are only ever reused by the same build. It is the Go build ID of the
// running executable where it can be read (ELF systems: a few hundred
// bytes read), else the module version and checksum of a go install of a
// release, else the SHA-256 of the executable; "" when none is known (the
// cache is then off). In a test binary it is the test binary's build.
var ToolID = sync.OnceValue(toolID)

func toolID() string {
	exe, err := os.Executable()
	if err == nil {
		if id := elfBuildID(exe); id != "" {
			return "go-build-id:" + id
		}
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Sum != "" {
		return "module:" + bi.Main.Path + "@" + bi.Main.Version + " " + bi.Main.Sum
	}
	if err == nil {
		if f, err := os.Open(exe); err == nil {
			defer f.Close()
			h := sha256.New()
			if _, err := io.Copy(h, f); err == nil {
				return "sha256:" + hex.EncodeToString(h.Sum(nil))
			}
		}
	}
	return ""
}

// elfBuildID reads the Go build ID note the Go linker writes into every
// ELF executable (the section .note.go.buildid: name "Go", type 4).
func elfBuildID(exe string) string {
	f, err := elf.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil || s.Size > 4096 {
		return ""
	}
	note, err := s.Data()
	if err != nil || len(note) < 16 {
		return ""
	}
	order := f.ByteOrder
	namesz, descsz, typ := order.Uint32(note), order.Uint32(note[4:]), order.Uint32(note[8:])
	const goBuildIDTag = 4
	if namesz != 4 || typ != goBuildIDTag || !bytes.Equal(note[12:16], []byte("Go\x00\x00")) || uint64(descsz) > uint64(len(note)-16) {
		return ""
	}
	return string(note[16 : 16+descsz])
}
