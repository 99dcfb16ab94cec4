package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"testing"
	"time"
)

// streamEvent is the part of an ndjson event line the tests wait on.
type streamEvent struct {
	Type string `json:"type"`
	Test *struct {
		Name string `json:"name"`
	} `json:"test"`
}

// ndjsonEvents connects cmd's stdout to a pipe and returns the events of
// the ndjson report mcptest streams there (the caller passes
// `--reporter ndjson`), each as it is written. Call it before cmd.Start;
// it closes the write end in this process once the command runs. The
// reader keeps draining the pipe to its end, so mcptest never blocks on a
// full pipe; events nobody takes are dropped once the buffer is full.
func ndjsonEvents(t *testing.T, cmd *exec.Cmd) (events <-chan streamEvent, started func()) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = w
	ch := make(chan streamEvent, 256)
	started = func() {
		w.Close()
		go func() {
			defer r.Close()
			defer close(ch)
			sc := bufio.NewScanner(r)
			sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
			for sc.Scan() {
				var ev streamEvent
				if json.Unmarshal(sc.Bytes(), &ev) != nil {
					continue
				}
				select {
				case ch <- ev:
				default:
				}
			}
		}()
	}
	t.Cleanup(func() { w.Close() })
	return ch, started
}

// awaitEvent waits until the stream has an event of type typ
// ("test_started", "test_finished") for the test named name, failing the
// test after limit or when the stream ends first.
func awaitEvent(t *testing.T, events <-chan streamEvent, typ, name string, limit time.Duration) {
	t.Helper()
	timeout := time.After(limit)
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatalf("the event stream ended before %s of test %q", typ, name)
			}
			if ev.Type == typ && ev.Test != nil && ev.Test.Name == name {
				return
			}
		case <-timeout:
			t.Fatalf("no %s of test %q within %s", typ, name, limit)
		}
	}
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startListening starts cmd, a server told to listen on 127.0.0.1:port,
// and waits until the port accepts connections; what names it in
// failures, which show its output. kill stops it at cleanup.
//
// Readiness is polled by connecting: the servers' log lines are not a
// contract a test should depend on, and nothing else announces that the
// port is open. The server's exit is an event and ends the wait at once.
func startListening(t *testing.T, cmd *exec.Cmd, port int, what string, limit time.Duration, kill func(*exec.Cmd)) {
	t.Helper()
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		kill(cmd)
		<-exited
	})
	deadline := time.Now().Add(limit)
	for {
		select {
		case <-exited:
			t.Fatalf("%s exited before listening:\n%s", what, out.String())
		default:
		}
		if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 200*time.Millisecond); err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not listen on %d within %s:\n%s", what, port, limit, out.String())
		}
		select {
		case <-exited:
		case <-time.After(50 * time.Millisecond):
		}
	}
}
