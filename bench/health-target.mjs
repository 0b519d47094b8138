// The loopback HTTP server the health benchmark's checks call (bench/health.ts runs it as its own
// process so its CPU is not the server's). Every request gets 200 and a small JSON body at once;
// GET /__hits answers how many check requests it has served. Prints "listening <port>".
import http from 'node:http';

let hits = 0;
const body = '{"status":"ok"}';
const server = http.createServer((req, res) => {
  if (req.url === '/__hits') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ hits }));
    return;
  }
  hits++;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
