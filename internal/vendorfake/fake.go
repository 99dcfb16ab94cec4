// Package vendorfake runs local HTTP servers that speak the wire formats of
// the model vendors mcptest's provider plugins call: Anthropic Messages,
// OpenAI Chat Completions (and embeddings), Gemini generateContent (and
// embeddings) and Mistral chat (and embeddings), each non-streaming and
// streaming (server-sent events). Tests queue the replies a fake gives,
// including HTTP errors, rate limits and malformed bodies, and read back
// the requests it received, so a provider plugin is tested end to end
// without reaching any vendor.
package vendorfake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Vendor wire formats.
const (
	Anthropic = "anthropic"
	OpenAI    = "openai"
	Gemini    = "gemini"
	Mistral   = "mistral"
)

// Call is a tool call in a reply.
type Call struct {
	ID   string
	Name string
	// Args is the JSON object of arguments; "" means {}.
	Args string
}

// Reply is one answer of a fake, in vendor-neutral terms that the fake
// renders in its vendor's format, or a raw Body sent as it is.
type Reply struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// Header holds extra response headers (retry-after, ...).
	Header map[string]string
	// Body, when set, is sent verbatim instead of a rendered reply (a
	// malformed body, a vendor error of a particular shape).
	Body string
	// ErrorMessage, with a Status of 400 or more, is rendered as the
	// vendor's error body.
	ErrorMessage string

	// Text is the assistant's text.
	Text string
	// Calls are the tool calls the assistant makes.
	Calls []Call
	// Stop is a neutral stop reason: end_turn, tool_use, max_tokens or
	// content_filter; "" means tool_use when there are calls, else
	// end_turn.
	Stop string
	// InputTokens and OutputTokens are the usage reported.
	InputTokens, OutputTokens int
	// Model is the model named in the reply; "" echoes the request's.
	Model string
	// Vectors answer an embeddings request, one per input.
	Vectors [][]float32
}

// Request is what the fake received.
type Request struct {
	Method string
	// Path is the URL path with its query.
	Path   string
	Header http.Header
	Body   []byte
}

// JSON decodes the request body.
func (r Request) JSON() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.Body, &m)
	return m
}

// Fake is one vendor's fake server.
type Fake struct {
	// URL is the base URL to give the plugin (the vendor's base URL
	// variable): for OpenAI it ends in /v1, as OpenAI's does.
	URL    string
	vendor string
	srv    *httptest.Server

	// Key, when set, is the only credential accepted: any other (or none)
	// gets the vendor's 401.
	Key string
	// Respond, when set, answers the requests the queue does not: a reply
	// chosen from the request, for callers whose requests arrive in any
	// order (a judge grading criteria concurrently). ok false falls back
	// to the "no reply queued" error. Set it before the first request.
	Respond func(Request) (Reply, bool)

	mu       sync.Mutex
	replies  []Reply
	requests []Request
}

// New starts a fake of vendor; it stops when the test ends.
func New(t testing.TB, vendor string) *Fake {
	t.Helper()
	f := &Fake{vendor: vendor}
	switch vendor {
	case Anthropic, OpenAI, Gemini, Mistral:
	default:
		t.Fatalf("vendorfake: unknown vendor %q", vendor)
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	f.URL = f.srv.URL
	if vendor == OpenAI {
		f.URL += "/v1"
	}
	return f
}

// Push queues replies, answered in order, one per request.
func (f *Fake) Push(r ...Reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.replies = append(f.replies, r...)
}

// Requests returns the requests received so far.
func (f *Fake) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.requests...)
}

// Pending is the number of queued replies not yet given.
func (f *Fake) Pending() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.replies)
}

// maxRequestBytes bounds a request body the fake reads.
const maxRequestBytes = 8 << 20

func (f *Fake) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxRequestBytes))
	f.mu.Lock()
	got := Request{Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(), Body: body}
	f.requests = append(f.requests, got)
	var rep Reply
	queued := len(f.replies) > 0
	if queued {
		rep, f.replies = f.replies[0], f.replies[1:]
	}
	f.mu.Unlock()
	if !queued && f.Respond != nil {
		rep, queued = f.Respond(got)
	}
	route, ok := f.route(r)
	switch {
	case !ok:
		f.fail(w, http.StatusNotFound, fmt.Sprintf("vendorfake %s: no route %s %s", f.vendor, r.Method, r.URL.Path))
		return
	case f.Key != "" && f.credential(r) != f.Key:
		f.fail(w, http.StatusUnauthorized, "invalid api key")
		return
	case !queued:
		f.fail(w, http.StatusInternalServerError, "vendorfake: no reply queued")
		return
	}
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	if rep.Body != "" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(statusOr200(rep.Status))
		io.WriteString(w, rep.Body)
		return
	}
	if rep.Status >= 400 {
		f.fail(w, rep.Status, rep.ErrorMessage)
		return
	}
	var req map[string]any
	_ = json.Unmarshal(body, &req)
	if rep.Model == "" {
		rep.Model, _ = req["model"].(string)
		if rep.Model == "" {
			rep.Model = route.model
		}
	}
	if rep.Stop == "" {
		rep.Stop = "end_turn"
		if len(rep.Calls) > 0 {
			rep.Stop = "tool_use"
		}
	}
	for i := range rep.Calls {
		if rep.Calls[i].Args == "" {
			rep.Calls[i].Args = "{}"
		}
		// Gemini often sends calls without ids; the others always name them.
		if rep.Calls[i].ID == "" && f.vendor != Gemini {
			rep.Calls[i].ID = fmt.Sprintf("call_%d", i+1)
		}
	}
	stream := req["stream"] == true || strings.Contains(r.URL.Path, ":stream")
	switch {
	case route.embed:
		writeJSON(w, f.embedBody(rep, req, route))
	case stream:
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for _, ev := range f.streamEvents(rep) {
			if ev.name != "" {
				fmt.Fprintf(w, "event: %s\n", ev.name)
			}
			fmt.Fprintf(w, "data: %s\n\n", ev.data)
		}
	default:
		writeJSON(w, f.chatBody(rep))
	}
}

// route is what a request path asks for.
type route struct {
	embed bool
	// model is the model named in the path (Gemini).
	model string
}

func (f *Fake) route(r *http.Request) (route, bool) {
	p := r.URL.Path
	if r.Method != http.MethodPost {
		return route{}, false
	}
	switch f.vendor {
	case Anthropic:
		return route{}, p == "/v1/messages"
	case OpenAI:
		return route{embed: p == "/v1/embeddings"}, p == "/v1/chat/completions" || p == "/v1/embeddings"
	case Mistral:
		return route{embed: p == "/v1/embeddings"}, p == "/v1/chat/completions" || p == "/v1/embeddings"
	case Gemini:
		rest, ok := strings.CutPrefix(p, "/v1beta/models/")
		if !ok {
			return route{}, false
		}
		model, method, ok := strings.Cut(rest, ":")
		switch method {
		case "generateContent", "streamGenerateContent":
			return route{model: model}, ok
		case "embedContent", "batchEmbedContents":
			return route{embed: true, model: model}, ok
		}
	}
	return route{}, false
}

// credential is the key the request carries in its vendor's header.
func (f *Fake) credential(r *http.Request) string {
	switch f.vendor {
	case Anthropic:
		// The API takes x-api-key, and newer SDKs send a bearer token.
		if k := r.Header.Get("X-Api-Key"); k != "" {
			return k
		}
	case Gemini:
		if k := r.Header.Get("X-Goog-Api-Key"); k != "" {
			return k
		}
		return r.URL.Query().Get("key")
	}
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
}

// fail writes the vendor's error body.
func (f *Fake) fail(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	var body any
	switch f.vendor {
	case Anthropic:
		typ := map[int]string{400: "invalid_request_error", 401: "authentication_error", 403: "permission_error", 429: "rate_limit_error", 529: "overloaded_error"}[status]
		if typ == "" {
			typ = "api_error"
		}
		body = map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}}
	case OpenAI:
		body = map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "code": nil}}
	case Gemini:
		body = map[string]any{"error": map[string]any{"code": status, "message": msg, "status": http.StatusText(status)}}
	case Mistral:
		body = map[string]any{"object": "error", "message": msg, "type": "invalid_request_error"}
	}
	_ = json.NewEncoder(w).Encode(body)
}

func statusOr200(s int) int {
	if s == 0 {
		return http.StatusOK
	}
	return s
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// event is one server-sent event.
type event struct {
	name string
	data string
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// args decodes a call's arguments for vendors that send them as objects.
func args(c Call) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(c.Args), &m); err != nil {
		return map[string]any{"_raw": c.Args}
	}
	return m
}
