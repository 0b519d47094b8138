// Glob paths of the folder check: the folder listed, what matches, and whether it descends.
import { describe, expect, it } from 'vitest';
import { globPath } from './folder.js';

describe('folder glob paths', () => {
  it('leaves a plain path alone', () => {
    expect(globPath('/var/log')).toBeUndefined();
  });

  it('lists the folder before the first wildcard and matches one level with *', () => {
    const g = globPath('/var/log/*.log')!;
    expect(g.base).toBe('/var/log');
    expect(g.recursive).toBe(false);
    expect(g.match.test('/var/log/syslog.log')).toBe(true);
    expect(g.match.test('/var/log/app/x.log')).toBe(false);
    expect(g.match.test('/var/log/syslog')).toBe(false);
  });

  it('descends for ** (no folder included) and for wildcards in a middle segment', () => {
    const g = globPath('/data/**/*.csv')!;
    expect(g).toMatchObject({ base: '/data', recursive: true });
    expect(g.match.test('/data/a.csv')).toBe(true);
    expect(g.match.test('/data/x/y/a.csv')).toBe(true);
    expect(g.match.test('/data/x/a.txt')).toBe(false);
    expect(globPath('/srv/*/current.log')).toMatchObject({ base: '/srv', recursive: true });
  });

  it('reads ? and [..] classes (with ! for negation), dots literal', () => {
    const g = globPath('/tmp/file?.[!a]xt')!;
    expect(g.match.test('/tmp/file1.txt')).toBe(true);
    expect(g.match.test('/tmp/file1.axt')).toBe(false);
    expect(g.match.test('/tmp/file12txt')).toBe(false);
  });
});
