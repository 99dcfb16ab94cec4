package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// askTimeout bounds the wait for the client's answer to a server request.
const askTimeout = 20 * time.Second

// bridge is set when the demo serves legacy HTTP+SSE: mcp-go's SSE
// sessions cannot send requests to the client, so the demo sends them on
// the stream itself and catches the answers the client POSTs back.
var bridge *sseBridge

// askClient sends the client a request (sampling/createMessage,
// elicitation/create or roots/list) and returns the result as JSON. A
// JSON-RPC error from the client is returned as the error.
func askClient(ctx context.Context, method string, params any) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(ctx, askTimeout)
	defer cancel()
	if bridge != nil {
		sess := server.ClientSessionFromContext(ctx)
		if sess == nil {
			return nil, errors.New("no client session")
		}
		return bridge.ask(ctx, sess.SessionID(), method, params)
	}
	srv := server.ServerFromContext(ctx)
	var res any
	var err error
	switch method {
	case string(mcp.MethodSamplingCreateMessage):
		res, err = srv.RequestSampling(ctx, mcp.CreateMessageRequest{CreateMessageParams: params.(mcp.CreateMessageParams)})
	case string(mcp.MethodElicitationCreate):
		res, err = srv.RequestElicitation(ctx, mcp.ElicitationRequest{Params: params.(mcp.ElicitationParams)})
	case string(mcp.MethodListRoots):
		res, err = srv.RequestRoots(ctx, mcp.ListRootsRequest{})
	default:
		return nil, fmt.Errorf("cannot send %s", method)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

// sseBridge sends requests to SSE clients and routes their answers back.
type sseBridge struct {
	srv  *server.SSEServer
	next atomic.Int64

	mu      sync.Mutex
	pending map[string]chan answer
}

// answer is a client's response: a result or an error object.
type answer struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func newSSEBridge(srv *server.SSEServer) *sseBridge {
	return &sseBridge{srv: srv, pending: map[string]chan answer{}}
}

// ask sends one request on the session's stream and waits for the answer.
func (b *sseBridge) ask(ctx context.Context, sessionID, method string, params any) (json.RawMessage, error) {
	id := "demo-" + strconv.FormatInt(b.next.Add(1), 10)
	ch := make(chan answer, 1)
	b.mu.Lock()
	b.pending[id] = ch
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.pending, id)
		b.mu.Unlock()
	}()
	req := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		req["params"] = params
	}
	if err := b.srv.SendEventToSession(sessionID, req); err != nil {
		return nil, err
	}
	select {
	case a := <-ch:
		if a.Error != nil {
			return nil, fmt.Errorf("request failed: %s (code %d)", a.Error.Message, a.Error.Code)
		}
		return a.Result, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// ServeHTTP takes the client's answers to the bridge's requests off the
// message endpoint and passes everything else to the SSE server.
func (b *sseBridge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		b.srv.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		answer
	}
	if json.Unmarshal(body, &m) == nil && m.Method == "" {
		var id string
		if json.Unmarshal(m.ID, &id) == nil {
			b.mu.Lock()
			ch := b.pending[id]
			b.mu.Unlock()
			if ch != nil {
				select { // a repeated answer is dropped
				case ch <- m.answer:
				default:
				}
				w.WriteHeader(http.StatusAccepted)
				return
			}
		}
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	b.srv.ServeHTTP(w, r)
}
