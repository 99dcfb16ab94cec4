// Command chaos is an MCP server over stdio that misbehaves on request, so
// tests can show that mcptest survives every way a server can go wrong and
// blames only the tests that met the misbehaviour.
//
// It is a small hand-written JSON-RPC loop rather than an SDK server: most
// misbehaviours need raw control of stdout. It answers initialize, ping,
// tools/list and tools/call; notifications are ignored.
//
// Process-wide misbehaviours are flags:
//
//	-start-delay D    sleep D before reading stdin (a slow start)
//	-init-exit N      exit with status N when initialize arrives
//	-banner           print non-JSON lines on stdout before serving
//	-ansi-stderr      write ANSI escape sequences to stderr at start
//	-stubborn         ignore SIGTERM and keep running after stdin closes
//	-child            start a child process that sleeps until killed
//	-setsid-child     start a child that leaves the process group and the
//	                  session (setsid), ignores SIGTERM and sleeps until
//	                  killed: only a child subreaper can find it again
//	-list-cursor M    serve resources/list in pages that never end: M is
//	                  "loop" (every page returns the same nextCursor) or
//	                  "endless" (every page returns a new one)
//
// Per-call misbehaviours are tools, so one suite can exercise several; see
// tools.go for their arguments:
//
//	echo       answers normally (the control)
//	crash      writes to stderr and exits mid-call
//	hang       never answers
//	garbage    prints non-JSON lines on stdout, then answers or not
//	wrong_id   answers with an id the client never used
//	duplicate  answers twice with the same id
//	big        answers with a huge text block (50 MB by default)
//	deep       answers with deeply nested JSON (100,000 arrays by default)
//	ansi       answers with ANSI escapes in its text and writes some to stderr
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

// Identity reported in initialize.
const (
	serverName    = "mcptest-chaos"
	serverVersion = "1.0.0"
)

// config holds the process-wide switches.
type config struct {
	startDelay time.Duration
	initExit   int // exit status on initialize; negative: answer normally
	banner     bool
	ansiStderr bool
	stubborn   bool
	child      bool
	// setsidChild starts the child in a session of its own (-setsid-child).
	setsidChild bool
	idle        bool
	// listCursor is how resources/list misbehaves: "", "loop" or
	// "endless" (lists.go).
	listCursor string
}

func main() {
	var cfg config
	flag.DurationVar(&cfg.startDelay, "start-delay", 0, "sleep `D` before reading stdin")
	flag.IntVar(&cfg.initExit, "init-exit", -1, "exit with status `N` when initialize arrives (negative: off)")
	flag.BoolVar(&cfg.banner, "banner", false, "print non-JSON lines on stdout before serving")
	flag.BoolVar(&cfg.ansiStderr, "ansi-stderr", false, "write ANSI escape sequences to stderr at start")
	flag.BoolVar(&cfg.stubborn, "stubborn", false, "ignore SIGTERM and keep running after stdin closes")
	flag.BoolVar(&cfg.child, "child", false, "start a child process that sleeps until killed")
	flag.BoolVar(&cfg.setsidChild, "setsid-child", false, "start a child in a new session that ignores SIGTERM and sleeps until killed")
	flag.BoolVar(&cfg.idle, "idle", false, "sleep until killed (the -child process)")
	flag.StringVar(&cfg.listCursor, "list-cursor", "", "serve resources/list in pages that never end: `loop` or endless")
	flag.Parse()

	if cfg.stubborn {
		signal.Ignore(syscall.SIGTERM)
	}
	if cfg.idle {
		sleepForever()
	}
	if cfg.child {
		startChild(false)
	}
	if cfg.setsidChild {
		startChild(true)
	}
	if cfg.ansiStderr {
		fmt.Fprint(os.Stderr, ansiStderrText)
	}
	if cfg.banner {
		fmt.Fprint(os.Stdout, bannerText)
	}
	time.Sleep(cfg.startDelay)

	s := newServer(cfg, os.Stdout, os.Stderr)
	s.serve(os.Stdin)
	if cfg.stubborn {
		sleepForever()
	}
}

// startChild starts this program again in -idle mode with no pipes of
// ours: in the same process group, or, when escape is set, in a session of
// its own and ignoring SIGTERM, as a daemonising helper would.
func startChild(escape bool) {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "chaos: cannot start child: %v\n", err)
		return
	}
	cmd := exec.Command(self, "-idle")
	if escape {
		cmd.Args = append(cmd.Args, "-stubborn")
		setsid(cmd)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "chaos: cannot start child: %v\n", err)
		return
	}
	fmt.Fprintf(os.Stderr, "chaos: child pid %d\n", cmd.Process.Pid)
}

// sleepForever blocks until the process is killed.
func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}
