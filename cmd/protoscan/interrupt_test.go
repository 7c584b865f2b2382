package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestInterrupt runs the real command over a large generated tree, sends
// it SIGINT once it is reading the tree, and checks that it stops within
// a few files of the signal, with exit code 2, a partial report on
// stdout, and the notice saying how much was scanned on stderr.
//
// What the command has read is /proc/PID/io's rchar, so the test is Linux
// only: the signal goes once ten files' bytes are read, and the files
// scanned, in the notice, are at most those read when the signal went and
// a few in flight. The tree's files are real work (30 KB of Python each,
// about 20 ms to parse), on one worker, so that a whole scan takes far
// longer than the test waits.
func TestInterrupt(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/PID/io to know the scan has started")
	}
	if testing.Short() {
		t.Skip("generates a 30 MB tree")
	}
	bin, err := exec.LookPath("protoscan") // the test binary, put in PATH by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o777); err != nil {
		t.Fatal(err)
	}
	const files = 1000
	var body strings.Builder
	body.WriteString("def route(handback):\n    if handback.status == \"FAILURE\":\n        return 1\n\n")
	for i := range 400 { // parsed in full, yet only the one finding above
		fmt.Fprintf(&body, "value_%d = compute(%d, \"label-%d\") + other(handback, [1, 2, 3], key=\"k\")\n", i, i, i)
	}
	for i := range files {
		dir := filepath.Join(root, fmt.Sprintf("pkg%02d", i%40))
		if err := os.MkdirAll(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("w%04d.py", i)), []byte(body.String()), 0o666); err != nil {
			t.Fatal(err)
		}
	}

	baselineFile := filepath.Join(t.TempDir(), "baseline.json")
	cmd := exec.Command(bin, "scan", "--no-cache", "-j", "1", "--format", "json", "--write-baseline", baselineFile, root)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	kill := func() { cmd.Process.Kill(); <-exited }

	// Wait for the scan to have read ten files. The timer is a watchdog:
	// that takes about a second under -race.
	started := time.NewTimer(30 * time.Second)
	defer started.Stop()
	poll := time.NewTicker(5 * time.Millisecond)
	defer poll.Stop()
	for read := 0; read < 10*body.Len(); {
		select {
		case err := <-exited:
			t.Fatalf("the scan ended before it was interrupted (%v): make the tree larger\n%s", err, stderr.Bytes())
		case <-started.C:
			kill()
			t.Fatalf("the scan read %d bytes in 30s", read)
		case <-poll.C:
			read = readChars(t, cmd.Process.Pid)
		}
	}

	sent := time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	// read just after the signal: at least what was read before it
	readAtSignal := readChars(t, cmd.Process.Pid)
	// a watchdog: the exit comes 0.1 s after the signal under -race
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	select {
	case err = <-exited:
	case <-deadline.C:
		kill()
		t.Fatal("no exit 10s after SIGINT")
	}
	took := time.Since(sent)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitTrouble {
		t.Errorf("exit: %v, want code %d", err, exitTrouble)
	}
	m := regexp.MustCompile(`(?m)^protoscan: interrupted: partial report \((\d+) of (\d+) files scanned\)$`).FindSubmatch(stderr.Bytes())
	if m == nil {
		t.Fatalf("no partial-report notice; stderr:\n%s", stderr.Bytes())
	}
	scanned, _ := strconv.Atoi(string(m[1]))
	walked, _ := strconv.Atoi(string(m[2]))
	if scanned < 1 || scanned > walked || scanned >= files {
		t.Errorf("scanned %d of %d walked, of %d files: want 0 < scanned <= walked and < %d", scanned, walked, files, files)
	}
	// The scan stopped at the signal: the files it scanned were read
	// before it (rchar also counts the command's other reads, so read
	// files are at most this many), but for the one being parsed and one
	// it may have started as the signal came.
	if most := readAtSignal/body.Len() + 2; scanned > most {
		t.Errorf("scanned %d files; %d bytes, %d files' worth, were read when SIGINT was sent: want at most %d", scanned, readAtSignal, readAtSignal/body.Len(), most)
	}
	// The partial report is a whole report: valid JSON with what was found.
	if !bytes.Contains(stdout.Bytes(), []byte(`"enumdrift/status-case"`)) || !bytes.HasSuffix(bytes.TrimSpace(stdout.Bytes()), []byte("}")) {
		t.Errorf("no partial report on stdout (%d bytes)", stdout.Len())
	}
	// nor is a baseline of part of the tree written
	if _, err := os.Stat(baselineFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a baseline was written after the interrupt (%v)", err)
	}
	if !bytes.Contains(stderr.Bytes(), []byte("baseline.json not written: the scan was interrupted")) {
		t.Errorf("no notice that the baseline was not written; stderr:\n%s", stderr.Bytes())
	}
	t.Logf("exit %v after SIGINT; %d of %d files scanned, %d files' worth read at the signal", took, scanned, walked, readAtSignal/body.Len())
}

// readChars is the rchar line of /proc/PID/io: bytes the process read.
func readChars(t *testing.T, pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		return 0 // not started yet, or already gone: the caller sees the exit
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "rchar: "); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	t.Fatalf("no rchar in /proc/%d/io", pid)
	return 0
}
