package session

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Methods of the requests a server sends its client.
const (
	// MethodCreateMessage asks the client for an LLM completion (sampling).
	MethodCreateMessage = "sampling/createMessage"
	// MethodElicit asks the client for user input (elicitation).
	MethodElicit = "elicitation/create"
	// MethodListRoots asks the client for its roots.
	MethodListRoots = "roots/list"
	// methodPing checks the client is alive.
	methodPing = "ping"
)

// Elicitation actions a mock answers with.
const (
	// ElicitAccept accepts with the mock's content.
	ElicitAccept = "accept"
	// ElicitAcceptDefaults accepts with the defaults of the requested
	// schema, the mock's content merged over them.
	ElicitAcceptDefaults = "accept_defaults"
	// ElicitDecline declines.
	ElicitDecline = "decline"
	// ElicitCancel cancels (the user dismissed the request).
	ElicitCancel = "cancel"
)

// Defaults of a SamplingMock's fields.
const (
	DefaultSamplingModel      = "mcptest-mock"
	DefaultSamplingStopReason = "endTurn"
)

// codeMethodNotFound is JSON-RPC's "method not found".
const codeMethodNotFound = -32601

// Mocks answer the requests a server sends its client: sampling,
// elicitation and roots, each with a canned answer, so a server's
// client-dependent features can be tested without an LLM or a user. A nil
// field means the feature is not offered: its requests get a JSON-RPC
// error. The zero value and a nil *Mocks offer nothing.
//
// The answers are built from the request's raw params alone, so the same
// Mocks serve server-to-client requests (legacy protocol revisions) and
// any other path that carries the same requests.
type Mocks struct {
	// Roots is the roots list the client reports; nil means roots are not
	// offered (an empty, non-nil list offers none).
	Roots []Root
	// Sampling answers sampling/createMessage; nil means not offered.
	Sampling *SamplingMock
	// Elicitation answers elicitation/create; nil means not offered.
	Elicitation *ElicitationMock
}

// Root is one entry of the roots list.
type Root struct {
	// URI identifies the root, usually a file:// URI.
	URI string `json:"uri"`
	// Name is an optional human-readable name.
	Name string `json:"name,omitempty"`
}

// SamplingMock is a canned CreateMessageResult: an assistant message with
// one text block.
type SamplingMock struct {
	// Text is the reply's text.
	Text string
	// Model names the model said to have answered; "" means
	// DefaultSamplingModel.
	Model string
	// StopReason says why generation stopped; "" means
	// DefaultSamplingStopReason.
	StopReason string
}

// ElicitationMock is a canned ElicitResult.
type ElicitationMock struct {
	// Action is ElicitAccept, ElicitAcceptDefaults, ElicitDecline or
	// ElicitCancel.
	Action string
	// Content is the accepted content, a JSON object; nil for none. With
	// ElicitAcceptDefaults it is merged over the schema's defaults.
	Content json.RawMessage
}

// ClientCapabilities says which client features initialize declares.
type ClientCapabilities struct {
	Roots, Sampling, Elicitation bool
}

// Capabilities returns the features m offers.
func (m *Mocks) Capabilities() ClientCapabilities {
	if m == nil {
		return ClientCapabilities{}
	}
	return ClientCapabilities{Roots: m.Roots != nil, Sampling: m.Sampling != nil, Elicitation: m.Elicitation != nil}
}

// Union returns the features either c or o declares.
func (c ClientCapabilities) Union(o ClientCapabilities) ClientCapabilities {
	return ClientCapabilities{Roots: c.Roots || o.Roots, Sampling: c.Sampling || o.Sampling, Elicitation: c.Elicitation || o.Elicitation}
}

// Over returns m with each feature m leaves unset taken from base: a
// test's mocks over its server's.
func (m *Mocks) Over(base *Mocks) *Mocks {
	switch {
	case m == nil:
		return base
	case base == nil:
		return m
	}
	out := *m
	if out.Roots == nil {
		out.Roots = base.Roots
	}
	if out.Sampling == nil {
		out.Sampling = base.Sampling
	}
	if out.Elicitation == nil {
		out.Elicitation = base.Elicitation
	}
	return &out
}

// Answer answers a request the server sent: params are its raw params.
// It returns the result, or the JSON-RPC error to answer with. ping is
// always answered; a feature m does not offer, and any other method, gets
// "method not found".
func (m *Mocks) Answer(method string, params json.RawMessage) (json.RawMessage, *RPCError) {
	switch method {
	case MethodCreateMessage:
		return m.CreateMessage(params)
	case MethodElicit:
		return m.Elicit(params)
	case MethodListRoots:
		return m.ListRoots(params)
	case methodPing:
		return json.RawMessage(`{}`), nil
	}
	return nil, &RPCError{Code: codeMethodNotFound, Message: fmt.Sprintf("mcptest: the client does not serve %q", method)}
}

// notOffered is the error for a feature without a mock.
func notOffered(feature string) *RPCError {
	return &RPCError{Code: codeMethodNotFound,
		Message: fmt.Sprintf("mcptest: no %s mock (set client.%s on the server or the test)", feature, feature)}
}

// CreateMessage answers sampling/createMessage with the canned reply.
func (m *Mocks) CreateMessage(json.RawMessage) (json.RawMessage, *RPCError) {
	if m == nil || m.Sampling == nil {
		return nil, notOffered("sampling")
	}
	s := m.Sampling
	model, stop := s.Model, s.StopReason
	if model == "" {
		model = DefaultSamplingModel
	}
	if stop == "" {
		stop = DefaultSamplingStopReason
	}
	return marshalAnswer(map[string]any{
		"role":       "assistant",
		"content":    map[string]any{"type": "text", "text": s.Text},
		"model":      model,
		"stopReason": stop,
	})
}

// ListRoots answers roots/list with the roots list.
func (m *Mocks) ListRoots(json.RawMessage) (json.RawMessage, *RPCError) {
	if m == nil || m.Roots == nil {
		return nil, notOffered("roots")
	}
	return marshalAnswer(map[string]any{"roots": m.Roots})
}

// Elicit answers elicitation/create with the mock's action. A URL-mode
// request (params.mode "url") is accepted without content, as the spec
// has the user complete it elsewhere.
func (m *Mocks) Elicit(params json.RawMessage) (json.RawMessage, *RPCError) {
	if m == nil || m.Elicitation == nil {
		return nil, notOffered("elicitation")
	}
	e := m.Elicitation
	var req struct {
		Mode            string `json:"mode"`
		RequestedSchema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"requestedSchema"`
	}
	if len(bytes.TrimSpace(params)) > 0 {
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, &RPCError{Code: -32602, Message: "mcptest: elicitation params are not an object: " + err.Error()}
		}
	}
	switch e.Action {
	case ElicitDecline, ElicitCancel:
		return marshalAnswer(map[string]any{"action": e.Action})
	case ElicitAccept, ElicitAcceptDefaults:
	default:
		return nil, &RPCError{Code: -32603, Message: fmt.Sprintf("mcptest: unknown elicitation action %q", e.Action)}
	}
	if req.Mode == "url" {
		return marshalAnswer(map[string]any{"action": ElicitAccept})
	}
	content := map[string]json.RawMessage{}
	if e.Action == ElicitAcceptDefaults {
		for name, prop := range req.RequestedSchema.Properties {
			var p struct {
				Default json.RawMessage `json:"default"`
			}
			if json.Unmarshal(prop, &p) == nil && len(p.Default) > 0 {
				content[name] = p.Default
			}
		}
	}
	if len(e.Content) > 0 {
		var given map[string]json.RawMessage
		if err := json.Unmarshal(e.Content, &given); err != nil {
			return nil, &RPCError{Code: -32603, Message: "mcptest: elicitation content is not an object"}
		}
		for k, v := range given {
			content[k] = v
		}
	}
	return marshalAnswer(map[string]any{"action": ElicitAccept, "content": content})
}

// marshalAnswer encodes a result.
func marshalAnswer(v any) (json.RawMessage, *RPCError) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &RPCError{Code: -32603, Message: "mcptest: encode the answer: " + err.Error()}
	}
	return b, nil
}
