package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// renamedMatchers are matcher keys of an early draft, with their v1 names.
var renamedMatchers = map[string]string{
	"equals":   `it is "exact" in v1`,
	"length":   `assert on the "length" target path (result.content.length) with exact`,
	"jsonpath": "write the path as the assertion's target",
}

// nonDeterministic are the matcher keys that cannot sit under not, anyOf,
// allOf or oneOf: they keep state or call a model, so negating them or
// dropping a branch would change a verdict silently.
var nonDeterministic = map[string]bool{
	"snapshot": true, "llm-judge": true, "llm-jury": true, "similar": true,
	"factuality": true, "answer-relevance": true, "context-faithfulness": true,
}

// matcher reads a matcher: an object with exactly one key. Composition
// keys are read structurally; the arguments of the keys the v1 format
// documents are checked here; any other key is left for the plugins.
func (l *loader) matcher(n *yaml.Node, ptr string) Matcher {
	return l.matcherIn(n, ptr, "")
}

// matcherIn reads a matcher; parent is the composition key it sits under,
// or "".
func (l *loader) matcherIn(n *yaml.Node, ptr, parent string) Matcher {
	if !l.Enter(n, ptr) {
		return Matcher{}
	}
	defer l.Leave(n)
	const example = `for example: matcher: {contains: "hello"}`
	d := yamlpos.Deref(n)
	if d.Kind != yaml.MappingNode {
		l.C.Add(n, ptr, "expected a matcher (an object with exactly one key), found "+yamlpos.Describe(d), example)
		return Matcher{}
	}
	if len(d.Content) == 0 {
		l.C.Add(n, ptr, "a matcher needs exactly one key, found none", example)
		return Matcher{}
	}
	es := l.Entries(d, ptr)
	switch {
	case len(es) == 0: // its only keys were invalid; already reported
		return Matcher{}
	case len(es) > 1:
		names := make([]string, len(es))
		for i, e := range es {
			names[i] = e.Key
		}
		l.C.Add(n, ptr, fmt.Sprintf("a matcher has exactly one key, found %d: %s", len(es), yamlpos.AndList(names)),
			"write one assertion per matcher, or combine them with allOf")
		return Matcher{}
	}
	e := es[0]
	kp := yamlpos.Child(ptr, e.Key)
	if e.Key == "" {
		l.C.Add(e.KeyNode, ptr, "a matcher key must not be empty", example)
		return Matcher{}
	}
	if hint, ok := renamedMatchers[e.Key]; ok {
		l.C.Add(e.KeyNode, kp, fmt.Sprintf("%q is not a v1 matcher", e.Key), hint)
		return Matcher{}
	}
	if parent != "" && nonDeterministic[e.Key] {
		l.C.Add(e.KeyNode, kp, fmt.Sprintf("%s cannot wrap %s", parent, e.Key),
			"only deterministic matchers compose; give it its own assertion")
		return Matcher{}
	}
	m := Matcher{Key: e.Key, Pos: l.pos(e.KeyNode, ptr)}
	if compositionKeys[e.Key] {
		m.Children = l.compositionArg(e.Key, e.Value, kp)
		if m.Children == nil {
			return Matcher{}
		}
	} else if e.Key == "regex" {
		// Located at the key, like the argument errors plugins report.
		if _, ok := l.regexAt(e.KeyNode, e.Value, kp); !ok {
			return Matcher{}
		}
	} else if check := matcherArgs[e.Key]; check != nil {
		if !check(l, e.Value, kp) {
			return Matcher{}
		}
	}
	m.Arg = l.ToJSON(e.Value, kp)
	return m
}

// compositionArg reads the inner matchers of not (one) or anyOf, allOf and
// oneOf (a non-empty array).
func (l *loader) compositionArg(key string, n *yaml.Node, ptr string) []*Matcher {
	if key == "not" {
		inner := l.matcherIn(n, ptr, key)
		if inner.Key == "" {
			return nil
		}
		return []*Matcher{&inner}
	}
	d := yamlpos.Deref(n)
	if d.Kind != yaml.SequenceNode {
		l.C.Add(n, ptr, fmt.Sprintf("expected %s (an array of matchers), found %s", key, yamlpos.Describe(d)),
			fmt.Sprintf("for example: %s: [{contains: a}, {contains: b}]", key))
		return nil
	}
	if len(d.Content) == 0 {
		l.C.Add(n, ptr, fmt.Sprintf("%s needs at least one matcher, found an empty array", key), "")
		return nil
	}
	out := make([]*Matcher, 0, len(d.Content))
	for i, item := range d.Content {
		inner := l.matcherIn(item, yamlpos.Index(ptr, i), key)
		if inner.Key == "" {
			return nil
		}
		out = append(out, &inner)
	}
	return out
}

// argCheck validates the argument of one matcher key, reporting problems.
type argCheck func(l *loader, n *yaml.Node, ptr string) bool

// matcherArgs holds the argument checks of the matcher keys the v1 format
// documents. exact and contains take any value.
var matcherArgs map[string]argCheck

func init() {
	str := func(what string) argCheck {
		return func(l *loader, n *yaml.Node, ptr string) bool { _, ok := l.Str(n, ptr, what); return ok }
	}
	nonEmpty := func(what string) argCheck {
		return func(l *loader, n *yaml.Node, ptr string) bool { _, ok := l.NonEmptyStr(n, ptr, what); return ok }
	}
	array := func(what string) argCheck {
		return func(l *loader, n *yaml.Node, ptr string) bool { _, ok := l.seq(n, ptr, what); return ok }
	}
	matcherArgs = map[string]argCheck{

		"icontains":    str("the icontains argument (a string)"),
		"starts-with":  str("the starts-with argument (a prefix)"),
		"cel":          nonEmpty("the cel argument (an expression)"),
		"contains-all": array("the contains-all argument"),
		"contains-any": array("the contains-any argument"),
		"schema": func(l *loader, n *yaml.Node, ptr string) bool {
			return l.jsonSchemaArg(n, ptr) != nil
		},
		"snapshot": func(l *loader, n *yaml.Node, ptr string) bool {
			if yamlpos.Deref(n).Kind != yaml.MappingNode {
				_, ok := l.NonEmptyStr(n, ptr, "the snapshot name")
				return ok
			}
			return l.argObject(n, ptr, snapshotArgKeys)
		},
		"llm-judge":            objectArg(llmJudgeArgKeys),
		"llm-jury":             objectArg(llmJuryArgKeys),
		"similar":              objectArg(similarArgKeys),
		"factuality":           objectArg(factualityArgKeys),
		"answer-relevance":     objectArg(relevanceArgKeys),
		"context-faithfulness": objectArg(faithfulnessArgKeys),
		"levenshtein":          objectArg(levenshteinArgKeys),
		"is-json":              nullOrObject(schemaOptionKeys),
		"is-valid-tools-call":  nullOrObject(schemaOptionKeys),
		"is-xml":               nullOrObject(xmlArgKeys),
		"is-sql": func(l *loader, n *yaml.Node, ptr string) bool {
			if !isFlag(n) {
				l.C.Add(n, ptr, "is-sql takes no options, found "+yamlpos.Describe(n), "write is-sql: ~")
				return false
			}
			return true
		},
	}
}

// Argument objects of the documented matchers.
var (
	snapshotArgKeys     = yamlpos.NewObjectSpec("a snapshot argument", yamlpos.RequiredKey("name"), yamlpos.Key("update"))
	llmJudgeArgKeys     = yamlpos.NewObjectSpec("an llm-judge argument", yamlpos.RequiredKey("rubric"), yamlpos.Key("threshold"), yamlpos.Key("model"))
	llmJuryArgKeys      = yamlpos.NewObjectSpec("an llm-jury argument", yamlpos.RequiredKey("rubric"), yamlpos.RequiredKey("jurors"), yamlpos.Key("threshold"), yamlpos.Key("quorum"))
	jurorKeys           = yamlpos.NewObjectSpec("a juror", yamlpos.RequiredKey("model"), yamlpos.Key("threshold"))
	similarArgKeys      = yamlpos.NewObjectSpec("a similar argument", yamlpos.RequiredKey("value"), yamlpos.Key("threshold"), yamlpos.Key("model"))
	levenshteinArgKeys  = yamlpos.NewObjectSpec("a levenshtein argument", yamlpos.RequiredKey("value"), yamlpos.RequiredKey("max"))
	factualityArgKeys   = yamlpos.NewObjectSpec("a factuality argument", yamlpos.RequiredKey("reference"), yamlpos.Key("threshold"), yamlpos.Key("model"))
	relevanceArgKeys    = yamlpos.NewObjectSpec("an answer-relevance argument", yamlpos.RequiredKey("query"), yamlpos.Key("threshold"), yamlpos.Key("model"))
	faithfulnessArgKeys = yamlpos.NewObjectSpec("a context-faithfulness argument", yamlpos.RequiredKey("context"), yamlpos.Key("threshold"), yamlpos.Key("model"))
	schemaOptionKeys    = yamlpos.NewObjectSpec("the options", yamlpos.Key("schema"))
	xmlArgKeys          = yamlpos.NewObjectSpec("an is-xml argument", yamlpos.Key("root"))
)

// objectArg checks an argument object against spec.
func objectArg(spec *yamlpos.ObjectSpec) argCheck {
	return func(l *loader, n *yaml.Node, ptr string) bool { return l.argObject(n, ptr, spec) }
}

// nullOrObject accepts ~ or true (no options) or an options object.
func nullOrObject(spec *yamlpos.ObjectSpec) argCheck {
	return func(l *loader, n *yaml.Node, ptr string) bool {
		if isFlag(n) {
			return true
		}
		return l.argObject(n, ptr, spec)
	}
}

// isFlag reports whether n is ~ or true, the argument of a matcher used
// without options.
func isFlag(n *yaml.Node) bool {
	d := yamlpos.Deref(n)
	return yamlpos.IsNull(d) || d.Kind == yaml.ScalarNode && d.ShortTag() == yamlpos.TagBool && strings.EqualFold(d.Value, "true")
}

// argObject checks the fields of a matcher argument object by name: the
// same field name has the same type in every documented matcher.
func (l *loader) argObject(n *yaml.Node, ptr string, spec *yamlpos.ObjectSpec) bool {
	f, ok := l.Object(n, ptr, spec)
	if !ok {
		return false
	}
	good := true
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		ok := true
		switch e.Key {
		case "threshold", "quorum":
			_, ok = l.Fraction(e.Value, ep, e.Key)
		case "max":
			_, ok = l.IntRange(e.Value, ep, "max", 0, 1<<31-1)
		case "update":
			_, ok = l.Boolean(e.Value, ep, "update")
		case "value":
			_, ok = l.Str(e.Value, ep, "value (the reference text)")
		case "schema":
			ok = l.jsonSchemaArg(e.Value, ep) != nil
		case "jurors":
			ok = l.jurors(e.Value, ep)
		default: // rubric, model, name, reference, query, context, root
			_, ok = l.NonEmptyStr(e.Value, ep, e.Key)
		}
		good = good && ok
	}
	return good
}

// jurors checks the jurors of an llm-jury.
func (l *loader) jurors(n *yaml.Node, ptr string) bool {
	items, ok := l.nonEmptySeq(n, ptr, "jurors")
	if !ok {
		return false
	}
	good := true
	for i, item := range items {
		good = l.argObject(item, yamlpos.Index(ptr, i), jurorKeys) && good
	}
	return good
}

// regex reads a regular expression and checks that it compiles (Go RE2
// syntax, the one the matcher plugins use).
func (l *loader) regex(n *yaml.Node, ptr string) (string, bool) { return l.regexAt(n, n, ptr) }

// regexAt is regex with compile errors reported at node at.
func (l *loader) regexAt(at, n *yaml.Node, ptr string) (string, bool) {
	s, ok := l.Str(n, ptr, "a regular expression")
	if !ok {
		return "", false
	}
	if _, err := regexp.Compile(s); err != nil {
		msg := err.Error()
		var se *syntax.Error
		if errors.As(err, &se) {
			msg = fmt.Sprintf("%s: %s", se.Code, strconv.Quote(se.Expr))
		}
		l.C.Add(at, ptr, "invalid regular expression: "+msg, regexHint(s))
		return "", false
	}
	return s, true
}

// regexHint suggests fixes for common mistakes in patterns.
func regexHint(s string) string {
	switch {
	case strings.Contains(s, "(?<") || strings.Contains(s, "(?="), strings.Contains(s, "(?!"):
		return "lookarounds are not supported (RE2 syntax)"
	case strings.Contains(s, `\d`) || strings.Contains(s, `\w`):
		return "the syntax is RE2; in YAML double quotes, write backslashes twice"
	}
	return "the syntax is RE2 (https://github.com/google/re2/wiki/Syntax)"
}

// jsonSchemaArg reads an inline JSON Schema: an object or a boolean.
func (l *loader) jsonSchemaArg(n *yaml.Node, ptr string) json.RawMessage {
	d := yamlpos.Deref(n)
	if d.Kind == yaml.MappingNode || d.Kind == yaml.ScalarNode && d.ShortTag() == yamlpos.TagBool {
		return l.ToJSON(n, ptr)
	}
	l.C.Add(n, ptr, "expected a JSON Schema (an object), found "+yamlpos.Describe(d), "for example: {type: array, minItems: 1}")
	return nil
}
