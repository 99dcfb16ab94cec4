package tokens

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The counting modes of max_response_tokens.
const (
	// ModeText counts what a model reads of the response: the text of its
	// content blocks (tool results' content, resources' contents, prompts'
	// messages), the text of embedded resources, and image_cost per image
	// or audio block. A result without content blocks counts as its JSON.
	ModeText = "text"
	// ModeJSON counts the compact JSON of the whole result, as it crossed
	// the wire.
	ModeJSON = "json"
)

// DefaultImageCost is charged per image or audio block in text mode when
// the budget sets no image_cost: the base cost of one image in common
// vision models. Set image_cost for the model the server's output feeds.
const DefaultImageCost = 85

// CheckMode reports whether mode is a counting mode ("" is ModeText).
func CheckMode(mode string) error {
	switch mode {
	case "", ModeText, ModeJSON:
		return nil
	}
	return fmt.Errorf("unknown mode %q; the modes are %s and %s", mode, ModeText, ModeJSON)
}

// Measured is the outcome of counting one response.
type Measured struct {
	// Tokens is the total: the text's tokens plus the images' cost.
	Tokens int
	// Images is the number of image and audio blocks charged.
	Images int
}

// Measure counts the tokens of a result (the JSON-RPC result object) in the
// given mode, charging imageCost per image in text mode.
func Measure(c Counter, result json.RawMessage, mode string, imageCost int) (Measured, error) {
	if err := CheckMode(mode); err != nil {
		return Measured{}, err
	}
	if mode == ModeJSON {
		return Measured{Tokens: c.Count(compact(result))}, nil
	}
	var r struct {
		Content  []json.RawMessage `json:"content"`
		Contents []json.RawMessage `json:"contents"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if len(bytes.TrimSpace(result)) == 0 || json.Unmarshal(result, &r) != nil {
		return Measured{Tokens: c.Count(compact(result))}, nil
	}
	blocks := append(r.Content, r.Contents...)
	for _, m := range r.Messages {
		blocks = append(blocks, m.Content)
	}
	if blocks == nil {
		return Measured{Tokens: c.Count(compact(result))}, nil
	}
	var text strings.Builder
	var m Measured
	for _, raw := range blocks {
		if img := readBlock(raw, &text); img {
			m.Images++
		}
	}
	m.Tokens = c.Count(text.String()) + m.Images*imageCost
	return m, nil
}

// readBlock appends a content block's text to b and reports whether the
// block is an image or audio. Blocks are separated by a newline, as a
// client joining them for a model would.
func readBlock(raw json.RawMessage, b *strings.Builder) bool {
	var blk struct {
		Type     string  `json:"type"`
		Text     *string `json:"text"`
		Blob     *string `json:"blob"`
		Resource *struct {
			Text *string `json:"text"`
		} `json:"resource"`
	}
	if json.Unmarshal(raw, &blk) != nil {
		add(b, compact(raw))
		return false
	}
	switch {
	case blk.Type == "image" || blk.Type == "audio":
		return true
	case blk.Text != nil:
		add(b, *blk.Text)
	case blk.Resource != nil && blk.Resource.Text != nil:
		add(b, *blk.Resource.Text)
	case blk.Blob != nil, blk.Resource != nil: // binary contents, not read as text
	default:
		add(b, compact(raw))
	}
	return false
}

func add(b *strings.Builder, s string) {
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	b.WriteString(s)
}

// compact is raw without insignificant whitespace; raw itself when it is
// not JSON.
func compact(raw json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}
