package judgereply

import (
	"errors"
	"fmt"
)

// Instruction is the paragraph a judge prompt ends with: the exact reply
// shape wanted. Every caller uses it, so the parser and the prompts never
// disagree about the fields.
func Instruction(opts Options) string {
	if opts.RequireEvidence {
		return `Reply with only one JSON object and nothing else, no prose and no code fence:
{"score": <number from 0 to 1>, "pass": <true or false>, "reason": "<one sentence>", "evidence": "<a span copied verbatim from the response that supports the score, or \"\" if there is none>"}`
	}
	return `Reply with only one JSON object and nothing else, no prose and no code fence:
{"score": <number from 0 to 1>, "pass": <true or false>, "reason": "<one sentence>"}`
}

// Repair is the one follow-up message sent after a refused reply: what
// was wrong and the shape wanted again.
func Repair(err error, opts Options) string {
	why := "it was not the requested JSON object"
	var e *Error
	if errors.As(err, &e) {
		why = e.Why
	}
	return fmt.Sprintf("Your previous reply could not be read: %s.\n%s", why, Instruction(opts))
}
