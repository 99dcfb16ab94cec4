package agent

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/sdk"
)

// toolMessage is the message that gives the model a tool's answer: the
// text rendering in Content, and, when the result has images or
// structured content, its blocks in Parts, which providers pass in the
// vendor's native blocks. isError travels as the message's flag.
func toolMessage(tc sdk.ToolCall, res *ToolResult) sdk.Message {
	m := sdk.Message{Role: "tool", ToolCallID: tc.ID, ToolName: tc.Name, IsError: res.IsError,
		Content: resultText(res.Result, res.IsError, res.Error)}
	if res.Error == "" {
		m.Parts = resultParts(res.Result)
	}
	return m
}

// resultParts are the blocks of a result that has more than text (an
// image or structured content); nil when text says it all.
func resultParts(raw json.RawMessage) []sdk.Part {
	var res struct {
		Content []struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			Data     string `json:"data"`
			MimeType string `json:"mimeType"`
		} `json:"content"`
		Structured json.RawMessage `json:"structuredContent"`
	}
	if json.Unmarshal(raw, &res) != nil {
		return nil
	}
	rich := len(res.Structured) > 0 && string(res.Structured) != "null"
	var parts []sdk.Part
	for _, c := range res.Content {
		switch c.Type {
		case "text":
			parts = append(parts, sdk.Part{Type: sdk.PartText, Text: bounded(c.Text)})
		case "image":
			rich = true
			parts = append(parts, sdk.Part{Type: sdk.PartImage, MIMEType: c.MimeType, Data: c.Data})
		}
	}
	if !rich {
		return nil
	}
	if len(res.Structured) > 0 && string(res.Structured) != "null" {
		parts = append(parts, sdk.Part{Type: sdk.PartJSON, JSON: res.Structured})
	}
	return parts
}

// maxToolText bounds the text of one tool result sent back to the model;
// a huge result must not blow the model's context or the report.
const maxToolText = 64 << 10

// resultText renders a tools/call result for the model: the text of text
// blocks, a note for each image or audio block (with its type and size),
// embedded resources by their text or URI, links by URI, and
// structuredContent as JSON when the result has no text block that
// carries it. A result flagged isError is marked so, and so is a failure.
func resultText(raw json.RawMessage, isError bool, failure string) string {
	var b strings.Builder
	if failure != "" {
		b.WriteString("Error: ")
		b.WriteString(failure)
		return bounded(b.String())
	}
	if isError {
		b.WriteString("Error (the tool reported isError): ")
	}
	var res struct {
		Content []struct {
			Type     string          `json:"type"`
			Text     string          `json:"text"`
			Data     string          `json:"data"`
			MimeType string          `json:"mimeType"`
			URI      string          `json:"uri"`
			Name     string          `json:"name"`
			Resource json.RawMessage `json:"resource"`
		} `json:"content"`
		Structured json.RawMessage `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		b.Write(raw)
		return bounded(b.String())
	}
	parts := make([]string, 0, len(res.Content)+1)
	for _, c := range res.Content {
		switch c.Type {
		case "text":
			parts = append(parts, c.Text)
		case "image", "audio":
			parts = append(parts, fmt.Sprintf("[%s %s, %d bytes]", c.Type, c.MimeType, decodedLen(c.Data)))
		case "resource":
			var r struct {
				URI  string `json:"uri"`
				Text string `json:"text"`
			}
			_ = json.Unmarshal(c.Resource, &r)
			if r.Text != "" {
				parts = append(parts, r.Text)
			} else {
				parts = append(parts, "[resource "+r.URI+"]")
			}
		case "resource_link":
			parts = append(parts, "[resource link "+c.URI+"]")
		default:
			parts = append(parts, "["+c.Type+" content]")
		}
	}
	if len(res.Structured) > 0 && string(res.Structured) != "null" && !carried(parts, res.Structured) {
		parts = append(parts, string(res.Structured))
	}
	b.WriteString(strings.Join(parts, "\n"))
	return bounded(b.String())
}

// carried reports whether a text block already holds the structured
// content (servers are asked to send both; the model needs it once).
func carried(parts []string, structured json.RawMessage) bool {
	var want any
	if json.Unmarshal(structured, &want) != nil {
		return false
	}
	for _, p := range parts {
		var got any
		if json.Unmarshal([]byte(p), &got) == nil {
			a, _ := json.Marshal(got)
			b, _ := json.Marshal(want)
			if string(a) == string(b) {
				return true
			}
		}
	}
	return false
}

// decodedLen is the size of base64 data once decoded, without decoding it
// (the padding says how short the last group is).
func decodedLen(data string) int {
	n := base64.StdEncoding.DecodedLen(len(data))
	return n - (len(data) - len(strings.TrimRight(data, "=")))
}

func bounded(s string) string {
	if len(s) <= maxToolText {
		return s
	}
	cut := maxToolText
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n[... %d more bytes cut]", len(s)-cut)
}
