package main

// variant is set by --variant: a deliberately changed demo that the
// drift tests (mcptest drift check) must catch. Empty serves the normal
// demo.
var variant string

// The variants.
const (
	// variantSchema adds a required argument to echo: a breaking schema
	// change.
	variantSchema = "schema"
	// variantBehaviour makes add answer one too many: the catalog is the
	// same, the behaviour is not.
	variantBehaviour = "behaviour"
)
