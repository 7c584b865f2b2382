package golang

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/protoscan-dev/protoscan/languages/facts"
)

// gorootFiles returns the .go files under $GOROOT/src, or skips the test.
func gorootFiles(tb testing.TB) []string {
	tb.Helper()
	root := filepath.Join(build.Default.GOROOT, "src")
	if build.Default.GOROOT == "" {
		tb.Skip("no GOROOT")
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable parts are skipped
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".go") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil || len(files) == 0 {
		tb.Skipf("no Go files under %s", root)
	}
	return files
}

type corpusStats struct {
	files, bytes, lines, parseErrors atomic.Int64
	roles                            [8]atomic.Int64
	groups, mappings, entries, tests atomic.Int64
}

// extractAll reads and extracts files on GOMAXPROCS workers; check, if not
// nil, is called on every result.
func extractAll(files []string, check func(path string, src []byte, ff *facts.File)) *corpusStats {
	st := &corpusStats{}
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return
				}
				src, err := os.ReadFile(files[i])
				if err != nil {
					continue
				}
				ff, err := Extract(files[i], src)
				if err != nil {
					st.parseErrors.Add(1)
				}
				st.files.Add(1)
				st.bytes.Add(int64(len(src)))
				st.lines.Add(int64(strings.Count(string(src), "\n")))
				for _, s := range ff.Strings {
					st.roles[s.Role].Add(1)
				}
				st.groups.Add(int64(len(ff.Groups)))
				st.mappings.Add(int64(len(ff.Mappings)))
				st.tests.Add(int64(len(ff.Tests)))
				for _, m := range ff.Mappings {
					st.entries.Add(int64(len(m.Entries)))
				}
				if check != nil {
					check(files[i], src, ff)
				}
			}
		}()
	}
	wg.Wait()
	return st
}

// TestGOROOT extracts the whole standard library (every tenth file under
// the race detector), checks the invariants on every file and reports the
// throughput and the fact counts.
func TestGOROOT(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	files := gorootFiles(t)
	if raceEnabled {
		var some []string
		for i := 0; i < len(files); i += 10 {
			some = append(some, files[i])
		}
		files = some
	}
	var mu sync.Mutex
	start, cpu0 := time.Now(), cpuTime()
	st := extractAll(files, func(path string, src []byte, ff *facts.File) {
		mu.Lock()
		defer mu.Unlock()
		checkInvariants(t, src, ff)
	})
	d, cpu := time.Since(start), cpuTime()-cpu0
	t.Logf("%d files, %d lines, %.1f MB (%d with parse errors), read, parsed, extracted and checked on %d procs",
		st.files.Load(), st.lines.Load(), float64(st.bytes.Load())/1e6, st.parseErrors.Load(), runtime.GOMAXPROCS(0))
	t.Logf("wall %v: %.0f files/s, %.1f MB/s; CPU %v: %.0f files/CPU-s, %.1f MB/CPU-s",
		d.Round(time.Millisecond), float64(st.files.Load())/d.Seconds(), float64(st.bytes.Load())/1e6/d.Seconds(),
		cpu.Round(time.Millisecond), float64(st.files.Load())/cpu.Seconds(), float64(st.bytes.Load())/1e6/cpu.Seconds())
	var roles []string
	var total int64
	for r := range st.roles {
		n := st.roles[r].Load()
		total += n
		roles = append(roles, facts.Role(r).String()+"="+itoa(n))
	}
	t.Logf("strings=%d (%s) groups=%d mappings=%d entries=%d tests=%d", total, strings.Join(roles, " "),
		st.groups.Load(), st.mappings.Load(), st.entries.Load(), st.tests.Load())
	if st.files.Load() < int64(len(files))*9/10 {
		t.Errorf("only %d of %d files read", st.files.Load(), len(files))
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
