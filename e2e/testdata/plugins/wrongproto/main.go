// Command wrongproto speaks a future plugin protocol (2) through go-plugin
// directly, to test how mcptest reports a protocol mismatch.
package main

import (
	"os"

	"github.com/hashicorp/go-plugin"

	"github.com/mcptest/mcptest/sdk/pluginrpc/hostrpc"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "describe" {
		os.Stdout.WriteString(`{"name":"wrongproto","version":"2.0.0","protocol_versions":[2],"components":[{"kind":"matcher","keys":["future"]}]}` + "\n")
		return
	}
	hs := hostrpc.Handshake()
	hs.ProtocolVersion = 2
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: hs,
		Plugins:         plugin.PluginSet{},
		GRPCServer:      plugin.DefaultGRPCServer,
	})
}
