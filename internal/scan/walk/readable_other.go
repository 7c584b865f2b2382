//go:build !unix

package walk

import "io/fs"

// maybeUnreadable: permission bits mean little here; the scanner reports
// files it cannot open.
func maybeUnreadable(fs.FileInfo) bool { return false }
