// Command fakeserver is a small, hand-written MCP server for the compliance
// tests. With no switches it is correct, so every check passes against it;
// MCPTEST_FAKE holds a comma-separated list of misbehaviours, each of which
// breaks exactly the requirement one check is about, so each check is shown
// able to fail.
//
// Misbehaviours about malformed input over stdio: crash-on-garbage exits,
// stall-on-garbage stops answering anything while staying up,
// continue-garbage reads the next line as the rest of the malformed text
// and exits on the one after (as a streaming JSON decoder does),
// late-errors answers a message with an error only after answering the
// message that follows it, ignore-garbage never answers malformed text,
// deferred-invalid leaves a request without a method unanswered until the
// next notifications/cancelled arrives (a reply so late that another
// check may be using the session by then).
//
// linger keeps the process running after stdin closes, as servers with
// timers do, so only a signal stops it.
//
// It speaks stdio by default and Streamable HTTP with --http ADDR, printing
// the endpoint URL to stderr.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

// flags are the misbehaviours switched on.
var flags = map[string]bool{}

func on(name string) bool { return flags[name] }

func main() {
	for _, f := range strings.Split(os.Getenv("MCPTEST_FAKE"), ",") {
		if f = strings.TrimSpace(f); f != "" {
			flags[f] = true
		}
	}
	if path := os.Getenv("MCPTEST_FAKE_STARTS"); path != "" {
		// One line per process, so tests can count server starts.
		if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintln(f, os.Getpid())
			f.Close()
		}
	}
	httpAddr := flag.String("http", "", "serve Streamable HTTP on ADDR")
	flag.Parse()
	if *httpAddr != "" {
		if err := serveHTTP(*httpAddr); err != nil {
			fmt.Fprintln(os.Stderr, "fakeserver:", err)
			os.Exit(1)
		}
		return
	}
	serveStdio()
}

// serveStdio answers one message per line until stdin closes.
func serveStdio() {
	if on("banner") {
		fmt.Println("fakeserver starting up")
	}
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	write := func(msgs ...any) {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range msgs {
			b, _ := json.Marshal(m)
			out.Write(b)
			out.WriteByte('\n')
		}
		out.Flush()
	}
	c := &conn{send: write}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	// late holds error replies held back until the next message is
	// answered (late-errors).
	var late []any
	// deferred holds the error for a request without a method
	// (deferred-invalid).
	var deferred []any
	// partial is set after garbage while the server, like one reading a
	// stream of JSON values, waits for the rest of the value
	// (continue-garbage).
	// partial counts the lines read since the garbage.
	partial := 0
	stalled := false
	for in.Scan() {
		line := append([]byte(nil), in.Bytes()...)
		garbage := !json.Valid(line)
		switch {
		case stalled:
			// stall-on-garbage: reads on, answers nothing, stays up.
			continue
		case partial == 1:
			// The first line after the garbage still fits the value
			// (`{"jsonrpc":{...}`); the decoder waits for more.
			partial++
			continue
		case partial > 1:
			// The next one cannot: a syntax error, which ends the
			// stream and the server.
			fmt.Fprintln(os.Stderr, "fakeserver: invalid JSON in the input stream, exiting")
			os.Exit(0)
		case garbage && on("crash-on-garbage"):
			fmt.Fprintln(os.Stderr, "fakeserver: cannot parse input, giving up")
			os.Exit(3)
		case garbage && on("stall-on-garbage"):
			stalled = true
			continue
		case garbage && on("continue-garbage"):
			partial = 1
			continue
		}
		if on("deferred-invalid") {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method *string         `json:"method"`
			}
			_ = json.Unmarshal(line, &m)
			if m.Method == nil && m.ID != nil {
				deferred = append(deferred, map[string]any{"jsonrpc": "2.0", "id": m.ID,
					"error": map[string]any{"code": -32600, "message": "no method"}})
				continue
			}
			if m.Method != nil && *m.Method == "notifications/cancelled" {
				write(deferred...)
				deferred = nil
			}
		}
		var now []any
		for _, r := range c.handle(line) {
			if m, ok := r.(map[string]any); ok && m["error"] != nil && on("late-errors") {
				late = append(late, r)
				continue
			}
			now = append(now, r)
		}
		write(now...)
		if len(now) > 0 {
			// The errors held back go out after the next answer.
			write(late...)
			late = nil
		}
	}
	for on("linger") {
		// Until a signal ends the process; select{} would be reported as
		// a deadlock and exit.
		time.Sleep(time.Hour)
	}
}
