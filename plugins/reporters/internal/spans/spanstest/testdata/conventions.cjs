// Prints the OpenInference semantic conventions as JSON, read from the npm
// package @arizeai/openinference-semantic-conventions whose directory is
// the first argument: every attribute key it exports, the span kinds and
// the mime types.
"use strict";
const conv = require(process.argv[2]);
const keys = new Set();
for (const v of Object.values(conv.SemanticConventions)) {
  if (typeof v === "string") keys.add(v);
}
const resource = new Set();
for (const [k, v] of Object.entries(conv)) {
  if (k.startsWith("SEMRESATTRS_") && typeof v === "string") resource.add(v);
}
process.stdout.write(JSON.stringify({
  attributes: [...keys].sort(),
  resourceAttributes: [...resource].sort(),
  spanKinds: Object.values(conv.OpenInferenceSpanKind).sort(),
  mimeTypes: Object.values(conv.MimeType).sort(),
}));
