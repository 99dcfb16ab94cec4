package servers

import (
	"encoding/json"
	"testing"

	"github.com/mcptest/mcptest/core/config"
)

// TestCacheKeyHasTrial: under --trials the same call in two trials must
// reach the server twice, so their keys differ; the same trial keeps one
// key (identical tests within a trial still share an answer).
func TestCacheKeyHasTrial(t *testing.T) {
	c := newCallCache("", "2025-11-25")
	suite := &config.Suite{Dir: "/s"}
	srv := &config.Server{Name: "demo", Command: []string{"demo"}}
	q := Request{Method: MethodToolsCall, Name: "echo", Args: json.RawMessage(`{"m":1}`)}
	q1, q2 := q, q
	q1.Trial, q2.Trial = 1, 2
	if c.key(suite, srv, q1) == c.key(suite, srv, q2) {
		t.Error("two trials of one call share a cache key")
	}
	if c.key(suite, srv, q1) != c.key(suite, srv, q1) {
		t.Error("one trial's key is not stable")
	}
}
