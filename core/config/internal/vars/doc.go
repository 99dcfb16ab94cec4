// Package vars is the variable syntax of suite files: what ${NAME},
// ${NAME:-default}, ${NAME:?message}, $NAME and $$ expand to, and which
// references are left for the runner (${capture:...}, ${fixture},
// ${node.field}), and the precedence that gives a declared variable its
// value (Resolve). It works on strings and lookup functions; core/config
// walks the YAML, reads the variables block and the dotenv files into a
// scope, and turns what Expand reports into located errors.
package vars
