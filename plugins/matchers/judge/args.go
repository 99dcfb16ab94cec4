package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/mcptest/mcptest/sdk"
)

// Defaults of the suite reference.
const (
	// defaultThreshold is the judge score an llm-judge (and each juror of
	// an llm-jury, and the named matchers) needs by default.
	defaultThreshold = 0.7
	// defaultQuorum is the share of eligible jurors that must pass.
	defaultQuorum = 0.5
	// defaultSimilarity is the cosine similarity similar needs by default.
	defaultSimilarity = 0.8
	// defaultEmbedModel embeds for similar when the suite names no model.
	defaultEmbedModel = "text-embedding-3-small"
)

// The keys this plugin serves.
const (
	keyJudge        = "llm-judge"
	keyJury         = "llm-jury"
	keySimilar      = "similar"
	keyFactuality   = "factuality"
	keyRelevance    = "answer-relevance"
	keyFaithfulness = "context-faithfulness"
)

// judgeArg is the argument of llm-judge, and what the named matchers
// desugar to: a rubric, the score needed and an optional model.
type judgeArg struct {
	Rubric    string   `json:"rubric"`
	Threshold *float64 `json:"threshold"`
	Model     string   `json:"model"`
}

// juror is one juror of an llm-jury.
type juror struct {
	Model     string   `json:"model"`
	Threshold *float64 `json:"threshold"`
}

// juryArg is the argument of llm-jury.
type juryArg struct {
	Rubric    string   `json:"rubric"`
	Jurors    []juror  `json:"jurors"`
	Threshold *float64 `json:"threshold"`
	Quorum    *float64 `json:"quorum"`
}

// similarArg is the argument of similar.
type similarArg struct {
	Value     *string  `json:"value"`
	Threshold *float64 `json:"threshold"`
	Model     string   `json:"model"`
}

// namedArg is the argument of factuality, answer-relevance and
// context-faithfulness: the one field their rubric embeds, a threshold
// and a model.
type namedArg struct {
	Reference *string  `json:"reference"`
	Query     *string  `json:"query"`
	Context   *string  `json:"context"`
	Threshold *float64 `json:"threshold"`
	Model     string   `json:"model"`
}

// decodeStrict decodes an argument object, refusing unknown fields (a
// misspelt "treshold" would otherwise be a silent default).
func decodeStrict(key string, raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return sdk.InvalidArgument("%s: the argument must be an object", key)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return sdk.InvalidArgument("%s: %v", key, err)
	}
	return nil
}

// fraction checks an optional number in [0, 1] and returns it, or def.
func fraction(key, field string, v *float64, def float64) (float64, error) {
	if v == nil {
		return def, nil
	}
	if math.IsNaN(*v) || *v < 0 || *v > 1 {
		return 0, sdk.InvalidArgument("%s: %s must be a number from 0 to 1, not %v", key, field, *v)
	}
	return *v, nil
}

// errEmpty is wrapped by the refusals of a required text that is empty.
var errEmpty = errors.New("must not be empty")

// required checks a required text field.
func required(key, field string, v *string) (string, error) {
	if v == nil {
		return "", sdk.InvalidArgument("%s: %q is required", key, field)
	}
	if strings.TrimSpace(*v) == "" {
		return "", sdk.InvalidArgument("%s: %q %w", key, field, errEmpty)
	}
	return *v, nil
}

// parseJudge reads and checks an llm-judge argument.
func parseJudge(raw json.RawMessage) (judgeArg, float64, error) {
	var a judgeArg
	if err := decodeStrict(keyJudge, raw, &a); err != nil {
		return a, 0, err
	}
	if _, err := required(keyJudge, "rubric", &a.Rubric); err != nil {
		return a, 0, err
	}
	th, err := fraction(keyJudge, "threshold", a.Threshold, defaultThreshold)
	return a, th, err
}

// parseJury reads and checks an llm-jury argument.
func parseJury(raw json.RawMessage) (juryArg, error) {
	var a juryArg
	if err := decodeStrict(keyJury, raw, &a); err != nil {
		return a, err
	}
	if _, err := required(keyJury, "rubric", &a.Rubric); err != nil {
		return a, err
	}
	if len(a.Jurors) == 0 {
		return a, sdk.InvalidArgument("%s: jurors must list at least one juror ({model: ...})", keyJury)
	}
	for i, j := range a.Jurors {
		if strings.TrimSpace(j.Model) == "" {
			return a, sdk.InvalidArgument("%s: juror %d has no model", keyJury, i)
		}
		if _, err := fraction(keyJury, fmt.Sprintf("jurors[%d].threshold", i), j.Threshold, 0); err != nil {
			return a, err
		}
	}
	if _, err := fraction(keyJury, "threshold", a.Threshold, 0); err != nil {
		return a, err
	}
	_, err := fraction(keyJury, "quorum", a.Quorum, 0)
	return a, err
}

// parseSimilar reads and checks a similar argument.
func parseSimilar(raw json.RawMessage) (string, float64, string, error) {
	var a similarArg
	if err := decodeStrict(keySimilar, raw, &a); err != nil {
		return "", 0, "", err
	}
	ref, err := required(keySimilar, "value", a.Value)
	if err != nil {
		return "", 0, "", err
	}
	th, err := fraction(keySimilar, "threshold", a.Threshold, defaultSimilarity)
	if err != nil {
		return "", 0, "", err
	}
	model := a.Model
	if model == "" {
		model = defaultEmbedModel
	}
	return ref, th, model, nil
}

// parseNamed reads the argument of a named matcher and desugars it to an
// llm-judge argument with the matcher's fixed rubric.
func parseNamed(key string, raw json.RawMessage) (judgeArg, float64, error) {
	var a namedArg
	if err := decodeStrict(key, raw, &a); err != nil {
		return judgeArg{}, 0, err
	}
	r := namedRubrics[key]
	var field *string
	switch key {
	case keyFactuality:
		field = a.Reference
	case keyRelevance:
		field = a.Query
	case keyFaithfulness:
		field = a.Context
	}
	for name, v := range map[string]*string{"reference": a.Reference, "query": a.Query, "context": a.Context} {
		if v != nil && name != r.field {
			return judgeArg{}, 0, sdk.InvalidArgument("%s: unknown field %q (it takes %q)", key, name, r.field)
		}
	}
	text, err := required(key, r.field, field)
	if err != nil {
		return judgeArg{}, 0, err
	}
	th, err := fraction(key, "threshold", a.Threshold, defaultThreshold)
	if err != nil {
		return judgeArg{}, 0, err
	}
	return judgeArg{Rubric: r.render(text), Threshold: &th, Model: a.Model}, th, nil
}
