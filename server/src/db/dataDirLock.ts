// One process at a time on an embedded database's directory. PGlite has no lock of its own: a
// second instance on the same directory (a second `npm start`, `opsdeck migrate` while the server
// runs, two instances in one process) writes the same WAL and data files as the first, and the
// directory can then no longer be opened ("PANIC: could not locate a valid checkpoint record";
// seen in bench/README.md, health-sketch, twentieth session). So opening one takes `opsdeck.lock`
// in it first: the holder's process id and host name, created exclusively, removed on close.
//
// A lock left behind (the holder was killed, the machine restarted) is taken over when its process
// is gone: on this host, no process with that id, or one that is not Node.js (the id was reused),
// or this very process id (a container's PID 1 started again). A lock written on another host
// cannot be checked from here: it is taken over with a warning (a volume moved to another node).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The directories this process holds now (a second open in this process is refused too). */
const held = new Set<string>();

export const LOCK_FILE = 'opsdeck.lock';

/** Whether process `pid` on this host is alive and Node.js (Linux: its command line; elsewhere, alive). */
function nodeProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  try {
    return /node/i.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1'));
  } catch {
    return process.platform !== 'linux';
  }
}

/**
 * Takes the lock of `dir` (created if missing) or throws a message naming its holder. Returns what
 * releases it; `warn` is told when a lock from another host is taken over.
 */
export function lockDataDir(dir: string, warn: (message: string) => void = () => undefined): () => void {
  const key = path.resolve(dir);
  if (held.has(key))
    throw new Error(`the embedded database in ${key} is already open in this process: it can be opened once`);
  fs.mkdirSync(key, { recursive: true });
  const file = path.join(key, LOCK_FILE);
  const mine = `${process.pid}\n${os.hostname()}\n`;
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, mine, { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (attempt === 2) throw new Error(`could not take the lock of the embedded database in ${key} (${file})`);
    }
    const [pidText = '', host = ''] = fs.readFileSync(file, 'utf8').split('\n');
    const pid = Number(pidText);
    if (host === os.hostname()) {
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && nodeProcessAlive(pid))
        throw new Error(
          `the embedded database in ${key} is in use by process ${pid} (another Opsdeck server, agent or command?): stop it first, or set DATA_DIR to another directory`,
        );
    } else {
      warn(`the embedded database in ${key} was locked by process ${pidText} on host ${host}: taking it over`);
    }
    fs.rmSync(file, { force: true });
  }
  held.add(key);
  return () => {
    if (!held.delete(key)) return;
    try {
      if (fs.readFileSync(file, 'utf8') === mine) fs.rmSync(file, { force: true });
    } catch {
      // Gone already: nothing to release.
    }
  };
}
