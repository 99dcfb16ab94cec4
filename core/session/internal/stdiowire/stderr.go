package stdiowire

import (
	"io"

	"github.com/mcptest/mcptest/internal/proc"
)

// DefaultStderrLimit is how many bytes of a server's stderr a session keeps
// when StdioConfig.StderrLimit is zero.
const DefaultStderrLimit = 64 << 10

// drainTail copies r into t until r ends, then closes done.
func drainTail(t *proc.Tail, r io.Reader, done chan<- struct{}) {
	defer close(done)
	_, _ = io.Copy(t, r)
}
