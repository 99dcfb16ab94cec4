// Package vars is the variable syntax of suite files: what ${NAME},
// ${NAME:-default}, ${NAME:?message}, $NAME and $$ expand to, and which
// references are left for the runner (${capture:...}, ${fixture},
// ${node.field}). It works on strings and a lookup function; core/config
// walks the YAML, builds the scope (declared variables, dotenv files, the
// environment) and turns what Expand reports into located errors.
package vars
