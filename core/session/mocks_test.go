package session

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestMocksAnswer(t *testing.T) {
	schema := `{"message":"who?","requestedSchema":{"type":"object","properties":{
		"name":{"type":"string","default":"Grace"},"age":{"type":"integer","default":36},"city":{"type":"string"}}}}`
	cases := []struct {
		name, method, params string
		mocks                *Mocks
		want, wantErr        string
	}{
		{"sampling", MethodCreateMessage, `{"messages":[]}`, &Mocks{Sampling: &SamplingMock{Text: "canned"}},
			`{"content":{"text":"canned","type":"text"},"model":"mcptest-mock","role":"assistant","stopReason":"endTurn"}`, ""},
		{"sampling with model", MethodCreateMessage, `{}`, &Mocks{Sampling: &SamplingMock{Text: "x", Model: "m", StopReason: "maxTokens"}},
			`{"content":{"text":"x","type":"text"},"model":"m","role":"assistant","stopReason":"maxTokens"}`, ""},
		{"roots", MethodListRoots, ``, &Mocks{Roots: []Root{{URI: "file:///tmp/w", Name: "w"}, {URI: "file:///b"}}},
			`{"roots":[{"uri":"file:///tmp/w","name":"w"},{"uri":"file:///b"}]}`, ""},
		{"no roots offered as an empty list", MethodListRoots, `{}`, &Mocks{Roots: []Root{}}, `{"roots":[]}`, ""},
		{"accept", MethodElicit, schema, &Mocks{Elicitation: &ElicitationMock{Action: ElicitAccept, Content: json.RawMessage(`{"name":"Ada"}`)}},
			`{"action":"accept","content":{"name":"Ada"}}`, ""},
		{"accept without content", MethodElicit, schema, &Mocks{Elicitation: &ElicitationMock{Action: ElicitAccept}},
			`{"action":"accept","content":{}}`, ""},
		{"accept defaults", MethodElicit, schema, &Mocks{Elicitation: &ElicitationMock{Action: ElicitAcceptDefaults}},
			`{"action":"accept","content":{"age":36,"name":"Grace"}}`, ""},
		{"accept defaults, content merged over", MethodElicit, schema,
			&Mocks{Elicitation: &ElicitationMock{Action: ElicitAcceptDefaults, Content: json.RawMessage(`{"name":"Ada","city":"London"}`)}},
			`{"action":"accept","content":{"age":36,"city":"London","name":"Ada"}}`, ""},
		{"decline", MethodElicit, schema, &Mocks{Elicitation: &ElicitationMock{Action: ElicitDecline}}, `{"action":"decline"}`, ""},
		{"cancel", MethodElicit, schema, &Mocks{Elicitation: &ElicitationMock{Action: ElicitCancel}}, `{"action":"cancel"}`, ""},
		{"url mode accepts without content", MethodElicit, `{"mode":"url","url":"https://x","message":"m","elicitationId":"e"}`,
			&Mocks{Elicitation: &ElicitationMock{Action: ElicitAccept, Content: json.RawMessage(`{"a":1}`)}}, `{"action":"accept"}`, ""},
		{"ping", "ping", ``, nil, `{}`, ""},
		{"sampling not offered", MethodCreateMessage, `{}`, &Mocks{Roots: []Root{}}, "", "no sampling mock"},
		{"nil mocks", MethodElicit, schema, nil, "", "no elicitation mock"},
		{"roots not offered", MethodListRoots, ``, &Mocks{}, "", "no roots mock"},
		{"unknown method", "tasks/get", `{}`, &Mocks{Sampling: &SamplingMock{}}, "", `does not serve "tasks/get"`},
		{"params not an object", MethodElicit, `[1]`, &Mocks{Elicitation: &ElicitationMock{Action: ElicitAccept}}, "", "not an object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, rpcErr := c.mocks.Answer(c.method, json.RawMessage(c.params))
			if c.wantErr != "" {
				if rpcErr == nil || !strings.Contains(rpcErr.Message, c.wantErr) {
					t.Fatalf("got %s, %v; want error %q", got, rpcErr, c.wantErr)
				}
				if c.wantErr != "not an object" && rpcErr.Code != codeMethodNotFound {
					t.Errorf("code %d", rpcErr.Code)
				}
				return
			}
			if rpcErr != nil || string(got) != c.want {
				t.Fatalf("got %s, %v\nwant %s", got, rpcErr, c.want)
			}
		})
	}
}

func TestMocksOverAndCapabilities(t *testing.T) {
	server := &Mocks{Roots: []Root{{URI: "file:///s"}}, Sampling: &SamplingMock{Text: "server"}}
	test := &Mocks{Sampling: &SamplingMock{Text: "test"}, Elicitation: &ElicitationMock{Action: ElicitCancel}}
	m := test.Over(server)
	if m.Sampling.Text != "test" || m.Roots[0].URI != "file:///s" || m.Elicitation.Action != ElicitCancel {
		t.Fatalf("merged %+v", m)
	}
	if server.Sampling.Text != "server" || test.Roots != nil {
		t.Fatal("Over changed its operands")
	}
	if (*Mocks)(nil).Over(server) != server || test.Over(nil) != test {
		t.Fatal("Over with nil")
	}
	if got := server.Capabilities(); got != (ClientCapabilities{Roots: true, Sampling: true}) {
		t.Fatalf("capabilities %+v", got)
	}
	caps := ClientOptions{Mocks: server, Declare: ClientCapabilities{Elicitation: true}}.declared()
	b, _ := json.Marshal(caps)
	if string(b) != `{"roots":{},"sampling":{},"elicitation":{}}` {
		t.Fatalf("declared %s", b)
	}
	b, _ = json.Marshal(ClientOptions{}.declared())
	if string(b) != `{}` {
		t.Fatalf("nothing declared: %s", b)
	}
}
