/**
 * The app of the apps matrix (test/apps/) for runtimes with processes: calls two tools of the
 * weather example server over stdio and Streamable HTTP, at 2025-11-25 and at 2026-07-28, and
 * checks the typed results. `__CLIENT__` is where the app imports the client from (copied in at
 * src/mcp/, or the installed package); the harness fills it in. No top-level await, so the same
 * file is also a CommonJS app.
 */
import process from 'node:process';
import { connect, type Client } from '__CLIENT__';

type Era = '2025-11-25' | '2026-07-28';

async function twoCalls(where: string, era: Era, client: Client<Era>): Promise<void> {
  const now = await client.tools.getWeather({ location: 'Lisbon', units: 'celsius' });
  // Typed from the outputSchema: a number, and one of the manifest's units.
  const temperature: number = now.temperature;
  const units: 'celsius' | 'fahrenheit' = now.units;
  const forecast = await client.tools.getForecast({ location: 'Lisbon', days: 2 });
  const high: number | undefined = forecast.days[0]?.high;
  const negotiated = client.server.protocolVersion;
  if (typeof temperature !== 'number' || units !== 'celsius' || forecast.days.length !== 2 || typeof high !== 'number' || negotiated !== era) {
    throw new Error(`${where} ${era}: unexpected ${JSON.stringify({ now, forecast, negotiated })}`);
  }
  console.log(`${where} ${era}: ${temperature}° ${units}, high ${high}`);
}

async function main(): Promise<void> {
  const env = (name: string): string => {
    const value = process.env[name];
    if (value === undefined) throw new Error(`${name} is not set`);
    return value;
  };
  for (const era of ['2025-11-25', '2026-07-28'] as const) {
    const overStdio = await connect({ command: env('APP_SERVER_NODE'), args: [env('APP_SERVER_MAIN')], stderr: 'ignore', protocolVersions: [era] });
    await twoCalls('stdio', era, overStdio);
    await overStdio.close();
    const overHttp = await connect({ url: env('APP_SERVER_URL'), protocolVersions: [era] });
    await twoCalls('http', era, overHttp);
    await overHttp.close();
  }
  console.log('APP OK');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
