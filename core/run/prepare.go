package run

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/servers"
	"github.com/mcptest/mcptest/core/session"
)

// methodComplete is the method of completion tests.
const methodComplete = "completion/complete"

// ErrNoCapability is wrapped when a test needs a server capability the
// server did not declare in initialize.
var ErrNoCapability = errors.New("capability not declared")

// prepare readies a request for the session that will carry it: a
// completion test needs the completions capability, and ${fixture}
// expands to the session's fixture copy.
func (r *runner) prepare(t *plan.Test, sess *session.Session, q servers.Request) (servers.Request, error) {
	if t.Kind == plan.KindCompletion {
		if err := requireCapability(sess, "completions", methodComplete); err != nil {
			return q, err
		}
	}
	return q.WithFixture(r.servers.FixtureOf(sess))
}

// requireCapability fails unless the server declared the capability that
// method needs.
func requireCapability(sess *session.Session, name, method string) error {
	var caps map[string]json.RawMessage
	_ = json.Unmarshal(sess.ServerCapabilities(), &caps)
	if v, ok := caps[name]; ok && string(v) != "null" {
		return nil
	}
	declared := make([]string, 0, len(caps))
	for k := range caps {
		declared = append(declared, k)
	}
	return fmt.Errorf("%w: server %q did not declare the %s capability in initialize, so it offers no %s (it declared: %s)",
		ErrNoCapability, sess.Name(), name, method, listOrNone(declared))
}

// listOrNone joins names in order, or says there are none.
func listOrNone(names []string) string {
	if len(names) == 0 {
		return "nothing"
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// errorKind is the report kind of an error from prepare.
func errorKind(err error) string {
	if errors.Is(err, ErrNoCapability) {
		return "capability"
	}
	return "fixture"
}
