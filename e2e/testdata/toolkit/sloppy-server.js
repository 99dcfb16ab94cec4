// A stdio MCP server whose definitions break lint rules on purpose, for
// mcptest's lint, coverage and generate tests. No dependencies: it reads
// one JSON-RPC message per line and answers initialize, the listings and
// tools/call.
"use strict";
const readline = require("readline");

const tools = [
  { name: "ok_tool", description: "Returns the text it is given, unchanged.",
    inputSchema: { type: "object", properties: { text: { type: "string", description: "Text to return." } }, required: ["text"] },
    annotations: { readOnlyHint: true } },
  { name: "bad name!", description: "bad name!", inputSchema: { type: "object" } },
  { name: "untyped", inputSchema: { type: "object", properties: { mode: { enum: ["a", "b"] }, free: {} }, required: ["mode", "ghost"] } },
  { name: "noschema", description: "A tool whose input schema is an array schema.", inputSchema: { type: "array" } },
  { name: "ok_tool", description: "A second tool with the first one's name.", inputSchema: { type: "object" } },
];
const prompts = [{ name: "summary", arguments: [{ name: "topic" }] }];
const resources = [{ uri: "mem://a", name: "a" }];

function reply(id, result) { process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result }) + "\n"); }
function fail(id, code, message) { process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }) + "\n"); }

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let msg;
  try { msg = JSON.parse(line); } catch { return; }
  if (msg.id === undefined) return;
  switch (msg.method) {
    case "initialize":
      return reply(msg.id, { protocolVersion: msg.params.protocolVersion, serverInfo: { name: "sloppy", version: "1.0.0" },
        capabilities: { tools: {}, prompts: {}, resources: {} } });
    case "ping": return reply(msg.id, {});
    case "tools/list": return reply(msg.id, { tools });
    case "prompts/list": return reply(msg.id, { prompts });
    case "resources/list": return reply(msg.id, { resources });
    case "resources/templates/list": return reply(msg.id, { resourceTemplates: [] });
    case "tools/call": {
      const args = msg.params.arguments || {};
      if (msg.params.name === "ok_tool") return reply(msg.id, { content: [{ type: "text", text: String(args.text) }] });
      return fail(msg.id, -32603, "not implemented");
    }
  }
  fail(msg.id, -32601, "method not found");
});
