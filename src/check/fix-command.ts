import { isAbsolute, relative, resolve, sep } from 'node:path';
import { displayPath as displayPathFromCwd } from '../pipeline/paths.js';
import type { Target } from './target.js';
import type { HostOptions } from '../emit/server/host-files.js';

/** The `mcp-gen server` flags that wrote the files for hosts. */
function hostWords(hosts: HostOptions | undefined): string[] {
  const words: string[] = [];
  if (hosts?.mcpb === true) words.push('--mcpb');
  if (hosts?.registryName !== undefined) words.push('--registry-name', hosts.registryName);
  if (hosts?.registryRemote !== undefined) words.push('--registry-remote', hosts.registryRemote);
  if (hosts?.dockerfile === true) words.push('--dockerfile');
  return words;
}

/** A word as a POSIX shell reads it back: quoted only when it has to be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The one command that brings the target up to date, run from the working directory. A banner that
 * is not an mcp-gen command line (`npm run gen:self`) is that command itself. A config's target is
 * run from the config's folder (`cd … &&`), where its banners are computed.
 */
export function fixCommand(target: Target, configDir?: string): string {
  const banner = target.job.banner;
  if (target.command === 'runtime-validators' || !banner.command.startsWith('mcp-gen ')) return banner.command;
  const base = configDir === undefined ? process.cwd() : resolve(configDir);
  const displayPath = (p: string): string => {
    const rel = relative(base, p).split(sep).join('/');
    return rel === '' ? '.' : rel;
  };
  const words: string[] = ['mcp-gen', target.command];
  if (target.command === 'server') words.push(displayPath(target.job.manifest));
  else if (target.command === 'client' || target.command === 'docs') {
    const source = target.job.source;
    if ('manifest' in source) words.push(displayPath(source.manifest));
    else if ('fromSnapshot' in source) words.push('--from-snapshot', displayPath(source.fromSnapshot));
    else if ('fromUrl' in source) words.push('--from-url', source.fromUrl);
    else words.push('--from-command', source.fromCommand);
    if (('fromUrl' in source || 'fromCommand' in source) && source.protocolVersions !== undefined)
      for (const version of source.protocolVersions) words.push('--protocol-version', version);
  } else if (target.command === 'types') {
    const job = target.job;
    words.push('--spec', isAbsolute(job.spec) ? displayPath(job.spec) : job.spec, '--docs', job.docs);
    if (job.revision !== undefined) words.push('--revision', job.revision);
    if (job.specDir !== undefined) words.push('--spec-dir', displayPath(job.specDir));
  }
  words.push('-o', displayPath(target.job.out));
  if (target.command !== 'types' && target.job.allowOutsideRefs === true) words.push('--allow-outside-refs');
  if (target.command === 'client' && target.job.auth === true) words.push('--auth');
  if (target.command === 'client' && target.job.package !== undefined) words.push('--package', target.job.package.name);
  if (target.command === 'client' && target.job.browser === true) words.push('--browser');
  if (target.command === 'client' && target.job.view !== undefined) words.push('--view', target.job.view);
  if (target.command === 'server' && target.job.otel === true) words.push('--otel');
  if (target.command === 'server' && target.job.target === 'web') words.push('--target', 'web');
  if ((target.command === 'server' || target.command === 'client') && target.job.importExtension === 'ts') words.push('--import-extension', 'ts');
  if (target.command === 'server') words.push(...hostWords(target.job.hosts));
  if ((target.command === 'server' || target.command === 'client') && target.job.spec !== undefined) {
    words.push('--spec', isAbsolute(target.job.spec) ? displayPath(target.job.spec) : target.job.spec);
    if (target.job.specDir !== undefined) words.push('--spec-dir', displayPath(target.job.specDir));
  }
  if (!banner.version) words.push('--no-version-banner');
  const line = words.map(shellWord).join(' ');
  return base === process.cwd() ? line : `cd ${shellWord(displayPathFromCwd(base))} && ${line}`;
}
