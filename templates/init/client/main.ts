/**
 * A starting point for an app that calls the server through the generated client (`client/`):
 * every call is typed from what the server declared, and every result is validated.
 */
import { connect } from './client/client.js';

const url = process.env['MCP_SERVER_URL'] ?? __URL__;
const client = await connect({ url });
try {
  for (const tool of await client.listTools()) console.log(`${tool.name}: ${tool.description ?? ''}`);
} finally {
  await client.close();
}
