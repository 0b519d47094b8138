// A minimal authoritative DNS server on a loopback UDP port, for the dns checker tests: answers A,
// AAAA, TXT, MX, CNAME, NS, PTR, SRV and SOA from a fixed zone, NXDOMAIN for unknown names, and can be
// told to answer slowly or not at all.
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

export type DnsRecord =
  | { type: 'A' | 'AAAA' | 'CNAME' | 'NS' | 'PTR' | 'TXT'; value: string }
  | { type: 'MX'; value: string; priority: number }
  | { type: 'SRV'; value: string; priority: number; weight: number; port: number }
  | { type: 'SOA'; value: string; hostmaster: string; serial: number };

const TYPE_CODES: Record<DnsRecord['type'], number> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
};

export interface DnsServerOptions {
  zone: Record<string, DnsRecord[]>;
  /** Names answered only after this many ms. */
  slow?: Record<string, number>;
  /** Names never answered. */
  silent?: string[];
}

function encodeName(name: string): Buffer {
  const parts = name.replace(/\.$/, '').split('.').filter(Boolean);
  return Buffer.concat([
    ...parts.map((p) => Buffer.concat([Buffer.from([p.length]), Buffer.from(p, 'ascii')])),
    Buffer.from([0]),
  ]);
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

function ipv6(text: string): Buffer {
  const [left, right] = text.includes('::') ? text.split('::') : [text, undefined];
  const l = left ? left.split(':') : [];
  const r = right ? right.split(':') : [];
  const groups = right === undefined ? l : [...l, ...Array<string>(8 - l.length - r.length).fill('0'), ...r];
  return Buffer.concat(groups.map((g) => u16(parseInt(g || '0', 16))));
}

function rdata(r: DnsRecord): Buffer {
  switch (r.type) {
    case 'A':
      return Buffer.from(r.value.split('.').map(Number));
    case 'AAAA':
      return ipv6(r.value);
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return encodeName(r.value);
    case 'TXT': {
      const chunks: Buffer[] = [];
      const bytes = Buffer.from(r.value);
      for (let i = 0; i < bytes.length || i === 0; i += 255) {
        const part = bytes.subarray(i, i + 255);
        chunks.push(Buffer.from([part.length]), part);
        if (bytes.length === 0) break;
      }
      return Buffer.concat(chunks);
    }
    case 'MX':
      return Buffer.concat([u16(r.priority), encodeName(r.value)]);
    case 'SRV':
      return Buffer.concat([u16(r.priority), u16(r.weight), u16(r.port), encodeName(r.value)]);
    case 'SOA':
      return Buffer.concat([
        encodeName(r.value),
        encodeName(r.hostmaster),
        u32(r.serial),
        u32(3600),
        u32(600),
        u32(86400),
        u32(60),
      ]);
  }
}

/** Reads the question; returns the name, type and where the question ends. */
function question(msg: Buffer): { name: string; type: number; end: number } | undefined {
  let i = 12;
  const labels: string[] = [];
  while (i < msg.length) {
    const len = msg[i]!;
    if (len === 0) break;
    labels.push(msg.subarray(i + 1, i + 1 + len).toString('ascii'));
    i += 1 + len;
  }
  if (i + 5 > msg.length) return undefined;
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(i + 1), end: i + 5 };
}

function answer(msg: Buffer, opts: DnsServerOptions): Buffer | undefined {
  const q = question(msg);
  if (!q) return undefined;
  const records = opts.zone[q.name];
  const matching = (records ?? []).filter((r) => TYPE_CODES[r.type] === q.type);
  const rd = msg.readUInt16BE(2) & 0x0100;
  const rcode = records ? 0 : 3; // NXDOMAIN for names outside the zone
  const header = Buffer.concat([
    msg.subarray(0, 2),
    u16(0x8400 | rd | 0x0080 | rcode),
    u16(1),
    u16(matching.length),
    u16(0),
    u16(0),
  ]);
  const answers = matching.map((r) => {
    const data = rdata(r);
    return Buffer.concat([u16(0xc00c), u16(TYPE_CODES[r.type]), u16(1), u32(300), u16(data.length), data]);
  });
  return Buffer.concat([header, msg.subarray(12, q.end), ...answers]);
}

export interface DnsServer {
  port: number;
  address: string;
  queries: number;
  close(): Promise<void>;
}

export async function startDnsServer(opts: DnsServerOptions): Promise<DnsServer> {
  const socket = dgram.createSocket('udp4');
  const state = { queries: 0 };
  const timers = new Set<NodeJS.Timeout>();
  socket.on('message', (msg, rinfo) => {
    state.queries++;
    const q = question(msg);
    if (!q || opts.silent?.includes(q.name)) return;
    const reply = answer(msg, opts);
    if (!reply) return;
    const send = () => socket.send(reply, rinfo.port, rinfo.address);
    const delay = opts.slow?.[q.name];
    if (delay) {
      const t = setTimeout(() => {
        timers.delete(t);
        send();
      }, delay);
      timers.add(t);
    } else send();
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port, address } = socket.address() as AddressInfo;
  return {
    port,
    address,
    get queries() {
      return state.queries;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}
