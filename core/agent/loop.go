package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcptest/mcptest/sdk"
)

// Run drives one agent run: it lists the tools, sends the first user
// message and lets the model call tools until it answers without one,
// then moves to the next scripted or simulated user turn, until the
// conversation ends or a cap trips.
//
// The trace is returned whenever the run started, also with an error. A
// cap that trips is a finished run: the trace's stop reason names it and
// the error wraps ErrCap. A model or catalogue failure wraps ErrModel or
// ErrToolCatalogue: the run could not be carried out.
func Run(ctx context.Context, spec Spec, model Model, tools Tools) (*Trace, error) {
	spec.defaults()
	l := &loop{spec: spec, model: model, tools: tools, clock: newClock(), faults: newInjector(spec.Faults)}
	l.trace = &Trace{
		Model: spec.Model, Provider: spec.Provider, Servers: spec.Servers,
		Tools: []Tool{}, ToolCalls: []ToolCall{}, ToolResults: []ToolResult{}, ToolNames: []string{},
		ModelCalls:   []ModelCall{},
		Conversation: Conversation{PerTurn: []Turn{}, Messages: []sdk.Message{}},
	}
	err := l.run(ctx)
	if err != nil && !errors.Is(err, ErrCap) {
		l.trace.Conversation.StopReason = StopError
	}
	l.finish()
	return l.trace, err
}

// loop is the state of one run.
type loop struct {
	spec   Spec
	model  Model
	tools  Tools
	clock  *clock
	faults *injector
	cat    *catalogue
	trace  *Trace
	// seen holds the (server, name, args) of the calls made, for
	// redundant_tool_calls.
	seen map[string]bool
}

func (l *loop) run(ctx context.Context) error {
	listed, err := l.tools.List(ctx)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrToolCatalogue, err)
	}
	if l.cat, err = newCatalogue(l.spec.Servers, listed); err != nil {
		return err
	}
	l.trace.Tools = append(l.trace.Tools, listed...)
	l.seen = map[string]bool{}

	multi := l.spec.Turns != nil || l.spec.Simulate != nil
	user := l.spec.Prompt
	scripted := l.spec.Turns
	if user == "" && len(scripted) > 0 {
		user, scripted = scripted[0], scripted[1:]
	}
	for turn := 0; ; turn++ {
		if l.spec.Simulate != nil && user == "" {
			if turn >= l.spec.Simulate.MaxTurns {
				break
			}
			msg, done, err := l.simulate(ctx, turn)
			if err != nil {
				return err
			}
			if done {
				break
			}
			user = msg
		}
		stop, err := l.userTurn(ctx, turn, user, multi)
		if err != nil || stop != "" {
			return err
		}
		switch {
		case len(scripted) > 0:
			user, scripted = scripted[0], scripted[1:]
		case l.spec.Simulate != nil:
			user = ""
		default:
			return nil
		}
	}
	return nil
}

// userTurn sends one user message and runs the tool loop until the model
// answers without a tool call or a cap trips; stop is the cap's stop
// reason, "" when the turn completed.
func (l *loop) userTurn(ctx context.Context, turn int, user string, multi bool) (stop string, err error) {
	conv := &l.trace.Conversation
	conv.Messages = append(conv.Messages, sdk.Message{Role: "user", Content: user})
	var slice *Turn
	if multi {
		conv.PerTurn = append(conv.PerTurn, Turn{User: user, ToolCalls: []ToolCall{}, ToolResults: []ToolResult{}})
		slice = &conv.PerTurn[len(conv.PerTurn)-1]
	}
	defer func() {
		if slice != nil {
			slice.StopReason = stop
			if stop == "" && err == nil {
				slice.StopReason = StopCompleted
			}
		}
	}()
	for iter := 0; ; iter++ {
		if stop := l.timeUp(); stop != "" {
			return stop, l.capped(stop)
		}
		if iter == l.spec.MaxTurns {
			l.trace.Conversation.StopDetail = fmt.Sprintf("max_turns %d reached and the model still asked for tools", l.spec.MaxTurns)
			return StopTurnBudget, l.capped(StopTurnBudget)
		}
		resp, err := l.call(ctx, turn, slice)
		if err != nil {
			return "", err
		}
		msg := resp.Message
		msg.Role = "assistant"
		digest := ""
		if len(msg.ToolCalls) > 0 {
			digest = inputsDigest(l.spec.System, l.cat.defs, conv.Messages)
		}
		for i := range msg.ToolCalls {
			if msg.ToolCalls[i].ID == "" {
				msg.ToolCalls[i].ID = fmt.Sprintf("call_%d", len(l.trace.ToolCalls)+i)
			}
		}
		conv.Messages = append(conv.Messages, msg)
		if b := l.spec.TokenBudget; b > 0 && conv.Tokens.Total > int64(b) {
			conv.StopDetail = fmt.Sprintf("token_budget %d crossed: %d tokens used", b, conv.Tokens.Total)
			return StopTokenBudget, l.capped(StopTokenBudget)
		}
		if len(msg.ToolCalls) == 0 {
			l.trace.FinalResponse = msg.Content
			if slice != nil {
				slice.FinalResponse = msg.Content
			}
			return "", nil
		}
		for _, tc := range msg.ToolCalls {
			if m := l.spec.MaxToolCalls; m > 0 && len(l.trace.ToolCalls) >= m {
				conv.StopDetail = fmt.Sprintf("max_tool_calls %d reached: the model asked for call %d", m, len(l.trace.ToolCalls)+1)
				return StopToolCallBudget, l.capped(StopToolCallBudget)
			}
			l.callTool(ctx, turn, slice, tc, digest)
		}
	}
}

// capped is the error of a run a cap stopped.
func (l *loop) capped(stop string) error {
	l.trace.Conversation.StopReason = stop
	return fmt.Errorf("%w: %s", ErrCap, l.trace.Conversation.StopDetail)
}

// timeUp reports the time_budget stop when the run's time has passed it.
func (l *loop) timeUp() string {
	b := l.spec.TimeBudget
	if b <= 0 {
		return ""
	}
	if el := l.clock.elapsed(); el >= b {
		l.trace.Conversation.StopDetail = fmt.Sprintf("time_budget %s passed: %s elapsed", b, el.Round(time.Millisecond))
		return StopTimeBudget
	}
	return ""
}

// call sends the conversation to the model.
func (l *loop) call(ctx context.Context, turn int, slice *Turn) (sdk.ChatResponse, error) {
	conv := &l.trace.Conversation
	req := sdk.ChatRequest{Model: l.spec.Model, System: l.spec.System, Messages: conv.Messages, Tools: l.cat.defs, MaxTokens: l.spec.MaxTokens}
	start := time.Now()
	resp, err := l.model.Complete(ctx, req)
	if err != nil {
		return resp, fmt.Errorf("%w: model %s: %w", ErrModel, l.spec.Model, err)
	}
	conv.Tokens.add(resp.Usage)
	if slice != nil {
		slice.Tokens.add(resp.Usage)
	}
	out := resp.Message
	out.Role = "assistant"
	l.trace.ModelCalls = append(l.trace.ModelCalls, ModelCall{
		Role: RoleAgent, Turn: turn, Messages: len(conv.Messages), Output: out,
		StopReason: resp.StopReason, Usage: resp.Usage, DurationMS: ms(time.Since(start)),
	})
	return resp, nil
}

// callTool runs one tool call (through the fault injector) and appends
// the call, its result and the tool message.
func (l *loop) callTool(ctx context.Context, turn int, slice *Turn, tc sdk.ToolCall, digest string) {
	tool, known := l.cat.resolve(tc.Name)
	args := tc.Arguments
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	call := ToolCall{ID: tc.ID, Name: tool.Name, Server: tool.Server, Args: args, HopIndex: len(l.trace.ToolCalls), Turn: turn, InputsDigest: digest}
	if !known {
		call.Server = ""
	}
	key := call.Server + "\x00" + call.Name + "\x00" + string(compact(args))
	if l.seen[key] {
		l.trace.RedundantToolCalls++
	}
	l.seen[key] = true

	res := ToolResult{Name: call.Name, Server: call.Server, CallIndex: call.HopIndex, Result: json.RawMessage("null")}
	at := l.clock.elapsed()
	switch {
	case !known:
		res.IsError, res.Error = true, fmt.Sprintf("no server offers a tool named %q", tc.Name)
	case !json.Valid(args):
		res.IsError, res.Error = true, "the arguments are not valid JSON"
	default:
		l.invoke(ctx, &call, &res, at)
	}
	res.DurationMS = ms(l.clock.elapsed() - at)

	l.trace.ToolCalls = append(l.trace.ToolCalls, call)
	l.trace.ToolResults = append(l.trace.ToolResults, res)
	l.trace.ToolNames = append(l.trace.ToolNames, call.Name)
	if slice != nil {
		local := res
		local.CallIndex = len(slice.ToolCalls)
		slice.ToolCalls = append(slice.ToolCalls, call)
		slice.ToolResults = append(slice.ToolResults, local)
	}
	l.trace.Conversation.Messages = append(l.trace.Conversation.Messages, toolMessage(tc, &res))
}

// invoke calls the tool, unless an injected fault answers instead.
func (l *loop) invoke(ctx context.Context, call *ToolCall, res *ToolResult, at time.Duration) {
	timeout := l.spec.CallTimeout
	if e := l.faults.apply(call.Server, call.Name, timeout); e != nil {
		res.Fault = e.fault.Name
		hit := FaultHit{Fault: e.fault.Name, Kind: e.fault.Kind, CallIndex: call.HopIndex, AtMS: ms(at)}
		if e.noAnswer {
			l.clock.advance(timeout)
			res.IsError, res.TimedOut, res.Error = true, true, timeoutMessage(e, timeout)
			hit.DetectionMS, hit.TimedOut = ms(timeout), true
			l.trace.Faults = append(l.trace.Faults, hit)
			return
		}
		// A slow answer: the call is made, and the delay added.
		l.clock.advance(e.delay)
		hit.DetectionMS = ms(e.delay)
		l.trace.Faults = append(l.trace.Faults, hit)
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := l.tools.Call(cctx, call.Server, call.Name, call.Args)
	if err != nil {
		res.IsError, res.Error = true, err.Error()
		return
	}
	res.Result, res.IsError = WithIsError(out.Result), out.IsError
	if len(res.Result) == 0 {
		res.Result = json.RawMessage("null")
	}
}

// finish sets the run-wide figures.
func (l *loop) finish() {
	conv := &l.trace.Conversation
	if conv.StopReason == "" {
		conv.StopReason = StopCompleted
	}
	conv.DurationMS = ms(l.clock.elapsed())
	conv.MessageCount = len(conv.Messages)
	if l.spec.Recovery != nil {
		l.trace.Recovery = recoveryStats(l.trace, l.spec.Recovery, conv.DurationMS)
	}
}
