/**
 * One interoperability matrix for both halves: {our generated client, the SDK 1.x client, the
 * SDK 2.x client} × {our generated server, the SDK 1.x server, the SDK 2.x server} × {stdio,
 * Streamable HTTP} × {2025-11-25, 2026-07-28}, each cell one row of rows.ts. Every HTTP server is
 * started once and shared; each (client, server, transport, era) connects once for rows 2–8 (row 1a
 * opens its own connection to the server of names.yaml). Combinations that cannot run are listed
 * with their reason in the table printed at the end (and written to test/matrix/results/MATRIX.md).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { generate, importClient } from '../client/support.js';
import { combinations, label, notApplicable, recordNotApplicable, renderTable, ROWS, rowNotApplicable, runCell, writeTable, type Combination, type RowId } from './cells.js';
import { connect, type MatrixClient, type OurClientModule } from './clients.js';
import { ROW_BODIES } from './rows.js';
import { buildOurServers, fixtures, mainManifest, namesManifest, startHttpServer, stdioCommand, type Location, type OurServers, type RunningHttpServer } from './servers.js';

type Manifest = 'main' | 'names';

let ours: OurServers | undefined;
/** Our generated clients (one per manifest), or why one could not be generated. */
const ourClients: Partial<Record<Manifest, OurClientModule | { problem: string }>> = {};
/** HTTP servers by `<server>` (SDK servers serve both manifests) or `ours-<manifest>`. */
const httpServers = new Map<string, RunningHttpServer | { problem: string }>();

/** Folders of our generated clients, removed at the end. */
const generatedDirs: string[] = [];

/** A server that failed to start fails its own cells, not the suite. */
const started = (script: string, args: readonly string[]): Promise<RunningHttpServer | { problem: string }> =>
  startHttpServer(script, args).catch((error: unknown) => ({ problem: error instanceof Error ? error.message : String(error) }));

beforeAll(async () => {
  // tsc runs in a child process: the SDK servers start and our clients are generated meanwhile.
  const building = buildOurServers();
  const starting: [string, Promise<RunningHttpServer | { problem: string }>][] = [
    ['sdk1', started(join(fixtures, 'sdk1-server.mjs'), ['--http'])],
    ['sdk2', started(join(fixtures, 'sdk2-server.mjs'), ['--http'])],
  ];
  for (const [manifest, path] of [['main', mainManifest], ['names', namesManifest]] as const) {
    const { dir, run } = await generate([path]);
    generatedDirs.push(dir);
    ourClients[manifest] = run.code === 0 ? await importClient<OurClientModule>(dir) : { problem: `mcp-gen client exited ${run.code}: ${run.err.trim()}` };
  }
  ours = await building;
  for (const manifest of ['main', 'names'] as const) {
    const built = ours[manifest];
    starting.push([`ours-${manifest}`, 'problem' in built ? Promise.resolve(built) : started(built.main, ['--http', '--port', '0'])]);
  }
  for (const [name, server] of starting) httpServers.set(name, await server);
}, 180_000);

afterAll(async () => {
  for (const server of httpServers.values()) if ('close' in server) await server.close();
  ours?.remove();
  for (const dir of generatedDirs) rmSync(dir, { recursive: true, force: true });
  const file = writeTable();
  process.stdout.write(`\n${renderTable()}\n(written to ${file})\n`);
});

function httpServer(c: Combination, manifest: Manifest): RunningHttpServer {
  const server = httpServers.get(c.server === 'ours' ? `ours-${manifest}` : c.server);
  if (server === undefined) throw new Error(`no HTTP server for ${c.server}`);
  if ('problem' in server) throw new Error(server.problem);
  return server;
}

function location(c: Combination, manifest: Manifest): Location {
  if (c.transport === 'http') return { url: httpServer(c, manifest).url };
  const command = stdioCommand(c.server, ours!, manifest);
  if ('problem' in command) throw new Error(command.problem);
  return command;
}

function ourClient(manifest: Manifest): OurClientModule {
  const module = ourClients[manifest];
  if (module === undefined) throw new Error('our client was not generated');
  if ('problem' in module) throw new Error(module.problem);
  return module;
}

/** Connects the combination's client to the server of `manifest`. */
function open(c: Combination, manifest: Manifest): Promise<MatrixClient> {
  return connect(c.client, c.era, location(c, manifest), () => ourClient(manifest));
}

const runnable = combinations().filter((c) => {
  const reason = notApplicable(c);
  if (reason !== undefined) for (const row of ROWS) recordNotApplicable(c, row.id, reason);
  return reason === undefined;
});

describe.each(runnable.map((c) => [label(c), c] as const))('%s', (_, c) => {
  let client: MatrixClient | undefined;
  let connectError: unknown;
  beforeAll(async () => {
    try {
      client = await open(c, 'main');
    } catch (error) {
      connectError = error;
    }
  }, 30_000);
  afterAll(async () => {
    await client?.close();
  });

  const rows = ROWS.filter((r) => {
    const reason = rowNotApplicable(c, r.id);
    if (reason !== undefined) recordNotApplicable(c, r.id, reason);
    return reason === undefined;
  });
  it.each(rows.map((r) => [r.id, r.title] as const))('row %s: %s', async (row: RowId) => {
    await runCell(c, row, async () => {
      if (client === undefined) throw connectError instanceof Error ? connectError : new Error(`could not connect: ${String(connectError)}`);
      if (row !== '1a' && client.protocolVersion !== c.era) throw new Error(`negotiated ${String(client.protocolVersion)}, not ${c.era}`);
      await ROW_BODIES[row]({
        combination: c,
        client,
        connectNames: () => open(c, 'names'),
        http: c.transport === 'http' ? httpServer(c, 'main') : undefined,
        namesHttp: c.transport === 'http' && row === '1a' ? httpServer(c, 'names') : undefined,
        location: location(c, 'main'),
        ourClient: () => ourClient('main'),
        namesClient: () => ourClient('names'),
      });
    });
  }, 15_000);
});
