package config

// errAt builds an error located at pos, for checks that run on the typed
// suite after the YAML walk.
func errAt(pos Pos, msg, hint string) *Error {
	return &Error{File: pos.File, Line: pos.Line, Col: pos.Col, Pointer: pos.Pointer, Msg: msg, Hint: hint}
}
