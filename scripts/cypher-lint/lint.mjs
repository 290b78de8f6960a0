// Neo4j's Cypher linter over kg's named queries: every diagnostic fails the run, except those
// that allowed.json lists (file, part of the message, and why it is allowed).
//   node lint.mjs INPUT.json [ALLOWED.json]
// INPUT.json is what schema.py prints: the graph's labels, relationship types and endpoints,
// and each query file's text and declared parameters.
import { lintCypherQuery } from '@neo4j-cypher/language-support';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const SEVERITY = { 1: 'error', 2: 'warning', 3: 'information', 4: 'hint' };
const [inputPath, allowedPath = fileURLToPath(new URL('allowed.json', import.meta.url))] =
  process.argv.slice(2);
const input = JSON.parse(readFileSync(inputPath, 'utf8'));
const allowed = JSON.parse(readFileSync(allowedPath, 'utf8'));
const used = new Set();
let problems = 0;

for (const query of input.queries) {
  const schema = { ...input.schema, parameters: query.parameters };
  for (const d of lintCypherQuery(query.text, schema).diagnostics) {
    const rule = allowed.findIndex(
      (a) => a.file === basename(query.path) && d.message.includes(a.message),
    );
    if (rule >= 0) {
      used.add(rule);
      continue;
    }
    const { line, character } = d.range.start;
    const message = d.message.replace(/\s+/g, ' ');
    console.log(`${query.path}:${line + 1}:${character + 1}: ${SEVERITY[d.severity]}: ${message}`);
    problems += 1;
  }
}
allowed.forEach((a, i) => {
  if (!a.reason) {
    console.log(`${allowedPath}: entry ${i + 1} (${a.file}) gives no reason; add one`);
    problems += 1;
  } else if (!used.has(i)) {
    console.log(`${allowedPath}: entry ${i + 1} (${a.file}) allows nothing any more; remove it`);
    problems += 1;
  }
});
console.log(`cypher lint: ${input.queries.length} files, ${problems} problems`);
process.exit(problems ? 1 : 0);
