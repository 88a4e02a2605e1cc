import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { articlePage } from './parse-page.js';

/**
 * The parse-isolation scenario's website, in its own process (forked by parse-isolation.ts): it
 * answers every path with the same 1 MB article page. Sending 32 MB in a burst would otherwise
 * hold up the bench process, whose probes time the service. Over IPC: it sends `{ url }` once
 * listening, and answers `'reads'` with `{ reads }`, the pages served so far.
 */
const page = Buffer.from(articlePage(), 'utf8');
let reads = 0;
const server = http.createServer((_req, res) => {
  reads++;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': page.length });
  res.end(page);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ url: `http://127.0.0.1:${port}` });
});
process.on('message', (m) => {
  if (m === 'reads') process.send?.({ reads });
});
process.on('disconnect', () => process.exit(0));
