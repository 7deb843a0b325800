// Loads a trace written by `hcemu run --trace` with Chrome DevTools' own trace engine (the Performance panel's
// parser, published as @paulirish/trace_engine) and prints what it found, as one JSON object, for
// trace_engine_cli_test.cpp to hold against the run:
//   {"flows": [[first slice's name, last slice's name, whether it binds two slices of one message], ...], "threads": [track names], "slices": N}
// Usage: node trace_engine_counts.mjs PACKAGE_PREFIX TRACE.json (the package installed by npm under PACKAGE_PREFIX).
import fs from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

const [prefix, tracePath] = process.argv.slice(2);
const packageDir = path.join(prefix, 'node_modules', '@paulirish', 'trace_engine');
const main = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')).main;
const Trace = await import(pathToFileURL(path.join(packageDir, main)).href);

const file = JSON.parse(fs.readFileSync(tracePath, 'utf8'));
const model = Trace.TraceModel.Model.createWithAllHandlers();
await model.parse(file.traceEvents);
const data = model.parsedTrace().data;

const flows = data.Flows.flows.map(unordered => {
  const events = [...unordered].sort((a, b) => a.ts - b.ts);  // the engine lists them in file order
  const first = events[0], last = events[events.length - 1];
  return [first.name, last.name, events.length === 2 && first.args?.message === last.args?.message];
});
const threads = [];
let slices = 0;
for (const process of data.Renderer.processes.values())
  for (const thread of process.threads.values()) {
    threads.push(thread.name);
    slices += thread.entries.length;
  }
console.log(JSON.stringify({flows, threads, slices}));
