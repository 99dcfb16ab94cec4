'use strict';
// Reads a TAP stream on stdin with npm's tap-parser (the module directory
// is the first argument) and prints, as one JSON document, the parser's
// final result plus what it saw on the way: every top-level test point,
// lines it could not read as TAP, and any bail out. Strict mode makes
// non-TAP lines (a broken YAML block, say) count as failures.
const { Parser } = require(require('path').resolve(process.argv[2]));

const seen = { version: null, asserts: [], extra: [], bailout: null, complete: null };
const parser = new Parser({ strict: true });
parser.on('version', (v) => { seen.version = v; });
parser.on('assert', (r) => {
  seen.asserts.push({ id: r.id, ok: r.ok, name: r.name, skip: r.skip, todo: r.todo, buffered: r.buffered, diag: r.diag });
});
parser.on('extra', (line) => { seen.extra.push(line); });
parser.on('bailout', (reason) => { seen.bailout = reason === undefined ? true : reason; });
parser.on('complete', (res) => {
  seen.complete = {
    ok: res.ok, count: res.count, pass: res.pass, fail: res.fail, skip: res.skip, todo: res.todo,
    bailout: res.bailout,
    plan: { start: res.plan.start, end: res.plan.end, skipAll: res.plan.skipAll },
    failures: res.failures.map((f) => ({ id: f.id, name: f.name, ok: f.ok, tapError: f.tapError || null, diag: f.diag || null })),
  };
  process.stdout.write(JSON.stringify(seen) + '\n');
});
process.stdin.pipe(parser);
