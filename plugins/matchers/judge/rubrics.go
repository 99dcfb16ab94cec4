package main

import "strings"

// namedRubric is the fixed rubric of a named matcher (factuality,
// answer-relevance, context-faithfulness): the one field it takes and the
// wording that embeds it. The wording is ours and fixed, so every suite
// asks the judge the same question and a score means the same thing
// across suites.
type namedRubric struct {
	field string
	text  string
}

// render embeds the field's text in the rubric, between markers the judge
// is told to read as data.
func (r namedRubric) render(field string) string {
	return strings.Replace(r.text, "{{field}}", "<<<\n"+field+"\n>>>", 1)
}

// namedRubrics are the named matchers' rubrics, by key.
var namedRubrics = map[string]namedRubric{
	keyFactuality: {field: "reference", text: `Grade factual consistency with a trusted reference.

Reference (taken as true):
{{field}}

Score 1 when every factual statement in the response agrees with the reference, or is absent from it without contradicting it.
Score 0 when the response contradicts the reference on any point that matters.
Between those, lower the score for each statement that conflicts with the reference or distorts it (wrong numbers, names, dates, negations).
Style, length and wording do not matter; only whether the facts agree.`},
	keyRelevance: {field: "query", text: `Grade how directly the response answers a question.

Question:
{{field}}

Score 1 when the response answers exactly this question, directly and completely.
Score 0 when it answers a different question, refuses without cause, or says nothing that addresses it.
Between those, lower the score for a partial answer, an answer buried in unrelated material, or padding that does not help answer it.
Do not judge whether the answer is true; judge only whether it addresses the question.`},
	keyFaithfulness: {field: "context", text: `Grade whether the response is grounded in the given context.

Context (the only source the response may rely on):
{{field}}

Score 1 when every claim in the response is supported by the context.
Score 0 when the response's main claims are not in the context or contradict it.
Between those, lower the score for each claim the context does not support, even if it is true in the world: an unsupported claim is a hallucination here.
Saying that the context does not contain something is grounded.`},
}
