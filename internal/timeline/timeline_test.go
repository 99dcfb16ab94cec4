package timeline

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// reset forgets what the first Mark decided, so each test starts afresh.
func reset(t *testing.T) {
	t.Helper()
	state.Store(0)
	open = sync.Once{}
	t.Cleanup(func() {
		if out != nil {
			_ = out.Close()
			out = nil
		}
		state.Store(0)
		open = sync.Once{}
	})
}

// With the variable set, each mark is a line with a monotonic time, the
// process id and the name, in the order marked, appended to what the file
// held (other processes of the run write to it too).
func TestMarksAreAppendedInOrder(t *testing.T) {
	reset(t)
	path := filepath.Join(t.TempDir(), "timeline")
	if err := os.WriteFile(path, []byte("1.000000 1 earlier\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(Env, path)
	Mark("first")
	MarkOf("second", "demo")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != 3 || lines[0] != "1.000000 1 earlier" {
		t.Fatalf("timeline file:\n%s", raw)
	}
	var last float64
	for i, want := range []string{"first", "second demo"} {
		f := strings.SplitN(lines[i+1], " ", 3)
		if len(f) != 3 || f[1] != strconv.Itoa(os.Getpid()) || f[2] != want {
			t.Fatalf("line %d is %q, want SECONDS %d %s", i+2, lines[i+1], os.Getpid(), want)
		}
		sec, err := strconv.ParseFloat(f[0], 64)
		if err != nil || sec < last {
			t.Fatalf("line %d: time %q after %f", i+2, f[0], last)
		}
		last = sec
	}
}

// Without the variable, nothing is written anywhere.
func TestNoMarksWithoutTheVariable(t *testing.T) {
	reset(t)
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv(Env, "")
	Mark("ignored")
	if state.Load() != 1 || out != nil {
		t.Fatalf("state %d, file %v: marks are on", state.Load(), out)
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("files written: %v", left)
	}
}
