// A loopback HTTPS server with a self-signed certificate made here by the `openssl` CLI (valid for
// `days` days, for 127.0.0.1 and localhost), for TLS cases: sslAge, maxSSLExpiry, tlsConfig.ca and
// insecureSkipVerify. GET /json answers {"status":"ok"}.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export interface TlsServer {
  url: string;
  /** The certificate (PEM): a CA for tlsConfig.ca, since it signed itself. */
  cert: string;
  close(): Promise<void>;
}

export async function selfSignedCertificate(days: number): Promise<{ cert: string; key: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tls-server-'));
  try {
    const certFile = path.join(dir, 'cert.pem');
    const keyFile = path.join(dir, 'key.pem');
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      String(days),
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ]);
    return { cert: await readFile(certFile, 'utf8'), key: await readFile(keyFile, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function startTlsServer(days = 30): Promise<TlsServer> {
  const { cert, key } = await selfSignedCertificate(days);
  const server = https.createServer({ cert, key }, (req, res) => {
    if (req.url === '/json') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok' }));
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    cert,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
