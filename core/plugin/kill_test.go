//go:build unix

package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/mcptest/mcptest/internal/testbin"
)

// installTextPlugin builds the bundled text plugin and lays it out in a
// plugin folder of its own, with a manifest from its own description.
func installTextPlugin(t *testing.T) *Found {
	t.Helper()
	bin := testbin.Build(t, "github.com/mcptest/mcptest/plugins/matchers/text")
	d, err := DescribeBinary(context.Background(), bin)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	dir := filepath.Join(root, d.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(root, 0o755); err != nil { // whatever the umask
		t.Fatal(err)
	}
	exe := filepath.Join(dir, ExecutablePrefix+d.Name)
	raw, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, raw, 0o755); err != nil {
		t.Fatal(err)
	}
	sum, err := FileSHA256(exe)
	if err != nil {
		t.Fatal(err)
	}
	return &Found{
		Manifest: &Manifest{ManifestVersion: 1, Name: d.Name, Version: d.Version, ProtocolVersions: d.ProtocolVersions,
			Executable: ExecutablePrefix + d.Name, SHA256: sum, Components: d.Components, Capabilities: d.Capabilities},
		Dir:          dir,
		ManifestPath: filepath.Join(dir, ManifestFile),
		Source:       Source{Dir: root, Origin: "test"},
	}
}

// Closing the host ends a plugin process at once (it is killed rather
// than asked to shut down, its work being done) and reaps it before Close
// returns: no process and no zombie is left, without any wait or poll.
func TestCloseKillsAndReapsPluginProcesses(t *testing.T) {
	f := installTextPlugin(t)
	// go-plugin's socket goes in TMPDIR: a killed plugin cannot remove it,
	// so the host must (it used to be left behind on every run).
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var logged syncBuffer
	logger := hclog.New(&hclog.LoggerOptions{Output: &logged, Level: hclog.Info})
	h := NewHost(&ExecLauncher{Logger: logger, digests: newDigestCache("")}, HostOptions{})
	h.vetting = newVetCache("")
	errs := h.Check(context.Background(), []CheckRequest{{Plugin: f, Key: "regex", Argument: json.RawMessage(`"("`)}})
	if errs[0] == nil {
		t.Fatal("the plugin accepted an invalid regex")
	}
	h.mu.Lock()
	inst := h.procs[f.Manifest.Name].cur.inst.(*execInstance)
	h.mu.Unlock()
	pid := inst.proc.Pid
	h.Close()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("plugin process %d is still there after Close (kill -0: %v): alive or not reaped", pid, err)
	}
	if !inst.Exited() {
		t.Error("the instance does not say the plugin exited")
	}
	if inst.socket == "" || !strings.HasPrefix(inst.socket, tmp) {
		t.Errorf("the plugin's socket %q is not under TMPDIR %s", inst.socket, tmp)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in TMPDIR after Close: %v", left)
	}
	// The death the host caused is no error worth showing the user.
	if out := logged.String(); strings.Contains(out, "[ERROR]") || strings.Contains(out, "[WARN]") {
		t.Errorf("stopping the plugin logged:\n%s", out)
	}
}

// syncBuffer is a bytes.Buffer safe for the logger's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
