// The backend version, shown by /api/about and the user menu.
import fs from 'node:fs';
import path from 'node:path';

function readVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, rel), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === '@opsdeck/server' && pkg.version) return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
}

export const VERSION = process.env.OPSDECK_VERSION ?? readVersion();
