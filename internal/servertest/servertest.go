// Package servertest starts MCP server binaries that listen on HTTP for
// tests: the demo, the chaos server and test fakes all print the URL they
// serve on stderr once they listen. It is imported by tests only.
package servertest

import (
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// startTimeout bounds the wait for the URL; a loaded machine may need
// seconds to start a process.
const startTimeout = 30 * time.Second

// StartURL runs bin with args (and env added to the environment) and
// returns the first http:// URL it prints on stderr. The process is killed
// when the test ends; kill stops it earlier. The test fails when the
// process exits or stays silent before printing one.
func StartURL(t testing.TB, bin string, env []string, args ...string) (url string, kill func()) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	kill = func() {
		once.Do(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		})
	}
	t.Cleanup(kill)
	urls := make(chan string, 1)
	go func() {
		buf := make([]byte, 4096)
		var seen strings.Builder
		for {
			n, err := stderr.Read(buf)
			seen.Write(buf[:n])
			if i := strings.Index(seen.String(), "http://"); i >= 0 {
				if line, _, ok := strings.Cut(seen.String()[i:], "\n"); ok {
					urls <- strings.TrimSpace(line)
					// Keep draining, so the server never blocks on stderr.
					_, _ = io.Copy(io.Discard, stderr)
					return
				}
			}
			if err != nil {
				close(urls)
				return
			}
		}
	}()
	select {
	case u, ok := <-urls:
		if !ok {
			t.Fatalf("%s exited before printing its URL", bin)
		}
		return u, kill
	case <-time.After(startTimeout):
		t.Fatalf("%s printed no URL within %s", bin, startTimeout)
	}
	return "", kill
}
