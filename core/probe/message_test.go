package probe

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestParseKeepsWhatCame(t *testing.T) {
	m, err := Parse([]byte(` {"jsonrpc":"2.0","id":"7","error":{"code":"-32601","message":"x"}} `))
	if err != nil {
		t.Fatal(err)
	}
	if !m.IsResponse() || m.IsRequest() || m.IsNotification() {
		t.Errorf("classification wrong: %+v", m)
	}
	if m.HasID(7) || !m.HasID("7") {
		t.Errorf("ids must be compared with their JSON type")
	}
	if _, ok := m.ErrorCode(); ok {
		t.Errorf("a string code must not read as an integer")
	}
	if _, ok := m.Members["jsonrpc"]; !ok {
		t.Errorf("members not kept")
	}
}

func TestParseRefusesNonObjects(t *testing.T) {
	for _, in := range []string{"", "[]", "Starting server...", `"x"`, `{"a":`} {
		if _, err := Parse([]byte(in)); !errors.Is(err, ErrNotObject) {
			t.Errorf("Parse(%q) err = %v", in, err)
		}
	}
	ms, err := ParseBatch([]byte(`[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"n"}]`))
	if err != nil || len(ms) != 2 || !ms[1].IsNotification() {
		t.Fatalf("batch: %v %v", ms, err)
	}
}

func TestNullAndAbsentIDs(t *testing.T) {
	m, _ := Parse([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"p"}}`))
	if !m.IDIsNull() {
		t.Errorf("null id not seen")
	}
	if c, ok := m.ErrorCode(); !ok || c != -32700 {
		t.Errorf("code %d %v", c, ok)
	}
	n, _ := Parse([]byte(`{"jsonrpc":"2.0","method":"notifications/x"}`))
	if n.IDIsNull() || n.ID != nil || !n.IsNotification() {
		t.Errorf("notification misread: %+v", n)
	}
}

func TestEnvelopes(t *testing.T) {
	var req map[string]any
	if err := json.Unmarshal(Request(1, "ping", nil), &req); err != nil {
		t.Fatal(err)
	}
	if _, has := req["params"]; has {
		t.Errorf("nil params must be left out, not sent as null")
	}
	params := WithMeta(map[string]any{"name": "echo", "_meta": map[string]any{"progressToken": "t"}}, ModernMeta(Rev20260728, nil, "1.0"))
	meta := params["_meta"].(map[string]any)
	if meta["progressToken"] != "t" || meta[MetaProtocolVersion] != Rev20260728 || meta[MetaClientInfo] == nil {
		t.Errorf("meta not merged: %v", meta)
	}
	h := PostHeaders(Rev20260728, "", "tools/call", params)
	if h.Get(HeaderMethod) != "tools/call" || h.Get(HeaderName) != "echo" || h.Get(HeaderProtocolVersion) != Rev20260728 {
		t.Errorf("modern headers: %v", h)
	}
	legacy := PostHeaders(Rev20251125, "sid", "tools/call", params)
	if legacy.Get(HeaderMethod) != "" || legacy.Get(HeaderSessionID) != "sid" {
		t.Errorf("legacy headers: %v", legacy)
	}
	if IsModern(Rev20251125) || !IsModern(Rev20260728) {
		t.Errorf("era detection wrong")
	}
}
