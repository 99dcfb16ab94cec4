package plugin

import (
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// printer renders JSON Schema validation messages in English.
var printer = message.NewPrinter(language.English)
