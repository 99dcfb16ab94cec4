package run

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/run/internal/filewatch"
)

// ErrNoFixtureCopy is returned when a test with files["path"] targets
// has no fixture copy to look in.
var ErrNoFixtureCopy = errors.New("no fixture copy")

// watchFiles notes the files of t before its call. The session is the one
// the call will use (Get returns it again), so the copy is the server's.
func (r *runner) watchFiles(ctx context.Context, t *plan.Test) (*filewatch.Watch, error) {
	sess, err := r.servers.Get(ctx, t.Suite, t.Server, t.ProtocolVersion)
	if err != nil {
		return nil, fmt.Errorf("server %s: %w", t.Server.Name, err)
	}
	dir := r.servers.FixtureOf(sess)
	if dir == "" {
		return nil, fmt.Errorf("files targets: %w for server %s", ErrNoFixtureCopy, t.Server.Name)
	}
	return filewatch.New(dir, t.Files)
}
