package assert

import (
	"strings"

	"github.com/mcptest/mcptest/sdk"
)

// invalidArgumentText is the message of a rejected matcher argument: the
// plugin's text with the sdk.ErrInvalidArgument prefix once, at the front.
// A plugin that wraps an error which already carries the prefix (the SDK's
// InvalidArgument around another InvalidArgument, or a family helper around
// a shared check) would otherwise print "invalid matcher argument:" two or
// three times in one line.
func invalidArgumentText(msg string) string {
	prefix := sdk.ErrInvalidArgument.Error() + ": "
	rest := strings.ReplaceAll(msg, prefix, "")
	rest = strings.TrimPrefix(rest, sdk.ErrInvalidArgument.Error()) // a bare sentinel
	rest = strings.TrimPrefix(rest, ": ")
	if rest == "" {
		return sdk.ErrInvalidArgument.Error()
	}
	return prefix + rest
}
