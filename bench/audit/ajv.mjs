// ajv 8 (pinned in bench/package.json) over a JSON Lines corpus of DELEGATE
// and HANDBACK messages, with the hand-written JSON Schema equivalent of
// protocol-core v1.0 (msgcheck/testdata/protocol-core-v1.0.schema.json).
//
//   node audit/ajv.mjs [--verdicts FILE] [--reps 3] [--json] CORPUS.jsonl
//   node audit/ajv.mjs --once [--verdicts FILE] CORPUS.jsonl
//
// The schema file is one document with $defs.delegate and $defs.handback;
// each line is validated against the definition its handoff_type names
// ("HANDBACK", anything else is taken as a DELEGATE). Reports, single
// threaded, the best of --reps runs (after one warm-up run) of
//   parse+validate: JSON.parse of every line, then validate;
//   validate only:  validate the pre-parsed messages;
// and, for context, parse+validate's warm-up run (the first pass);
// and writes one "1" (valid) or "0" (invalid) a line to --verdicts.
// With --once it does what a one-shot command would: parse+validate
// every line once, write the verdicts and exit, printing nothing; timed
// from outside (bench/audit.sh), that is ajv end to end in a fresh
// process, as protoscan audit is timed.
//
// ajv runs with its defaults (allErrors off: it stops at the first error,
// which is all a verdict needs; unicodeRegExp on: patterns get the u flag).
// What the schema cannot express: a DELEGATE's skill must exist under
// skills/ or src/skills/ of the repository (msgcheck's existsIn); here it is
// only a non-empty string. The corpus generator names only skills that
// audit.sh creates, unless asked otherwise (-unknown-skills).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default;
const ajvVersion = require("ajv/package.json").version;

const here = dirname(fileURLToPath(import.meta.url));
const schemaFile = join(here, "..", "..", "msgcheck", "testdata", "protocol-core-v1.0.schema.json");

function usage(msg) {
  if (msg) console.error(`ajv.mjs: ${msg}`);
  console.error("usage: node audit/ajv.mjs [--verdicts FILE] [--reps N] [--json] [--once] CORPUS.jsonl");
  process.exit(2);
}

let verdictsFile = "", reps = 3, asJSON = false, once = false, corpus = "";
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--verdicts") verdictsFile = args[++i] ?? usage("--verdicts needs a file");
  else if (a === "--reps") reps = Number(args[++i]);
  else if (a === "--json") asJSON = true;
  else if (a === "--once") once = true;
  else if (a.startsWith("-")) usage(`unknown flag ${a}`);
  else if (corpus) usage("one corpus only");
  else corpus = a;
}
if (!corpus) usage("no corpus");
if (!(reps >= 1)) usage("--reps must be >= 1");

const schema = JSON.parse(readFileSync(schemaFile, "utf8"));
const ajv = new Ajv2020();
ajv.addSchema(schema, "protocol-core");
const validateDelegate = ajv.compile({ $ref: "protocol-core#/$defs/delegate" });
const validateHandback = ajv.compile({ $ref: "protocol-core#/$defs/handback" });
const validatorOf = (m) =>
  m !== null && typeof m === "object" && m.handoff_type === "HANDBACK" ? validateHandback : validateDelegate;

const lines = readLines(corpus);
if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
const n = lines.length;

// readLines reads the file's lines the quickest way found for node 20
// here: the bytes, then each line decoded on its own. Decoding the whole
// file as one UTF-8 string took 3x as long (its non-ASCII text is off
// V8's fast path).
function readLines(file) {
  const buf = readFileSync(file);
  const out = [];
  for (let at = 0; at < buf.length; ) {
    let end = buf.indexOf(10, at);
    if (end < 0) end = buf.length;
    out.push(buf.toString("utf8", at, end));
    at = end + 1;
  }
  return out;
}
const verdicts = new Uint8Array(n);

function parseAndValidate() {
  let valid = 0;
  for (let i = 0; i < n; i++) {
    const m = JSON.parse(lines[i]);
    const ok = validatorOf(m)(m);
    verdicts[i] = ok ? 1 : 0;
    if (ok) valid++;
  }
  return valid;
}

function writeVerdicts() {
  if (!verdictsFile) return;
  let out = "";
  for (let i = 0; i < n; i++) out += verdicts[i] ? "1\n" : "0\n";
  writeFileSync(verdictsFile, out);
}

if (once) {
  parseAndValidate();
  writeVerdicts();
  process.exit(0);
}

const parsed = lines.map((l) => JSON.parse(l));
function validateOnly() {
  let valid = 0;
  for (let i = 0; i < n; i++) {
    const m = parsed[i];
    if (validatorOf(m)(m)) valid++;
  }
  return valid;
}

// best runs f once to warm V8's JIT up, then reps times, and returns the
// best of the reps; the warm-up's time is kept apart as the first pass
// (what a one-shot command line run of ajv would see).
function best(f) {
  let bestNs = Infinity, valid = 0;
  const w0 = process.hrtime.bigint();
  f();
  const firstNs = Number(process.hrtime.bigint() - w0);
  for (let r = 0; r < reps; r++) {
    const t0 = process.hrtime.bigint();
    valid = f();
    const ns = Number(process.hrtime.bigint() - t0);
    if (ns < bestNs) bestNs = ns;
  }
  return { seconds: bestNs / 1e9, perSecond: n / (bestNs / 1e9), valid, firstSeconds: firstNs / 1e9 };
}

const pv = best(parseAndValidate);
const vo = best(validateOnly);
if (pv.valid !== vo.valid) {
  console.error(`ajv.mjs: ${pv.valid} valid when parsing, ${vo.valid} on pre-parsed messages`);
  process.exit(1);
}
writeVerdicts();

const report = {
  tool: `ajv ${ajvVersion}`,
  node: process.version,
  messages: n,
  valid: pv.valid,
  reps,
  parse_validate: { seconds: +pv.seconds.toFixed(4), msgs_per_s: Math.round(pv.perSecond) },
  parse_validate_first: { seconds: +pv.firstSeconds.toFixed(4), msgs_per_s: Math.round(n / pv.firstSeconds) },
  validate_only: { seconds: +vo.seconds.toFixed(4), msgs_per_s: Math.round(vo.perSecond) },
};
if (asJSON) {
  console.log(JSON.stringify(report));
} else {
  const k = (x) => `${Math.round(x / 1000)}k msg/s`;
  console.log(`ajv ${ajvVersion} (node ${process.version}), ${n} messages, ${pv.valid} valid (${((100 * pv.valid) / n).toFixed(1)}%), best of ${reps}, 1 thread`);
  console.log(`  parse+validate: ${pv.seconds.toFixed(3)} s, ${k(pv.perSecond)}`);
  console.log(`  validate only:  ${vo.seconds.toFixed(3)} s, ${k(vo.perSecond)}`);
  console.log(`  parse+validate, first pass (JIT cold): ${pv.firstSeconds.toFixed(3)} s, ${k(n / pv.firstSeconds)}`);
}
