package scan_test

import "github.com/protoscan-dev/protoscan/internal/scan/walk"

func walkLimit(n int64) walk.Options { return walk.Options{MaxFileSize: n} }
