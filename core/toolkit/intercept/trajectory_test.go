package intercept

import (
	"errors"
	"strings"
	"testing"
)

// A call whose response came back carries its result; one without a
// response is marked so; a repeat with keys reordered is redundant; a
// broken line is a located ErrBadTrace.
func TestTrajectory(t *testing.T) {
	trace := strings.Join([]string{
		`{"seq":1,"dir":"client_to_server","message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}},"tool":"add","args":{"a":1,"b":2}}`,
		`{"seq":2,"dir":"server_to_client","message":{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true}}}`,
		``,
		`{"seq":3,"dir":"client_to_server","message":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"b":2,"a":1}}},"tool":"add","args":{"b":2,"a":1}}`,
	}, "\n")
	tr, err := Trajectory("t.jsonl", []byte(trace))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tr.ToolNames, ","); got != "add,add" {
		t.Errorf("tool names = %s", got)
	}
	if tr.RedundantToolCalls != 1 {
		t.Errorf("redundant = %d, want 1", tr.RedundantToolCalls)
	}
	if !tr.ToolResults[0].IsError || tr.ToolResults[0].Error != "" {
		t.Errorf("result 0 = %+v", tr.ToolResults[0])
	}
	if tr.ToolResults[1].Error == "" {
		t.Errorf("result 1 has no response but no error: %+v", tr.ToolResults[1])
	}
	_, err = Trajectory("t.jsonl", []byte(trace+"\n{not json"))
	if !errors.Is(err, ErrBadTrace) || !strings.Contains(err.Error(), "t.jsonl:5:") {
		t.Errorf("broken line: %v", err)
	}
}

// A recorded result without isError reads false both as
// tool_results[i].isError and as tool_results[i].result.isError.
func TestTrajectoryFillsIsError(t *testing.T) {
	trace := `{"seq":1,"dir":"client_to_server","message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}},"tool":"echo","args":{}}` + "\n" +
		`{"seq":2,"dir":"server_to_client","message":{"jsonrpc":"2.0","id":1,"result":{"content":[]}}}`
	tr, err := Trajectory("t.jsonl", []byte(trace))
	if err != nil {
		t.Fatal(err)
	}
	if r := tr.ToolResults[0]; r.IsError || string(r.Result) != `{"isError":false,"content":[]}` {
		t.Errorf("result = %+v (%s)", r, r.Result)
	}
}
