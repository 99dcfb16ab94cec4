// Command fakeserver is a small, hand-written MCP server for the compliance
// tests. With no switches it is correct, so every check passes against it;
// MCPTEST_FAKE holds a comma-separated list of misbehaviours, each of which
// breaks exactly the requirement one check is about, so each check is shown
// able to fail.
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
	for in.Scan() {
		line := append([]byte(nil), in.Bytes()...)
		if on("crash-on-garbage") && !json.Valid(line) {
			fmt.Fprintln(os.Stderr, "fakeserver: cannot parse input, giving up")
			os.Exit(3)
		}
		for _, r := range c.handle(line) {
			write(r)
		}
	}
}
