package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Texts the misbehaviours print.
const (
	// bannerText is what -banner prints on stdout: not JSON-RPC.
	bannerText = "chaos server starting up...\n\x1b[1mREADY\x1b[0m (this banner is not JSON)\n"
	// ansiStderrText is what -ansi-stderr writes: colours, a title change,
	// a screen clear and a bell.
	ansiStderrText = "\x1b[31mchaos: red alert\x1b[0m\x1b]0;pwned\x07\x1b[2J\n"
	// ansiText is the ansi tool's answer.
	ansiText = "\x1b[31mred alert\x1b[0m\x1b]0;pwned\x07\x1b[2J"
	// garbageLine is what the garbage tool prints, lines times.
	garbageLine = "garbage: this line is not JSON {\x1b[7m"
)

// Defaults of the tools' arguments.
const (
	defaultCrashCode = 3
	defaultBigBytes  = 50 << 20
	defaultDepth     = 100_000
	defaultLines     = 3
)

// toolList is the answer to tools/list.
func toolList() []map[string]any {
	obj := func(props string) map[string]any {
		var p map[string]any
		_ = json.Unmarshal([]byte(props), &p)
		return map[string]any{"type": "object", "properties": p}
	}
	tool := func(name, desc, props string) map[string]any {
		return map[string]any{"name": name, "description": desc, "inputSchema": obj(props)}
	}
	return []map[string]any{
		tool("echo", "Returns message unchanged.", `{"message":{"type":"string"}}`),
		tool("crash", "Writes message (default: a notice) to stderr and exits with status code (default 3) without answering.",
			`{"code":{"type":"integer"},"message":{"type":"string"}}`),
		tool("hang", "Never answers.", `{}`),
		tool("garbage", "Prints lines (default 3) non-JSON lines on stdout, then answers \"answered\" if answer is true, else never.",
			`{"lines":{"type":"integer"},"answer":{"type":"boolean"}}`),
		tool("wrong_id", "Answers with id instead of the request's (default: the request's id as a string).",
			`{"id":{}}`),
		tool("duplicate", "Answers twice with the same id: first, then second.",
			`{"first":{"type":"string"},"second":{"type":"string"}}`),
		tool("big", "Answers with one text block of bytes bytes (default 50 MiB): BEGIN, x..., END.",
			`{"bytes":{"type":"integer"}}`),
		tool("deep", "Answers with structuredContent.nested holding depth (default 100,000) nested arrays.",
			`{"depth":{"type":"integer"}}`),
		tool("ansi", "Answers with ANSI escapes in its text and writes some to stderr.", `{}`),
	}
}

// callArgs are the arguments any tool may take.
type callArgs struct {
	Message string          `json:"message"`
	Code    *int            `json:"code"`
	Lines   *int            `json:"lines"`
	Answer  bool            `json:"answer"`
	ID      json.RawMessage `json:"id"`
	First   string          `json:"first"`
	Second  string          `json:"second"`
	Bytes   *int            `json:"bytes"`
	Depth   *int            `json:"depth"`
}

// callTool runs one tools/call.
func (s *server) callTool(m *message) {
	var p struct {
		Name      string   `json:"name"`
		Arguments callArgs `json:"arguments"`
	}
	if err := json.Unmarshal(m.Params, &p); err != nil {
		s.rpcError(m.ID, -32602, "invalid params: "+err.Error())
		return
	}
	a := p.Arguments
	switch p.Name {
	case "echo":
		s.result(m.ID, textResult(a.Message))
	case "crash":
		msg := cmp.Or(a.Message, "chaos: crash requested mid-call")
		code := intOr(a.Code, defaultCrashCode)
		fmt.Fprintf(s.errw, "%s (exit status %d)\n", msg, code)
		s.exit(code)
	case "hang":
		// Never answer; the client must give up on its own.
	case "garbage":
		s.writeRaw([]byte(strings.Repeat(garbageLine+"\n", intOr(a.Lines, defaultLines))))
		if a.Answer {
			s.result(m.ID, textResult("answered"))
		}
	case "wrong_id":
		id := a.ID
		if len(id) == 0 {
			id = json.RawMessage(strconv.Quote(string(m.ID)))
		}
		s.result(id, textResult("answered with the wrong id"))
	case "duplicate":
		s.result(m.ID, textResult(a.First))
		s.result(m.ID, textResult(a.Second))
	case "big":
		s.big(m.ID, intOr(a.Bytes, defaultBigBytes))
	case "deep":
		s.deep(m.ID, intOr(a.Depth, defaultDepth))
	case "ansi":
		fmt.Fprint(s.errw, ansiStderrText)
		s.result(m.ID, textResult(ansiText))
	default:
		s.rpcError(m.ID, -32602, "unknown tool: "+p.Name)
	}
}

// textResult is a tool result with one text block.
func textResult(text string) map[string]any {
	return map[string]any{"content": []map[string]any{{"type": "text", "text": text}}}
}

// intOr returns *p, or def when p is nil.
func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
