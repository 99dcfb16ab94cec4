package stdiowire

import (
	"bytes"
	"errors"

	"github.com/mcptest/mcptest/core/session/internal/wire"
	"github.com/mcptest/mcptest/internal/lines"
)

// readStdout hands every line the server writes to the sink, and an
// over-long one as what was kept of it. It returns when stdout ends or is
// closed.
func (p *Process) readStdout(lr *lines.Reader) {
	defer close(p.stdoutDone)
	defer p.sink.InputEnded() // mcp-go sees EOF and fails its own requests
	for {
		line, err := lr.Next()
		if errors.Is(err, lines.ErrTooLong) {
			p.sink.RouteTooLong(lr.Head, lr.Size)
			continue
		}
		if len(bytes.TrimSpace(line)) > 0 {
			// Next drops a buffer this large instead of reusing it.
			p.sink.Route(line, wire.Source{Owned: cap(line) > lines.KeepBufferMax})
		}
		if err != nil {
			return
		}
	}
}
