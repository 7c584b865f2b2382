package python

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// stdlibDir returns the Python library directory to measure:
// $PROTOSCAN_PYLIB, else the standard library of python3 on $PATH, else
// /usr/lib/python3.*; "" if there is none.
func stdlibDir() string {
	if d := os.Getenv("PROTOSCAN_PYLIB"); d != "" {
		return d
	}
	if out, err := exec.Command("python3", "-c", `import sysconfig; print(sysconfig.get_paths()["stdlib"])`).Output(); err == nil {
		if d := strings.TrimSpace(string(out)); d != "" {
			if _, err := os.Stat(filepath.Join(d, "os.py")); err == nil {
				return d
			}
		}
	}
	m, _ := filepath.Glob("/usr/lib/python3*/os.py")
	if len(m) > 0 {
		return filepath.Dir(m[len(m)-1])
	}
	return ""
}

// stdlibFiles reads the .py files of the standard library, leaving out
// installed packages.
func stdlibFiles(tb testing.TB) (names []string, srcs [][]byte) {
	dir := stdlibDir()
	if dir == "" {
		tb.Skip("no Python standard library found")
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == "site-packages" || d.Name() == "dist-packages") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".py") {
			if b, err := os.ReadFile(p); err == nil {
				names = append(names, p)
				srcs = append(srcs, b)
			}
		}
		return nil
	})
	if len(names) == 0 {
		tb.Skip("empty standard library")
	}
	return names, srcs
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type corpusStats struct {
	files, bytes, lines       int
	strings, groups, mappings int64
	tests                     int64
	errs                      int64
	wall, cpu                 time.Duration
}

// extractAll runs Extract over srcs on GOMAXPROCS workers.
func extractAll(tb testing.TB, names []string, srcs [][]byte) corpusStats {
	var st corpusStats
	for _, s := range srcs {
		st.bytes += len(s)
		st.lines += strings.Count(string(s), "\n")
	}
	st.files = len(srcs)
	var next, nstr, ngrp, nmap, ntst, nerr atomic.Int64
	var wg sync.WaitGroup
	start, cpu0 := time.Now(), cpuTime()
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(srcs) {
					return
				}
				f, err := Extract(names[i], srcs[i])
				if err != nil {
					nerr.Add(1)
					tb.Errorf("%s: %v", names[i], err)
					continue
				}
				nstr.Add(int64(len(f.Strings)))
				ngrp.Add(int64(len(f.Groups)))
				nmap.Add(int64(len(f.Mappings)))
				ntst.Add(int64(len(f.Tests)))
			}
		}()
	}
	wg.Wait()
	st.wall, st.cpu = time.Since(start), cpuTime()-cpu0
	st.strings, st.groups, st.mappings, st.errs = nstr.Load(), ngrp.Load(), nmap.Load(), nerr.Load()
	st.tests = ntst.Load()
	return st
}

// raceSample keeps every tenth file under the race detector, which makes
// extraction several times slower: the whole library would not fit in the
// test timeout on a loaded machine.
func raceSample(names []string, srcs [][]byte) ([]string, [][]byte) {
	if !raceEnabled {
		return names, srcs
	}
	var n []string
	var s [][]byte
	for i := 0; i < len(names); i += 10 {
		n, s = append(n, names[i]), append(s, srcs[i])
	}
	return n, s
}

// TestStdlib extracts the whole Python standard library (every tenth file
// under the race detector) and reports the throughput. CPU time is
// reported too: on a shared machine it is the steadier figure (files/s per
// core = files / cpu).
func TestStdlib(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	names, srcs := raceSample(stdlibFiles(t))
	st := extractAll(t, names, srcs)
	t.Logf("%d files, %d lines, %.1f MB on %d procs: wall %v (%.0f files/s), cpu %v (%.0f files/cpu-s)",
		st.files, st.lines, float64(st.bytes)/1e6, runtime.GOMAXPROCS(0), st.wall.Round(time.Millisecond),
		float64(st.files)/st.wall.Seconds(), st.cpu.Round(time.Millisecond), float64(st.files)/st.cpu.Seconds())
	t.Logf("facts: %d strings, %d groups, %d mappings, %d tests", st.strings, st.groups, st.mappings, st.tests)
}

// TestStdlibInvariants checks every standard library file's facts (every
// tenth under the race detector) against checkInvariants (sequentially: it
// may fail the test).
func TestStdlibInvariants(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	names, srcs := raceSample(stdlibFiles(t))
	for i, src := range srcs {
		f, err := Extract(names[i], src)
		if err != nil {
			t.Errorf("%s: %v", names[i], err)
			continue
		}
		t.Run(filepath.Base(names[i]), func(t *testing.T) { checkInvariants(t, src, f) })
	}
}

func BenchmarkStdlib(b *testing.B) {
	names, srcs := stdlibFiles(b)
	var st corpusStats
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st = extractAll(b, names, srcs)
	}
	b.ReportMetric(float64(st.files)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
	b.ReportMetric(float64(st.strings), "strings")
	b.SetBytes(int64(st.bytes))
}
