package intercept

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcptest/mcptest/core/agent"
)

// TraceLimit bounds the trace file a trajectory test reads.
const TraceLimit = 64 << 20

// ErrBadTrace is returned for a trace file that is not an intercept JSONL
// trace.
var ErrBadTrace = errors.New("not an intercept trace")

// Trajectory builds the trajectory of an intercept trace as an
// agent trace, so that a trajectory test's targets are exactly those of
// an agent test (tool_names, tool_calls[i].args.<path>, ...). A tools/call
// request is a call; the response with the same JSON-RPC id is its
// result. file names the trace in errors, which give the 1-based line.
func Trajectory(file string, data []byte) (*agent.Trace, error) {
	tr := &agent.Trace{Servers: []string{}, Tools: []agent.Tool{}, ToolCalls: []agent.ToolCall{},
		ToolResults: []agent.ToolResult{}, ToolNames: []string{}, ModelCalls: []agent.ModelCall{}}
	tr.Conversation.PerTurn = []agent.Turn{}
	byID := map[string]int{} // JSON-RPC id of a tools/call request -> call index
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), TraceLimit)
	for line := 1; sc.Scan(); line++ {
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("%s:%d: %w: %v", file, line, ErrBadTrace, err)
		}
		if e.Dir != ToServer && e.Dir != ToClient {
			return nil, fmt.Errorf("%s:%d: %w: dir is %q, want %s or %s", file, line, ErrBadTrace, e.Dir, ToServer, ToClient)
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		_ = json.Unmarshal(e.Message, &msg) // a non-object message carries no id
		id := string(msg.ID)
		if e.Dir == ToServer && e.Tool != "" {
			args := e.Args
			if len(args) == 0 || string(args) == "null" {
				args = json.RawMessage("{}")
			}
			key := e.Tool + "\x00" + canonical(args)
			if seen[key] {
				tr.RedundantToolCalls++
			}
			seen[key] = true
			n := len(tr.ToolCalls)
			tr.ToolCalls = append(tr.ToolCalls, agent.ToolCall{ID: id, Name: e.Tool, Args: args, HopIndex: n})
			tr.ToolNames = append(tr.ToolNames, e.Tool)
			tr.ToolResults = append(tr.ToolResults, agent.ToolResult{Name: e.Tool, CallIndex: n, Result: json.RawMessage("null"), Error: "no response in the trace"})
			if id != "" {
				byID[id] = n
			}
			continue
		}
		if e.Dir != ToClient || id == "" {
			continue
		}
		n, ok := byID[id]
		if !ok {
			continue
		}
		delete(byID, id)
		res := &tr.ToolResults[n]
		switch {
		case len(msg.Result) > 0:
			res.Result, res.Error = agent.WithIsError(msg.Result), ""
			var r struct {
				IsError bool `json:"isError"`
			}
			_ = json.Unmarshal(msg.Result, &r)
			res.IsError = r.IsError
		case len(msg.Error) > 0:
			res.IsError, res.Error = true, string(msg.Error)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return tr, nil
}

// canonical is args re-encoded with sorted keys, so two calls with the
// same arguments in another key order count as a repeat.
func canonical(args json.RawMessage) string {
	var v any
	if json.Unmarshal(args, &v) != nil {
		return string(args)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
