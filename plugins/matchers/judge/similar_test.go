package main

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// similar passes at a cosine at or above the threshold, embedding the
// reference and the value in one call with the named model (or the
// default embedding model).
func TestSimilar(t *testing.T) {
	h := newFakeHost()
	c := conn(t, h)
	h.push("emb", answer{vectors: [][]float32{{1, 0}, {0.9, 0.1}}})
	r := match(t, c, keySimilar, "the order shipped", map[string]any{"value": "your order is on its way", "threshold": 0.9, "model": "emb"})
	if !r.Pass || r.Score == nil || *r.Score < 0.99 {
		t.Fatalf("close vectors: %+v", r)
	}
	if e := h.embeds[0]; e.Model != "emb" || len(e.Inputs) != 2 || e.Inputs[0] != "your order is on its way" || e.Inputs[1] != "the order shipped" {
		t.Fatalf("embed request = %+v", e)
	}
	h.push(defaultEmbedModel, answer{vectors: [][]float32{{1, 0}, {0, 1}}})
	r = match(t, c, keySimilar, "unrelated", map[string]any{"value": "ref"})
	if r.Pass || *r.Score != 0 || !strings.Contains(string(r.Failure), "below the threshold 0.8") {
		t.Fatalf("orthogonal vectors: %+v %s", r, r.Failure)
	}
	// A provider without embeddings errors the item with its message.
	h.push("claude-x", answer{err: fmt.Errorf("rpc error: code = Unimplemented desc = anthropic has no embeddings API")})
	r = match(t, c, keySimilar, "x", map[string]any{"value": "ref", "model": "claude-x"})
	if r.Pass || !strings.Contains(r.Error, "no embeddings API") {
		t.Fatalf("anthropic: %+v", r)
	}
	h.noKey["emb"] = "EMB_KEY"
	if r = match(t, c, keySimilar, "x", map[string]any{"value": "ref", "model": "emb"}); !strings.Contains(r.Deferred, "EMB_KEY") {
		t.Fatalf("no key: %+v", r)
	}
	delete(h.noKey, "emb")
	h.push("emb", answer{vectors: [][]float32{{1, 0}}})
	if r = match(t, c, keySimilar, "x", map[string]any{"value": "ref", "model": "emb"}); !strings.Contains(r.Error, "1 embeddings for 2 texts") {
		t.Fatalf("one vector: %+v", r)
	}
}

func TestCosine(t *testing.T) {
	if v, err := cosine([]float32{1, 2}, []float32{-1, -2}); err != nil || math.Abs(v+1) > 1e-9 {
		t.Errorf("opposite: %v %v", v, err)
	}
	for _, c := range [][2][]float32{{{0, 0}, {1, 0}}, {{1}, {1, 0}}, {nil, nil}, {{float32(math.Inf(1))}, {1}}} {
		if _, err := cosine(c[0], c[1]); err == nil {
			t.Errorf("%v: no error", c)
		}
	}
}
