// Package vars is the variable layer of suite files, on strings and
// lookup functions rather than YAML:
//
//   - the syntax (expand.go): what ${NAME}, ${NAME:-default},
//     ${NAME:?message}, $NAME and $$ expand to, and which references are
//     left for the runner (${capture:...}, ${fixture}, ${node.field});
//   - the precedence that gives a declared variable its value
//     (resolve.go: environment, dotenv, from_env default, literal);
//   - the dotenv files (dotenv.go: which files, in which order, parsed);
//   - the secrets to redact (secrets.go: the values of the credentials a
//     suite reads from the environment, and the minimum length a value
//     needs to be maskable).
//
// core/config walks the YAML, reads the variables block into a scope,
// knows which fields of a suite name credentials, and turns what this
// package reports into errors located at a file, line and field.
package vars
