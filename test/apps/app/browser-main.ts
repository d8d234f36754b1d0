/**
 * The app of the apps matrix for a browser page (Vite): Streamable HTTP only, at 2025-11-25 and at
 * 2026-07-28, two tools called and their typed results checked. The server's URL comes from
 * `globalThis.APP_SERVER_URL` (set by the page, or by the harness that runs the bundle in Node).
 */
import { connect } from '__CLIENT__';

type Era = '2025-11-25' | '2026-07-28';

async function main(): Promise<string> {
  const url = (globalThis as { APP_SERVER_URL?: string }).APP_SERVER_URL;
  if (url === undefined) throw new Error('APP_SERVER_URL is not set');
  const lines: string[] = [];
  for (const era of ['2025-11-25', '2026-07-28'] as Era[]) {
    const client = await connect({ url, protocolVersions: [era] });
    const now = await client.tools.getWeather({ location: 'Lisbon', units: 'celsius' });
    const temperature: number = now.temperature;
    const forecast = await client.tools.getForecast({ location: 'Lisbon', days: 2 });
    const high: number | undefined = forecast.days[0]?.high;
    if (typeof temperature !== 'number' || forecast.days.length !== 2 || typeof high !== 'number' || client.server.protocolVersion !== era) {
      throw new Error(`http ${era}: unexpected ${JSON.stringify({ now, forecast })}`);
    }
    lines.push(`http ${era}: ${temperature}°, high ${high}`);
    await client.close();
  }
  lines.push('APP OK');
  return lines.join('\n');
}

const done = main();
(globalThis as { APP_DONE?: Promise<string> }).APP_DONE = done;
done.then(
  (text) => {
    if (typeof document !== 'undefined') document.body.textContent = text;
  },
  (error: unknown) => {
    if (typeof document !== 'undefined') document.body.textContent = `FAILED: ${String(error)}`;
  },
);
