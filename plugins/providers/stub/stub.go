package main

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcptest/mcptest/sdk"
)

// stub is the provider. readFile reads the script file (a seam for tests).
type stub struct {
	readFile func(string) ([]byte, error)
}

// replyRunes bounds the echoed text of a default answer.
const replyRunes = 200

// Complete answers req from its script or by the default rule.
func (s *stub) Complete(_ context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	sc, err := s.loadScript(req)
	if err != nil {
		return sdk.ChatResponse{}, err
	}
	if sc != nil {
		return sc.answer(req, countRole(req.Messages, "assistant"))
	}
	return defaultAnswer(req)
}

// defaultAnswer is the unscripted rule of the package doc.
func defaultAnswer(req sdk.ChatRequest) (sdk.ChatResponse, error) {
	tail := req.Messages[lastUser(req.Messages)+1:]
	msg := sdk.Message{Role: "assistant"}
	stop := sdk.StopEndTurn
	if len(req.Tools) > 0 && !calledTool(tail) {
		t := req.Tools[0]
		args, err := argumentsFor(t.InputSchema)
		if err != nil {
			return sdk.ChatResponse{}, fmt.Errorf("stub: arguments for tool %q: %w", t.Name, err)
		}
		n := 0
		for _, m := range req.Messages {
			n += len(m.ToolCalls)
		}
		msg.ToolCalls = []sdk.ToolCall{{ID: fmt.Sprintf("stub-call-%d", n+1), Name: t.Name, Arguments: args}}
		stop = sdk.StopToolUse
	} else {
		msg.Content = "stub: " + clip(replyText(req.Messages, tail), replyRunes)
		if req.MaxTokens > 0 && tokens(msg.Content) > int64(req.MaxTokens) {
			msg.Content = cutBytes(msg.Content, req.MaxTokens*bytesPerToken)
			stop = sdk.StopMaxTokens
		}
	}
	return sdk.ChatResponse{Message: msg, StopReason: stop, Usage: estimateUsage(req, msg), Model: req.Model}, nil
}

// replyText is what a text answer reports: the last tool result of the
// current turn, else the last user message.
func replyText(all, tail []sdk.Message) string {
	for i := len(tail) - 1; i >= 0; i-- {
		m := tail[i]
		if m.Role != "tool" {
			continue
		}
		name := m.ToolName
		if name == "" {
			name = toolNameOf(tail, m.ToolCallID)
		}
		verb := "returned"
		if m.IsError {
			verb = "failed"
		}
		return fmt.Sprintf("%s %s: %s", name, verb, messageText(m))
	}
	if i := lastUser(all); i >= 0 {
		return messageText(all[i])
	}
	return ""
}

// toolNameOf finds the name of the call id among the assistant messages.
func toolNameOf(msgs []sdk.Message, id string) string {
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			if tc.ID == id {
				return tc.Name
			}
		}
	}
	return "tool"
}

// messageText is a message's text: its content, or its parts joined
// (structured values as compact JSON, images as a placeholder).
func messageText(m sdk.Message) string {
	if len(m.Parts) == 0 {
		return m.Content
	}
	var b strings.Builder
	for i, p := range m.Parts {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch p.Type {
		case sdk.PartText:
			b.WriteString(p.Text)
		case sdk.PartJSON:
			b.Write(p.JSON)
		case sdk.PartImage:
			b.WriteString("[image " + p.MIMEType + "]")
		}
	}
	return b.String()
}

func lastUser(msgs []sdk.Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return i
		}
	}
	return -1
}

func calledTool(msgs []sdk.Message) bool {
	for _, m := range msgs {
		if m.Role == "assistant" && len(m.ToolCalls) > 0 {
			return true
		}
	}
	return false
}

func countRole(msgs []sdk.Message, role string) int {
	n := 0
	for _, m := range msgs {
		if m.Role == role {
			n++
		}
	}
	return n
}

// bytesPerToken is the estimate's ratio.
const bytesPerToken = 4

// tokens estimates the tokens of s: one per four bytes, rounded up.
func tokens(s string) int64 { return int64((len(s) + bytesPerToken - 1) / bytesPerToken) }

// estimateUsage counts what was sent and what is answered.
func estimateUsage(req sdk.ChatRequest, out sdk.Message) sdk.Usage {
	in := tokens(req.System)
	for _, m := range req.Messages {
		in += tokens(messageText(m))
		for _, tc := range m.ToolCalls {
			in += tokens(tc.Name) + tokens(string(tc.Arguments))
		}
	}
	for _, t := range req.Tools {
		in += tokens(t.Name) + tokens(t.Description) + tokens(string(t.InputSchema))
	}
	o := tokens(out.Content)
	for _, tc := range out.ToolCalls {
		o += tokens(tc.Name) + tokens(string(tc.Arguments))
	}
	return sdk.Usage{InputTokens: in, OutputTokens: o, TotalTokens: in + o}
}

// clip cuts s to n runes, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// cutBytes cuts s to at most n bytes on a rune boundary.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// embedDims is the length of the stub's vectors.
const embedDims = 64

// Embed returns one unit vector per input: each lower-cased word adds to
// the dimension its hash picks, so texts with words in common are close.
func (s *stub) Embed(_ context.Context, req sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	out := sdk.EmbedResponse{Vectors: make([][]float32, len(req.Inputs))}
	for i, in := range req.Inputs {
		v := make([]float64, embedDims)
		for _, w := range strings.FieldsFunc(strings.ToLower(in), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			h := sha256.Sum256([]byte(w))
			v[binary.BigEndian.Uint32(h[:4])%embedDims]++
		}
		var norm float64
		for _, x := range v {
			norm += x * x
		}
		vec := make([]float32, embedDims)
		if norm > 0 {
			norm = math.Sqrt(norm)
			for j, x := range v {
				vec[j] = float32(x / norm)
			}
		}
		out.Vectors[i] = vec
		out.Usage.InputTokens += tokens(in)
	}
	out.Usage.TotalTokens = out.Usage.InputTokens
	return out, nil
}
