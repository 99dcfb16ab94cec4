// Package judgereply is the one parser of a judge model's reply. A judge
// is asked for exactly one JSON object,
//
//	{"score": 0.8, "pass": true, "reason": "one sentence", "evidence": "a span"}
//
// and anything else is refused rather than guessed at: prose around the
// object, a second object, a score outside 0..1 or written as a string, a
// missing field, an unknown field. The only leniency is a single Markdown
// code fence around the object (```json ... ```), which models add even
// when told not to and which carries no ambiguity.
//
// A refused reply gets one chance: the caller sends Repair's instruction
// (which says what was wrong) as a follow-up turn and parses the second
// reply the same way. What happens when that fails too is the caller's
// decision (a single judge errors its eval, a juror abstains); this
// package only says why the reply was refused and keeps a bounded excerpt
// of it for the error.
//
// EvidenceFound checks a cited span against the graded text: it must
// occur verbatim (byte for byte, after trimming surrounding white space),
// so a judge cannot back its verdict with a quote it made up.
package judgereply
