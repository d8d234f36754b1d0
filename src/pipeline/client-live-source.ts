/**
 * `mcp-gen client` from a live server (`--from-url`, `--from-command`), a snapshot of one
 * (`--from-snapshot`), or the snapshot saved beside the output (check without --live). Imported
 * only for those: it brings the runtime client that reads the server.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileInput } from './ledger-inputs.js';
import { sha256Hex } from '../schema/sha256.js';
import { compilableTools } from '../emit/client/compilable.js';
import { inputProblem, unplacedDiagnostic, UnreachableError } from '../load/diagnostics.js';
import { introspect, readSnapshot, snapshotText, splitCommand, type ServerSnapshot } from '../load/introspect.js';
import { serviceFromSnapshot } from '../model/service-from-snapshot.js';
import type { ServerLocation } from '../runtime/client/index.js';
import { CLIENT_PROTOCOL_VERSIONS } from '../runtime/client/negotiation.js';
import type { RecipeInput } from '../write/ledger.js';
import { SAVED_SNAPSHOT, type ClientJob, type ClientSource, type LoadedClient } from './client.js';
import { flagPairs } from './flag-pairs.js';
import { printWarnings, type Console } from './console.js';
import { displayPath } from './paths.js';
import { withSignIn } from './sign-in.js';

export function location(source: ClientSource): ServerLocation | undefined {
  if ('fromUrl' in source) {
    const headers = flagPairs(source.headers, ':', '--header');
    return headers ? { url: source.fromUrl, headers } : { url: source.fromUrl };
  }
  if ('fromCommand' in source) {
    const [command, ...args] = splitCommand(source.fromCommand);
    const env = flagPairs(source.env, '=', '--env');
    return { command: command as string, args, stderr: 'ignore', ...(env ? { env } : {}) };
  }
  return undefined;
}

/** `--protocol-version` values, checked against the revisions the client speaks and put newest first. */
function offeredRevisions(given: readonly string[] | undefined): string[] | undefined {
  if (given === undefined || given.length === 0) return undefined;
  for (const revision of given) {
    if (!CLIENT_PROTOCOL_VERSIONS.includes(revision)) {
      throw inputProblem('--protocol-version', `unknown revision ${JSON.stringify(revision)}: the client speaks ${CLIENT_PROTOCOL_VERSIONS.join(', ')}`);
    }
  }
  return CLIENT_PROTOCOL_VERSIONS.filter((revision) => given.includes(revision));
}

/** The model of a client whose source is not a manifest. */
export async function loadFromServer(job: ClientJob, io: Console, inputFiles?: Set<string>): Promise<LoadedClient> {
  const source = job.source;
  if ('manifest' in source) throw new Error('loadFromServer: the source is a manifest');
  const offered = offeredRevisions('fromSnapshot' in source ? undefined : source.protocolVersions);
  let snapshot: ServerSnapshot;
  let saved: string | undefined;
  let unauthorized = false;
  let inputs: RecipeInput[];
  // Where warnings point: the snapshot file, or the server as named on the command line.
  let place: string;
  const live = job.offline ? undefined : location(source);
  if ('fromSnapshot' in source) {
    inputFiles?.add(resolve(source.fromSnapshot));
    snapshot = await readSnapshot(source.fromSnapshot);
    place = displayPath(resolve(source.fromSnapshot));
    inputs = [await fileInput('snapshot', job.out, source.fromSnapshot)];
  } else if (live) {
    place = 'fromUrl' in source ? source.fromUrl : source.fromCommand;
    // A protected server: the --header credential, or (on a terminal) an interactive sign-in.
    // The spinner runs until a sign-in prompt is printed.
    let stopSpinner = (): void => {};
    const prompt = (line: string): void => {
      stopSpinner();
      stopSpinner = () => {};
      io.err(line);
    };
    const signIn = await withSignIn(live, process.stdin.isTTY === true && process.stderr.isTTY === true, prompt);
    try {
      stopSpinner = io.progress?.(`reading ${place}…`) ?? (() => {});
      snapshot = await introspect(signIn.location, (line) => io.err(line), offered);
    } catch (error) {
      if (signIn.refused()) {
        const how = process.stdin.isTTY === true ? 'the sign-in failed' : "give --header 'Authorization: Bearer <token>', or run on a terminal to sign in";
        throw new UnreachableError([unplacedDiagnostic(place, '', `the server needs authorization (401): ${how}; ${(error as Error).message}`)]);
      }
      throw error;
    } finally {
      stopSpinner();
      await signIn.close();
    }
    unauthorized = signIn.refused();
    saved = snapshotText(snapshot);
    inputs = [{ role: 'snapshot', path: SAVED_SNAPSHOT, sha256: sha256Hex(saved) }];
  } else {
    const file = join(job.out, SAVED_SNAPSHOT);
    snapshot = await readSnapshot(file);
    place = displayPath(resolve(file));
    saved = await readFile(file, 'utf8');
    inputs = [{ role: 'snapshot', path: SAVED_SNAPSHOT, sha256: sha256Hex(saved) }];
  }
  if (job.saveSnapshot !== undefined) {
    // Like -o, the snapshot's folder is made when missing (the server has already been read).
    await mkdir(dirname(resolve(job.saveSnapshot)), { recursive: true });
    await writeFile(job.saveSnapshot, snapshotText(snapshot));
    io.err(`snapshot saved: ${job.saveSnapshot}`);
  }
  const built = serviceFromSnapshot(snapshot, job.banner.command, place);
  const compiled = await compilableTools(built.model, snapshot.tools);
  const leftOut = compiled.leftOut.map((tool) => unplacedDiagnostic(place, tool.pointer, tool.message));
  printWarnings(io, [...built.warnings, ...leftOut]);
  for (const note of built.notes) io.err(`note: ${note}`);
  return { model: compiled.model, inputs, ...(saved !== undefined ? { saved } : {}), ...(unauthorized ? { unauthorized } : {}) };
}
