package vars

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// FixtureVar is the name ${fixture} refers to: the absolute path of a
// server's fixture copy. No variable may take it.
const FixtureVar = "fixture"

// Identifier returns the syntax of variable names, the names ${NAME} and
// $NAME can refer to (captures use it too). Like every package-level regexp
// of mcptest it is compiled on first use, not at start-up.
var Identifier = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// The interpolation syntax, in every string value of a suite except the
// variables and imports blocks (and never in keys):
//
//	${NAME}            the value of NAME; "" and a warning when NAME has none
//	${NAME:-default}   the value of NAME, or default when it has none or is empty
//	${NAME:?message}   the value of NAME; an error naming the field when it has none
//	$NAME              short form of ${NAME}; the name ends at the first
//	                   character that cannot be part of it
//	$$                 a literal $
//	${capture:NAME}    kept as written, for the runner (a value captured at run time)
//	${fixture}         kept as written, for the runner (the path of a server's
//	                   fixture copy; $fixture is the same)
//	${id.field}        kept as written, for the runner (a composition node's
//	                   output, a data row)
//
// A $ followed by anything else is a literal $, so regular expressions
// such as "^ok$" need no escaping.

// Expansion is the result of interpolating one string.
type Expansion struct {
	// Out is the string with every reference it could expand expanded.
	Out string
	// Unresolved lists the names referenced with ${NAME} or $NAME that have
	// no value.
	Unresolved []string
	// Missing lists the ${NAME:?} references with no value, with their
	// messages.
	Missing []Missing
	// Fixture is set when the string refers to ${fixture}, kept as
	// written for the runner (validate_fixture.go checks where).
	Fixture bool
}

// Missing is a ${NAME:?message} reference whose name has no value.
type Missing struct {
	// Name is the variable; Message is what follows :? (possibly "").
	Name, Message string
}

// errUnterminated and friends describe malformed references.
var (
	errUnterminated = errors.New(`"${" has no closing "}" (write $$ for a literal $)`)
	errEmptyRef     = errors.New(`"${}" names no variable`)
)

// Expand interpolates s. get returns the value of a name and whether it
// has one.
//
// With bare false, the short form $NAME is left as written: matcher
// arguments are JSON Schema, CEL and regular expressions, where "$ref",
// "$defs" or "$1" mean themselves; the braced forms still expand there.
func Expand(s string, get func(string) (string, bool), bare bool) (Expansion, error) {
	var x Expansion
	if strings.IndexByte(s, '$') < 0 {
		x.Out = s
		return x, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '$' || i+1 == len(s) {
			b.WriteByte(c)
			i++
			continue
		}
		next := s[i+1]
		switch {
		case next == '$':
			b.WriteByte('$')
			i += 2
		case next == '{':
			end := strings.IndexByte(s[i+2:], '}')
			if end < 0 {
				return x, errUnterminated
			}
			body := s[i+2 : i+2+end]
			whole := s[i : i+3+end]
			i += 3 + end
			if err := x.braced(&b, body, whole, get); err != nil {
				return x, err
			}
		case isNameStart(next) && !bare:
			b.WriteByte('$')
			i++
		case isNameStart(next):
			j := i + 2
			for j < len(s) && isNameChar(s[j]) {
				j++
			}
			name := s[i+1 : j]
			i = j
			if name == FixtureVar {
				b.WriteString("${" + FixtureVar + "}")
				x.Fixture = true
				continue
			}
			if v, ok := get(name); ok {
				b.WriteString(v)
			} else {
				x.Unresolved = append(x.Unresolved, name)
			}
		default:
			b.WriteByte('$')
			i++
		}
	}
	x.Out = b.String()
	return x, nil
}

// braced expands the body of one ${...} reference; whole is the reference
// as written, kept for the forms the runner resolves.
func (x *Expansion) braced(b *strings.Builder, body, whole string, get func(string) (string, bool)) error {
	if body == "" {
		return errEmptyRef
	}
	name, op, arg := body, "", ""
	if body == FixtureVar {
		b.WriteString(whole)
		x.Fixture = true
		return nil
	}
	if i := strings.Index(body, ":"); i >= 0 {
		name, op = body[:i], body[i+1:]
		if name == "capture" {
			if op == "" {
				return errors.New(`"${capture:}" names no capture`)
			}
			b.WriteString(whole)
			return nil
		}
		if name == FixtureVar {
			return fmt.Errorf("%q: ${%s} is the path of a server's fixture copy; it takes no default or message", "${"+body+"}", FixtureVar)
		}
		switch {
		case strings.HasPrefix(op, "-"):
			op, arg = "-", op[1:]
		case strings.HasPrefix(op, "?"):
			op, arg = "?", op[1:]
		default:
			return fmt.Errorf("%q: after %q, write :-default or :?message", "${"+body+"}", name)
		}
	}
	if strings.Contains(name, ".") && op == "" {
		// A node output or data row reference, resolved at run time.
		b.WriteString(whole)
		return nil
	}
	if !Identifier().MatchString(name) {
		return fmt.Errorf("invalid variable name %q in %q", name, "${"+body+"}")
	}
	v, ok := get(name)
	switch op {
	case "":
		if !ok {
			x.Unresolved = append(x.Unresolved, name)
		}
		b.WriteString(v)
	case "-":
		if !ok || v == "" {
			v = arg
		}
		b.WriteString(v)
	case "?":
		if !ok || v == "" {
			x.Missing = append(x.Missing, Missing{Name: name, Message: arg})
		}
		b.WriteString(v)
	}
	return nil
}

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isNameChar(c byte) bool  { return isNameStart(c) || c >= '0' && c <= '9' }
