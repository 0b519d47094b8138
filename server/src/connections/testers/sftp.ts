// Test of an SFTP connection: SSH login (password or private key) and a listing of its path (ssh2).
import ssh2 from 'ssh2';
import { describeError } from '../errors.js';
import { prop, required, TestFailure, type ConnectionTester } from './tester.js';

export const sftpTester: ConnectionTester = {
  types: ['sftp'],
  async test(conn, ctx) {
    const host = required(prop(conn, 'host'), 'Host');
    const port = Number(prop(conn, 'port') || 22);
    const dir = prop(conn, 'path') || '/';
    const where = `${host}:${port}`;
    const client = new ssh2.Client();
    const onAbort = () => client.end();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const names = await new Promise<string[]>((resolve, reject) => {
        client.on('error', (e: Error & { level?: string }) => {
          if (e.level === 'client-authentication')
            reject(new TestFailure(`${where} refused the username, password or key (${e.message})`));
          else if (e.level === 'client-timeout')
            reject(new TestFailure(`timed out after ${ctx.timeoutMs} ms waiting for ${where}`));
          else reject(new TestFailure(describeError(e, where)));
        });
        client.on('close', () => reject(new TestFailure(`${where} closed the connection`)));
        client.on('ready', () => {
          client.sftp((err, sftp) => {
            if (err) return reject(new TestFailure(`${where} has no SFTP subsystem: ${err.message}`));
            sftp.readdir(dir, (e, list) => {
              if (e) reject(new TestFailure(`cannot list ${dir} on ${where}: ${e.message}`));
              else resolve(list.map((f) => f.filename).filter((n) => n !== '.' && n !== '..'));
            });
          });
        });
        client.connect({
          host,
          port,
          username: required(conn.username, 'Username'),
          password: conn.password ?? undefined,
          privateKey: conn.certificate ?? undefined,
          readyTimeout: ctx.timeoutMs,
        });
      });
      const shown = names.slice(0, 10).join(', ') + (names.length > 10 ? `, and ${names.length - 10} more` : '');
      const count = `${names.length} ${names.length === 1 ? 'entry' : 'entries'}`;
      return {
        details: `signed in to ${where} as ${conn.username} and listed ${dir}: ${count}${names.length ? ` (${shown})` : ''}`,
      };
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      client.end();
    }
  },
};
