// Package guardtest builds the schemas that exercise schemaguard's guards,
// for the tests of schemaguard and of the plugins that use it.
package guardtest

import (
	"fmt"
	"strings"
)

// Nested returns a schema nested depth levels deep: depth-1 "items"
// objects around an empty one.
func Nested(depth int) string {
	return strings.Repeat(`{"items":`, depth-1) + `{}` + strings.Repeat(`}`, depth-1)
}

// Explosion returns a schema whose evaluation doubles with every level:
// each definition is an anyOf of two references to the next, and
// unevaluatedProperties makes the validator try every branch even after one
// matched (it must learn which properties each branch evaluated). Against
// an object with a property it needs 2^levels steps; no branch fails, so
// no error tree builds up in memory while it runs.
func Explosion(levels int) string {
	var defs []string
	for i := 0; i < levels; i++ {
		defs = append(defs, fmt.Sprintf(`"d%d":{"anyOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]}`, i, i+1, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"d%d":{"type":"object"}`, levels))
	return `{"$defs":{` + strings.Join(defs, ",") + `},"$ref":"#/$defs/d0","unevaluatedProperties":true}`
}
