// The loopback webhook the notifications benchmark delivers to (bench/notifications.ts runs it as its
// own process so its CPU is not the server's). Every request gets 204 at once; for each it prints
// "<resource id> <receive time, epoch ms>" on stdout. Prints "listening <port>" first.
import http from 'node:http';

const server = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (d) => (raw += d));
  req.on('end', () => {
    const at = Date.now();
    let resource = '?';
    try {
      resource = JSON.parse(raw).resource ?? '?';
    } catch {
      // not the benchmark's body template
    }
    process.stdout.write(`${resource} ${at}\n`);
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
