package run

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/assert"
	"github.com/mcptest/mcptest/core/capture"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/servers"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/core/target"
	"github.com/mcptest/mcptest/internal/jsonx"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// nodeRef matches a ${id.path} reference in a node's arguments: group 1 is
// the node id, group 2 the path into its output.
var nodeRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_-]*)\.([^}]*)\}`)

// nodeState is what one node of a running composition produced.
type nodeState struct {
	rec    rpt.Node
	output any
	// raw is the output's JSON text as the server wrote it, when the
	// output is a piece of the response; the envelope embeds it, so the
	// composition's assertions see the server's key order and numbers.
	raw json.RawMessage
}

// outputJSON is the node's output as the envelope holds it.
func (st *nodeState) outputJSON() any {
	if st == nil {
		return nil
	}
	if st.raw != nil {
		return st.raw
	}
	return st.output
}

// runComposition runs a composition's nodes in topological order, one at a
// time, and judges the assertions against the composition envelope:
//
//	{"composition": {"name", "ran", "order", "output"},
//	 "nodes": {"<id>": {"status", "output", "duration_ms", "tool", ...}},
//	 "output": <the output node's output>}
//
// A node whose needs did not all finish ok is skipped, and so are its own
// dependants; the nodes that do not depend on it still run.
func (r *runner) runComposition(ctx context.Context, t *plan.Test) (res rpt.Test) {
	res = testHeader(t)
	if !r.caps.Await(ctx, t, &res) {
		return res
	}
	c := t.Composition
	states := map[string]*nodeState{}
	var ran []string
	start := time.Now()
	allHits := true
	for _, n := range c.Order {
		st := r.runNode(ctx, t, n, states)
		states[n.ID] = st
		if st.rec.Status != rpt.NodeSkipped {
			ran = append(ran, n.ID)
			allHits = allHits && st.rec.CacheHit
		}
		res.Nodes = append(res.Nodes, st.rec)
	}
	order := make([]string, len(c.Order))
	nodes := make(map[string]any, len(c.Order))
	for i, n := range c.Order {
		order[i] = n.ID
		st := states[n.ID]
		entry := map[string]any{"status": st.rec.Status, "output": st.outputJSON(), "duration_ms": st.rec.DurationMS, "tool": st.rec.Tool}
		if st.rec.CacheHit {
			entry["cache_hit"] = true
		}
		if st.rec.Error != "" {
			entry["error"] = st.rec.Error
		}
		nodes[n.ID] = entry
	}
	if ran == nil {
		ran = []string{}
	}
	envelope, err := jsonx.Encode(map[string]any{
		"composition": map[string]any{"name": c.Spec.Name, "ran": ran, "order": order, "output": c.Output},
		"nodes":       nodes,
		"output":      states[c.Output].outputJSON(),
	})
	if err != nil {
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: "composition", Message: "encode the composition result: " + err.Error()}
		return res
	}
	envelope = r.opts.Redact.Bytes(envelope)
	res.Assertions = r.judge.Test(ctx, t, envelope)
	// The step of a composition is the whole graph: a duration budget
	// times every node, and does not apply when every node that ran was
	// answered from cache.
	st := assert.Step{Result: envelope, Duration: time.Since(start), Cached: len(ran) > 0 && allHits}
	assert.Verdict(t, &res, &st)
	if len(t.Assertions) == 0 {
		// With nothing to check, every node must have finished ok.
		for _, st := range res.Nodes {
			if st.Status != rpt.NodeOK {
				res.Status = rpt.StatusFailed
				res.Error = &rpt.Error{Kind: "composition", Message: fmt.Sprintf("node %q: %s: %s", st.ID, st.Status, st.Error)}
				break
			}
		}
	}
	if res.Status != rpt.StatusPassed {
		res.Response = r.truncate(envelope)
	}
	return res
}

// runNode runs one node, or skips it when a node it needs did not finish
// ok.
func (r *runner) runNode(ctx context.Context, t *plan.Test, n *config.CompositionNode, states map[string]*nodeState) *nodeState {
	srv := t.Composition.Servers[n.ID]
	st := &nodeState{rec: rpt.Node{ID: n.ID, Tool: n.Tool, Server: srv.Name}}
	for _, need := range n.Needs {
		if dep := states[need]; dep == nil || dep.rec.Status != rpt.NodeOK {
			st.rec.Status = rpt.NodeSkipped
			st.rec.Error = fmt.Sprintf("needs %q, which did not finish ok", need)
			return st
		}
	}
	start := time.Now()
	defer func() { st.rec.DurationMS = ms(time.Since(start)) }()
	fail := func(msg string) *nodeState {
		st.rec.Status = rpt.NodeError
		st.rec.Error = r.opts.Redact.String(msg)
		return st
	}
	args, err := r.caps.Resolve(t, n.Args)
	if err == nil {
		args, err = capture.Substitute(args, nodeRef, "${", nodeResolver(states))
	}
	if err != nil {
		return fail(err.Error())
	}
	sess, err := r.servers.Get(ctx, t.Suite, srv, t.ProtocolVersion)
	if err != nil {
		return fail("server did not start: " + err.Error())
	}
	release := r.servers.Hold(t.Suite, srv, t.ProtocolVersion, false)
	cctx, cancel := context.WithTimeout(ctx, t.Timeout)
	out, hit, err := r.send(cctx, t.Suite, srv, sess, servers.Request{Method: servers.MethodToolsCall, Name: n.Tool, Args: args, Version: t.ProtocolVersion, Trial: t.Trial})
	cancel()
	release()
	st.rec.CacheHit = hit
	if err != nil {
		return fail(err.Error())
	}
	r.redactOutcome(out)
	st.output, st.raw = nodeOutput(out)
	switch {
	case out.RPCError != nil:
		return fail(out.RPCError.Error())
	case out.IsError():
		return fail("the tool returned isError: true")
	}
	st.rec.Status = rpt.NodeOK
	return st
}

// nodeResolver resolves ${id.path} against the outputs of finished nodes.
// ${id.output} (and ${id.output.path}) name the whole output (and a path in
// it) unless the output has a key "output" of its own.
func nodeResolver(states map[string]*nodeState) capture.Resolver {
	return func(m []string) (any, error) {
		id, expr := m[1], m[2]
		st := states[id]
		if st == nil {
			return nil, fmt.Errorf("%s: node %q has not run", m[0], id)
		}
		root := st.output
		if expr == "output" || strings.HasPrefix(expr, "output.") || strings.HasPrefix(expr, "output[") {
			obj, isObj := root.(map[string]any)
			if _, own := obj["output"]; !isObj || !own {
				expr = strings.TrimPrefix(strings.TrimPrefix(expr, "output"), ".")
			}
		}
		path, err := target.Parse(expr)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m[0], err)
		}
		v, err := path.Extract(root)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m[0], err)
		}
		return v, nil
	}
}

// nodeOutput is what a node hands its dependants and the envelope: a
// JSON-RPC error as {code, message, data}; else the result's
// structuredContent when present; else its first text block decoded when
// that holds a JSON object or array; else the text of its text blocks
// joined by newlines; else the result itself. raw is the JSON text of the
// output when it is a piece of what the server sent (nil otherwise).
func nodeOutput(out *session.Outcome) (v any, raw json.RawMessage) {
	if e := out.RPCError; e != nil {
		m := map[string]any{"code": e.Code, "message": e.Message}
		if len(e.Data) > 0 {
			if v, err := jsonx.Decode(e.Data); err == nil {
				m["data"] = v
			}
		}
		return m, nil
	}
	var res struct {
		Structured json.RawMessage `json:"structuredContent"`
		Content    []struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(out.Result, &res) != nil {
		return nil, nil
	}
	if len(res.Structured) > 0 && string(res.Structured) != "null" {
		if v, err := jsonx.Decode(res.Structured); err == nil {
			return v, res.Structured
		}
	}
	var texts []string
	for _, c := range res.Content {
		if c.Type == "text" && c.Text != nil {
			texts = append(texts, *c.Text)
		}
	}
	if len(texts) > 0 {
		if first := strings.TrimSpace(texts[0]); strings.HasPrefix(first, "{") || strings.HasPrefix(first, "[") {
			if v, err := jsonx.Decode(json.RawMessage(first)); err == nil {
				return v, json.RawMessage(first)
			}
		}
		return strings.Join(texts, "\n"), nil
	}
	v, err := jsonx.Decode(out.Result)
	if err != nil {
		return nil, nil
	}
	return v, out.Result
}
