package pluginrpc

import (
	"github.com/hashicorp/go-plugin"

	"github.com/mcptest/mcptest/sdk/contract"
)

// Handshake is the go-plugin handshake shared by mcptest and its plugins.
// The magic cookie only keeps a plugin from being run by hand by mistake; it
// is not a security measure.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  contract.ProtocolVersion,
	MagicCookieKey:   "MCPTEST_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "6d63707465737420706c7567696e2070726f746f636f6c20763120636f6f6b6965",
}

// KindInfo is the plugin-set name of the base service every plugin serves,
// beside one service per component kind (contract.Kinds).
const KindInfo = "info"
