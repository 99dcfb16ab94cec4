package pluginrpc

import "github.com/mcptest/mcptest/sdk/contract"

// HandshakeConfig is what host and plugin agree on before they speak:
// go-plugin's handshake fields, without go-plugin's type, so a plugin
// binary does not link go-plugin (hostrpc.Handshake converts it for the
// host's go-plugin client).
type HandshakeConfig struct {
	// ProtocolVersion is the plugin protocol (contract.ProtocolVersion).
	ProtocolVersion uint
	// MagicCookieKey and MagicCookieValue are the environment variable
	// the host sets for a plugin it starts, and its value.
	MagicCookieKey   string
	MagicCookieValue string
}

// Handshake is the handshake shared by mcptest and its plugins. The magic
// cookie only keeps a plugin from being run by hand by mistake; it is not
// a security measure.
var Handshake = HandshakeConfig{
	ProtocolVersion:  contract.ProtocolVersion,
	MagicCookieKey:   "MCPTEST_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "6d63707465737420706c7567696e2070726f746f636f6c20763120636f6f6b6965",
}

// KindInfo is the plugin-set name of the base service every plugin serves,
// beside one service per component kind (contract.Kinds).
const KindInfo = "info"
