package servers

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"sync"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/jsonx"
)

// Result caching. Within a run, a request identical to an earlier one
// (same server definition, same method, same params once captures are
// filled in and transforms applied) is answered from the earlier answer
// instead of reaching the server again; with a cache folder, answers also
// carry over to later runs. Only requests that cannot change the server's
// state are served from cache: resources/read, prompts/get, the pages of
// list tests, completion/complete, and tools/call of tools whose
// annotations say readOnlyHint or idempotentHint. Servers restarted per
// test or working on a fixture copy are never cached (lifecycle.go). Answers
// the server gave (a result, isError or not, or a JSON-RPC error) are
// cached; transport failures and timeouts never are.

// Memory bounds: a run keeps answers for later identical requests, so the
// cache caps what it holds rather than keeping every response of a large
// run alive to its end.
const (
	maxCachedEntry = 8 << 20  // larger answers are not kept
	maxCachedTotal = 64 << 20 // answers beyond this total are not kept
)

// Cache serves identical requests from earlier answers. A nil Cache
// calls every time.
type Cache struct {
	disk  *diskCache // nil without a cache folder
	tools *ToolHints
	// protocolVersion is part of every key: the same call may be answered
	// differently under another protocol revision.
	protocolVersion string

	mu      sync.Mutex
	flights map[string]*flight
	bytes   int
	idents  map[*config.Server]string
}

// flight is the first request for one key: later identical requests wait
// for it to finish and reuse its answer.
type flight struct {
	done chan struct{}
	// out is the answer to share; nil when the call failed or the answer
	// was too large to keep.
	out *session.Outcome
}

// newCallCache returns a cache; dir is the cache folder ("" for none).
func newCallCache(dir, protocolVersion string) *Cache {
	c := &Cache{tools: NewToolHints(), protocolVersion: protocolVersion, flights: map[string]*flight{}, idents: map[*config.Server]string{}}
	if dir != "" {
		c.disk = &diskCache{dir: dir}
	}
	return c
}

// Do answers q: from an earlier identical request when there is one and q
// is cacheable, otherwise by calling. hit reports an answer from cache.
// redact masks secrets in an answer before it is kept, in memory or on
// disk, so a cache file never holds a secret the report would hide.
func (c *Cache) Do(ctx context.Context, suite *config.Suite, srv *config.Server, sess *session.Session, q Request,
	redact func(*session.Outcome), call func() (*session.Outcome, error)) (out *session.Outcome, hit bool, err error) {
	if c == nil || isolated(srv) {
		out, err = call()
		return out, false, err
	}
	key := c.key(suite, srv, q)
	c.mu.Lock()
	f, seen := c.flights[key]
	if !seen {
		f = &flight{done: make(chan struct{})}
		c.flights[key] = f
	}
	c.mu.Unlock()
	if !seen {
		return c.lead(ctx, f, key, sess, q, redact, call)
	}
	if !c.cacheable(ctx, sess, q) {
		out, err = call()
		return out, false, err
	}
	select {
	case <-f.done:
	case <-ctx.Done():
		return nil, false, fmt.Errorf("waiting for an identical request in flight: %w", ctx.Err())
	}
	if f.out == nil {
		out, err = call()
		return out, false, err
	}
	return shareOutcome(f.out), true, nil
}

// lead makes the first request of a key (or reads it from the cache
// folder) and publishes the answer to the requests that wait for it.
func (c *Cache) lead(ctx context.Context, f *flight, key string, sess *session.Session, q Request,
	redact func(*session.Outcome), call func() (*session.Outcome, error)) (*session.Outcome, bool, error) {
	defer close(f.done)
	if c.disk != nil {
		if out := c.disk.load(key); out != nil {
			c.keep(f, out)
			return shareOutcome(out), true, nil
		}
	}
	out, err := call()
	if err != nil || out == nil || (len(out.Result) == 0 && out.RPCError == nil) {
		return out, false, err
	}
	// The frames are kept too (shared, not copied): a test answered from
	// cache that fails shows the exchange its answer came from.
	kept := shareOutcome(out)
	redact(kept)
	c.keep(f, kept)
	if c.disk != nil && c.cacheable(ctx, sess, q) {
		// A cache folder that cannot be written only costs later runs a
		// call; the run itself goes on.
		_ = c.disk.store(key, q, kept)
	}
	return out, false, nil
}

// keep publishes an answer to the flight, within the memory bounds.
func (c *Cache) keep(f *flight, out *session.Outcome) {
	size := len(out.Result)
	if out.RPCError != nil {
		size += len(out.RPCError.Message) + len(out.RPCError.Data)
	}
	for _, f := range out.Frames {
		size += len(f.Raw)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if size > maxCachedEntry || c.bytes+size > maxCachedTotal {
		return
	}
	c.bytes += size
	f.out = out
}

// cacheable reports whether an answer to q may stand in for a new call.
func (c *Cache) cacheable(ctx context.Context, sess *session.Session, q Request) bool {
	if q.Method != MethodToolsCall {
		// Reading a resource or getting a prompt changes nothing.
		return true
	}
	return c.tools.safe(ctx, sess, q.Name)
}

// key identifies a request: the server's definition, the protocol revision,
// the method, the tool, prompt or resource name and the arguments in
// canonical form (object keys sorted, so the same arguments written in
// another order are the same request), hashed so that credentials in the
// definition never appear in a file name.
func (c *Cache) key(suite *config.Suite, srv *config.Server, q Request) string {
	args := ArgsOrEmpty(q.Args)
	if q.Raw != nil {
		// Requests other than calls, reads and gets are whole params.
		args = q.Raw
	}
	if v, err := jsonx.Decode(args); err == nil {
		if b, err := jsonx.Encode(v); err == nil {
			args = b
		}
	}
	h := sha256.New()
	for _, part := range []string{c.serverIdentity(suite, srv), cmp.Or(q.Version, c.protocolVersion), q.Method, q.Name, strconv.Itoa(q.Trial)} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	h.Write(args)
	return hex.EncodeToString(h.Sum(nil))
}

// serverIdentity describes a server definition: two definitions alike in
// every field (and in the folder of their suite, which relative commands
// depend on) are the same server.
func (c *Cache) serverIdentity(suite *config.Suite, srv *config.Server) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if id, ok := c.idents[srv]; ok {
		return id
	}
	env := make([]string, 0, len(srv.Env))
	for k, v := range srv.Env {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	headers := make([]string, 0, len(srv.Headers))
	for _, h := range srv.Headers {
		headers = append(headers, h.Name+"="+h.Value+"$"+h.Env)
	}
	b, _ := json.Marshal(map[string]any{
		"dir": suite.Dir, "name": srv.Name, "kind": srv.Kind, "command": srv.Command, "env": env,
		"url": srv.URL, "headers": headers,
	})
	sum := sha256.Sum256(b)
	id := hex.EncodeToString(sum[:])
	c.idents[srv] = id
	return id
}

// shareOutcome returns a copy of out that another test can own: the
// result bytes and the frames are shared (nothing writes into them;
// redaction makes new slices), the error is copied because redaction
// rewrites its fields. The duration is left at zero: a cache hit took no
// server time.
func shareOutcome(out *session.Outcome) *session.Outcome {
	cp := &session.Outcome{
		Result:     out.Result,
		Frames:     out.Frames,
		HTTPStatus: out.HTTPStatus,
		Headers:    out.Headers,
	}
	if out.RPCError != nil {
		e := *out.RPCError
		cp.RPCError = &e
	}
	return cp
}

// NewCache returns the cache of a run, or nil when caching is off:
// noCache (--no-cache), or a suite with hooks (hooks exist to change server
// state between tests, so an earlier answer may no longer be the right
// one). dir is the cache folder ("" for none), protocolVersion the run's
// revision, and tools the run's tool listings, which tell which tools are
// safe to cache.
func NewCache(p *plan.Plan, noCache bool, dir, protocolVersion string, tools *ToolHints) *Cache {
	if noCache {
		return nil
	}
	for _, s := range p.Suites {
		if s.Hooks != nil {
			return nil
		}
	}
	c := newCallCache(dir, protocolVersion)
	c.tools = tools
	return c
}
