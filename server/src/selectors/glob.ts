// Name globs as selectors write them ("web-*": `*` any run of characters), pure.

/** A name glob → a SQL LIKE pattern with `\` as the escape. */
export function globToLike(glob: string): string {
  return glob.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
}
