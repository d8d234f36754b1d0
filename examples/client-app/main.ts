/**
 * An app calling the weather example server through the client mcp-gen generated for it
 * (`client/`, from examples/weather/manifest.yaml): once over stdio, spawning the server, and once
 * over Streamable HTTP. Every call is typed from the manifest and every result is validated
 * against the tool's outputSchema before it gets here.
 *
 * Run from the repository root: npm run -s example:client-app
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { connect, ToolError, type Client } from './client/client.js';

/** The example server's entry point, as `tsc -b examples/weather/server` builds it. */
const serverMain = fileURLToPath(new URL('../../weather/server/build/main.js', import.meta.url));

async function tour(client: Client, transport: string): Promise<void> {
  // From initialize's serverInfo, or at 2026-07-28 server/discover's _meta; a server may leave it out.
  const info = client.server.serverInfo;
  const who = info === undefined ? 'the weather server' : `${String(info['name'])} ${String(info['version'])}`;
  console.log(`${transport}: connected to ${who} (protocol ${client.server.protocolVersion})`);

  // `now` is GetWeatherOutput: temperature is a number, conditions one of the manifest's enum.
  const now = await client.tools.getWeather({ location: 'Lisbon', units: 'celsius' });
  console.log(`  now in ${now.location}: ${now.temperature}° ${now.units}, ${now.conditions}, humidity ${now.humidity}%`);

  const forecast = await client.tools.getForecast({ location: 'Lisbon', days: 3 });
  for (const day of forecast.days) console.log(`  ${day.date}: ${day.low} to ${day.high}, ${day.conditions}`);

  // The whole result: the text content beside the typed, validated structuredContent, and any
  // per-call _meta the app wants the server to see (here a W3C trace context).
  const full = await client.tools.getWeather.full({ location: 'Porto' }, { _meta: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' } });
  if (full.isError) throw new Error('get_weather failed');
  console.log(`  full result: ${full.content.length} content block(s) beside ${full.structuredContent.conditions} in ${full.structuredContent.location}`);

  // Every prompt, across pages.
  console.log(`  prompts: ${(await client.listPrompts()).map((p) => p.name).join(', ')}`);

  // Tool-list changes as they come (subscriptions/listen at 2026-07-28, the session's own
  // notifications otherwise), until stop() is called; only from a server that announces them.
  const tools = client.server.capabilities['tools'] as { listChanged?: boolean } | undefined;
  if (tools?.listChanged === true) {
    const stop = await client.listen({ toolsListChanged: true }, (change) => console.log(`  heard ${change.method}`));
    await stop();
  } else {
    console.log('  the server announces no tool-list changes: nothing to listen to');
  }

  const prompt = await client.prompts.planOuting({ location: 'Lisbon', activity: 'hiking' });
  console.log(`  prompt plan_outing: ${prompt.messages.length} message(s)`);

  const station = await client.resources.templates.station({ id: 'lis' });
  console.log(`  resource ${station.contents[0]?.uri ?? '(none)'}`);

  try {
    await client.tools.getWeather({ location: '' });
  } catch (error) {
    // The server refuses the empty location (minLength: 1) as a tool error.
    if (error instanceof ToolError) console.log(`  refused as expected: ${error.message}`);
    else throw error;
  }
}

// stdio: the client spawns the server and shuts it down on close().
const overStdio = await connect({ command: process.execPath, args: [serverMain], stderr: 'ignore' });
await tour(overStdio, 'stdio');
await overStdio.close();

// Streamable HTTP: start the server on a free port and read its URL from its log.
const server = spawn(process.execPath, [serverMain, '--http', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
try {
  const url = await new Promise<string>((resolve, reject) => {
    let log = '';
    server.stderr.setEncoding('utf8');
    server.stderr.on('data', (text: string) => {
      log += text;
      const match = /listening on (\S+)/.exec(log);
      if (match) resolve(match[1] as string);
    });
    server.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${log}`)));
  });
  const overHttp = await connect({ url });
  await tour(overHttp, 'http');
  await overHttp.close();
} finally {
  server.kill();
}
